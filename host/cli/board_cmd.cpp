// `cmnet board`: a family's simulated board standing alone, for LiteX's tools and a user's scripts.
//
//   cmnet board CONFIG [--port P] [--sim-link uart|fifo] [--for SECONDS]
//     Has the config's family start the simulated board its `run` starts when given no --board
//     (Family::start_board: the Verilator model of the very top that is flashed) on 127.0.0.1,
//     prints its URI and the path of its csr.csv, and serves, one client at a time, until SIGINT
//     or SIGTERM (or SECONDS have passed); then stops the model and prints its statistics.
//     Exit 0 when stopped so; 2 for bad input (an unknown config, a family without a board, a
//     port in use) or a board that exits by itself.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>

#include "gen/core/errors.h"
#include "host/cli/commands.h"
#include "host/cli/family.h"
#include "host/stream_runner.h"
#include "sim/core/sim_board.h"

namespace cmnet {

std::unique_ptr<SimBoard> Family::start_board(const NetworkConfig&, const BoardArgs&) const {
  throw InputError("board: the " + name() + " family has no board");
}

std::unique_ptr<SimBoard> start_stream_board(const StreamBoardSpec& spec, const BoardArgs& args) {
  StreamRunArgs a;
  a.sim.phy = parse_sim_link(args.sim_link);
  a.sim_port = args.port;
  return start_stream_sim_board(spec, a);
}

StreamRunArgs stream_run_args(const RunArgs& a) {
  StreamRunArgs s = stream_run_args(a.board, a.out_dir, a.timeout_s, a.sim_link);
  s.rtl = a.rtl;
  s.trace = check_trace(a.trace);
  return s;
}

namespace {

struct BoardCmd {
  std::string config;
  unsigned port = 0;
  double for_s = 0;  // 0: until a signal
  BoardArgs args;
};

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

// A port asked for must be free before minutes of model building are spent: bound here the way
// the board's bridge binds it (127.0.0.1, SO_REUSEADDR), then released.
void check_port_free(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const int rc = ::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
  const int err = errno;
  ::close(fd);
  if (rc != 0)
    throw InputError("--port " + std::to_string(port) + ": cannot listen on 127.0.0.1:" + std::to_string(port) +
                     ": " + std::strerror(err) + (err == EADDRINUSE ? " (--port 0 takes any free port)" : ""));
}

int do_board(BoardCmd a) {
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(a.config, &f);
  a.args.port = static_cast<uint16_t>(a.port);
  if (a.args.port != 0) check_port_free(a.args.port);
  const std::unique_ptr<SimBoard> sim = f->start_board(cfg, a.args);
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  std::printf("cmnet board: %s (%s), %s host link; serves one client at a time until SIGINT or SIGTERM\n",
              cfg.name.c_str(), f->name().c_str(), a.args.sim_link.c_str());
  std::printf("board: %s\n", sim->uri().c_str());
  std::printf("csr.csv: %s\n", sim->csr_csv_path().c_str());
  std::fflush(stdout);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (!g_stop && sim->running() && (a.for_s <= 0 || elapsed() < a.for_s))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const bool died = !sim->running();
  std::string stats = sim->stop();
  while (!stats.empty() && stats.back() == '\n') stats.pop_back();
  if (died && !g_stop)
    throw std::runtime_error("the simulated board exited by itself (log " + sim->log_path() + ")");
  std::printf("cmnet board: stopped after %.1f s; %s\n", elapsed(), stats.c_str());
  return 0;
}

BoardCmd g_board;

}  // namespace

void register_board_command(CLI::App& app) {
  auto* b = app.add_subcommand(
      "board", "Serve a family's simulated board (the top that is flashed) on 127.0.0.1 until stopped");
  b->add_option("config", g_board.config, "network config (JSON)")->required();
  b->add_option("--port", g_board.port, "TCP port on 127.0.0.1 (0: any free port)")->check(CLI::Range(0u, 65535u));
  b->add_option("--sim-link", g_board.args.sim_link,
                "the host-link PHY: uart (FT2232H channel B) or fifo (FT245 synchronous FIFO)")
      ->check(CLI::IsMember({"uart", "fifo"}));
  b->add_option("--for", g_board.for_s, "stop after this many seconds (default: serve until SIGINT or SIGTERM)")
      ->check(CLI::NonNegativeNumber);
  b->callback([] { throw CommandExit{do_board(g_board)}; });
}

}  // namespace cmnet

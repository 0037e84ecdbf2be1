// `cmnet board` (issue 24, point 4), the binary run as a user runs it: every family with a board
// serves its simulated board alone on 127.0.0.1 and prints its URI and csr.csv; the host driver
// connects to that URI and reads the board's block list and LiteX identifier; SIGTERM stops it
// cleanly (exit 0, statistics printed, the port closed: no harness left behind). The configs are
// litex_csr_test's, whose boards are the same Verilog: the same cached models.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "gen/core/process.h"
#include "gen/core/text_file.h"
#include "host/board_blocks.h"
#include "host/board_client.h"
#include "tests/core/litex_csr_loader.h"

extern char** environ;

namespace cmnet {
namespace {

using namespace std::chrono_literals;

std::string example(const std::string& name) { return std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + name; }

// `cmnet ARGS...` with its stdout on a pipe (read line by line) and its stderr in a log file.
class Cli {
 public:
  explicit Cli(std::vector<std::string> args) : log_(std::filesystem::temp_directory_path() /
                                                      ("cmnet-board-test-" + std::to_string(::getpid()) + ".log")) {
    int fd[2];
    if (::pipe2(fd, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    args.insert(args.begin(), CMNET_CLI);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, CMNET_CLI, &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(fd[1]);
    out_ = fd[0];
    if (rc != 0) throw std::runtime_error("cannot start " + std::string(CMNET_CLI));
  }
  ~Cli() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(out_);
  }

  // The value of the first stdout line starting with `prefix` ("" when stdout ends or `wait` passes).
  std::string line_after(const std::string& prefix, std::chrono::seconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
      for (size_t nl; (nl = text_.find('\n', seen_)) != std::string::npos;) {
        const std::string line = text_.substr(seen_, nl - seen_);
        seen_ = nl + 1;
        if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
      }
      if (std::chrono::steady_clock::now() > deadline || !read_some(200)) return "";
    }
  }
  // SIGTERM (0: none), then its exit status and everything it wrote to stdout.
  int stop(int sig = SIGTERM) {
    if (sig) ::kill(pid_, sig);
    while (read_some(200)) {
    }
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  const std::string& out() const { return text_; }
  std::string err() const { return read_file_or_empty(log_.string()); }

 private:
  bool read_some(int timeout_ms) {
    pollfd p{out_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) == 0) return true;
    char buf[4096];
    const ssize_t n = ::read(out_, buf, sizeof buf);
    if (n <= 0) return false;
    text_.append(buf, static_cast<size_t>(n));
    return true;
  }
  std::filesystem::path log_;
  pid_t pid_ = -1;
  int out_ = -1;
  std::string text_;
  size_t seen_ = 0;
};

// A TCP connection to 127.0.0.1:port is accepted (something listens there).
bool listening(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

class BoardCmd : public ::testing::TestWithParam<std::string> {};

TEST_P(BoardCmd, ServesAloneUntilSigterm) {
  Cli cli({"board", example(GetParam() + ".json"), "--port", "0"});
  // A model's first build takes minutes on a loaded machine; cached, a second.
  const std::string uri = cli.line_after("board: ", 900s);
  ASSERT_EQ(uri.rfind("sim://127.0.0.1:", 0), 0u) << cli.out() << cli.err();
  const auto port = static_cast<uint16_t>(std::stoul(uri.substr(uri.rfind(':') + 1)));
  const std::string csr_path = cli.line_after("csr.csv: ", 10s);
  const auto csr = testing_support::load_litex_csr_file(csr_path);
  ASSERT_TRUE(csr.ok()) << csr_path << ": " << csr.report();
  {
    BoardClientOptions o;
    o.timeout = 10000ms;
    BoardClient c = BoardClient::open(uri, o);
    const BoardHeader h = discover_board(c);
    EXPECT_EQ(h.clock_hz, 12000000u);
    EXPECT_NE(h.config_id, 0u);
    ASSERT_FALSE(h.blocks.empty());
    std::string ident;
    for (uint32_t x : c.burst_read(csr.bases.at("identifier_mem"), 64)) {
      if ((x & 0xFF) == 0) break;
      ident.push_back(static_cast<char>(x & 0xFF));
    }
    const std::string network = GetParam().substr(0, GetParam().find('_'));
    EXPECT_EQ(ident.rfind("cmnet " + network + " ", 0), 0u) << ident;
  }
  EXPECT_EQ(cli.stop(SIGTERM), 0) << cli.err();
  EXPECT_NE(cli.out().find("cmnet board: stopped after"), std::string::npos) << cli.out();
  EXPECT_NE(cli.out().find("stats cycles="), std::string::npos) << cli.out();
  EXPECT_FALSE(listening(port)) << "the simulated board outlived cmnet board";
}

INSTANTIATE_TEST_SUITE_P(Examples, BoardCmd,
                         ::testing::Values("cm1_board", "cm5data_4_board", "cm5ctl_2", "clos_n224", "hcube_3"),
                         [](const auto& i) { return i.param; });

TEST(BoardCmdLimits, ForSecondsStopsByItself) {
  Cli cli({"board", example("cm5ctl_2.json"), "--for", "1"});
  EXPECT_EQ(cli.line_after("board: ", 900s).rfind("sim://127.0.0.1:", 0), 0u) << cli.err();
  EXPECT_EQ(cli.stop(0), 0) << cli.err();
  EXPECT_NE(cli.out().find("cmnet board: stopped after"), std::string::npos) << cli.out();
}

TEST(BoardCmdLimits, Cm5HasNoBoard) {
  Cli cli({"board", example("cm5_16.json")});
  EXPECT_EQ(cli.stop(0), 2);
  EXPECT_NE(cli.err().find("board: the cm5 machine has no board"), std::string::npos) << cli.err();
}

TEST(BoardCmdLimits, UnknownConfigIsNamed) {
  Cli cli({"board", "no/such/config.json"});
  EXPECT_EQ(cli.stop(0), 2);
  EXPECT_NE(cli.err().find("no/such/config.json"), std::string::npos) << cli.err();
}

TEST(BoardCmdLimits, PortInUseIsNamedBeforeBuilding) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const std::string port = std::to_string(ntohs(a.sin_port));
  Cli cli({"board", example("cm5ctl_2.json"), "--port", port});
  EXPECT_EQ(cli.stop(0), 2);
  EXPECT_NE(cli.err().find("--port " + port + ": cannot listen on 127.0.0.1:" + port + ": Address already in use"),
            std::string::npos)
      << cli.err();
  ::close(fd);
}

}  // namespace
}  // namespace cmnet

#include "sim/cm1_sim_board.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "sim/rtl_build.h"

extern char** environ;

namespace cmnet {
namespace fs = std::filesystem;
namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string build_cm1_board_model(const GeneratedDesign& design, const HostBoardOptions& opt) {
  const std::string src = CMNET_SOURCE_DIR;
  const bool fifo = opt.phy == HostLinkPhy::kFifo;
  const std::string cpb = fifo ? "-DCMNET_FIFO_PHY=1"
                               : "-DCMNET_CLKS_PER_BIT=" + std::to_string(opt.clock_hz / opt.baud);
  // The harness compiles the bridge in (#include), so its sources belong in the cache key.
  const std::string button = std::string("-DCMNET_RESET_BUTTON=") + (opt.reset_button ? "1" : "0");
  return build_verilated_model(design, "cm1_host_board", src + "/sim/cm1_board_main.cpp", {cpb, button},
                               {src + "/sim/board_rtl_bridge.h", src + "/sim/board_rtl_bridge.cpp"});
}

std::string build_cm1_board_model(const NetworkConfig& cfg, const HostBoardOptions& opt) {
  return build_cm1_board_model(emit_cm1_host_board(cfg, opt), opt);
}

Cm1SimBoard::Cm1SimBoard(const NetworkConfig& cfg, const HostBoardOptions& opt) {
  spawn(build_cm1_board_model(cfg, opt));
}

Cm1SimBoard::Cm1SimBoard(const GeneratedDesign& design, const HostBoardOptions& opt) {
  spawn(build_cm1_board_model(design, opt));
}

void Cm1SimBoard::spawn(const std::string& exe) {
  log_ = (fs::temp_directory_path() /
          ("cmnet-cm1board-" + std::to_string(::getpid()) + "-" +
           std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + ".log"))
             .string();
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) throw std::runtime_error("simulated board: pipe failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv = {exe, "--port", "0"};
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const int rc = posix_spawn(&pid_, exe.c_str(), &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipefd[1]);
  out_fd_ = pipefd[0];
  if (rc != 0) {
    ::close(out_fd_);
    pid_ = -1;
    throw std::runtime_error("simulated board: cannot start " + exe + ": " + std::strerror(rc));
  }
  // Wait for the port line.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (out_.find('\n') == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill_now();
      throw std::runtime_error("simulated board: no port announced within 60 s (log " + log_ + ")");
    }
    pollfd p{out_fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[256];
    const ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n <= 0) {
      kill_now();
      throw std::runtime_error("simulated board exited before listening: " + slurp(log_));
    }
    out_.append(buf, static_cast<size_t>(n));
  }
  port_ = static_cast<uint16_t>(std::stoul(out_.substr(0, out_.find('\n'))));
  out_.erase(0, out_.find('\n') + 1);
}

Cm1SimBoard::~Cm1SimBoard() {
  try {
    stop();
  } catch (...) {
  }
}

std::string Cm1SimBoard::stop() {
  if (pid_ < 0) return out_;
  ::kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    char buf[256];
    pollfd p{out_fd_, POLLIN, 0};
    if (::poll(&p, 1, 20) > 0) {
      const ssize_t n = ::read(out_fd_, buf, sizeof buf);
      if (n > 0) out_.append(buf, static_cast<size_t>(n));
    }
  }
  char buf[256];
  ssize_t n;
  while ((n = ::read(out_fd_, buf, sizeof buf)) > 0) out_.append(buf, static_cast<size_t>(n));
  ::close(out_fd_);
  out_fd_ = -1;
  pid_ = -1;
  return out_;
}

void Cm1SimBoard::kill_now() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  if (out_fd_ >= 0) ::close(out_fd_);
  out_fd_ = -1;
  pid_ = -1;
}

}  // namespace cmnet

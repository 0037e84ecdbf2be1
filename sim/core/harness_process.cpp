#include "sim/core/harness_process.h"

#include "gen/core/process.h"
#include "gen/core/text_file.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace cmnet {

std::string harness_log_path(const std::string& tag) {
  return (std::filesystem::temp_directory_path() /
          ("cmnet-" + tag + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + ".log"))
      .string();
}

HarnessProcess::HarnessProcess(const std::string& exe, const std::vector<std::string>& args,
                               const std::string& log_path, const std::string& what,
                               std::chrono::seconds wait, const std::vector<std::string>& env)
    : log_(log_path) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) throw std::runtime_error(what + ": pipe failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv = {exe};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargs;
  for (auto& a : argv) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::vector<std::string> envs = merged_environment(env);
  std::vector<char*> envp;
  for (auto& kv : envs) envp.push_back(kv.data());
  envp.push_back(nullptr);
  const int rc = posix_spawn(&pid_, exe.c_str(), &fa, nullptr, cargs.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipefd[1]);
  out_fd_ = pipefd[0];
  if (rc != 0) {
    ::close(out_fd_);
    out_fd_ = -1;
    pid_ = -1;
    throw std::runtime_error(what + ": cannot start " + exe + ": " + std::strerror(rc));
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (out_.find('\n') == std::string::npos) {
    const bool timed_out = std::chrono::steady_clock::now() > deadline;
    if (timed_out || !read_some(100)) {
      kill_now();
      throw std::runtime_error(what + (timed_out ? ": no port announced within " +
                                                       std::to_string(wait.count()) + " s"
                                                 : ": exited before listening") +
                               " (log " + log_ + "):\n" + read_file_or_empty(log_));
    }
  }
  const size_t nl = out_.find('\n');
  try {
    port_ = static_cast<uint16_t>(std::stoul(out_.substr(0, nl)));
  } catch (const std::exception&) {
    kill_now();
    throw std::runtime_error(what + ": announced '" + out_.substr(0, nl) + "', not a port");
  }
  out_.erase(0, nl + 1);
}

HarnessProcess::~HarnessProcess() {
  try {
    stop();
  } catch (...) {
  }
}

// Reads what is there within timeout_ms; false on end of file or error.
bool HarnessProcess::read_some(int timeout_ms) {
  if (out_fd_ < 0) return false;
  pollfd p{out_fd_, POLLIN, 0};
  const int rc = ::poll(&p, 1, timeout_ms);
  if (rc <= 0) return rc == 0;  // timeout: still open
  char buf[4096];
  const ssize_t n = ::read(out_fd_, buf, sizeof buf);
  if (n <= 0) return false;
  out_.append(buf, static_cast<size_t>(n));
  return true;
}

bool HarnessProcess::running() const {
  if (pid_ < 0) return false;
  siginfo_t si{};
  // WNOWAIT: look without reaping, stop() still collects the exit status.
  if (::waitid(P_PID, static_cast<id_t>(pid_), &si, WEXITED | WNOHANG | WNOWAIT) != 0) return false;
  return si.si_pid == 0;
}

std::string HarnessProcess::stop(std::chrono::seconds grace) {
  if (pid_ < 0) return out_;
  ::kill(pid_, SIGTERM);
  // Its statistics come on stdout as it exits: read until end of file (bounded).
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (std::chrono::steady_clock::now() < deadline && read_some(50)) {
  }
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
  }
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  pid_ = -1;
  if (out_fd_ >= 0) ::close(out_fd_);
  out_fd_ = -1;
  return out_;
}

void HarnessProcess::kill_now() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  exit_status_ = 128 + SIGKILL;
  if (out_fd_ >= 0) ::close(out_fd_);
  out_fd_ = -1;
  pid_ = -1;
}

}  // namespace cmnet

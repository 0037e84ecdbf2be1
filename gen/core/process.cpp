#include "gen/core/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace cmnet {

std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> merged;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || x.substr(0, x.find('=')) == name;
    if (!replaced) merged.push_back(kv);
  }
  for (const auto& x : extra) merged.push_back(x);
  return merged;
}

int run_child(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path,
              const std::vector<std::string>& env, const std::function<void(double)>& on_wait) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!log_path.empty()) {
    posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  std::vector<std::string> merged = merged_environment(env);
  std::vector<char*> envp;
  for (auto& kv : merged) envp.push_back(kv.data());
  envp.push_back(nullptr);
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc) +
                             (rc == ENOENT ? " (not installed? scripts/install-deps.sh installs every tool cmnet runs)" : ""));
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(timeout_s);
  auto next_report = start + std::chrono::seconds(1);
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      throw std::runtime_error(argv[0] + " did not finish within " + std::to_string(timeout_s) +
                               " s and was killed");
    }
    if (on_wait && std::chrono::steady_clock::now() >= next_report) {
      next_report += std::chrono::seconds(1);
      on_wait(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace cmnet

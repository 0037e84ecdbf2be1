// A simulation harness run as a child process that serves on 127.0.0.1 and announces its port
// as the first line of its stdout: the simulated CM-1 board (sim/cm1/cm1_sim_board.h) and the
// host-link test board (sim/core/host_link_rtl.h) both run one. Its stderr goes to a log file.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace cmnet {

class HarnessProcess {
 public:
  // Starts `exe args...` and waits for the port line; `what` names it in errors. Throws
  // std::runtime_error (with the log's text) when it cannot start or exits before listening.
  HarnessProcess(const std::string& exe, const std::vector<std::string>& args,
                 const std::string& log_path, const std::string& what,
                 std::chrono::seconds wait = std::chrono::seconds(60),
                 const std::vector<std::string>& env = {});  // NAME=VALUE added for the child
  ~HarnessProcess();  // stop()
  HarnessProcess(const HarnessProcess&) = delete;
  HarnessProcess& operator=(const HarnessProcess&) = delete;

  uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& log_path() const { return log_; }
  bool running() const;
  // SIGTERM, then SIGKILL if it has not exited within `grace`; returns what it wrote to stdout
  // after the port line. Idempotent; exit_status() is then valid (128 + signal if killed).
  std::string stop(std::chrono::seconds grace = std::chrono::seconds(10));
  // SIGKILL at once, without collecting its output (a board that vanishes).
  void kill_now();
  int exit_status() const { return exit_status_; }

 private:
  bool read_some(int timeout_ms);
  pid_t pid_ = -1;
  int out_fd_ = -1;
  uint16_t port_ = 0;
  int exit_status_ = -1;
  std::string log_;
  std::string out_;  // stdout read so far
};

// A fresh log file name in the temp directory: cmnet-TAG-PID-TIME.log.
std::string harness_log_path(const std::string& tag);


}  // namespace cmnet

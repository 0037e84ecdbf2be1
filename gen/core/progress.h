// Progress of long work (a Verilator build, yosys, nextpnr, a long simulation): on a terminal one
// line that updates in place; in a log, a plain line when the work starts, at most one every
// 10 s while it runs, and one when it ends. Never silent for more than a few seconds on a terminal.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace cmnet {

class Progress {
 public:
  explicit Progress(std::string what);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // Shows `detail` (e.g. "12 s", "petit cycle 40 of ~90"); rate-limited.
  void update(const std::string& detail);
  // The closing line, e.g. "done in 14.2 s".
  void done(const std::string& detail);
  double seconds() const;
  // A callback for run_child's wait loop: shows the elapsed time.
  std::function<void(double)> ticker();

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_, last_;
  bool tty_ = false, ended_ = false, shown_ = false;
};

}  // namespace cmnet

// One batch run of a harness executable, the one "run the harness, read its log, throw" path of
// every family's RTL runner: `exe IN OUT` in a fresh temporary directory (removed afterwards,
// whatever happens), the child's stdout and stderr in a log there.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace cmnet {

struct HarnessRunResult {
  std::string out;  // what the harness wrote to OUT
  std::string log;  // its stdout and stderr
};

// Writes `input` to IN, runs the harness (killed after `timeout_s`; `env`: NAME=VALUE for the
// child, a trace's CMNET_TRACE...; `on_wait`: called about once a second, progress) and returns
// OUT and the log. `output_file` false: the harness gets IN only and reports on its stdout. On a
// non-zero exit throws std::runtime_error("WHAT failed (exit N): LOG").
HarnessRunResult run_harness(const std::string& what, const std::string& exe, const std::string& input,
                             double timeout_s, const std::vector<std::string>& env = {},
                             const std::function<void(double)>& on_wait = {}, bool output_file = true);

}  // namespace cmnet

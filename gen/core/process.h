// Child processes for the tools cmnet drives (Verilator, yosys, nextpnr, icepack, icetime).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace cmnet {

// Runs `argv` as a child process with stdout and stderr to `log_path` (inherited when empty),
// waits at most `timeout_s` seconds (then kills it), and returns its exit status (128 + signal
// when killed by one). Throws std::runtime_error on spawn failure or timeout.
// `env` adds or overrides NAME=VALUE entries of the inherited environment for the child only.
int run_child(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path,
              const std::vector<std::string>& env = {},
              const std::function<void(double)>& on_wait = {});  // called about once a second

// The environment of this process with `extra`'s NAME=VALUE entries added or replacing those of
// the same name (what a child started with `extra` sees).
std::vector<std::string> merged_environment(const std::vector<std::string>& extra);

}  // namespace cmnet

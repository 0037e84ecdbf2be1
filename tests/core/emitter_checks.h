// Checks every family's emitter tests share: a scratch directory, a file of a design, and the
// two tools every emitted design must pass (verilator --lint-only -Wall, yosys synth_ice40).
// Header-only, for tests; CMNET_VERILATOR and CMNET_YOSYS come from the tests' CMake.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gen/core/design.h"
#include "gen/core/process.h"
#include "gen/core/yosys_log.h"

namespace cmnet::testing_checks {

namespace fs = std::filesystem;

// A fresh directory under the temp dir, unique to this process and tag.
inline fs::path temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("cmnet-test-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

inline std::string file_of(const GeneratedDesign& d, const std::string& name) {
  for (const auto& [n, text] : d.files)
    if (n == name) return text;
  ADD_FAILURE() << "no file " << name;
  return {};
}

inline std::string slurp_log(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs a tool (argv) with its output in `log`; *rc is its exit code; returns the log.
inline std::string run_tool(const std::vector<std::string>& cmd, const fs::path& log, int* rc) {
  *rc = run_child(cmd, 900, log.string());
  return slurp_log(log);
}

// verilator --lint-only -Wall of the design (written to `dir`) with `top`; "" when clean, else
// the log.
inline std::string lint_problems(const GeneratedDesign& d, const std::string& top, const fs::path& dir,
                                 const std::vector<std::string>& extra = {}) {
  write_design(d, dir.string());
  std::vector<std::string> cmd = {CMNET_VERILATOR, "--lint-only", "-Wall", "--top-module", top};
  for (const auto& e : extra) cmd.push_back(e);
  for (const auto& f : d.verilog_files()) cmd.push_back((dir / f).string());
  const int rc = run_child(cmd, 900, (dir / "lint.log").string());
  const std::string log = slurp_log(dir / "lint.log");
  if (rc != 0 || log.find("%Warning") != std::string::npos || log.find("%Error") != std::string::npos)
    return log.empty() ? "verilator exited with " + std::to_string(rc) : log;
  return "";
}

// yosys synth_ice40 of the design with `top`, after `before_synth` (e.g. "chparam -set W 8 m")
// if given; returns yosys's log (stat included). *ok says whether yosys succeeded, mapped LUTs
// and flip-flops, and found no net with several drivers (yosys only warns of those).
inline std::string synth_ice40(const GeneratedDesign& d, const std::string& top, const fs::path& dir, bool* ok,
                               const std::string& before_synth = "") {
  write_design(d, dir.string());
  std::string script = "read_verilog";
  // (appends, not "x" + string: GCC 12's -Wrestrict false positive)
  for (const auto& f : d.verilog_files()) script.append(" ").append((dir / f).string());
  if (!before_synth.empty()) script.append("; ").append(before_synth);
  script.append("; synth_ice40 -top ").append(top).append("; stat");
  const int rc = run_child({CMNET_YOSYS, "-q", "-p", script, "-l", (dir / "yosys.log").string()}, 1800,
                           (dir / "yosys.out").string());
  const std::string log = slurp_log(dir / "yosys.log");
  const std::string problems = yosys_netlist_problems(log);
  *ok = rc == 0 && log.find("SB_LUT4") != std::string::npos && log.find("SB_DFF") != std::string::npos &&
        problems.empty();
  return (problems.empty() ? "" : "NETS WITH SEVERAL DRIVERS:\n" + problems) + log + slurp_log(dir / "yosys.out");
}

// yosys's generic `synth` of the design with `top` (for designs not meant for one FPGA, e.g. a
// whole network); returns the log. *ok says whether yosys succeeded, printed its statistics and
// found no net with several drivers.
inline std::string synth_generic(const GeneratedDesign& d, const std::string& top, const fs::path& dir, bool* ok) {
  write_design(d, dir.string());
  std::string script = "read_verilog";
  for (const auto& f : d.verilog_files()) script.append(" ").append((dir / f).string());
  script.append("; synth -top ").append(top).append("; stat");
  const int rc = run_child({CMNET_YOSYS, "-q", "-p", script, "-l", (dir / "yosys.log").string()}, 1800,
                           (dir / "yosys.out").string());
  const std::string log = slurp_log(dir / "yosys.log");
  const std::string problems = yosys_netlist_problems(log);
  *ok = rc == 0 && log.find("Number of cells") != std::string::npos && problems.empty();
  return (problems.empty() ? "" : "NETS WITH SEVERAL DRIVERS:\n" + problems) + log + slurp_log(dir / "yosys.out");
}

// The message of what `f` throws ("" and a test failure when it throws nothing).
template <typename F>
std::string thrown_message(F f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace cmnet::testing_checks

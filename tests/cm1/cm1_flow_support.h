// Helpers shared by the FPGA-flow tests (flow_test.cpp, cm1_cube_test.cpp): files, temporary
// directories, small configs, expected errors, and Verilator lint of a generated design (the
// shared check of tests/core/emitter_checks.h).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "gen/cm1/cm1_emitter.h"
#include "gen/cm1/cm1_config.h"
#include "sim/core/rtl_build.h"
#include "tests/core/emitter_checks.h"

namespace cmnet::flow_support {

namespace fs = std::filesystem;

// A fresh directory for this process and tag.
inline fs::path temp_dir(const std::string& tag) {
  const fs::path d = fs::temp_directory_path() / ("cmnet-flow-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

inline Cm1Config cfg(int c, int P, int b, int d = 8) {
  Cm1Config n;
  n.name = "flowtest";
  n.cm1.cube_dims = c;
  n.cm1.procs_per_chip = P;
  n.cm1.rows = b;
  n.cm1.data_bits = d;
  return n;
}

// The message of the exception `f` throws (a test failure when it throws none).
inline std::string expect_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return {};
}

// `verilator --lint-only -Wall` of the design with its own top: "" when clean, else the log.
inline std::string lint(const GeneratedDesign& d, const std::string& tag) {
  const fs::path dir = temp_dir("lint-" + tag);
  std::string problems = testing_checks::lint_problems(d, d.top, dir);
  fs::remove_all(dir);
  return problems;
}

}  // namespace cmnet::flow_support

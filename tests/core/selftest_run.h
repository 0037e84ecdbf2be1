// Running a self-test board top (gen/core/selftest_top.h) in Verilator through the harness every
// family's self-test shares (sim/core/selftest_top_main.cpp). For tests that define
// CMNET_SOURCE_DIR.
#pragma once

#include <cstdint>
#include <string>

#include "sim/core/rtl_build.h"
#include "tests/core/emitter_checks.h"

namespace cmnet::testing_checks {

// The harness's line ("pass CYCLES", "fail CYCLES" or "timeout CYCLES"); *rc its exit code (0, 1, 2).
inline std::string run_selftest_top(const GeneratedDesign& d, uint64_t max_cycles, int* rc) {
  const std::string harness = std::string(CMNET_SOURCE_DIR) + "/sim/core/selftest_top_main.cpp";
  const std::string exe = build_verilated_model(d, d.top, harness, {"-DCMNET_TOP=V" + d.top});
  const fs::path dir = temp_dir("selftest-" + d.top);
  *rc = run_child({exe, std::to_string(max_cycles)}, 1800, (dir / "sim.log").string());
  const std::string out = slurp_log(dir / "sim.log");
  fs::remove_all(dir);
  return out;
}

// Runs the top and expects `verdict`: "pass" (exit 0) or "fail" (exit 1); `what` names the case
// in a failure. Returns the harness's line.
inline std::string expect_verdict(const GeneratedDesign& d, const std::string& verdict, const std::string& what = "") {
  int rc = -1;
  const std::string out = run_selftest_top(d, 100000, &rc);
  EXPECT_EQ(rc, verdict == "pass" ? 0 : 1) << what << ": " << out;
  EXPECT_EQ(out.rfind(verdict, 0), 0u) << what << ": " << out;
  return out;
}

}  // namespace cmnet::testing_checks

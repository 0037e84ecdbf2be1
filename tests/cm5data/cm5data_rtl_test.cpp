// The emitted CM-5 data network RTL (Verilator) against the reference model, message by message:
// the cycle each message left its leaf and the cycle it arrived, the words it arrived with,
// and every chip's link counters, for every pattern at 16 leaves with 2 and 4 parents, and at 64
// leaves (2 parents on levels 1-2: cm5data_rtl64_test). One Verilator build per network; the patterns share it.
// The faults (CRC, map-out, all-fall-down, mapped-out leaves): cm5data_rtl_faults_test.
#include <gtest/gtest.h>

#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

TEST(Cm5Rtl, SixteenLeavesTwoParentsLinkBits4) {
  const Cm5DataConfig cfg = cm5data_test_config(2, "cm5", 4, 2, 1, "cm5data-16");  // as gen/examples/cm5data_16.json: the family test shares its build
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 2, 3), pat);
}

TEST(Cm5Rtl, SixteenLeavesFourParentsLinkBits8) {
  const Cm5DataConfig cfg = cm5data_test_config(2, "full", 8, 1, 9, "cm5data-16");
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 4, 4), pat);
}

TEST(Cm5Rtl, SixteenLeavesOpenLoopLoad) {
  // Messages that become ready over time (what the bench offers), at a load near saturation.
  const Cm5DataConfig cfg = cm5data_test_config(2, "full", 8, 1, 9, "cm5data-16");
  for (const auto& pat : {"random", "nearest-neighbour"})
    expect_rtl_equals_model(cfg, make_cm5_open_loop(pat, cfg.cm5, 3, 0.03, 300, 3), pat);
}

}  // namespace
}  // namespace cmnet

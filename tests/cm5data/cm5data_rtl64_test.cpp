// The 64-leaf network (28 chips; 2 parents on levels 1-2, 4 on level 3) against the model, as
// cm5data_rtl_test does at 16 leaves. Its Verilator build takes minutes (one copy of the code per
// chip instance), so it is its own binary with the label scale.
#include <gtest/gtest.h>

#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

TEST(Cm5Rtl, SixtyFourLeavesTwoThenFourParents) {
  const Cm5DataConfig cfg = cm5data_test_config(3, "cm5", 16, 2, 3, "rtl-test");
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 6, 2), pat);
}

}  // namespace
}  // namespace cmnet

// Figure 12 helper (sim/cm1_figures.*) on a small machine: shape of the table, the lower bound
// P*v/2 (8v for P = 16, as in section 4.1) and sane ratios. Timing is reported, not tested.
#include "sim/cm1/cm1_figures.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace cmnet {
namespace {

TEST(Cm1Figures, SmallMachine) {
  Cm1Params p = cm1_figure12_params();
  EXPECT_EQ(p.cube_dims, 12);
  EXPECT_EQ(p.procs_per_chip, 16);
  EXPECT_EQ(p.rows, 7);
  EXPECT_EQ(p.data_bits, 32);
  p.cube_dims = 6;
  const Cm1Fig12 f = cm1_figure12(p, 3, 7, true);
  ASSERT_EQ(f.rows.size(), 3u);
  for (const Cm1Fig12Row& r : f.rows) {
    SCOPED_TRACE("v = " + std::to_string(r.v));
    EXPECT_EQ(r.messages, 64u * 16u * static_cast<uint64_t>(r.v));
    EXPECT_DOUBLE_EQ(r.lower_bound, 8.0 * r.v);
    EXPECT_TRUE(r.completed_or);
    EXPECT_TRUE(r.completed_one);
    EXPECT_GE(static_cast<double>(r.petit_or), r.lower_bound * 0.75);
    EXPECT_DOUBLE_EQ(r.ratio, static_cast<double>(r.petit_or) / r.lower_bound);
    EXPECT_GT(r.utilization, 0.2);
    EXPECT_LE(r.utilization, 1.0);
    EXPECT_GE(r.petit_one, r.petit_or);
    EXPECT_GE(r.slowdown, 1.0);
  }
  EXPECT_EQ(f.rows[0].vp_bits, 0);
  EXPECT_EQ(f.rows[1].vp_bits, 1);
  EXPECT_EQ(f.rows[2].vp_bits, 2);
  EXPECT_GT(f.hops, f.messages);
  const std::string table = format_cm1_figure12(f);
  EXPECT_NE(table.find("petit(or)"), std::string::npos);
  std::printf("%s", table.c_str());
}

}  // namespace
}  // namespace cmnet

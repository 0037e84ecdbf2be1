// The paper's evaluation on the models (sim/clos/clos_eval.h), at a light load where the figures
// are settled: short messages through the trees arrive in about the paper's 900 us, steadily
// (their delivery follows their size), long ones in a set-up plus the transfer; the plain
// hypercube's short messages wait behind long ones; random pairings link most processors.
#include "sim/clos/clos_eval.h"

#include <gtest/gtest.h>

namespace cmnet {
namespace {

TEST(ClosEval, LightLoadFigures) {
  ClosEvalOptions o;
  o.load_mb_s = 20;
  o.sim_us = 100000;
  o.warmup_us = 10000;
  const ClosEvalResult c = run_connect_eval(o);
  EXPECT_GT(c.short_msgs, 500u);
  EXPECT_GT(c.long_msgs, 300u);
  // 8.5 hops on average of (50 bytes / 0.664 MB/s + 30 us): about 900 us.
  EXPECT_GT(c.short_delivery_us, 600);
  EXPECT_LT(c.short_delivery_us, 1100);
  EXPECT_GT(c.short_size_delay_corr, 0.6);
  // A circuit holds 3,000 / 0.664 = 4,518 us on average; the set-up adds about a millisecond.
  EXPECT_GT(c.long_delivery_us, 4518);
  EXPECT_LT(c.long_delivery_us, 9000);
  const ClosEvalResult h = run_hypercube_eval(o);
  EXPECT_GT(h.short_mse_us2, 10 * c.short_mse_us2);
  EXPECT_LT(h.short_size_delay_corr, c.short_size_delay_corr);
}

TEST(ClosEval, RandomPairingsLinkMostProcessors) {
  for (int pairs : clos_dynamic_pairs(3, 2)) {
    EXPECT_GE(pairs, 240);
    EXPECT_LE(pairs, 480);
  }
}

// The variants that find the knee: one hypercube loads the control hnodes more; duplex leaves
// (a busy bit per c-link) carry more of a heavy load than one busy bit per leaf.
TEST(ClosEval, KneeVariants) {
  ClosEvalOptions o;
  o.load_mb_s = 200;
  o.sim_us = 60000;
  o.warmup_us = 7500;
  const ClosEvalResult base = run_connect_eval(o);
  EXPECT_GT(base.hnode_util, 0);
  EXPECT_GT(base.leaf_busy, base.leaf_data);
  EXPECT_GT(base.s_link_util, 0);
  ClosEvalOptions one = o;
  one.two_hypercubes = false;
  EXPECT_GT(run_connect_eval(one).hnode_util, base.hnode_util);
  ClosEvalOptions duplex = o;
  duplex.duplex_leaves = true;
  EXPECT_GT(run_connect_eval(duplex).mean_circuits, base.mean_circuits);
}

}  // namespace
}  // namespace cmnet

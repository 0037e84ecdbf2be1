// The RTL test's two helpers, shared by cm5ctl_rtl_test and cm5ctl_scale_test: a config, and
// one workload run on both engines, expected to agree exactly and the RTL's results to be the
// functional oracle's (sim/cm5ctl/oracle: from the paper, sharing no code with either engine).
#pragma once

#include <gtest/gtest.h>

#include "sim/cm5ctl/cm5ctl_rtl.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"
#include "sim/cm5ctl/cm5ctl_oracle_view.h"

namespace cmnet::cm5ctl_view {

inline Cm5ctlConfig cfg(int leaves, int w = 32, int up = 6, int down = 5) {
  Cm5ctlConfig c;
  c.p.leaves = leaves;
  c.p.word_bits = w;
  c.p.up_width = up;
  c.p.down_width = down;
  validate(c.p, "test");
  return c;
}

// Runs one workload on both engines; expects them to agree exactly and the RTL to complete with
// the oracle's results, or, when told the run has faults (link faults, colliding or dropped
// broadcasts), every result the RTL does not mark as an error to be the oracle's.
inline Cm5RtlRun agree(const Cm5ctlConfig& c, const Cm5Workload& w, bool check_oracle = true, uint64_t min_cycles = 0) {
  // Runs that are not expected to complete stop early.
  Cm5ModelOptions mo;
  Cm5RtlOptions ro;
  if (!check_oracle) mo.max_cycles = ro.max_cycles = 3000;
  mo.min_cycles = ro.min_cycles = min_cycles;
  const Cm5RunResult m = run_cm5ctl_model(c.p, w, mo);
  const Cm5RtlRun r = run_cm5ctl_rtl(c, w, ro);
  EXPECT_EQ(compare_runs(m, r), "") << w.name << " N=" << c.p.leaves;
  EXPECT_FALSE(r.fault) << w.name;
  EXPECT_EQ(r.bcast_drop, m.faults.bcast_drops > 0) << w.name;
  if (check_oracle) {
    EXPECT_TRUE(r.completed) << w.name;
    EXPECT_EQ(joined(oracle_disagreements(c.p, w, r.results)), "") << w.name << " N=" << c.p.leaves;
  } else if (!r.link_error && (c.p.crc_bits > 0 || w.flips.empty())) {
    // Faults the hardware can see: unless it raised a link error (a hard error: every result
    // since is void, as on the CM-5), what it does not mark is the oracle's. (Without a CRC a
    // flipped bit passes unseen: the test asks the oracle about that run itself.)
    EXPECT_EQ(joined(oracle_disagreements_under_faults(c.p, w, r.results)), "") << w.name << " N=" << c.p.leaves;
  }
  return r;
}

}  // namespace cmnet::cm5ctl_view

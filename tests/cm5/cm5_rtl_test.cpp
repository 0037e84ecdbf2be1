// The CM-5 machine's RTL (cm5_machine under Verilator: both data networks with an NI per leaf
// and side, the control tree, the counters) against the lockstep model, 4 leaves (one Verilator
// build): every message the processors read, every change of every leaf's router-done counter,
// every control push and result, cycle by cycle; router-done completing after the last arrival,
// kept under way by a lost message, ended with the error bit by a duplicated one.
#include <gtest/gtest.h>

#include "tests/cm5/cm5_check.h"

namespace cmnet {
namespace {

using namespace cm5test;

Cm5MachineRun both(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w, const Cm5MachineOptions& opt = {}) {
  const Cm5MachineRun m = run_cm5_machine_model(cfg, w, opt);
  const Cm5MachineRun r = run_cm5_machine_rtl(cfg, w, m.cycles, opt);
  EXPECT_EQ(compare_machine_runs(m, r), "");
  EXPECT_FALSE(r.fault);
  expect_oracle_agrees(cfg, w, r, "the RTL");
  return r;
}

TEST(Cm5MachineRtl, RouterDoneAfterTheLastArrivalAsTheModel) {
  const Cm5MachineConfig cfg = machine(1);
  const Cm5MachineWorkload w = scenario(cfg, 4, 11);
  const Cm5MachineRun m = run_cm5_machine_model(cfg, w);
  const Cm5MachineRun r = both(cfg, w);
  expect_all_delivered(w, r);
  EXPECT_EQ(final_sum(cfg, r), 0);
  const uint64_t done = router_done_cycle(cfg, r, false, 0);
  EXPECT_GT(done, m.last_arrival + 1);
  EXPECT_LT(w.ctl.leaf[0][0].release, m.last_arrival);
}

TEST(Cm5MachineRtl, LostMessageAsTheModel) {
  const Cm5MachineConfig cfg = machine(1);
  Cm5MachineWorkload w = scenario(cfg, 4, 11);
  const Cm5MachineRun base = run_cm5_machine_model(cfg, w);
  w.faults = {aim_at_last_arrival(base, false)};
  Cm5MachineOptions opt;
  opt.max_cycles = base.cycles + 1000;
  const Cm5MachineRun r = both(cfg, w, opt);
  expect_all_delivered(w, r);
  EXPECT_TRUE(r.results.empty());  // still under way
  EXPECT_EQ(r.cycles, opt.max_cycles);
  EXPECT_EQ(final_sum(cfg, r), 1);
}

TEST(Cm5MachineRtl, DuplicatedMessageAsTheModel) {
  const Cm5MachineConfig cfg = machine(1);
  Cm5MachineWorkload w = scenario(cfg, 4, 11);
  const Cm5MachineRun base = run_cm5_machine_model(cfg, w);
  w.faults = {aim_at_last_arrival(base, true)};
  const Cm5MachineRun r = both(cfg, w);
  EXPECT_EQ(final_sum(cfg, r), -1);
  EXPECT_GT(router_done_cycle(cfg, r, true, -1), 0u);
}

// Router-done pushed while the processors are still sending (every leaf at cycle 20): its
// rounds see the counters rise and fall; the same, cycle by cycle, as the model.
TEST(Cm5MachineRtl, RouterDoneDuringTheTrafficAsTheModel) {
  const Cm5MachineConfig cfg = machine(1);
  const Cm5MachineWorkload w = cm5_machine_traffic(cfg, 3, 5, 20);
  both(cfg, w);
}

}  // namespace
}  // namespace cmnet

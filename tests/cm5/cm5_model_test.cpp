// The CM-5 machine's lockstep model (the cm5data and cm5ctl models, router-done fed by the data
// network's interface counters): traffic on both networks with router-done pushed by every leaf
// at once completes once the last message is whole at its receiver, not before, at 4, 16 and 64
// leaves; a lost message keeps it under way; a duplicated one ends it with the error bit.
#include <gtest/gtest.h>

#include "tests/cm5/cm5_check.h"

namespace cmnet {
namespace {

using namespace cm5test;

void completes_after_last_arrival(int height, int per_leaf) {
  const Cm5MachineConfig cfg = machine(height);
  const Cm5MachineWorkload w = scenario(cfg, per_leaf, 11);
  const Cm5MachineRun r = run_cm5_machine_model(cfg, w);
  expect_all_delivered(w, r);
  expect_oracle_agrees(cfg, w, r, "the model");
  EXPECT_FALSE(r.fault);
  EXPECT_EQ(final_sum(cfg, r), 0);
  // Router-done was pushed after every send, while messages were still on their way.
  const uint64_t pushed = w.ctl.leaf[0][0].release;
  EXPECT_LT(pushed, r.last_arrival);
  const uint64_t done = router_done_cycle(cfg, r, false, 0);
  ASSERT_GT(done, 0u);
  EXPECT_GT(done, r.last_arrival + 1);  // the counters are zero from last_arrival + 1 on
  // At most the round under way when they reached zero (it saw a sum above zero) and one more.
  EXPECT_LE(done - r.last_arrival, static_cast<uint64_t>(2 * cfg.ctl.p.latency_bound() + cfg.ctl.p.packet_time()));
  // The sum of the counters is above zero in every cycle before that (nothing lost, nothing made).
  std::vector<int64_t> v(static_cast<size_t>(cfg.leaves()), 0);
  for (const auto& c : r.counters) {
    v[c.leaf] = c.value;
    int64_t s = 0;
    for (int64_t x : v) s += x;
    EXPECT_GE(s, 0) << "cycle " << c.cycle;
  }
  ::testing::Test::RecordProperty("leaves", cfg.leaves());
  ::testing::Test::RecordProperty("messages", static_cast<int>(w.messages.size()));
  ::testing::Test::RecordProperty("router_done_pushed", static_cast<int>(pushed));
  ::testing::Test::RecordProperty("last_arrival", static_cast<int>(r.last_arrival));
  ::testing::Test::RecordProperty("router_done", static_cast<int>(done));
  std::printf("cm5 machine, %d leaves, %zu messages: router-done pushed in cycle %llu, last arrival %llu, "
              "router-done presented %llu (%llu cycles after the last arrival; control packet time %d)\n",
              cfg.leaves(), w.messages.size(), static_cast<unsigned long long>(pushed),
              static_cast<unsigned long long>(r.last_arrival), static_cast<unsigned long long>(done),
              static_cast<unsigned long long>(done - r.last_arrival), cfg.ctl.p.packet_time());
}

TEST(Cm5MachineModel, RouterDoneCompletesAfterTheLastArrival4) { completes_after_last_arrival(1, 4); }
TEST(Cm5MachineModel, RouterDoneCompletesAfterTheLastArrival16) { completes_after_last_arrival(2, 3); }
TEST(Cm5MachineModel, RouterDoneCompletesAfterTheLastArrival64) { completes_after_last_arrival(3, 2); }

TEST(Cm5MachineModel, LostMessageKeepsRouterDoneUnderWay) {
  const Cm5MachineConfig cfg = machine(2);
  Cm5MachineWorkload w = scenario(cfg, 3, 11);
  const Cm5MachineRun base = run_cm5_machine_model(cfg, w);
  for (bool aimed : {false, true}) {
    Cm5MachineWorkload lw = w;
    // At cycle 0 on the first message's destination, or at the last arrival.
    lw.faults = {aimed ? aim_at_last_arrival(base, false) : Cm5MachineFault{0, w.messages[0].dst, false}};
    Cm5MachineOptions opt;
    opt.max_cycles = base.cycles + 3000;
    const Cm5MachineRun r = run_cm5_machine_model(cfg, lw, opt);
    expect_all_delivered(lw, r);
    expect_oracle_agrees(cfg, lw, r, aimed ? "lost at the last arrival" : "lost at cycle 0");  // the data all arrives: only its count is short
    EXPECT_TRUE(r.results.empty()) << "router-done completed: " << r.results.front().str();
    EXPECT_EQ(r.cycles, opt.max_cycles);
    EXPECT_EQ(final_sum(cfg, r), 1);
  }
}

TEST(Cm5MachineModel, DuplicatedMessageEndsRouterDoneWithTheErrorBit) {
  const Cm5MachineConfig cfg = machine(2);
  Cm5MachineWorkload w = scenario(cfg, 3, 11);
  const Cm5MachineRun base = run_cm5_machine_model(cfg, w);
  w.faults = {aim_at_last_arrival(base, true)};
  const Cm5MachineRun r = run_cm5_machine_model(cfg, w);
  expect_all_delivered(w, r);
  expect_oracle_agrees(cfg, w, r, "duplicated");
  EXPECT_EQ(final_sum(cfg, r), -1);
  const uint64_t done = router_done_cycle(cfg, r, true, -1);
  EXPECT_GT(done, r.last_arrival + 1);
  // The same time as the balanced run: the round that sees the duplicate is the one that saw zero.
  EXPECT_EQ(done, router_done_cycle(cfg, base, false, 0));
}

TEST(Cm5MachineModel, BadWorkloadsAreRefused) {
  const Cm5MachineConfig cfg = machine(1);
  Cm5MachineWorkload w = cm5_machine_traffic(cfg, 1, 1, 0);
  auto refused = [&](Cm5MachineWorkload x, const std::string& what) {
    try {
      run_cm5_machine_model(cfg, x);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  Cm5MachineWorkload x = w;
  x.messages[0].dst = 9;
  refused(x, "leaf 9 out of range 0..3");
  x = w;
  x.messages[0].data.assign(4, 1);
  refused(x, "4 data words, out of range 1..3");
  x = w;
  x.messages[0].side = 2;
  refused(x, "side 2");
  x = w;
  x.ctl.counters.assign(4, {{0, 1}});
  refused(x, "ctl.counters must be empty");
  x = w;
  x.faults = {{0, 7, false}};
  refused(x, "fault at leaf 7 out of range");
}

}  // namespace
}  // namespace cmnet

// The hcube self-test board top (gen/hcube/hcube_selftest.h, `cmnet build --mode network`): lint,
// the same bytes for the same inputs, and in Verilator (sim/core/selftest_top_main.cpp) it lights
// pass when its wormhole 2-cube delivers what the reference model delivers (per node: worms, XOR
// and sum of the bytes, last arrival; every port counter) and fail when one expectation is off.
#include <gtest/gtest.h>

#include <string>

#include "gen/core/errors.h"
#include "gen/hcube/hcube_selftest.h"
#include "sim/core/rtl_build.h"
#include "sim/hcube/hcube_selftest_model.h"
#include "tests/core/emitter_checks.h"
#include "tests/core/selftest_run.h"

namespace cmnet {
namespace {

using namespace testing_checks;

// 3 active-high LEDs and no button: what sim/core/selftest_top_main.cpp drives.
board_parts::SelfTestPins sim_pins() {
  board_parts::SelfTestPins p;
  p.reset_port = false;
  p.led_active_low = {false, false, false};
  p.blink_log2 = 4;
  return p;
}

HcubeConfig worm2() {
  HcubeConfig c;
  c.name = "selftest-2";
  c.hc.dims = 2;
  c.hc.scheme = "wormhole";
  return c;
}

// The paper's workload shape, short: 3 messages per node of mean 24 bytes, 40 ticks apart.
HcubeSelfTest traffic2(const HcubeParams& p, uint64_t seed) {
  return hcube_selftest_of(p, make_hcube_workload(p.dims, "uniform", 24, 40, 3, seed), "uniform", seed, 3);
}

TEST(HcubeSelfTest, TwoCubePassesOnTheRtlAndEachCheckBites) {
  const HcubeConfig cfg = worm2();
  const HcubeSelfTest t = traffic2(cfg.hc, 7);
  ASSERT_EQ(t.nodes.size(), 4u);
  uint32_t received = 0;
  for (const auto& n : t.nodes) {
    EXPECT_EQ(n.messages.size(), 3u);
    received += n.rx_count;
  }
  EXPECT_EQ(received, 12u);
  EXPECT_EQ(t.counters.size(), 32u);  // 4 nodes x 2 ports x 4 counters
  uint64_t worms = 0;
  for (const auto& c : t.counters) worms += c.sel % 4 == 0 ? c.value : 0;
  EXPECT_GE(worms, 12u);  // every message a worm on each channel it crosses
  const GeneratedDesign d = emit_hcube_selftest(cfg, t, sim_pins());
  EXPECT_EQ(d.top, "hcube_selftest_top");
  EXPECT_NE(file_of(d, "hcube_selftest_top.v").find("SELF-TEST"), std::string::npos);
  EXPECT_NE(file_of(d, "selftest.json").find("\"port_counters_checked\": 32"), std::string::npos);
  const fs::path dir = temp_dir("hcube-selftest-lint");
  EXPECT_EQ(lint_problems(d, d.top, dir), "");
  fs::remove_all(dir);

  expect_verdict(d, "pass");
  // One port counter (a blocked-cycle count if any is not 0) off by one: fail.
  HcubeSelfTest bad = t;
  size_t k = 3;
  for (size_t i = 0; i < bad.counters.size(); ++i)
    if (bad.counters[i].sel % 4 == 3 && bad.counters[i].value) k = i;
  bad.counters[k].value += 1;
  expect_verdict(emit_hcube_selftest(cfg, bad, sim_pins()), "fail", "counter " + std::to_string(k) + " off");
  // One node's XOR of its bytes off: fail.
  bad = t;
  bad.nodes[2].rx_xor ^= 0x40;
  expect_verdict(emit_hcube_selftest(cfg, bad, sim_pins()), "fail", "xor off");
}

// The last-arrival cycle is exact: one a cycle late fails. At 2 ticks per byte and no arbitration
// (the tightest timing the feeders' block RAM allows: a worm's first byte 4 cycles after its grant).
TEST(HcubeSelfTest, LastArrivalIsCycleExact) {
  HcubeConfig cfg = worm2();
  cfg.hc.ticks_per_byte = 2;
  cfg.hc.arb_ticks = 0;
  HcubeSelfTest t = traffic2(cfg.hc, 3);
  int rc = -1;
  const std::string out = run_selftest_top(emit_hcube_selftest(cfg, t, sim_pins()), 100000, &rc);
  EXPECT_EQ(rc, 0) << out;
  size_t g = 0;
  while (t.nodes[g].rx_count == 0) ++g;
  t.nodes[g].rx_last += 1;
  expect_verdict(emit_hcube_selftest(cfg, t, sim_pins()), "fail", "last arrival late");
}

TEST(HcubeSelfTest, BadNetworksAndTrafficAreRefusedNamingWhy) {
  const HcubeConfig cfg = worm2();
  const HcubeSelfTest t = traffic2(cfg.hc, 1);
  HcubeConfig big = cfg;
  big.hc.dims = 4;
  EXPECT_NE(thrown_message([&] { traffic2(big.hc, 1); }).find("dims = 4 out of range 2..3"), std::string::npos);
  EXPECT_NE(thrown_message([&] { emit_hcube_selftest(big, t, sim_pins()); }).find("dims = 4"), std::string::npos);
  HcubeConfig packet = cfg;
  packet.hc.scheme = "packet";
  EXPECT_NE(thrown_message([&] { traffic2(packet.hc, 1); }).find("wormhole networks only"), std::string::npos);
  HcubeConfig fast = cfg;
  fast.hc.ticks_per_byte = 1;
  EXPECT_NE(thrown_message([&] { traffic2(fast.hc, 1); }).find("ticks_per_byte = 1"), std::string::npos);
  // Too much for a node's ROM: 33 messages, or 610 bytes in one worm.
  HcubeTraffic many;
  for (uint32_t i = 0; i < 33; ++i) many.messages.push_back({1, 2, i, 1, i});
  EXPECT_NE(thrown_message([&] { hcube_selftest_of(cfg.hc, many, "many", 0, 0); }).find("node 1 sends 33 messages"),
            std::string::npos);
  HcubeTraffic longer;
  longer.messages.push_back({3, 0, 0, 600, 0});
  EXPECT_NE(thrown_message([&] { hcube_selftest_of(cfg.hc, longer, "long", 0, 0); }).find("node 3's worms are 610 bytes"),
            std::string::npos);
  HcubeSelfTest few = t;
  few.nodes.pop_back();
  EXPECT_NE(thrown_message([&] { emit_hcube_selftest(cfg, few, sim_pins()); }).find("traffic for 3 nodes"), std::string::npos);
  HcubeSelfTest self = t;
  self.nodes[1].messages[0].dst = 1;
  EXPECT_NE(thrown_message([&] { emit_hcube_selftest(cfg, self, sim_pins()); }).find("node 1, message 0: destination 1"),
            std::string::npos);
  HcubeSelfTest badcnt = t;
  badcnt.counters[0].sel = 8;
  EXPECT_NE(thrown_message([&] { emit_hcube_selftest(cfg, badcnt, sim_pins()); }).find("select 8"), std::string::npos);
  board_parts::SelfTestPins one = sim_pins();
  one.led_active_low = {false};
  EXPECT_NE(thrown_message([&] { emit_hcube_selftest(cfg, t, one); }).find("1 LEDs"), std::string::npos);
}

// The largest cube the top is for lints too (not simulated: the tests keep to 2-cubes).
TEST(HcubeSelfTest, ThreeCubeLints) {
  HcubeConfig cfg = worm2();
  cfg.hc.dims = 3;
  const GeneratedDesign d = emit_hcube_selftest(cfg, traffic2(cfg.hc, 4), sim_pins());
  EXPECT_NE(file_of(d, "hcube_selftest_top.v").find("dims n"), std::string::npos);
  const fs::path dir = temp_dir("hcube-selftest-lint3");
  EXPECT_EQ(lint_problems(d, d.top, dir), "");
  fs::remove_all(dir);
}

TEST(HcubeSelfTest, SameInputsSameBytes) {
  const HcubeConfig cfg = worm2();
  const GeneratedDesign a = emit_hcube_selftest(cfg, traffic2(cfg.hc, 9), sim_pins());
  const GeneratedDesign b = emit_hcube_selftest(cfg, traffic2(cfg.hc, 9), sim_pins());
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t k = 0; k < a.files.size(); ++k) EXPECT_EQ(a.files[k], b.files[k]) << a.files[k].first;
  EXPECT_NE(file_of(a, "hcube_selftest_top.v"), file_of(emit_hcube_selftest(cfg, traffic2(cfg.hc, 10), sim_pins()),
                                                          "hcube_selftest_top.v"));
}

}  // namespace
}  // namespace cmnet

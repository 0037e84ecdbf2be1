// The Clos self-test board top (gen/clos/clos_selftest.h, `cmnet build --mode network`): lint,
// the same bytes for the same inputs, and in Verilator (sim/core/selftest_top_main.cpp) it lights
// pass when the switch and its engines deliver what the reference expects (per output leaf:
// circuits, words, XOR of the data; the engines' READYs, messages handled, CANCELs, RESENDs,
// configuration writes; the cycle the last leaf finishes) and fail when one expectation is off.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "gen/clos/clos_selftest.h"
#include "gen/core/errors.h"
#include "sim/clos/clos_selftest_model.h"
#include "sim/core/rtl_build.h"
#include "tests/core/emitter_checks.h"
#include "tests/core/selftest_run.h"

namespace cmnet {
namespace {

using namespace testing_checks;

ClosConfig cfg(int m, int n, int r, int dims, int width) {
  ClosConfig c;
  c.name = "clos-selftest";
  c.clos.m = m;
  c.clos.n = n;
  c.clos.r = r;
  c.clos.hnode_dims = dims;
  c.clos.width = width;
  return c;
}

// What the simulation's harness expects: 3 active-high LEDs and no button.
board_parts::SelfTestPins sim_pins() {
  board_parts::SelfTestPins p;
  p.reset_port = false;
  p.led_active_low = {false, false, false};
  p.blink_log2 = 4;
  return p;
}

// The blocking N(2, 3, 4) with 4 hnodes (the board's 2-cube, smaller): 3 rounds of permutations,
// with races (CANCEL) and blocked selections (RESEND). It passes at the reference's end cycle (+ the settle and verdict cycles),
// and each kind of expectation, put off by one, fails.
TEST(ClosSelfTest, PermutationsPassOnTheRtlAndEachCheckBites) {
  const ClosConfig c = cfg(2, 3, 4, 2, 4);
  const ClosSelfTest t = clos_selftest_rounds(c, 3, 3, 3);
  ASSERT_EQ(t.leaves.size(), 12u);
  uint32_t circuits = 0, words = 0;
  for (const ClosSelfTestLeaf& l : t.leaves) {
    EXPECT_EQ(l.circuits.size(), 3u);
    for (const ClosSelfTestCircuit& k : l.circuits) EXPECT_EQ(k.words.size(), 3u);
    circuits += l.rx_circuits;
    words += l.rx_words;
  }
  EXPECT_EQ(circuits, 36u);
  EXPECT_EQ(words, 108u);
  EXPECT_EQ(t.counts.readies, 36u);  // every circuit set up once
  EXPECT_GE(t.counts.handled, 36u * 7);  // CSR, CR, CO, ACK, ODCR, IDCR, DDCR at least
  EXPECT_GT(t.counts.cfg_writes, 0u);
  EXPECT_GT(t.counts.cancels, 0u);  // races at the middle switches (m = 2 < n = 3: blocking too)
  EXPECT_GT(t.counts.resends, 0u);
  const GeneratedDesign d = emit_clos_selftest(c, t, sim_pins());
  EXPECT_EQ(d.top, "clos_selftest_top");
  EXPECT_NE(file_of(d, "clos_selftest_top.v").find("SELF-TEST"), std::string::npos);
  EXPECT_NE(file_of(d, "selftest.json").find("\"end_cycle\": " + std::to_string(t.end_cycle)), std::string::npos);
  const fs::path dir = temp_dir("clos-selftest-lint");
  EXPECT_EQ(lint_problems(d, d.top, dir / "lint"), "");
  fs::remove_all(dir);

  // pass in the cycle after the verdict: the end, 7 settle cycles, the verdict's register, the LED's
  const std::string out = expect_verdict(d, "pass");
  // what the run was, for the log: the reference's end and counts, the harness's power-on cycle
  std::printf("end cycle %llu, counts: %u READY, %u handled, %u CANCEL, %u RESEND, %u writes; harness: %s",
              static_cast<unsigned long long>(t.end_cycle), t.counts.readies, t.counts.handled, t.counts.cancels,
              t.counts.resends, t.counts.cfg_writes, out.c_str());
  ClosSelfTest bad = t;
  bad.leaves[5].rx_xor ^= 1;
  expect_verdict(emit_clos_selftest(c, bad, sim_pins()), "fail", "one output leaf's XOR");
  bad = t;
  bad.end_cycle += 1;
  expect_verdict(emit_clos_selftest(c, bad, sim_pins()), "fail", "the cycle the last leaf finishes");
  bad = t;
  bad.counts.cancels += 1;
  expect_verdict(emit_clos_selftest(c, bad, sim_pins()), "fail", "the engines' CANCELs");
}

// A connection set from a file (one circuit a source, one of them of no words) on 1-bit data.
TEST(ClosSelfTest, AConnectionSetPasses) {
  const ClosConfig c = cfg(2, 2, 4, 2, 1);
  std::istringstream in("0 7 3\n1 6 2\n6 1 0\n7 0 4\n2 3 5\n");
  const ClosSelfTest t = clos_selftest_of(c, parse_clos_circuits(in, "n224.circuits", c.clos, 4), "n224.circuits", 7);
  EXPECT_EQ(t.counts.readies, 5u);
  EXPECT_EQ(t.leaves[1].rx_circuits, 0u);  // 6 -> 1 carries no word
  EXPECT_EQ(t.leaves[7].rx_words, 3u);
  expect_verdict(emit_clos_selftest(c, t, sim_pins()), "pass");
}

TEST(ClosSelfTest, BadTrafficAndOptionsAreRefusedNamingWhat) {
  const ClosConfig c = cfg(2, 2, 4, 2, 4);
  const ClosSelfTest t = clos_selftest_rounds(c, 1, 1, 2);
  ClosSelfTest few = t;
  few.leaves.pop_back();
  EXPECT_NE(thrown_message([&] { emit_clos_selftest(c, few, sim_pins()); }).find("traffic for 7 leaves"), std::string::npos);
  ClosSelfTest self = t;
  self.leaves[3].circuits[0].dest = 3;
  EXPECT_NE(thrown_message([&] { emit_clos_selftest(c, self, sim_pins()); }).find("leaf 3, circuit 0: destination 3"),
            std::string::npos);
  ClosSelfTest wide = t;
  wide.leaves[2].circuits[0].words[1] = 0x10;
  EXPECT_NE(thrown_message([&] { emit_clos_selftest(c, wide, sim_pins()); }).find("wider than 4 bits"), std::string::npos);
  ClosSelfTest many = t;
  many.leaves[4].circuits.resize(kClosSelfTestMaxCircuits + 1, many.leaves[4].circuits[0]);
  EXPECT_NE(thrown_message([&] { emit_clos_selftest(c, many, sim_pins()); }).find("a leaf's ROM holds 64 circuits"),
            std::string::npos);
  board_parts::SelfTestPins one = sim_pins();
  one.led_active_low = {false};
  EXPECT_NE(thrown_message([&] { emit_clos_selftest(c, t, one); }).find("1 LEDs"), std::string::npos);
  EXPECT_NE(thrown_message([&] { emit_clos_selftest(cfg(2, 2, 4, 0, 4), t, sim_pins()); }).find("hnode_dims 0"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] { clos_selftest_rounds(c, 1, 0, 2); }).find("0 rounds"), std::string::npos);
  EXPECT_NE(thrown_message([&] { clos_selftest_rounds(c, 1, 65, 2); }).find("65 rounds"), std::string::npos);
  EXPECT_NE(thrown_message([&] { clos_selftest_rounds(c, 1, 8, 33); }).find("holds 256 words"), std::string::npos);
  std::istringstream in("0 7 300\n");
  const auto big = parse_clos_circuits(in, "big.circuits", c.clos, 4);
  EXPECT_NE(thrown_message([&] { clos_selftest_of(c, big, "big.circuits", 1); }).find("big.circuits:1: leaf 0"),
            std::string::npos);
}

TEST(ClosSelfTest, SameInputsSameBytes) {
  const ClosConfig c = cfg(2, 2, 4, 2, 4);
  const GeneratedDesign a = emit_clos_selftest(c, clos_selftest_rounds(c, 9, 2, 2), sim_pins());
  const GeneratedDesign b = emit_clos_selftest(c, clos_selftest_rounds(c, 9, 2, 2), sim_pins());
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t k = 0; k < a.files.size(); ++k) EXPECT_EQ(a.files[k], b.files[k]) << a.files[k].first;
  const GeneratedDesign other = emit_clos_selftest(c, clos_selftest_rounds(c, 10, 2, 2), sim_pins());
  EXPECT_NE(file_of(a, "clos_selftest_top.v"), file_of(other, "clos_selftest_top.v"));  // the seed matters
}

}  // namespace
}  // namespace cmnet

// CM-1's functional oracle (sim/cm1/oracle) on hand-worked cases from the paper, the
// comparison catching each kind of wrong delivery, and the reference model's deliveries of
// every named pattern agreeing with it (the RTL's are checked in cm1_rtl_test).
#include "sim/cm1/oracle/cm1_oracle.h"

#include <gtest/gtest.h>

#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_rtl.h"
#include "sim/cm1/cm1_traffic.h"
#include "tests/cm1/cm1_oracle_check.h"

namespace cmnet {
namespace {

using cm1_oracle::DeliveryCycle;
using cm1_oracle::Ejection;

DeliveryCycle two_to_one(Ejection e) {
  DeliveryCycle d;
  d.ejection = e;
  d.sent = {{0, 53, 0, 0x0f}, {1, 53, 0, 0xf0}};
  d.petit_cycles = 2;
  return d;
}

std::string all(const DeliveryCycle& d) { return joined_lines(cm1_oracle::disagreements(d)); }

TEST(Cm1Oracle, OrModeCombinesOrDeliversApart) {
  DeliveryCycle d = two_to_one(Ejection::kOrCombine);
  d.received = {{0, 53, 0, 0xff}};  // the ejector ORs the two bitstreams
  EXPECT_EQ(all(d), "");
  d.received = {{0, 53, 0, 0x0f}, {1, 53, 0, 0xf0}};
  EXPECT_EQ(all(d), "");
  d.received = {{0, 53, 0, 0xfe}};
  EXPECT_NE(all(d).find("processor 53: message vp 0 data 0xf is in no reception"), std::string::npos) << all(d);
  d.received = {{0, 53, 0, 0xff}, {0, 53, 0, 0x0f}, {1, 52, 0, 0x0f}};
  EXPECT_NE(all(d).find("processor 52: received, but nothing was sent to it"), std::string::npos) << all(d);
  EXPECT_NE(all(d).find("processor 53: two receptions in petit cycle 0"), std::string::npos) << all(d);
}

// Each message inside some reception and each reception covering some message is not enough:
// 1, 2 and 4 cannot be split into receptions 3 and 6.
TEST(Cm1Oracle, OrModeNeedsAnExactSplit) {
  DeliveryCycle d;
  d.sent = {{0, 7, 0, 1}, {1, 7, 0, 2}, {2, 7, 0, 4}};
  d.petit_cycles = 2;
  d.received = {{0, 7, 0, 3}, {1, 7, 0, 6}};
  EXPECT_NE(all(d).find("processor 7: its receptions are not the ORs of a split of the 3 messages"), std::string::npos)
      << all(d);
  d.received = {{0, 7, 0, 3}, {1, 7, 0, 4}};
  EXPECT_EQ(all(d), "");
}

TEST(Cm1Oracle, OnePerPetitModeDeliversEachMessageAlone) {
  DeliveryCycle d = two_to_one(Ejection::kOnePerPetit);
  d.received = {{0, 53, 0, 0x0f}, {1, 53, 0, 0xf0}};
  EXPECT_EQ(all(d), "");
  d.received = {{0, 53, 0, 0xff}};
  EXPECT_NE(all(d).find("processor 53: 2 messages sent, 1 received"), std::string::npos) << all(d);
  d.received = {{0, 53, 0, 0x0f}, {0, 53, 0, 0xf0}};
  EXPECT_NE(all(d).find("two receptions in petit cycle 0"), std::string::npos) << all(d);
  d.received = {{0, 53, 0, 0x0f}, {1, 53, 1, 0xf0}};  // a VP-ADDRESS bit flipped
  EXPECT_NE(all(d).find("not the same VP-ADDRESS and DATA"), std::string::npos) << all(d);
}

TEST(Cm1Oracle, ASenderInjectsOneMessageAPetitCycle) {
  DeliveryCycle d;
  d.sent = {{3, 1, 0, 1}, {3, 2, 0, 2}, {3, 4, 0, 3}};
  d.received = {{0, 1, 0, 1}, {1, 2, 0, 2}, {1, 4, 0, 3}};
  d.petit_cycles = 2;
  EXPECT_NE(all(d).find("processor 3 sent 3 messages in 2 petit cycles"), std::string::npos) << all(d);
  d.received.back().petit = 2;
  EXPECT_NE(all(d).find("a reception in petit cycle 2 of a delivery cycle of 2"), std::string::npos) << all(d);
}

// What a board reports, per processor tallies (count, XOR of check words, petit sum, injected),
// against the same promises. OR mode: 1, 3 and 2 in two receptions can XOR to 1 ({1, 3} {2}),
// 0 or 2, never 3.
TEST(Cm1Oracle, TalliesShowTheSamePromises) {
  using cm1_oracle::TalliedCycle;
  TalliedCycle d;
  d.sent = {{0, 1, 1, 0}, {2, 1, 1, 1}, {3, 1, 0, 1}};  // {DATA, VP} words 1, 3, 2 with vp_bits 1
  d.vp_bits = 1;
  d.petit_cycles = 2;
  d.processors = {{0, 0, 0, 1}, {2, 1, 1, 0}, {0, 0, 0, 1}, {0, 0, 0, 1}};
  auto said = [&] { return joined_lines(cm1_oracle::disagreements(d)); };
  EXPECT_EQ(said(), "");
  d.processors[1].xor_word = 3;
  EXPECT_NE(said().find("processor 1: check words XOR to 0x3: no split of its 3 messages into 2 ORed receptions"),
            std::string::npos) << said();
  d.processors[1] = {1, 3, 0, 0};  // everything ORed in one reception
  EXPECT_EQ(said(), "");
  d.processors[1] = {4, 0, 0, 0};
  EXPECT_NE(said().find("processor 1: 4 receptions in 2 petit cycles"), std::string::npos) << said();
  d.processors[1] = {2, 1, 3, 0};  // two receptions in petit cycles 0 and 1 sum to 1
  EXPECT_NE(said().find("processor 1: petit cycles summing to 3, 2 distinct ones of 0..1 sum to 1..1"),
            std::string::npos) << said();
  d.processors[1] = {2, 1, 1, 0};
  d.processors[3].injected = 0;
  EXPECT_NE(said().find("processor 3: injected 0 messages, it has 1 to send"), std::string::npos) << said();
  d.processors[3].injected = 1;
  d.ejection = Ejection::kOnePerPetit;  // one reception per message: 3 in 2 petit cycles cannot be
  d.petit_cycles = 3;
  d.processors[1] = {3, 1 ^ 3 ^ 2, 0 + 1 + 2, 0};
  EXPECT_EQ(said(), "");
  d.processors[1].xor_word ^= 4;
  EXPECT_NE(said().find("processor 1: check words XOR to 0x4, its messages' to 0x0"), std::string::npos) << said();
  d.processors[1] = {2, 1, 1, 0};
  EXPECT_NE(said().find("processor 1: 2 receptions for 3 messages (one each)"), std::string::npos) << said();
}

// The reference model's receptions of every named pattern are what the paper promises, in both
// ejector modes (a cheap second look beside the RTL's).
TEST(Cm1Oracle, ModelAgreesOnEveryPattern) {
  Cm1Params p;
  p.cube_dims = 4;
  p.procs_per_chip = 4;
  p.data_bits = 8;
  p.vp_bits = 1;
  for (const auto& name : pattern_names())
    for (EjectMode mode : {EjectMode::kOrCombine, EjectMode::kOnePerPetit}) {
      const Traffic t = make_pattern(name, p, 11, 2);
      const Cm1RunResult m = run_cm1_model(p, t, mode);
      ASSERT_TRUE(m.completed) << name;
      expect_oracle_agrees(t, receptions_from_model(p, t, m), mode, m.petit_cycles, name + " " + to_string(mode));
    }
}

}  // namespace
}  // namespace cmnet

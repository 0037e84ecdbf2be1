// The CM-5 data network's functional oracle (sim/cm5data/oracle) on hand-worked cases from the
// paper, the comparison catching each kind of wrong run (a flipped word, a missing or duplicated
// message, a wrong leaf, an early arrival...), and the reference model's runs agreeing with it
// (the RTL's are checked in every RTL == model test: tests/cm5data/cm5data_check.h).
#include "sim/cm5data/oracle/cm5data_oracle.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_traffic.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/cm5data/cm5data_oracle_check.h"

namespace cmnet {
namespace {

namespace o = cm5data_oracle;

// 16 leaves, 2 parents at level 1, 4-bit links (8 flits a word).
o::Shape sixteen() {
  o::Shape s;
  s.leaves = 16;
  s.parents = {2};
  s.link_bits = 4;
  return s;
}

// Hand-built: the head word of a message to leaf 9 (digits 1 at level 1, 2 at level 2) with
// 1 data word and tag 5 is 1 | 5 << 8 | 1 << 12 | 2 << 14 = 0x9501; its CRC-32 (MSB first,
// init all ones, no final XOR: CRC-32/MPEG-2) over 0x9501, 0xAB computed by hand-written Python.
struct Case {
  std::vector<o::Message> msgs;
  o::Run run;
};

Case zero_to_nine() {
  Case c;
  c.msgs = {{0, 9, 5, {0xABu}, 0, false}};
  c.run.sent = {4};
  c.run.refused = {0};
  c.run.arrivals = {{0, 9, 40, {0x9501u, 0xABu, 0x9E6F89C7u}, true}};
  return c;
}

std::string all(const o::Shape& s, const o::Options& opt, const Case& c) {
  return cm5_oracle_report(o::check(s, opt, c.msgs, c.run), 100);
}

TEST(Cm5Oracle, TreeGeometry) {
  // Leaves 0..3 share their level-1 chip, 0..15 their level-2 node, 0..63 the level-3 one.
  EXPECT_EQ(o::lca_level(0, 0), 1);
  EXPECT_EQ(o::lca_level(0, 3), 1);
  EXPECT_EQ(o::lca_level(0, 4), 2);
  EXPECT_EQ(o::lca_level(5, 9), 2);
  EXPECT_EQ(o::lca_level(15, 0), 2);
  EXPECT_EQ(o::lca_level(0, 16), 3);
  EXPECT_EQ(o::lca_level(63, 0), 3);
  EXPECT_EQ(o::height_of(sixteen()), 2);
  // 0 -> 9: up 2 links, down 2; the first flit passes 3 chips; 3 words of 8 flits follow it:
  // sent 4 + 3 x 1 + 24 - 1 = 30 (2 cycles a chip: 33).
  o::Options opt;
  EXPECT_EQ(o::earliest_arrival(sixteen(), opt, 0, 9, 1, 4), 30u);
  opt.min_hop_cycles = 2;
  EXPECT_EQ(o::earliest_arrival(sixteen(), opt, 0, 9, 1, 4), 33u);
  // A message to itself goes through its level-1 chip: 2 links, 1 chip.
  EXPECT_EQ(o::earliest_arrival(sixteen(), opt, 6, 6, 1, 0), 2u + 23u);
}

TEST(Cm5Oracle, CrcAndHeadWord) {
  o::Options opt;
  // The CRC-32/MPEG-2 catalogue's "12345678" (the check string's first 8 bytes, as 2 words).
  EXPECT_EQ(o::crc(opt, {0x31323334u, 0x35363738u}), 0x49E3C2FBu);
  EXPECT_EQ(o::crc(opt, {0x9501u, 0xABu}), 0x9E6F89C7u);
  // Appending the CRC leaves no remainder.
  EXPECT_EQ(o::crc(opt, {0x9501u, 0xABu, 0x9E6F89C7u}), 0u);
  EXPECT_EQ(o::head_word(sixteen(), 9, 1, 5), 0x9501u);
  EXPECT_EQ(o::head_word(sixteen(), 15, 5, 0), 0x5u | 3u << 12 | 3u << 14);
  EXPECT_TRUE(o::fell(0x9509u));
  EXPECT_FALSE(o::fell(0x9501u));
}

TEST(Cm5Oracle, AGoodRunAgrees) {
  Case c = zero_to_nine();
  EXPECT_EQ(all(sixteen(), {}, c), "");
  // U (bits 7:4) changes on the way and is not part of what the message carries.
  c.run.arrivals[0].words[0] |= 0x10u;
  EXPECT_EQ(all(sixteen(), {}, c), "");
  // A message to its own leaf, and one refused for a mapped-out destination.
  o::Shape s = sixteen();
  s.mapped_out_leaves = {12};
  c.msgs.push_back({6, 6, 0, {1u, 2u}, 0, false});
  c.msgs.push_back({3, 12, 0, {7u}, 0, false});
  c.run.sent.insert(c.run.sent.end(), {0, o::kNotSent});
  c.run.refused.insert(c.run.refused.end(), {0, 1});
  const uint32_t h = o::head_word(s, 6, 2, 0);
  c.run.arrivals.push_back({1, 6, 60, {h, 1u, 2u, o::crc({}, {h, 1u, 2u})}, true});
  EXPECT_EQ(all(s, {}, c), "");
}

TEST(Cm5Oracle, CatchesAFlippedWord) {
  Case c = zero_to_nine();
  c.run.arrivals[0].words[1] ^= 0x10u;
  c.run.arrivals[0].crc_ok = false;
  EXPECT_NE(all(sixteen(), {}, c).find("message 0: arrived with a failing CRC on a run without a faulty link (data "
                                       "word 0 0xbb, sent 0xab)"),
            std::string::npos)
      << all(sixteen(), {}, c);
  // A faulty link may corrupt a message when the CRC says so...
  o::Options faulty;
  faulty.faulty_links = true;
  EXPECT_EQ(all(sixteen(), faulty, c), "");
  // ...but a CRC that verifies over changed words is a corruption the network did not see.
  c.run.arrivals[0].words[2] = o::crc({}, {0x9501u, 0xBBu});
  c.run.arrivals[0].crc_ok = true;
  EXPECT_NE(all(sixteen(), faulty, c).find("arrived changed (data word 0 0xbb, sent 0xab) with a CRC that verifies"),
            std::string::npos)
      << all(sixteen(), faulty, c);
  // The leaf's own CRC verdict is checked too.
  Case d = zero_to_nine();
  d.run.arrivals[0].crc_ok = false;
  EXPECT_NE(all(sixteen(), {}, d).find("the leaf says the CRC is bad, it is good"), std::string::npos);
}

TEST(Cm5Oracle, CatchesMissingDuplicatedMisroutedAndStrangers) {
  Case c = zero_to_nine();
  c.run.arrivals.clear();
  EXPECT_NE(all(sixteen(), {}, c).find("message 0: arrived 0 times, expected once (0 -> 9)"), std::string::npos);
  c = zero_to_nine();
  c.run.arrivals.push_back(c.run.arrivals[0]);
  EXPECT_NE(all(sixteen(), {}, c).find("message 0: arrived 2 times, expected once (0 -> 9)"), std::string::npos);
  c = zero_to_nine();
  c.run.arrivals[0].leaf = 8;
  EXPECT_NE(all(sixteen(), {}, c).find("message 0: arrived at leaf 8, sent to 9"), std::string::npos);
  c = zero_to_nine();
  c.run.unattributed = 1;
  c.run.arrivals.push_back({-1, 3, 50, {}, false});
  EXPECT_NE(all(sixteen(), {}, c).find("run: 2 arrivals that no message sent"), std::string::npos);
  // A head word rebuilt wrong (the tag, a digit of the route) is a change the CRC would cover.
  c = zero_to_nine();
  c.run.arrivals[0].words[0] = 0x9401u;
  c.run.arrivals[0].words[2] = o::crc({}, {0x9401u, 0xABu});
  EXPECT_NE(all(sixteen(), {}, c).find("arrived changed (head word 0x9401, sent 0x9501)"), std::string::npos);
}

TEST(Cm5Oracle, CatchesAnArrivalBeforeTheBound) {
  Case c = zero_to_nine();
  c.run.arrivals[0].cycle = 29;  // the bound is 30 (TreeGeometry)
  EXPECT_NE(all(sixteen(), {}, c).find("arrived at cycle 29, before the earliest possible 30 (sent 4)"),
            std::string::npos);
  c.run.arrivals[0].cycle = 30;
  EXPECT_EQ(all(sixteen(), {}, c), "");
  c.run.sent[0] = 0;
  c.msgs[0].inject_at = 2;
  EXPECT_NE(all(sixteen(), {}, c).find("left its leaf at cycle 0, before its inject cycle 2"), std::string::npos);
}

TEST(Cm5Oracle, CatchesAnOverloadedLeafLink) {
  // Two 3-word messages (24 flits each) into leaf 9 cannot both end within 40 cycles of the
  // first leaving: leaf 9's one link carries 48 flits in no fewer than 48 cycles.
  Case c = zero_to_nine();
  c.msgs.push_back({1, 9, 5, {0xABu}, 0, false});
  c.run.sent.push_back(4);
  c.run.refused.push_back(0);
  c.run.arrivals.push_back({1, 9, 40, c.run.arrivals[0].words, true});
  EXPECT_NE(all(sixteen(), {}, c).find("run: 48 flits into the level-0 subtree 9 over 1 links in cycles 4..40"),
            std::string::npos)
      << all(sixteen(), {}, c);
  c.run.arrivals[1].cycle = 64;
  EXPECT_EQ(all(sixteen(), {}, c), "");
}

TEST(Cm5Oracle, ArmCountersFollowTheCommonAncestor) {
  // 64 leaves; 0 -> 9 climbs to their level-2 ancestor: leaf 0's link, the arm above level-1
  // node 0, then down the arm into level-1 node 2 and leaf 9's link; nothing crosses level 2.
  o::Shape s = sixteen();
  s.leaves = 64;
  s.parents = {2, 2};
  Case c = zero_to_nine();
  c.run.arm_up = {std::vector<uint64_t>(64, 0), std::vector<uint64_t>(16, 0), std::vector<uint64_t>(4, 0)};
  c.run.arm_down = c.run.arm_up;
  c.run.arm_up[0][0] = c.run.arm_up[1][0] = 1;
  c.run.arm_down[0][9] = c.run.arm_down[1][2] = 1;
  EXPECT_EQ(all(s, {}, c), "");
  // Climbing one level too high: it also crosses the arm above (and into) level-2 node 0.
  c.run.arm_up[2][0] = c.run.arm_down[2][0] = 1;
  const std::string v = all(s, {}, c);
  EXPECT_NE(v.find("run: the arm above level-2 node 0 counted 1 messages, the routing to the common ancestor sends 0"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find("run: the arm into level-2 node 0 counted 1 messages"), std::string::npos) << v;
}

// Untimed, data words only (a board read through its interfaces): the same message taken with
// its data is right at any cycle; a flipped word, a wrong leaf or a missing message is not.
TEST(Cm5Oracle, UntimedDataWordsOnly) {
  const o::Shape s = sixteen();
  o::Options u;
  u.timed = false;
  u.data_words_only = true;
  Case c = zero_to_nine();
  c.run.sent = {0};
  c.run.arrivals = {{0, 9, 0, {0xABu}, true}};
  EXPECT_EQ(all(s, u, c), "");
  c.run.arrivals[0].words = {0xAAu};
  EXPECT_NE(all(s, u, c).find("message 0: arrived with data words other than those sent"), std::string::npos);
  c.run.arrivals[0] = {0, 8, 0, {0xABu}, true};
  EXPECT_NE(all(s, u, c).find("message 0: arrived at leaf 8, sent to 9"), std::string::npos);
  c.run.arrivals.clear();
  EXPECT_NE(all(s, u, c).find("message 0: arrived 0 times, expected once"), std::string::npos);
  c.run.refused = {1};
  c.run.sent = {o::kNotSent};
  EXPECT_NE(all(s, u, c).find("addressable, but refused (0 -> 9)"), std::string::npos);
}

TEST(Cm5Oracle, InterfaceRefusalsAndPartitions) {
  o::Shape s = sixteen();
  s.partitions = {{4, 4}};  // leaves 4..7, a level-1 subtree
  Case c = zero_to_nine();
  c.msgs = {{5, 9, 5, {0xABu}, 0, false}};  // out of its partition: refused
  EXPECT_NE(all(s, {}, c).find("message 0: the interface must refuse it (5 -> 9)"), std::string::npos);
  EXPECT_NE(all(s, {}, c).find("message 0: left its leaf at cycle 4, refused (5 -> 9)"), std::string::npos);
  EXPECT_NE(all(s, {}, c).find("message 0: arrived 1 times, refused (5 -> 9)"), std::string::npos);
  c.msgs = {{0, 9, 5, {0xABu}, 0, false}};  // leaf 0 is in no partition: it may address any leaf
  EXPECT_EQ(all(s, {}, c), "");
  c.run.refused = {1};
  EXPECT_NE(all(s, {}, c).find("addressable, but refused (0 -> 9)"), std::string::npos);
  o::Options self;
  self.self_send = o::SelfSend::refused;
  EXPECT_TRUE(o::refused_by_interface(s, self, {6, 6, 0, {1u}, 0, false}));
  EXPECT_FALSE(o::refused_by_interface(s, {}, {6, 6, 0, {1u}, 0, false}));
}

TEST(Cm5Oracle, AllFallDownStaysUnderTheCommonAncestor) {
  o::Options afd;
  afd.all_fall_down = true;
  Case c = zero_to_nine();
  c.run.arrivals[0].words[0] |= 0x8u;  // marked: fell
  EXPECT_NE(all(sixteen(), {}, c).find("arrived marked all-fall-down on a run without all-fall-down"),
            std::string::npos);
  c.run.arrivals[0].leaf = 13;  // anywhere under the level-2 common ancestor of 0 and 9
  EXPECT_EQ(all(sixteen(), afd, c), "");
  o::Shape s64 = sixteen();
  s64.leaves = 64;
  s64.parents = {2, 2};
  c.run.arrivals[0].leaf = 17;  // 64 leaves: outside the level-2 subtree of 0 and 9
  c.run.arrivals[0].cycle = 100;
  const std::string v = all(s64, afd, c);
  EXPECT_NE(v.find("fell to leaf 17, outside the level-2 subtree of its source and destination"), std::string::npos)
      << v;
  // Sent marked, it arrives marked.
  c = zero_to_nine();
  c.msgs[0].marked = true;
  EXPECT_NE(all(sixteen(), afd, c).find("sent marked all-fall-down, arrived unmarked"), std::string::npos);
}

TEST(Cm5Oracle, ShapeIsThePapers) {
  o::Shape s = sixteen();
  s.arity = 2;
  s.parents = {3};
  const std::string v = all(s, {}, zero_to_nine());
  EXPECT_NE(v.find("arity 2: the CM-5 data network is 4-ary"), std::string::npos) << v;
  EXPECT_NE(v.find("a chip with 3 parents (the paper: 2 or 4)"), std::string::npos) << v;
}

// The model's runs (every pattern, both profiles, 16 and 64 leaves, faults, all-fall-down,
// partitions) are what the paper promises.
TEST(Cm5Oracle, ModelRunsAgree) {
  for (int h : {2, 3})
    for (const char* profile : {"cm5", "full"}) {
      Cm5DataParams p = cm5data_test_config(h, profile, h == 2 ? 4 : 16, 2, 7, "oracle").cm5;
      for (const auto& pat : kPatterns) {
        const Cm5DataTraffic t = make_cm5_pattern(pat, p, 3, 3);
        expect_cm5_oracle_agrees(p, t, run_cm5data_model(p, t), false, pat);
      }
      const Cm5DataTraffic t = make_cm5_open_loop("random", p, 5, 0.05, 200, 2);
      expect_cm5_oracle_agrees(p, t, run_cm5data_model(p, t), false, "open loop");
    }
  Cm5DataParams p = cm5data_test_config(2, "cm5", 4, 2, 3, "oracle").cm5;
  add_mapped_out_and_bad_link(p);
  Cm5DataTraffic t = make_cm5_pattern("all-to-one", p, 6, 4, 5);
  for (size_t i = 0; i < t.messages.size(); i += 5) t.messages[i].afd = true;
  Cm5DataModelOptions mo;
  mo.afd_at.assign(p.total_chips(), kCm5Never);
  mo.afd_at[5] = 30;
  mo.afd_at[0] = 90;
  expect_cm5_oracle_agrees(p, t, run_cm5data_model(p, t, mo), true, "faults and all-fall-down");
  Cm5DataParams q = cm5data_test_config(2, "cm5", 4, 2, 3, "oracle").cm5;
  q.partitions = {{1, 1}, {1, 2}};
  q.mapped_out_leaves = {11};
  validate(q, "test");
  Cm5DataTraffic u = make_cm5_pattern("random", q, 8, 3);
  u.messages.push_back({5, 0, 1, 0, {9u}, 0, false, 0});  // out of its partition: refused
  expect_cm5_oracle_agrees(q, u, run_cm5data_model(q, u), false, "partitions");
}

// The adapter turns a corrupted model run into disagreements: one word flipped, one message
// dropped, one delivered twice, one link counter off by one.
TEST(Cm5Oracle, AdapterCatchesACorruptedRun) {
  const Cm5DataParams p = cm5data_test_config(2, "cm5", 4, 2, 1, "oracle").cm5;
  const Cm5DataTraffic t = make_cm5_pattern("random", p, 2, 2);
  const Cm5DataRunResult good = run_cm5data_model(p, t);
  EXPECT_TRUE(cm5_oracle_disagreements(p, t, good, false).empty());
  Cm5DataRunResult r = good;
  r.deliveries[3].words[1] ^= 1u;
  auto v = cm5_oracle_report(cm5_oracle_disagreements(p, t, r, false));
  EXPECT_NE(v.find("message 3: the leaf says the CRC is good, it is bad"), std::string::npos) << v;
  EXPECT_NE(v.find("message 3: arrived with a failing CRC on a run without a faulty link (data word 0"),
            std::string::npos)
      << v;
  r = good;
  r.deliveries[4].delivered = false;
  v = cm5_oracle_report(cm5_oracle_disagreements(p, t, r, false));
  EXPECT_NE(v.find("message 4: arrived 0 times, expected once"), std::string::npos) << v;
  r = good;
  r.deliveries[5].copies = 2;
  v = cm5_oracle_report(cm5_oracle_disagreements(p, t, r, false));
  EXPECT_NE(v.find("message 5: arrived 2 times, expected once"), std::string::npos) << v;
  r = good;
  ++r.chips[cm5_chip_id(p, 1, 3, 0)].out.at(5);  // one more message up from level-1 node 3
  v = cm5_oracle_report(cm5_oracle_disagreements(p, t, r, false));
  EXPECT_NE(v.find("run: the arm above level-1 node 3 counted"), std::string::npos) << v;
}

}  // namespace
}  // namespace cmnet

// The CM-5 data network reference model: every pattern at 16 and 64 leaves with 2 and 4 parents
// delivers every message exactly once, intact, at its destination; the link counters agree at
// both ends and every chip conserves messages on every cycle (Kirchhoff); up-routing spreads
// over the parents; round-robin arbitration starves no input; the LFSR is maximal.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_perf.h"
#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

Cm5DataParams params(int h, const std::string& profile, int W = 4, int buffer_words = 2) {
  Cm5DataParams p;
  p.height = h;
  p.profile = profile;
  p.link_bits = W;
  p.buffer_words = buffer_words;
  p.seed = 7;
  return p;
}

struct Case {
  int h;
  const char* profile;
  const char* pattern;
};

class Cm5ModelPatterns : public ::testing::TestWithParam<Case> {};

TEST_P(Cm5ModelPatterns, DeliversEveryMessageOnceAndConserves) {
  const Case k = GetParam();
  const Cm5DataParams p = params(k.h, k.profile, k.h == 2 ? 4 : 8);
  const Cm5DataTraffic t = make_cm5_pattern(k.pattern, p, 3, 4);
  Cm5DataModelOptions opt;
  opt.check_every_cycle = true;
  const Cm5DataRunResult r = run_cm5data_model(p, t, opt);
  expect_all_delivered_once(p, t, r);
  expect_counters_conserve(p, t, r);
  EXPECT_EQ(r.kirchhoff_violations, 0u);
  EXPECT_GT(r.max_held, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    All, Cm5ModelPatterns,
    ::testing::ValuesIn([] {
      std::vector<Case> v;
      for (int h : {2, 3})
        for (const char* prof : {"cm5", "full"})
          for (const char* pat : {"random", "permutation", "hot-spot", "all-to-one", "nearest-neighbour", "bit-complement"})
            v.push_back({h, prof, pat});
      return v;
    }()),
    [](const ::testing::TestParamInfo<Case>& i) {
      std::string pat = i.param.pattern;
      std::replace(pat.begin(), pat.end(), '-', '_');
      return std::to_string(1 << (2 * i.param.h)) + "_leaves_" + (std::string(i.param.profile) == "cm5" ? "p2" : "p4") +
             "_" + pat;
    });

TEST(Cm5Model, EveryLinkWidthAndBufferDepth) {
  for (int W : {4, 8, 16, 32})
    for (int b : {1, 3}) {
      const Cm5DataParams p = params(2, "full", W, b);
      const Cm5DataTraffic t = make_cm5_pattern("random", p, 11, 3);
      const Cm5DataRunResult r = run_cm5data_model(p, t);
      expect_all_delivered_once(p, t, r);
      expect_counters_conserve(p, t, r);
    }
}

TEST(Cm5Model, OneMessageTakesTheShortestTime) {
  // Alone in the network, leaf 0 to leaf 15 (h = 2): up to level 2 and down, 4 hops of chips.
  // Per chip: the head word's flits arrive (FPW), one cycle to grant, one to move; the leaf
  // link and every chip link add a cycle each.
  const Cm5DataParams p = params(2, "cm5", 32, 4);
  Cm5DataTraffic t;
  Cm5DataMessage m;
  m.src = 0;
  m.dst = 15;
  m.len = 1;
  m.data = {0xabcd};
  t.messages.push_back(m);
  const Cm5DataRunResult r = run_cm5data_model(p, t);
  ASSERT_TRUE(r.completed);
  // W = 32: 3 flits; 3 chips (level 1, level 2, level 1). The leaf sends flit 0 at cycle 0;
  // the first chip has it at 1, grants at 1, moves it at 2; it is on the next link at 3: 3
  // cycles per chip, the head on the destination's leaf link at 9, the last flit 2 later.
  EXPECT_EQ(r.deliveries[0].sent, 0u);
  EXPECT_EQ(r.deliveries[0].arrived, 3u * 3u + 2u);
  // W = 4: 8 flits a word; the whole head word (8 flits) must be in before the grant.
  Cm5DataParams q = p;
  q.link_bits = 4;
  const Cm5DataRunResult r4 = run_cm5data_model(q, t);
  EXPECT_EQ(r4.deliveries[0].arrived, 3u * (8u + 2u) + (3u * 8u - 1u));
  // request_stage 1: the grant a cycle after the request, at every chip: 3 cycles more.
  q.request_stage = 1;
  const Cm5DataRunResult rs = run_cm5data_model(q, t);
  ASSERT_TRUE(rs.completed);
  EXPECT_EQ(rs.deliveries[0].arrived, r4.deliveries[0].arrived + 3u);
  EXPECT_EQ(rs.deliveries[0].words, r4.deliveries[0].words);
}

TEST(Cm5Model, UpRoutingSpreadsOverTheParents) {
  // Bit-complement at 64 leaves sends everything over the root: every parent link of every
  // level-1 and level-2 chip carries messages.
  const Cm5DataParams p = params(3, "full", 8);
  const Cm5DataTraffic t = make_cm5_pattern("bit-complement", p, 5, 8);
  const Cm5DataRunResult r = run_cm5data_model(p, t);
  ASSERT_TRUE(r.completed);
  for (int l = 1; l <= 2; ++l)
    for (uint32_t n = 0; n < p.nodes_at(l); ++n)
      for (int j = 0; j < p.chips_per_node(l); ++j) {
        const Cm5DataChipCounters& c = r.chips[cm5_chip_id(p, l, n, j)];
        for (int q = 0; q < 4; ++q) EXPECT_GT(c.out[static_cast<size_t>(4 + q)], 0u) << l << " " << n << " " << j;
      }
}

TEST(Cm5Model, NoInputStarvesWhileTheOthersSaturate) {
  // Every leaf sends 12 messages to leaf 0 at once: leaf 0's link is saturated for the whole
  // run. Round-robin on every output: each source's messages keep arriving; no source waits
  // longer between two deliveries than every source getting one message through, twice over.
  for (const char* prof : {"cm5", "full"}) {
    const Cm5DataParams p = params(2, prof, 8);
    const Cm5DataTraffic t = make_cm5_pattern("all-to-one", p, 1, 12, 2);
    const Cm5DataRunResult r = run_cm5data_model(p, t);
    ASSERT_TRUE(r.completed);
    const uint64_t msg_flits = static_cast<uint64_t>(p.message_flits(2));
    std::map<uint32_t, std::vector<uint64_t>> by_src;
    for (size_t i = 0; i < t.messages.size(); ++i) by_src[t.messages[i].src].push_back(r.deliveries[i].arrived);
    uint64_t worst = 0;
    std::map<uint32_t, uint64_t> gap;
    for (auto& [src, v] : by_src) {
      std::sort(v.begin(), v.end());
      uint64_t prev = 0;
      for (uint64_t a : v) {
        gap[src] = std::max(gap[src], a - prev);
        prev = a;
      }
      worst = std::max(worst, gap[src]);
    }
    // A child input of the hot chip (leaves 1-3) waits at most one round-robin round of the
    // hot output: every other input one message (msg_flits + 1 cycles each, the release cycle).
    const uint64_t ni = 4 + static_cast<uint64_t>(p.parents_at(1));
    for (uint32_t leaf : {1u, 2u, 3u}) EXPECT_LE(gap[leaf], ni * (msg_flits + 1) + 16) << prof << " leaf " << leaf;
    // Every source, however far, keeps getting through (no starvation).
    EXPECT_LE(worst, 4 * p.leaves() * msg_flits) << prof;
    // The hot link is busy: the run takes about what leaf 0's link needs, not much more.
    EXPECT_LE(r.cycles, t.messages.size() * msg_flits * 11 / 10 + 200) << prof;
    // And a child input of the hot chip (leaf 1) gets its share while the parents saturate:
    // its last message arrives before the last of all.
    EXPECT_LT(by_src[1].back(), r.cycles - 1) << prof;
  }
}

TEST(Cm5Model, LfsrIsMaximal) {
  uint16_t s = 0xACE1;
  std::set<uint16_t> seen;
  for (int i = 0; i < 65535; ++i) {
    EXPECT_TRUE(seen.insert(s).second);
    s = cm5_lfsr_step(s);
  }
  EXPECT_EQ(s, 0xACE1);
}

TEST(Cm5Model, RejectsTrafficThatDoesNotFit) {
  const Cm5DataParams p = params(2, "cm5");
  Cm5DataTraffic t = make_cm5_pattern("random", p, 1, 1);
  t.messages[3].dst = 16;
  EXPECT_THROW(run_cm5data_model(p, t), InputError);
  EXPECT_THROW(make_cm5_pattern("tornado", p, 1, 1), InputError);
}

}  // namespace
}  // namespace cmnet

namespace cmnet {
namespace {

TEST(Cm5PerformanceModel, WorstArmLoadOverArmBandwidth) {
  // Bit-complement sends every message over the root: on the CM-5 profile the level-2 arms
  // (16 leaves, 4 links up) allow a quarter of a link per leaf; a full tree allows a whole link.
  Cm5DataParams p = params(3, "cm5");
  const Cm5DataArmBound b = cm5_pattern_bound(p, "bit-complement", 1, 4, 5);
  EXPECT_DOUBLE_EQ(b.rate_per_leaf, 0.25);
  EXPECT_NE(b.worst_arm.find("level 2"), std::string::npos) << b.worst_arm;
  p.profile = "full";
  EXPECT_DOUBLE_EQ(cm5_pattern_bound(p, "bit-complement", 1, 4, 5).rate_per_leaf, 1.0);
  // Uniform random at 256 leaves, CM-5 profile: the level-2 arms carry 15/16 of their leaves'
  // traffic on 4 links for 16 leaves: about 4/15 of a link per leaf.
  Cm5DataParams q = params(4, "cm5");
  const double r = cm5_pattern_bound(q, "random", 1, 2048, 5).rate_per_leaf;
  EXPECT_GT(r, 0.24);
  EXPECT_LT(r, 4.0 / 15.0 + 1e-9);
  // The bound of one message set: the same arithmetic on the messages given.
  const Cm5DataTraffic t = make_cm5_pattern("all-to-one", q, 1, 1, 5);
  EXPECT_NEAR(cm5_arm_bound(q, t).rate_per_leaf, 1.0 / q.leaves(), 1e-12);
  EXPECT_EQ(cm5_arm_bound(q, t).worst_arm, "leaf 0 in");
}

}  // namespace
}  // namespace cmnet

// User partitions of the CM-5 data network (section 3: "A user partition corresponds to a subtree
// in the network. Messages local to a given partition are routed within the partition's subtree
// ... message traffic within a partition ... does not affect traffic within any other
// partitions"; section 2: relative addresses are bounds checked). The config field and its
// refusals; the patterns run per partition; the bounds check at the sender; no chip outside a
// partition's subtree carries its messages; one partition's deliveries are the same, cycle for
// cycle, with or without the others' traffic, on the model and on the RTL.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_ni.h"
#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

Cm5DataParams params64() {
  Cm5DataParams p;
  p.height = 3;
  p.profile = "cm5";
  p.link_bits = 8;
  // Leaves 0..15, 20..23 and 32..47; the rest (the control processors' and I/O's) in none.
  p.partitions = {{2, 0}, {1, 5}, {2, 2}};
  validate(p, "test");
  return p;
}

// Whether chip c lies in the subtree of partition k.
bool chip_in(const Cm5DataParams& p, uint32_t c, size_t k) {
  const Cm5DataChipPos pos = cm5_chip_pos(p, c);
  const Cm5DataPartition& q = p.partitions[k];
  return pos.level <= q.level && (pos.node >> (2 * (q.level - pos.level))) == q.node;
}

std::string refusal(const std::string& json) {
  try {
    parse_cm5data_config(json, "p.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Cm5Partitions, ConfigFieldRoundTripAndRefusals) {
  const Cm5DataConfig c = parse_cm5data_config(
      R"({"network":"cm5data","name":"p","cm5data":{"height":2,"partitions":[{"level":1,"node":3},{"level":1,"node":0}]}})",
      "p.json");
  ASSERT_EQ(c.cm5.partitions.size(), 2u);
  EXPECT_EQ(c.cm5.partition_base(0), 12u);
  EXPECT_EQ(c.cm5.partition_size(0), 4u);
  EXPECT_EQ(c.cm5.partition_of(13), 0);
  EXPECT_EQ(c.cm5.partition_of(2), 1);
  EXPECT_EQ(c.cm5.partition_of(7), -1);
  EXPECT_EQ(parse_cm5data_config(config_to_json(c), "again").cm5.partitions, c.cm5.partitions);
  // The whole machine as one partition.
  EXPECT_EQ(refusal(R"({"network":"cm5data","name":"p","cm5data":{"height":2,"partitions":[{"level":2,"node":0}]}})"),
            "(accepted)");
  const std::string head = R"({"network":"cm5data","name":"p","cm5data":{"height":2,)";
  auto has = [&](const std::string& body, const std::string& what) {
    const std::string e = refusal(head + body + "}}");
    EXPECT_NE(e.find(what), std::string::npos) << body << " -> " << e;
  };
  has(R"("partitions":[{"level":1,"node":1},{"level":2,"node":0}])",
      "p.json: cm5data: partitions[1] (level 2, node 0) overlaps partitions[0] (partitions are disjoint subtrees)");
  has(R"("partitions":[{"level":1,"node":2},{"level":1,"node":2}])", "partitions[1] (level 1, node 2) overlaps partitions[0]");
  has(R"("partitions":[{"level":3,"node":0}])", "partitions[0].level = 3 out of range 1..2");
  has(R"("partitions":[{"level":0,"node":0}])", "partitions[0].level = 0 out of range 1..2");
  has(R"("partitions":[{"level":1,"node":4}])", "partitions[0].node = 4 out of range 0..3");
  has(R"("partitions":[{"level":1,"node":-1}])", "partitions[0]: node = -1 is negative");
  has(R"("partitions":[{"level":1}])", "partitions[0]: node is missing");
  has(R"("partitions":[{"level":1,"node":0,"size":4}])", "partitions[0]");
  has(R"("partitions":{"level":1,"node":0})", "partitions must be a list of subtrees");
  has(R"("partitions":[3])", "partitions[0] must be an object");
  has(R"("partitions":[{"level":1,"node":1}],"mapped_out_leaves":[4,5,6])",
      "partitions[0] has 1 leaf not mapped out (mapped_out_leaves): a partition needs 2");
}

// Every pattern runs inside each partition; the leaves outside every partition send nothing; every
// message arrives once, intact; no chip outside a partition's subtree counts any message.
TEST(Cm5Partitions, PatternsStayInsideTheirSubtrees) {
  const Cm5DataParams p = params64();
  for (const auto& pat : kPatterns) {
    SCOPED_TRACE(pat);
    const Cm5DataTraffic t = make_cm5_pattern(pat, p, 5, 3);
    EXPECT_EQ(t.messages.size(), (16u + 4u + 16u) * 3u);
    std::map<int, std::set<uint32_t>> dsts;
    for (const auto& m : t.messages) {
      const int k = p.partition_of(m.src);
      ASSERT_GE(k, 0) << m.src;
      EXPECT_EQ(p.partition_of(m.dst), k) << m.src << " -> " << m.dst;
      EXPECT_FALSE(cm5_refused(p, m));
      dsts[k].insert(m.dst);
    }
    if (std::string(pat) == "all-to-one") {  // relative leaf 0 of each partition
      EXPECT_EQ(dsts, (std::map<int, std::set<uint32_t>>{{0, {0}}, {1, {20}}, {2, {32}}}));
    }
    Cm5DataModelOptions o;
    o.check_every_cycle = true;
    const Cm5DataRunResult r = run_cm5data_model(p, t, o);
    ASSERT_TRUE(r.completed);
    EXPECT_EQ(r.kirchhoff_violations, 0u);
    expect_all_delivered_once(p, t, r);
    for (uint32_t c = 0; c < p.total_chips(); ++c) {
      bool inside = false;
      for (size_t k = 0; k < p.partitions.size(); ++k) inside = inside || chip_in(p, c, k);
      if (inside) continue;
      uint64_t n = 0;
      for (uint64_t v : r.chips[c].in) n += v;
      EXPECT_EQ(n, 0u) << "chip " << c << " (level " << cm5_chip_pos(p, c).level << ") outside every partition";
    }
  }
}

// The bounds check: a partition's leaf may not address outside its partition (refused at the
// sender, counted, never in the network); a leaf outside every partition may address any leaf.
TEST(Cm5Partitions, TheSendersInterfaceRefusesAddressesOutsideItsPartition) {
  const Cm5DataParams p = params64();
  EXPECT_TRUE(p.may_address(3, 15));
  EXPECT_FALSE(p.may_address(3, 16));
  EXPECT_FALSE(p.may_address(21, 0));
  EXPECT_TRUE(p.may_address(50, 21));  // I/O into a partition
  EXPECT_TRUE(p.may_address(50, 17));
  Cm5DataNiConfig nc;
  Cm5DataNi ni(p, 3, nc);
  EXPECT_TRUE(ni.reachable(12));
  EXPECT_FALSE(ni.reachable(40));
  Cm5DataTraffic t;
  for (auto [s, d] : std::vector<std::pair<uint32_t, uint32_t>>{{3, 40}, {3, 12}, {50, 21}, {21, 0}, {33, 47}}) {
    Cm5DataMessage m;
    m.src = s;
    m.dst = d;
    m.data = {s << 12};
    t.messages.push_back(m);
  }
  const Cm5DataRunResult r = run_cm5data_model(p, t);
  ASSERT_TRUE(r.completed);
  const std::vector<bool> refused = {true, false, false, true, false};
  for (size_t i = 0; i < refused.size(); ++i) {
    EXPECT_EQ(r.deliveries[i].refused, refused[i]) << i;
    EXPECT_EQ(r.deliveries[i].delivered, !refused[i]) << i;
  }
  EXPECT_EQ(r.refused, 2u);
}

// The messages of `t` whose source is in partition k, in order, and their indices in `t`.
Cm5DataTraffic only_partition(const Cm5DataParams& p, const Cm5DataTraffic& t, int k, std::vector<size_t>* at) {
  Cm5DataTraffic o;
  for (size_t i = 0; i < t.messages.size(); ++i)
    if (p.partition_of(t.messages[i].src) == k) {
      o.messages.push_back(t.messages[i]);
      at->push_back(i);
    }
  return o;
}

// Partition k's deliveries alone and among the others' traffic are the same message for message
// and cycle for cycle.
void expect_isolated(const Cm5DataParams& p, const Cm5DataTraffic& all, const Cm5DataRunResult& with_all,
                     const std::function<Cm5DataRunResult(const Cm5DataTraffic&)>& run) {
  for (int k = 0; k < static_cast<int>(p.partitions.size()); ++k) {
    SCOPED_TRACE("partition " + std::to_string(k));
    std::vector<size_t> at;
    const Cm5DataTraffic alone = only_partition(p, all, k, &at);
    ASSERT_FALSE(alone.messages.empty());
    const Cm5DataRunResult r = run(alone);
    ASSERT_EQ(r.deliveries.size(), alone.messages.size());
    for (size_t i = 0; i < at.size(); ++i) {
      const Cm5DataDelivery& a = r.deliveries[i];
      const Cm5DataDelivery& b = with_all.deliveries[at[i]];
      ASSERT_TRUE(a.delivered && b.delivered) << i;
      EXPECT_EQ(a.sent, b.sent) << i;
      EXPECT_EQ(a.arrived, b.arrived) << i;
      EXPECT_EQ(a.words, b.words) << i;
    }
  }
}

TEST(Cm5Partitions, APartitionsTrafficIsTheSameWithOrWithoutTheOthers) {
  const Cm5DataParams p = params64();
  for (const char* pat : {"random", "hot-spot"}) {
    SCOPED_TRACE(pat);
    // Open loop well above saturation: every partition's links busy.
    const Cm5DataTraffic t = make_cm5_open_loop(pat, p, 17, 0.05, 500, 4);
    const Cm5DataRunResult all = run_cm5data_model(p, t);
    ASSERT_TRUE(all.completed);
    expect_isolated(p, t, all, [&](const Cm5DataTraffic& x) { return run_cm5data_model(p, x); });
  }
}

// The same on the RTL (16 leaves: partitions of leaves 0..3, 8..11 and 12..15, I/O at 4..7): each
// partition alone as among the others, the RTL against the model message by message and chip by
// chip; then cross-partition messages refused at the sender and I/O into a partition delivered.
TEST(Cm5PartitionsRtl, SixteenLeavesAsTheModelAndIsolated) {
  Cm5DataConfig cfg = cm5data_test_config(2, "cm5", 4, 2, 1, "cm5data-16-partitions");
  cfg.cm5.partitions = {{1, 0}, {1, 2}, {1, 3}};
  validate(cfg.cm5, "test");
  const Cm5DataParams& p = cfg.cm5;
  Cm5DataTraffic t = make_cm5_open_loop("random", p, 3, 0.03, 400, 3);
  const Cm5DataRunResult all = expect_rtl_equals_model(cfg, t, "partitions, all", {}, false);
  expect_all_delivered_once(p, t, all);
  expect_isolated(p, t, all, [&](const Cm5DataTraffic& x) {
    return expect_rtl_equals_model(cfg, x, "partitions, one alone", {}, false);
  });
  for (auto [s, d] : std::vector<std::pair<uint32_t, uint32_t>>{{1, 9}, {5, 2}, {13, 6}, {6, 14}}) {
    Cm5DataMessage m;
    m.src = s;
    m.dst = d;
    m.len = 2;
    m.data = {s << 12 | 0xFFF, 7};
    m.inject_at = 50;
    t.messages.push_back(m);
  }
  const Cm5DataRunResult cross = expect_rtl_equals_model(cfg, t, "partitions, cross and I/O", {}, false);
  EXPECT_EQ(cross.refused, 2u);
  const size_t n = t.messages.size();
  EXPECT_TRUE(cross.deliveries[n - 4].refused);
  EXPECT_TRUE(cross.deliveries[n - 3].delivered);
  EXPECT_TRUE(cross.deliveries[n - 2].refused);
  EXPECT_TRUE(cross.deliveries[n - 1].delivered);
}

}  // namespace
}  // namespace cmnet

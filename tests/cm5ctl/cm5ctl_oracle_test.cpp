// The CM-5 control network's functional oracle (sim/cm5ctl/oracle) on cases worked by hand from
// the paper's definitions (section 5), each of its choices where the paper is silent, and the
// comparison with a run (sim/cm5ctl/cm5ctl_oracle_view.h) catching a corrupted result.
#include "sim/cm5ctl/oracle/cm5ctl_oracle.h"

#include <gtest/gtest.h>

#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"
#include "sim/cm5ctl/cm5ctl_oracle_view.h"

namespace cmnet {
namespace {

using cm5ctl_oracle::Kind;
using cm5ctl_oracle::Operator;
using cm5ctl_oracle::Options;

// One operation of `kind` and `op` over the given one-word values; abstainers marked by `abst`,
// segment bits by `seg` (a segmented scan when any is given).
cm5ctl_oracle::Combining op(Kind kind, Operator o, const std::vector<uint64_t>& v, const std::vector<bool>& abst = {},
                        const std::vector<bool>& seg = {}) {
  cm5ctl_oracle::Combining c;
  for (size_t i = 0; i < v.size(); ++i) {
    cm5ctl_oracle::LeafInput x;
    x.kind = kind;
    x.op = o;
    x.words = {v[i]};
    x.abstain = i < abst.size() && abst[i];
    x.segmented = !seg.empty();
    x.segment_bit = i < seg.size() && seg[i];
    c.leaf.push_back(x);
  }
  return c;
}

cm5ctl_oracle::Output eval1(const cm5ctl_oracle::Combining& c, Options o = {}) {
  cm5ctl_oracle::Input in;
  in.leaves = static_cast<int>(c.leaf.size());
  in.combining = {c};
  return cm5ctl_oracle::evaluate(in, o);
}

// Every leaf's first word of operation 0.
std::vector<uint64_t> words(const cm5ctl_oracle::Output& out) {
  std::vector<uint64_t> v;
  for (const auto& l : out.combining) v.push_back(l.at(0).words.at(0));
  return v;
}

Options w8() {
  Options o;
  o.word_bits = 8;
  return o;
}

TEST(Cm5ctlOracle, ThePapersForwardScanAndItsBackwardMirror) {
  const std::vector<uint64_t> x = {3, 2, 0, 4, 2, 6, 5, 8};
  EXPECT_EQ(words(eval1(op(Kind::kScanForward, Operator::kSignedAdd, x))),
            (std::vector<uint64_t>{0, 3, 5, 5, 9, 11, 17, 22}));
  EXPECT_EQ(words(eval1(op(Kind::kScanBackward, Operator::kSignedAdd, x))),
            (std::vector<uint64_t>{27, 25, 25, 21, 19, 13, 8, 0}));
  EXPECT_EQ(words(eval1(op(Kind::kReduce, Operator::kSignedAdd, x))), std::vector<uint64_t>(8, 30));
}

TEST(Cm5ctlOracle, TheOtherOperatorsAndAbstainers) {
  EXPECT_EQ(words(eval1(op(Kind::kReduce, Operator::kOr, {1, 2, 4, 8}))), std::vector<uint64_t>(4, 15));
  EXPECT_EQ(words(eval1(op(Kind::kReduce, Operator::kXor, {3, 5, 6, 0}))), std::vector<uint64_t>(4, 0));
  // Signed maximum in 8 bits: -2, 5, -128, 127.
  EXPECT_EQ(words(eval1(op(Kind::kReduce, Operator::kMax, {0xFE, 0x05, 0x80, 0x7F}), w8())),
            std::vector<uint64_t>(4, 0x7F));
  // Abstainers provide the identity (MAX: the most negative word) and still get the result.
  const auto out = eval1(op(Kind::kReduce, Operator::kMax, {0xFE, 0x7F, 0xF0, 0x7F}, {false, true, false, true}), w8());
  EXPECT_EQ(words(out), std::vector<uint64_t>(4, 0xFE));
  EXPECT_TRUE(out.combining[1][0].abstained);
  EXPECT_FALSE(out.combining[0][0].abstained);
  Options nothing = w8();
  nothing.abstainer_gets_result = false;
  EXPECT_TRUE(eval1(op(Kind::kReduce, Operator::kMax, {1, 2}, {false, true}), nothing).combining[1].empty());
  // A barrier: the OR of one bit a leaf; an abstaining leaf's bit does not count.
  EXPECT_EQ(words(eval1(op(Kind::kBarrier, Operator::kXor, {0, 0, 3, 0}))), std::vector<uint64_t>(4, 1));
  EXPECT_EQ(words(eval1(op(Kind::kBarrier, Operator::kOr, {0, 0, 1, 0}, {false, false, true, false}))),
            std::vector<uint64_t>(4, 0));
  // A forward MAX scan: leaf 0 has nobody before it.
  EXPECT_EQ(words(eval1(op(Kind::kScanForward, Operator::kMax, {5, 3}), w8())), (std::vector<uint64_t>{0x80, 5}));
  Options zero = w8();
  zero.scan_start = Options::ScanStart::kZero;
  EXPECT_EQ(words(eval1(op(Kind::kScanForward, Operator::kMax, {5, 3}), zero)), (std::vector<uint64_t>{0, 5}));
}

TEST(Cm5ctlOracle, OverflowOfTheAdditions) {
  // 100 + 100 - 100 - 100 in 8 bits: the sum (0) fits, the left pair's (200) does not.
  const auto c = op(Kind::kReduce, Operator::kSignedAdd, {100, 100, 0x9C, 0x9C});
  auto out = eval1(c, w8());
  EXPECT_EQ(words(out), std::vector<uint64_t>(4, 0));
  for (const auto& l : out.combining) EXPECT_TRUE(l[0].overflow.at(0));
  Options exact = w8();
  exact.overflow = Options::Overflow::kExactTotal;
  for (const auto& l : eval1(c, exact).combining) EXPECT_FALSE(l[0].overflow.at(0));
  // Unsigned: 200 + 100 = 300 = 256 + 44, a carry out either way; 100 + 100 fits.
  for (Options o : {w8(), exact}) {
    out = eval1(op(Kind::kReduce, Operator::kUnsignedAdd, {200, 100, 0, 0}), o);
    EXPECT_EQ(out.combining[2][0].words.at(0), 44u);
    EXPECT_TRUE(out.combining[2][0].overflow.at(0));
    EXPECT_FALSE(eval1(op(Kind::kReduce, Operator::kUnsignedAdd, {100, 100}), o).combining[0][0].overflow.at(0));
  }
  // Signed 127 + 1 overflows; as unsigned it does not.
  EXPECT_TRUE(eval1(op(Kind::kReduce, Operator::kSignedAdd, {127, 1}), w8()).combining[0][0].overflow.at(0));
  EXPECT_FALSE(eval1(op(Kind::kReduce, Operator::kUnsignedAdd, {127, 1}), w8()).combining[0][0].overflow.at(0));
}

TEST(Cm5ctlOracle, SegmentedScans) {
  const std::vector<uint64_t> x = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<bool> seg = {false, false, false, true, false, false, true, false};
  EXPECT_EQ(words(eval1(op(Kind::kScanForward, Operator::kSignedAdd, x, {}, seg))),
            (std::vector<uint64_t>{0, 1, 3, 0, 4, 9, 0, 7}));
  // Backward: leaves 3 and 6 start over going down the addresses...
  EXPECT_EQ(words(eval1(op(Kind::kScanBackward, Operator::kSignedAdd, x, {}, seg))),
            (std::vector<uint64_t>{9, 7, 4, 0, 13, 7, 0, 0}));
  // ... or start segments in the leaves' order for both directions.
  Options order;
  order.backward_segment = Options::BackwardSegment::kStartsInLeafOrder;
  EXPECT_EQ(words(eval1(op(Kind::kScanBackward, Operator::kSignedAdd, x, {}, seg), order)),
            (std::vector<uint64_t>{5, 3, 0, 11, 6, 0, 8, 0}));
  // An abstaining leaf's segment bit is ignored (as built) or counts.
  const std::vector<bool> abst = {false, false, false, true, false, false, false, false};
  EXPECT_EQ(words(eval1(op(Kind::kScanForward, Operator::kSignedAdd, x, abst, seg))),
            (std::vector<uint64_t>{0, 1, 3, 6, 6, 11, 0, 7}));
  Options counts;
  counts.abstainer_segment_bit_counts = true;
  EXPECT_EQ(words(eval1(op(Kind::kScanForward, Operator::kSignedAdd, x, abst, seg), counts)),
            (std::vector<uint64_t>{0, 1, 3, 0, 0, 5, 0, 7}));
}

TEST(Cm5ctlOracle, MultiWordAdditions) {
  // 0x01FF + 0x0001 in two 8-bit words: 0x0200; the low words carry out, the two-word sum fits.
  auto c = op(Kind::kReduce, Operator::kUnsignedAdd, {0xFF, 0x01});
  c.leaf[0].words = {0xFF, 0x01};
  c.leaf[1].words = {0x01, 0x00};
  const auto out = eval1(c, w8());
  EXPECT_EQ(out.combining[1][0].words, (std::vector<uint64_t>{0x00, 0x02}));
  EXPECT_EQ(out.combining[1][0].overflow, (std::vector<bool>{true, false}));
  // A forward scan of 2^64 - 1, 1, 1 in two 64-bit words: 0, 2^64 - 1, 2^64.
  Options o;
  o.word_bits = 64;
  auto s = op(Kind::kScanForward, Operator::kUnsignedAdd, {~0ull, 1, 1});
  for (auto& l : s.leaf) l.words.push_back(0);
  const auto so = eval1(s, o);
  EXPECT_EQ(so.combining[2][0].words, (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(so.combining[1][0].words, (std::vector<uint64_t>{~0ull, 0}));
}

TEST(Cm5ctlOracle, RouterDoneErrorsAndBroadcasts) {
  auto rd = [](const std::vector<int64_t>& m) {
    cm5ctl_oracle::Combining c = op(Kind::kRouterDone, Operator::kOr, std::vector<uint64_t>(m.size(), 0));
    for (size_t i = 0; i < m.size(); ++i) c.leaf[i].messages = m[i];
    return c;
  };
  cm5ctl_oracle::Input in;
  in.leaves = 4;
  in.combining = {rd({2, -1, -1, 0}), rd({1, -1, 1, -2}), rd({1, 0, 0, 0}), op(Kind::kReduce, Operator::kOr, {1, 1, 1, 1})};
  in.broadcasts = {{2, cm5ctl_oracle::BroadcastKind::kUser, 0x1FF}, {2, cm5ctl_oracle::BroadcastKind::kFlush, 7}};
  Options o = w8();
  o.sender_gets_own_broadcast = false;
  const auto out = cm5ctl_oracle::evaluate(in, o);
  for (int i = 0; i < 4; ++i) {
    const auto& l = out.combining[static_cast<size_t>(i)];
    ASSERT_EQ(l.size(), 2u);  // done; messages created; a message lost: never done, the OR waits behind it
    EXPECT_EQ(l[0].words, std::vector<uint64_t>{0});
    EXPECT_FALSE(l[0].error);
    EXPECT_TRUE(l[1].error);
    EXPECT_EQ(out.broadcasts[static_cast<size_t>(i)].size(), i == 2 ? 0u : 2u);
  }
  EXPECT_EQ(out.broadcasts[0][0].word, 0xFFu);
  EXPECT_EQ(out.broadcasts[0][1].kind, cm5ctl_oracle::BroadcastKind::kFlush);
  // Different operations: an error at every leaf; an abstainer's operation does not count.
  auto mixed = op(Kind::kReduce, Operator::kOr, {1, 2, 3, 4}, {false, false, false, true});
  mixed.leaf[3].op = Operator::kMax;
  EXPECT_FALSE(eval1(mixed).combining[0][0].error);
  mixed.leaf[2].kind = Kind::kScanForward;
  for (const auto& l : eval1(mixed).combining) EXPECT_TRUE(l[0].error);
}

// The comparison with a run: the model's results of a mix with partitions, a mapped-out leaf,
// multi-word additions and broadcasts agree; one word flipped, one result missing, one
// broadcast duplicated, one overflow flag and one reduction off by one are each caught, named.
TEST(Cm5ctlOracle, TheComparisonCatchesACorruptedResult) {
  Cm5ctlParams p;
  p.leaves = 8;
  p.partitions = {2, 3};
  p.mapped_out = {13};
  validate(p, "test");
  Cm5MixOptions mo;
  mo.ops = 12;
  mo.broadcasts = 2;
  mo.abstain = 0.2;
  mo.chains = 0.5;
  const Cm5Workload w = partitioned_mix(p, 4, mo);
  const std::vector<Cm5Result> good = run_cm5ctl_model(p, w).results;
  ASSERT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(p, w, good)), "");
  size_t red = 0, bc = 0;  // a reduction's result and a broadcast
  while (good[red].broadcast || good[red].kind != cm5::kReduce || good[red].err) ++red;
  while (!good[bc].broadcast) ++bc;
  auto caught = [&](std::vector<Cm5Result> bad, const std::string& what, const std::string& says) {
    const auto d = cm5ctl_view::oracle_disagreements(p, w, bad);
    ASSERT_EQ(d.size(), 1u) << what << "\n" << cm5ctl_view::joined(d);
    EXPECT_NE(d[0].find(says), std::string::npos) << what << ": " << d[0];
  };
  auto flipped = good;
  flipped[red].data ^= 1ull << 17;
  caught(flipped, "a flipped bit", "leaf " + std::to_string(good[red].leaf) + ", combining operation");
  auto missing = good;  // a leaf's last combining result (an earlier one would shift the rest)
  size_t last = good.size() - 1;
  while (good[last].broadcast) --last;
  missing.erase(missing.begin() + static_cast<long>(last));
  caught(missing, "a missing result", "combining results, the oracle says");
  auto dup = good;
  dup.push_back(good[bc]);
  caught(dup, "a duplicated broadcast", "broadcasts, the oracle says");
  auto ovf = good;
  ovf[red].ovf = !ovf[red].ovf;
  caught(ovf, "an overflow flag", "ovf");
  auto off = good;
  off[red].data += 1;
  caught(off, "a reduction off by one", "the oracle says");
}

}  // namespace
}  // namespace cmnet

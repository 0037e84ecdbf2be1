// The emitted CM-5 data network RTL (Verilator) against the reference model, message by message:
// the cycle each message left its leaf and the cycle it arrived, the words it arrived with,
// and every chip's link counters, for every pattern at 16 leaves with 2 and 4 parents, and at 64
// leaves (2 parents on levels 1-2: cm5data_rtl64_test). One Verilator build per network; the patterns share it.
// The faults (CRC, map-out, all-fall-down, mapped-out leaves): cm5data_rtl_faults_test.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

TEST(Cm5Rtl, SixteenLeavesTwoParentsLinkBits4) {
  const Cm5DataConfig cfg = cm5data_test_config(2, "cm5", 4, 2, 1, "cm5data-16");  // as gen/examples/cm5data_16.json: the family test shares its build
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 2, 3), pat);
}

TEST(Cm5Rtl, EqualMessagesFromTwoLeavesKeepTheirOwnLatencies) {
  // Issue 24's reproduction: the same payload from leaves 15 and 1 to leaf 0. The leaves cannot
  // tell the two apart; the run that carries each message's index can, so each message gets its
  // own latency (the model's), not the other's, and neither is marked ambiguous.
  const Cm5DataConfig cfg = cm5data_test_config(2, "cm5", 4, 2, 1, "cm5data-16");  // the build of the test above
  Cm5DataTraffic t;
  for (uint32_t src : {15u, 1u}) {
    Cm5DataMessage m;
    m.src = src;
    m.dst = 0;
    m.data = {0xcafe0001u};
    t.messages.push_back(m);
  }
  const Cm5DataRunResult model = run_cm5data_model(cfg.cm5, t);
  const Cm5DataRunResult rtl = run_cm5data_rtl(cfg, t);
  ASSERT_EQ(rtl.delivered, 2u);
  expect_cm5_oracle_agrees(cfg.cm5, t, rtl, false, "RTL, equal messages");
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataDelivery &m = model.deliveries[i], &r = rtl.deliveries[i];
    EXPECT_EQ(r.sent, m.sent) << "message " << i;
    EXPECT_EQ(r.arrived, m.arrived) << "message " << i;
    EXPECT_EQ(r.words, m.words) << "message " << i;
    EXPECT_EQ(r.copies, 1) << "message " << i;
    EXPECT_FALSE(r.ambiguous) << "message " << i;
  }
  EXPECT_NE(model.deliveries[0].arrived, model.deliveries[1].arrived);  // the two are told apart by time only
}

TEST(Cm5Rtl, SixteenLeavesFourParentsLinkBits8) {
  const Cm5DataConfig cfg = cm5data_test_config(2, "full", 8, 1, 9, "cm5data-16");
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 4, 4), pat);
}

TEST(Cm5Rtl, RequestStageMatchesTheModel) {
  // Requests registered a cycle before the arbiter (the 100 MHz chip): every pattern, and an
  // open-loop load where requests made in one cycle meet outputs taken in the next.
  Cm5DataConfig cfg = cm5data_test_config(2, "cm5", 4, 2, 1, "cm5data-16-stage");
  cfg.cm5.request_stage = 1;
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 2, 3), pat);
  expect_rtl_equals_model(cfg, make_cm5_open_loop("random", cfg.cm5, 3, 0.05, 300, 3), "random, open loop");
}

TEST(Cm5Rtl, SixteenLeavesOpenLoopLoad) {
  // Messages that become ready over time (what the bench offers), at a load near saturation.
  const Cm5DataConfig cfg = cm5data_test_config(2, "full", 8, 1, 9, "cm5data-16");
  for (const auto& pat : {"random", "nearest-neighbour"})
    expect_rtl_equals_model(cfg, make_cm5_open_loop(pat, cfg.cm5, 3, 0.03, 300, 3), pat);
}

TEST(Cm5Rtl, NoInputStarvesWhileTheOthersSaturate) {
  // The model's fairness test (Cm5Model.NoInputStarvesWhileTheOthersSaturate) on the RTL: every
  // leaf sends 12 messages to leaf 0 at once, so leaf 0's link and the links toward it stay
  // saturated. The RTL delivers every message at the model's cycle, and no source waits longer
  // between two deliveries than one round-robin round of the hot chip's output (the inputs next
  // to leaf 0) or than every source getting one message through, four times over (any source).
  const Cm5DataConfig cfg = cm5data_test_config(2, "full", 8, 1, 9, "cm5data-16");
  const Cm5DataTraffic t = make_cm5_pattern("all-to-one", cfg.cm5, 1, 12, 2);
  const Cm5DataRunResult r = expect_rtl_equals_model(cfg, t, "all-to-one, 12 messages per leaf");
  ASSERT_EQ(r.deliveries.size(), t.messages.size());
  const uint64_t msg_flits = static_cast<uint64_t>(cfg.cm5.message_flits(2));
  std::map<uint32_t, std::vector<uint64_t>> arrivals;
  for (size_t i = 0; i < t.messages.size(); ++i) arrivals[t.messages[i].src].push_back(r.deliveries[i].arrived);
  const uint64_t ni = 4 + static_cast<uint64_t>(cfg.cm5.parents_at(1));
  for (auto& [src, v] : arrivals) {
    std::sort(v.begin(), v.end());
    uint64_t prev = 0, gap = 0;
    for (uint64_t a : v) {
      gap = std::max(gap, a - prev);
      prev = a;
    }
    if (src >= 1 && src <= 3) {
      EXPECT_LE(gap, ni * (msg_flits + 1) + 16) << "leaf " << src;
    }
    EXPECT_LE(gap, 4 * cfg.cm5.leaves() * msg_flits) << "leaf " << src;
  }
}

}  // namespace
}  // namespace cmnet

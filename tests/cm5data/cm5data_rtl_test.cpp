// The emitted CM-5 data network RTL (Verilator) against the reference model, message by message:
// the cycle each message left its leaf and the cycle it arrived, the words it arrived with,
// and every chip's link counters, for every pattern at 16 leaves with 2 and 4 parents, and at 64
// leaves (2 parents on levels 1-2). One Verilator build per network; the patterns share it.
#include <gtest/gtest.h>

#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

Cm5DataConfig config(int h, const std::string& profile, int W, int buffer_words, uint32_t seed) {
  Cm5DataConfig c;
  c.name = "cm5data-16";  // as gen/examples/cm5data_16.json: the family test shares its build
  c.cm5.height = h;
  c.cm5.profile = profile;
  c.cm5.link_bits = W;
  c.cm5.buffer_words = buffer_words;
  c.cm5.seed = seed;
  return c;
}

void expect_rtl_equals_model(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& what) {
  SCOPED_TRACE(what);
  const Cm5DataParams& p = cfg.cm5;
  const Cm5DataRunResult model = run_cm5data_model(p, t);
  const Cm5DataRunResult rtl = run_cm5data_rtl(cfg, t);
  expect_all_delivered_once(p, t, rtl);
  expect_counters_conserve(p, t, rtl);
  EXPECT_EQ(rtl.kirchhoff_violations, 0u) << "messages the traffic does not have";
  ASSERT_EQ(model.deliveries.size(), rtl.deliveries.size());
  size_t differ = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataDelivery& a = model.deliveries[i];
    const Cm5DataDelivery& b = rtl.deliveries[i];
    if (a.sent != b.sent || a.arrived != b.arrived || a.words != b.words) {
      if (++differ <= 5)
        ADD_FAILURE() << "message " << i << " (" << t.messages[i].src << " -> " << t.messages[i].dst
                      << "): model sent " << a.sent << " arrived " << a.arrived << ", rtl sent " << b.sent
                      << " arrived " << b.arrived;
    }
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_EQ(model.cycles, rtl.cycles);
  for (size_t c = 0; c < model.chips.size(); ++c) {
    EXPECT_EQ(model.chips[c].in, rtl.chips[c].in) << "chip " << c;
    EXPECT_EQ(model.chips[c].out, rtl.chips[c].out) << "chip " << c;
  }
}

const std::vector<std::string> kPatterns = {"random", "permutation", "hot-spot", "all-to-one",
                                            "nearest-neighbour", "bit-complement"};

TEST(Cm5Rtl, SixteenLeavesTwoParentsLinkBits4) {
  const Cm5DataConfig cfg = config(2, "cm5", 4, 2, 1);  // gen/examples/cm5data_16.json
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 2, 3), pat);
}

TEST(Cm5Rtl, SixteenLeavesFourParentsLinkBits8) {
  const Cm5DataConfig cfg = config(2, "full", 8, 1, 9);
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, cfg.cm5, 4, 4), pat);
}

TEST(Cm5Rtl, SixteenLeavesOpenLoopLoad) {
  // Messages that become ready over time (what the bench offers), at a load near saturation.
  const Cm5DataConfig cfg = config(2, "full", 8, 1, 9);
  for (const auto& pat : {"random", "nearest-neighbour"})
    expect_rtl_equals_model(cfg, make_cm5_open_loop(pat, cfg.cm5, 3, 0.03, 300, 3), pat);
}

}  // namespace
}  // namespace cmnet

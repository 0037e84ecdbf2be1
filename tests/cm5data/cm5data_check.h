// Shared checks of a CM-5 data network run (model or RTL): every message delivered exactly
// once, at its destination, intact (CRC); the counters at both ends of every link agree, the
// leaf links count what the leaves sent and received, and every chip conserves messages.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gen/core/selftest_top.h"
#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_rtl.h"
#include "tests/cm5data/cm5data_oracle_check.h"

namespace cmnet {

// A self-test or split board top's pins in simulation: 3 active-high LEDs and no button (what
// sim/core/selftest_top_main.cpp and sim/core/multiboard_main.cpp expect).
inline board_parts::SelfTestPins sim_pins() {
  board_parts::SelfTestPins p;
  p.reset_port = false;
  p.led_active_low = {false, false, false};
  p.blink_log2 = 4;
  return p;
}

inline void expect_all_delivered_once(const Cm5DataParams& p, const Cm5DataTraffic& t, const Cm5DataRunResult& r) {
  ASSERT_TRUE(r.completed);
  ASSERT_EQ(r.deliveries.size(), t.messages.size());
  EXPECT_EQ(r.delivered, t.messages.size());
  EXPECT_EQ(r.leaf_injected, t.messages.size());
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataDelivery& d = r.deliveries[i];
    ASSERT_TRUE(d.delivered) << "message " << i;
    EXPECT_EQ(d.copies, 1) << "message " << i;
    EXPECT_EQ(d.at_leaf, t.messages[i].dst) << "message " << i;
    EXPECT_TRUE(d.crc_ok) << "message " << i;
    EXPECT_EQ(d.words, cm5_expected_words(p, t.messages[i])) << "message " << i;
    EXPECT_GT(d.arrived, d.sent) << "message " << i;
  }
}

inline void expect_counters_conserve(const Cm5DataParams& p, const Cm5DataTraffic& t, const Cm5DataRunResult& r) {
  ASSERT_EQ(r.chips.size(), p.total_chips());
  std::vector<uint64_t> sent(p.leaves(), 0), received(p.leaves(), 0);
  for (const auto& m : t.messages) {
    ++sent[m.src];
    ++received[m.dst];
  }
  for (uint32_t x = 0; x < p.leaves(); ++x) {
    const Cm5DataChipCounters& c = r.chips[cm5_chip_id(p, 1, x / 4, 0)];
    EXPECT_EQ(c.in.at(x % 4), sent[x]) << "leaf " << x;
    EXPECT_EQ(c.out.at(x % 4), received[x]) << "leaf " << x;
  }
  for (int l = 1; l < p.height; ++l) {
    const int pl = p.parents_at(l);
    for (uint32_t n = 0; n < p.nodes_at(l); ++n)
      for (int j = 0; j < p.chips_per_node(l); ++j)
        for (int q = 0; q < pl; ++q) {
          const Cm5DataChipCounters& a = r.chips[cm5_chip_id(p, l, n, j)];
          const Cm5DataChipCounters& b = r.chips[cm5_chip_id(p, l + 1, n / 4, j * pl + q)];
          EXPECT_EQ(a.out.at(static_cast<size_t>(4 + q)), b.in.at(n % 4)) << "link up level " << l;
          EXPECT_EQ(b.out.at(n % 4), a.in.at(static_cast<size_t>(4 + q))) << "link down level " << l;
        }
  }
  for (size_t c = 0; c < r.chips.size(); ++c) {
    uint64_t in = 0, out = 0;
    for (auto v : r.chips[c].in) in += v;
    for (auto v : r.chips[c].out) out += v;
    EXPECT_EQ(in, out) << "chip " << c << ": entering != leaving (nothing is held at the end)";
  }
}


// A network of height h (the RTL tests' configs); `name` is part of the emitted Verilog, so two
// tests with the same name and parameters share one Verilator build.
inline Cm5DataConfig cm5data_test_config(int h, const std::string& profile, int W, int buffer_words, uint32_t seed,
                                          const std::string& name) {
  Cm5DataConfig c;
  c.name = name;
  c.cm5.height = h;
  c.cm5.profile = profile;
  c.cm5.link_bits = W;
  c.cm5.buffer_words = buffer_words;
  c.cm5.seed = seed;
  return c;
}

// The faults the 16-leaf RTL tests share (height 2): the first level-1 chip of node 1's parent
// link 1 mapped out, and a bad link into port 0 of chip (level 1, node 2, copy 0) flipping CRC
// bits (mask 5) from flit 36 on. Validates.
inline void add_mapped_out_and_bad_link(Cm5DataParams& p) {
  p.mapped_out = {{1, 1, 0, 1}};
  p.fault.on = true;
  p.fault.chip = cm5_chip_id(p, 1, 2, 0);
  p.fault.port = 0;
  p.fault.flit = 36;
  p.fault.mask = 5;
  validate(p, "test");
}

// The RTL against the model, message by message (send and arrival cycles, words, leaf, CRC
// status) and chip by chip (link counters, CRC errors); and the RTL's deliveries against the
// paper's view (the functional oracle), which shares nothing with the two. `intact`: every
// message also arrives at its destination, unchanged (off with fault injection or all-fall-down).
// Returns the model's run.
inline Cm5DataRunResult expect_rtl_equals_model(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& what,
                                                const std::vector<uint64_t>& afd_at = {}, bool intact = true) {
  SCOPED_TRACE(what);
  const Cm5DataParams& p = cfg.cm5;
  Cm5DataModelOptions mo;
  mo.afd_at = afd_at;
  Cm5DataRtlOptions ro;
  ro.afd_at = afd_at;
  const Cm5DataRunResult model = run_cm5data_model(p, t, mo);
  const Cm5DataRunResult rtl = run_cm5data_rtl(cfg, t, ro);
  const bool afd = std::any_of(afd_at.begin(), afd_at.end(), [](uint64_t c) { return c != kCm5Never; });
  expect_cm5_oracle_agrees(p, t, rtl, afd, "RTL");
  if (intact) {
    expect_all_delivered_once(p, t, rtl);
    expect_counters_conserve(p, t, rtl);
  } else {
    EXPECT_TRUE(rtl.completed);
    EXPECT_EQ(rtl.delivered + rtl.refused, t.messages.size());
    EXPECT_EQ(rtl.refused, model.refused);
  }
  EXPECT_EQ(rtl.kirchhoff_violations, 0u) << "messages the traffic does not have";
  EXPECT_EQ(model.deliveries.size(), rtl.deliveries.size());
  if (model.deliveries.size() != rtl.deliveries.size()) return model;
  size_t differ = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataDelivery& a = model.deliveries[i];
    const Cm5DataDelivery& b = rtl.deliveries[i];
    if (a.sent != b.sent || a.arrived != b.arrived || a.words != b.words || a.at_leaf != b.at_leaf || a.crc != b.crc ||
        a.refused != b.refused) {
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
    EXPECT_EQ(model.chips[c].crc_primary, rtl.chips[c].crc_primary) << "chip " << c;
    EXPECT_EQ(model.chips[c].crc_secondary, rtl.chips[c].crc_secondary) << "chip " << c;
  }
  return model;
}

inline const std::vector<std::string> kPatterns = {"random", "permutation", "hot-spot", "all-to-one",
                                            "nearest-neighbour", "bit-complement"};

}  // namespace cmnet

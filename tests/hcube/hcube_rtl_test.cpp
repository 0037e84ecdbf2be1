// The emitted packet network (Verilator) against the reference model, message by message: the
// tick each message's first packet and last byte arrived, reassembled bit-exact from the ejected
// bytes, and every port's counters, on 3-cubes with fixed and quasi-adaptive routing.
#include <gtest/gtest.h>

#include "sim/hcube/hcube_model.h"
#include "sim/hcube/hcube_rtl.h"

namespace cmnet {
namespace {

void expect_same(const HcubeConfig& cfg, const HcubeTraffic& t, const std::string& what) {
  const HcubeRunResult m = run_hcube_model(cfg.hc, t);
  const HcubeRunResult r = run_hcube_rtl(cfg, t);
  ASSERT_TRUE(m.completed) << what;
  EXPECT_TRUE(r.completed) << what;
  EXPECT_EQ(r.bad_reassembly, 0u) << what;
  int shown = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const auto& a = m.deliveries[i];
    const auto& b = r.deliveries[i];
    const bool same = b.delivered && b.data_ok && a.first == b.first && a.last == b.last;
    if (!same && shown++ < 5)
      ADD_FAILURE() << what << ": message " << i << " (" << t.messages[i].src << " -> " << t.messages[i].dst << ", "
                    << t.messages[i].len << " bytes, gen " << t.messages[i].gen << "): model first/last " << a.first
                    << "/" << a.last << ", rtl " << b.first << "/" << b.last << (b.data_ok ? "" : " (data wrong)");
  }
  for (size_t i = 0; i < m.ports.size(); ++i) {
    EXPECT_EQ(m.ports[i].packets, r.ports[i].packets) << what << " port " << i;
    EXPECT_EQ(m.ports[i].messages, r.ports[i].messages) << what << " port " << i;
    EXPECT_EQ(m.ports[i].bytes, r.ports[i].bytes) << what << " port " << i;
    EXPECT_EQ(m.ports[i].blocked_ticks, r.ports[i].blocked_ticks) << what << " port " << i;
  }
}

HcubeConfig cfg(const std::string& routing, int buffers) {
  HcubeConfig c;
  c.hc.dims = 3;
  c.hc.routing = routing;
  c.hc.buffers = buffers;
  return c;
}

TEST(HcubeRtl, SingleMessagesMatchTheModel) {
  HcubeTraffic t;
  t.messages.push_back({0, 7, 0, 100, 0});
  t.messages.push_back({3, 4, 5, 10, 0});
  t.messages.push_back({6, 1, 7, 1, 0});
  expect_same(cfg("fixed", 2), t, "three messages");
}

// Two designs (each a Verilator build): fixed routing with 2 buffers per port, quasi-adaptive
// with 3 (the contrary-packet limit then 2); light and saturating loads, uniform and bit-complement.
TEST(HcubeRtl, LoadedCubesMatchTheModel) {
  for (const auto& [routing, b] : {std::pair<const char*, int>{"fixed", 2}, {"quasi", 3}})
    for (const char* pattern : {"uniform", "bit-complement"})
      for (double gap : {400.0, 40.0}) {
        const HcubeTraffic t = make_hcube_workload(3, pattern, 48, gap, 8, 3);
        expect_same(cfg(routing, b), t, std::string(routing) + " buffers " + std::to_string(b) + " " + pattern +
                                            " gap " + std::to_string(static_cast<int>(gap)));
      }
}

}  // namespace
}  // namespace cmnet

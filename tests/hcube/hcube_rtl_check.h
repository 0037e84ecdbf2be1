// The RTL-against-model check shared by the hcube RTL tests (3-cubes in hcube_rtl_test, 4-cubes
// in hcube_rtl4_test; packet chips and wormhole routers): every message's first-packet and last-byte ticks, its first-hop dimension
// and bytes, and every port's counters must be the model's; and both runs must agree with the
// paper's oracle (hcube_oracle_check.h), which shares nothing with either.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "sim/hcube/hcube_model.h"
#include "sim/hcube/hcube_rtl.h"
#include "tests/hcube/hcube_oracle_check.h"

namespace cmnet {

inline void hcube_expect_rtl_equals_model(const HcubeConfig& cfg, const HcubeTraffic& t, const std::string& what) {
  HcubeModelOptions mo;
  mo.keep_received = true;
  HcubeRtlOptions ro;
  ro.keep_received = true;
  const HcubeRunResult m = run_hcube_model(cfg.hc, t, mo);
  const HcubeRunResult r = run_hcube_rtl(cfg, t, ro);
  ASSERT_TRUE(m.completed) << what;
  EXPECT_TRUE(r.completed) << what;
  EXPECT_EQ(r.bad_reassembly, 0u) << what;
  int shown = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const auto& a = m.deliveries[i];
    const auto& b = r.deliveries[i];
    const bool same = b.delivered && b.data_ok && a.first == b.first && a.last == b.last && a.first_dim == b.first_dim;
    if (!same && shown++ < 5)
      ADD_FAILURE() << what << ": message " << i << " (" << t.messages[i].src << " -> " << t.messages[i].dst << ", "
                    << t.messages[i].len << " bytes, gen " << t.messages[i].gen << "): model first/last " << a.first
                    << "/" << a.last << ", rtl " << b.first << "/" << b.last << (b.data_ok ? "" : " (data wrong)");
  }
  for (const auto& [run, res] : {std::pair<const char*, const HcubeRunResult*>{"model", &m}, {"rtl", &r}}) {
    const std::vector<std::string> bad = hcube_oracle_check(cfg.hc, t, *res);
    for (size_t i = 0; i < bad.size() && i < 5; ++i) ADD_FAILURE() << what << ": " << run << " against the oracle: " << bad[i];
    if (bad.size() > 5) ADD_FAILURE() << what << ": " << run << " against the oracle: " << bad.size() - 5 << " more";
  }
  for (size_t i = 0; i < m.ports.size(); ++i) {
    EXPECT_EQ(m.ports[i].packets, r.ports[i].packets) << what << " port " << i;
    EXPECT_EQ(m.ports[i].messages, r.ports[i].messages) << what << " port " << i;
    EXPECT_EQ(m.ports[i].bytes, r.ports[i].bytes) << what << " port " << i;
    EXPECT_EQ(m.ports[i].blocked_ticks, r.ports[i].blocked_ticks) << what << " port " << i;
  }
}

inline HcubeConfig hcube_rtl_cfg(int dims, const std::string& routing, int buffers) {
  HcubeConfig c;
  c.hc.dims = dims;
  c.hc.routing = routing;
  c.hc.buffers = buffers;
  return c;
}

inline HcubeConfig hcube_worm_cfg(int dims, int ticks_per_byte = 2, int arb_ticks = 4) {
  HcubeConfig c;
  c.hc.dims = dims;
  c.hc.scheme = "wormhole";
  c.hc.routing = "fixed";
  c.hc.ticks_per_byte = ticks_per_byte;
  c.hc.arb_ticks = arb_ticks;
  return c;
}

}  // namespace cmnet

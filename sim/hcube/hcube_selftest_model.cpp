#include "sim/hcube/hcube_selftest_model.h"

#include <algorithm>

#include "gen/core/errors.h"
#include "sim/hcube/hcube_model.h"
#include "sim/hcube/hcube_rtl.h"

namespace cmnet {

HcubeSelfTest hcube_selftest_of(const HcubeParams& p, const HcubeTraffic& t, const std::string& name, uint64_t seed,
                                int per_node) {
  check_hcube_selftest_shape(p);
  check_hcube_traffic(t, p, name);
  std::vector<size_t> count(static_cast<size_t>(p.nodes()), 0);
  std::vector<uint64_t> bytes(count.size(), 0);
  for (const HcubeMessage& m : t.messages) {
    ++count[m.src];
    bytes[m.src] += p.worm_bytes(m.len);
  }
  for (uint32_t g = 0; g < count.size(); ++g) check_hcube_selftest_rom(p, g, count[g], bytes[g], name);
  const HcubeRunResult r = run_hcube_model(p, t);
  if (!r.completed)
    throw ConfigError("hcube self-test: the model did not deliver every message of '" + name + "' (stopped at tick " +
                      std::to_string(r.ticks) + ")");
  const std::vector<uint32_t> tags = hcube_worm_tags(p, t);
  HcubeSelfTest s;
  s.pattern = name;
  s.seed = seed;
  s.per_node = per_node;
  s.nodes.resize(count.size());
  s.model_cycles = r.ticks;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const HcubeMessage& m = t.messages[i];
    std::vector<uint8_t> worm = hcube_worm_bytes(p, m);
    s.nodes.at(m.src).messages.push_back({m.dst, m.gen, tags[i], worm});
    const HcubeDelivery& d = r.deliveries[i];
    HcubeSelfTestNode& at = s.nodes.at(m.dst);
    ++at.rx_count;
    worm[3] = static_cast<uint8_t>((worm[3] & 0x0F) | (d.first_dim << 4));  // the router's first-hop nibble
    for (size_t k = 2; k < worm.size(); ++k) {
      at.rx_xor ^= worm[k];
      at.rx_sum = (at.rx_sum + worm[k]) & kHcubeSelfTestSumMask;
    }
    at.rx_last = std::max(at.rx_last, d.last);
  }
  for (uint32_t x = 0; x < count.size(); ++x)
    for (int dim = 0; dim < p.dims; ++dim) {
      const HcubePortCounters& c = r.ports[x * static_cast<size_t>(p.dims) + static_cast<size_t>(dim)];
      const uint64_t v[4] = {c.packets, c.messages, c.bytes, c.blocked_ticks};
      for (int k = 0; k < 4; ++k) s.counters.push_back({x, dim * 4 + k, static_cast<uint32_t>(v[k])});
    }
  return s;
}

}  // namespace cmnet

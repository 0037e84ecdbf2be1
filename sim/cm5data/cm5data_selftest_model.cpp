#include "sim/cm5data/cm5data_selftest_model.h"

#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

Cm5SelfTest cm5_selftest_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf) {
  if (per_leaf < 1 || per_leaf > 64)
    throw ConfigError("cm5data self-test: " + std::to_string(per_leaf) + " messages per leaf (allowed: 1..64)");
  Cm5DataTraffic t = make_cm5_pattern(pattern, p, seed, per_leaf);
  // The top's leaves send from the first cycle, one network, nothing refused at the sender.
  Cm5DataTraffic sent;
  for (Cm5DataMessage m : t.messages) {
    if (cm5_refused(p, m)) continue;
    m.inject_at = 0;
    m.side = 0;
    sent.messages.push_back(std::move(m));
  }
  const Cm5DataRunResult r = run_cm5data_model(p, sent);
  if (!r.completed)
    throw ConfigError("cm5data self-test: the model did not deliver every message of '" + pattern + "' in " +
                      std::to_string(r.cycles) + " cycles");
  Cm5SelfTest s;
  s.pattern = pattern;
  s.seed = seed;
  s.per_leaf = per_leaf;
  s.leaves.resize(p.leaves());
  s.model_cycles = r.cycles;
  for (size_t i = 0; i < sent.messages.size(); ++i) {
    const Cm5DataMessage& m = sent.messages[i];
    s.leaves.at(m.src).messages.push_back(cm5_message_words(p, m));
    const Cm5DataDelivery& d = r.deliveries[i];
    Cm5SelfTestLeaf& at = s.leaves.at(d.at_leaf);
    ++at.rx_count;
    for (uint32_t w : d.words) at.rx_xor ^= w;
    at.rx_last = std::max(at.rx_last, d.arrived);
  }
  for (uint32_t c = 0; c < r.chips.size(); ++c) {
    const Cm5DataChipCounters& k = r.chips[c];
    std::vector<uint64_t> v = k.in;
    v.insert(v.end(), k.out.begin(), k.out.end());
    v.push_back(k.crc_primary);
    v.push_back(k.crc_secondary);
    for (size_t sel = 0; sel < v.size(); ++sel)
      s.counters.push_back({c, static_cast<int>(sel), static_cast<uint32_t>(v[sel])});
  }
  return s;
}

}  // namespace cmnet

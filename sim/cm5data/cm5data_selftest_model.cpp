#include "sim/cm5data/cm5data_selftest_model.h"

#include <algorithm>

#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

namespace {

// The self-test of `sent` (each from cycle 0, on one network): the words each leaf sends, and
// what the model delivers to each and counts in each chip. *deliveries: the model's, by message.
Cm5SelfTest selftest_of(const Cm5DataParams& p, const Cm5DataTraffic& sent, const std::string& pattern, uint64_t seed,
                        int per_leaf, std::vector<Cm5DataDelivery>* deliveries) {
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
  if (deliveries) *deliveries = r.deliveries;
  return s;
}

// The messages a self-test sends: from cycle 0, none refused at the sender; at most 64 a leaf.
// *most: the most a leaf sends.
std::vector<Cm5DataMessage> selftest_messages(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::string& what,
                                              int* most = nullptr) {
  std::vector<Cm5DataMessage> out;
  std::vector<int> per(p.leaves(), 0);
  int top = 0;
  for (Cm5DataMessage m : t.messages) {
    if (cm5_refused(p, m)) continue;
    top = std::max(top, ++per.at(m.src));
    if (top > 64)
      throw InputError(what + ": leaf " + std::to_string(m.src) + " sends more than 64 messages (a self-test's ROM holds 64 a leaf)");
    m.inject_at = 0;
    m.side = 0;
    out.push_back(std::move(m));
  }
  if (most) *most = top;
  return out;
}

std::vector<Cm5DataMessage> pattern_messages(const Cm5DataParams& p, const std::string& pattern, uint64_t seed,
                                             int per_leaf) {
  if (per_leaf < 1 || per_leaf > 64)
    throw ConfigError("cm5data self-test: " + std::to_string(per_leaf) + " messages per leaf (allowed: 1..64)");
  return selftest_messages(p, make_cm5_pattern(pattern, p, seed, per_leaf), pattern);
}

Cm5CabledTraffic cabled_of(const Cm5DataParams& p, const std::vector<Cm5DataMessage>& ms, const std::string& name,
                           uint64_t seed, int per_leaf) {
  // Each leaf's messages alternate between the networks: its first on the left, its second on
  // the right, and so on; each network runs alone (they share nothing but the leaves).
  Cm5DataTraffic by_side[2];
  std::vector<int> nth(p.leaves(), 0);
  for (Cm5DataMessage m : ms) {
    m.side = nth.at(m.src)++ % 2;
    by_side[m.side].messages.push_back(std::move(m));
  }
  Cm5CabledTraffic t;
  for (int s = 0; s < 2; ++s) {
    std::vector<Cm5DataDelivery> del;
    Cm5CabledSide& side = t.sides[static_cast<size_t>(s)];
    side.net = selftest_of(p, by_side[s], name, seed, per_leaf, &del);
    side.sends.resize(p.leaves());
    side.data_xor.assign(p.leaves(), 0);
    for (size_t i = 0; i < by_side[s].messages.size(); ++i) {
      const Cm5DataMessage& m = by_side[s].messages[i];
      side.sends.at(m.src).push_back({m.dst, m.tag, m.data});
      for (uint32_t w : m.data) side.data_xor.at(del[i].at_leaf) ^= w;
    }
  }
  return t;
}

}  // namespace

Cm5SelfTest cm5_selftest_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf) {
  Cm5DataTraffic sent;
  sent.messages = pattern_messages(p, pattern, seed, per_leaf);
  return selftest_of(p, sent, pattern, seed, per_leaf, nullptr);
}

Cm5SelfTest cm5_selftest_of(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::string& name) {
  Cm5DataTraffic sent;
  int most = 0;
  sent.messages = selftest_messages(p, t, name, &most);
  return selftest_of(p, sent, name, 0, most, nullptr);
}

Cm5CabledTraffic cm5_cabled_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf) {
  return cabled_of(p, pattern_messages(p, pattern, seed, per_leaf), pattern, seed, per_leaf);
}

Cm5CabledTraffic cm5_cabled_traffic_of(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::string& name) {
  int most = 0;
  const std::vector<Cm5DataMessage> ms = selftest_messages(p, t, name, &most);
  return cabled_of(p, ms, name, 0, most);
}

}  // namespace cmnet

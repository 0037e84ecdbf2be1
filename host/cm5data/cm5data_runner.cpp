#include "host/cm5data/cm5data_runner.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "sim/cm5data/cm5data_model.h"

namespace cmnet {

std::vector<StreamUnit> cm5data_units(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::vector<uint16_t>& masks) {
  check_cm5_traffic(t, p, "board traffic");
  std::vector<StreamUnit> u;
  for (uint32_t x = 0; x < masks.size() && x < p.leaves(); ++x) u.push_back(StreamUnit{x, {cm5_stream_mask_unit(masks[x])}});
  for (const Cm5DataMessage& m : t.messages) {
    StreamUnit x;
    x.leaf = m.src;
    x.words.push_back(cm5_stream_unit_head(m.dst, m.len, m.tag, m.afd, m.side));
    x.words.insert(x.words.end(), m.data.begin(), m.data.end());
    u.push_back(std::move(x));
  }
  return u;
}

StreamWorkload cm5data_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                const std::vector<uint16_t>& masks) {
  const Cm5DataParams p = cfg.cm5;
  StreamWorkload w;
  w.name = name;
  w.units = cm5data_units(p, t, masks);
  w.expect_units = t.messages.size();
  w.compare = [p, t, masks](const StreamRunResult& got, RunReport& r) {
    // The models' deliveries: (side, leaf, words) per message, each side on its own network (the
    // right one's seed is seed + 1); the board's come in the board's order: multisets.
    std::map<std::tuple<int, uint32_t, std::vector<uint32_t>>, int> want;
    for (int side = 0; side < 2; ++side) {
      Cm5DataTraffic ts;
      for (const auto& msg : t.messages)
        if (msg.side == side) ts.messages.push_back(msg);
      if (ts.messages.empty()) continue;
      Cm5DataParams ps = p;
      if (side == 1) ps.seed = (p.seed + 1) & 0xFFFFu;
      for (const Cm5DataDelivery& d : run_cm5data_model(ps, ts).deliveries) ++want[{side, d.at_leaf, d.words}];
    }
    size_t matched = 0, intact = 0, at_dst = 0;
    for (StreamUnit u : got.delivered) {
      const int side = !u.words.empty() && (u.words[0] >> 31) ? 1 : 0;
      if (!u.words.empty()) u.words[0] &= 0x7FFFFFFFu;
      auto it = want.find({side, u.leaf, u.words});
      if (it != want.end() && it->second > 0) {
        --it->second;
        ++matched;
      }
      if (u.words.size() >= 3 && cm5_crc_status(u.words, p.link_bits) == Cm5Crc::ok) ++intact;
      // The head word's digits name the destination.
      if (!u.words.empty() && ((u.words[0] >> 12) & ((1u << (2 * p.height)) - 1u)) == u.leaf) ++at_dst;
    }
    const std::string n = std::to_string(t.messages.size());
    r.rows.push_back({"messages delivered", std::to_string(got.delivered.size()), n, true});
    r.rows.push_back({"messages as the model delivers them (leaf, words)", std::to_string(matched), n, true});
    r.rows.push_back({"delivered at their destination", std::to_string(at_dst), n, true});
    r.rows.push_back({"CRC intact", std::to_string(intact), n, true});
    // Counters against the traffic: per leaf accepted (sent) and delivered (received).
    std::vector<uint64_t> sent(p.leaves(), 0), recv(p.leaves(), 0), intr(p.leaves(), 0);
    for (const auto& msg : t.messages) {
      ++sent[msg.src];
      ++recv[msg.dst];
      if (msg.dst < masks.size() && ((masks[msg.dst] >> msg.tag) & 1u)) ++intr[msg.dst];
    }
    size_t wrong = 0;
    uint32_t held = 0;
    for (const CounterReading& c : got.counters) {
      const std::string& nm = c.counter.name;
      if (nm == "network.held") {
        held = c.value;
        continue;
      }
      const auto dot = nm.find('.');
      const uint32_t leaf = static_cast<uint32_t>(std::stoul(nm.substr(4, dot - 4)));
      const std::string what = nm.substr(dot + 1);
      const uint64_t expect = what == "accepted" ? sent.at(leaf) : what == "delivered" ? recv.at(leaf) : intr.at(leaf);
      if (c.value != static_cast<uint32_t>(expect)) ++wrong;
    }
    r.rows.push_back({"leaf counters as the traffic and the tag masks say", std::to_string(3 * p.leaves() - wrong),
                      std::to_string(3 * p.leaves()), true});
    r.rows.push_back({"messages held at the end", std::to_string(held), "0", true});
    r.about.push_back("CM-5 data network: " + std::to_string(p.leaves()) + " leaves, " + std::to_string(p.total_chips()) +
                      " router chips, links of " + std::to_string(p.link_bits) + " bits");
    r.agreement_scope = "every delivered message (leaf and words) and every leaf counter";
  };
  return w;
}

StreamRunOutcome run_cm5data_board(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                   const StreamRunArgs& a, std::FILE* out, const std::vector<uint16_t>& masks) {
  return run_stream_workload(cm5data_stream_spec(cfg), cm5data_workload(cfg, t, name, masks), a, out);
}

}  // namespace cmnet

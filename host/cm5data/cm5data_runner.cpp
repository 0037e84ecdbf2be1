#include "host/cm5data/cm5data_runner.h"

#include <algorithm>
#include <map>

#include "sim/cm5data/cm5data_model.h"

namespace cmnet {

std::vector<StreamUnit> cm5data_units(const Cm5DataParams& p, const Cm5DataTraffic& t) {
  check_cm5_traffic(t, p, "board traffic");
  std::vector<StreamUnit> u;
  for (const Cm5DataMessage& m : t.messages) {
    StreamUnit x;
    x.leaf = m.src;
    x.words.push_back(cm5_stream_unit_head(m.dst, m.len, m.tag, m.afd));
    x.words.insert(x.words.end(), m.data.begin(), m.data.end());
    u.push_back(std::move(x));
  }
  return u;
}

StreamWorkload cm5data_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name) {
  const Cm5DataParams p = cfg.cm5;
  StreamWorkload w;
  w.name = name;
  w.units = cm5data_units(p, t);
  w.expect_units = t.messages.size();
  w.compare = [p, t](const StreamRunResult& got, RunReport& r) {
    // The model's deliveries: (leaf, words) per message; the board's come in the board's order,
    // so both go into multisets.
    const Cm5DataRunResult m = run_cm5data_model(p, t);
    std::map<std::pair<uint32_t, std::vector<uint32_t>>, int> want;
    for (const Cm5DataDelivery& d : m.deliveries) ++want[{d.at_leaf, d.words}];
    size_t matched = 0, intact = 0, at_dst = 0;
    for (const StreamUnit& u : got.delivered) {
      auto it = want.find({u.leaf, u.words});
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
    std::vector<uint64_t> sent(p.leaves(), 0), recv(p.leaves(), 0);
    for (const auto& msg : t.messages) {
      ++sent[msg.src];
      ++recv[msg.dst];
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
      const uint64_t expect = nm.substr(dot + 1) == "accepted" ? sent.at(leaf) : recv.at(leaf);
      if (c.value != static_cast<uint32_t>(expect)) ++wrong;
    }
    r.rows.push_back({"leaf counters as the traffic says", std::to_string(2 * p.leaves() - wrong),
                      std::to_string(2 * p.leaves()), true});
    r.rows.push_back({"messages held at the end", std::to_string(held), "0", true});
    r.about.push_back("CM-5 data network: " + std::to_string(p.leaves()) + " leaves, " + std::to_string(p.total_chips()) +
                      " router chips, links of " + std::to_string(p.link_bits) + " bits");
    r.agreement_scope = "every delivered message (leaf and words) and every leaf counter";
  };
  return w;
}

StreamRunOutcome run_cm5data_board(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                   const StreamRunArgs& a, std::FILE* out) {
  return run_stream_workload(cm5data_stream_spec(cfg), cm5data_workload(cfg, t, name), a, out);
}

}  // namespace cmnet

#include "host/cm5data/cm5data_runner.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "gen/core/errors.h"
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

Cm5BoardCheck cm5data_check_board(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::vector<uint16_t>& masks,
                                  const StreamRunResult& got) {
  Cm5BoardCheck c;
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
    const Cm5DataRunResult mr = run_cm5data_model(ps, ts);
    c.model_cycles = std::max(c.model_cycles, mr.cycles);
    for (const Cm5DataDelivery& d : mr.deliveries) {
      ++want[{side, d.at_leaf, d.words}];
      c.model_flits += d.words.size() * 32 / static_cast<uint64_t>(p.link_bits);
    }
  }
  size_t matched = 0, intact = 0, at_dst = 0;
  for (StreamUnit u : got.delivered) {
    c.board_flits += u.words.size() * 32 / static_cast<uint64_t>(p.link_bits);
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
  c.rows.push_back({"messages delivered", std::to_string(got.delivered.size()), n, true});
  c.rows.push_back({"messages as the model delivers them (leaf, words)", std::to_string(matched), n, true});
  c.rows.push_back({"delivered at their destination", std::to_string(at_dst), n, true});
  c.rows.push_back({"CRC intact", std::to_string(intact), n, true});
  // Counters against the traffic: per leaf accepted (sent) and delivered (received).
  std::vector<uint64_t> sent(p.leaves(), 0), recv(p.leaves(), 0), intr(p.leaves(), 0);
  for (const auto& msg : t.messages) {
    ++sent[msg.src];
    ++recv[msg.dst];
    if (msg.dst < masks.size() && ((masks[msg.dst] >> msg.tag) & 1u)) ++intr[msg.dst];
  }
  size_t wrong = 0;
  uint32_t held = 0;
  for (const CounterReading& r : got.counters) {
    const std::string& nm = r.counter.name;
    if (nm == "network.held") {
      held = r.value;
      continue;
    }
    if (nm.rfind("leaf", 0) != 0) continue;
    const auto dot = nm.find('.');
    const uint32_t leaf = static_cast<uint32_t>(std::stoul(nm.substr(4, dot - 4)));
    const std::string what = nm.substr(dot + 1);
    const uint64_t expect = what == "accepted" ? sent.at(leaf) : what == "delivered" ? recv.at(leaf) : intr.at(leaf);
    if (r.value != static_cast<uint32_t>(expect)) ++wrong;
  }
  c.rows.push_back({"leaf counters as the traffic and the tag masks say", std::to_string(3 * p.leaves() - wrong),
                    std::to_string(3 * p.leaves()), true});
  c.rows.push_back({"messages held at the end", std::to_string(held), "0", true});
  c.agrees = true;
  for (const ReportRow& r : c.rows)
    if (r.compared && r.board != r.model) c.agrees = false;
  return c;
}

StreamWorkload cm5data_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                const std::vector<uint16_t>& masks) {
  const Cm5DataParams p = cfg.cm5;
  StreamWorkload w;
  w.name = name;
  w.units = cm5data_units(p, t, masks);
  w.expect_units = t.messages.size();
  w.compare = [p, t, masks](const StreamRunResult& got, RunReport& r) {
    const Cm5BoardCheck c = cm5data_check_board(p, t, masks, got);
    r.rows.insert(r.rows.end(), c.rows.begin(), c.rows.end());
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

std::vector<int> cm5data_sweep_points(int max_per_leaf) {
  if (max_per_leaf < 1) throw InputError("sweep: --max-per-proc " + std::to_string(max_per_leaf) + " must be at least 1");
  std::vector<int> v;
  for (int x = 1; x < max_per_leaf; x *= 2) v.push_back(x);
  v.push_back(max_per_leaf);
  return v;
}

Cm5DataTraffic cm5data_sweep_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf) {
  // A fresh seed per point, so the points are not prefixes of one another.
  return make_cm5_pattern(pattern, p, seed + static_cast<uint64_t>(per_leaf), per_leaf);
}

bool run_cm5data_sweep(const Cm5DataConfig& cfg, const std::string& pattern, uint64_t seed, int max_per_leaf,
                       const StreamRunArgs& a, std::FILE* out) {
  const Cm5DataParams p = cfg.cm5;
  const std::vector<int> points = cm5data_sweep_points(max_per_leaf);
  (void)make_cm5_pattern(pattern, p, seed, 1);  // an unknown pattern is refused before the board starts
  StreamConnection conn(cm5data_stream_spec(cfg), a);
  StreamSweep sw;
  sw.title = cfg.name + ": " + pattern + " traffic, left network";
  sw.x_label = "offered load (messages per leaf, all ready at the start)";
  sw.y_label = "accepted throughput (flits per cycle per leaf)";
  for (int x : points) sw.offered.push_back(x);
  sw.workload = [&](double x) {
    return cm5data_workload(cfg, cm5data_sweep_traffic(p, pattern, seed, static_cast<int>(x)), pattern);
  };
  sw.measure = [&](double x, const StreamRunResult& r) {
    const Cm5BoardCheck c = cm5data_check_board(p, cm5data_sweep_traffic(p, pattern, seed, static_cast<int>(x)), {}, r);
    StreamSweepMeasure m;
    m.accepted = r.cycles ? static_cast<double>(c.board_flits) / (static_cast<double>(r.cycles) * p.leaves()) : 0;
    m.model_accepted =
        c.model_cycles ? static_cast<double>(c.model_flits) / (static_cast<double>(c.model_cycles) * p.leaves()) : 0;
    m.agrees = c.agrees;
    return m;
  };
  return run_stream_sweep(conn, sw, a.out_dir, a.timeout_s, out);
}

}  // namespace cmnet

#include "host/cm5data/cm5data_runner.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "gen/core/errors.h"
#include "sim/core/sim_board.h"
#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_oracle_view.h"
#include "gen/cm5data/cm5data_ni_regmap.h"

namespace cmnet {

std::vector<StreamUnit> cm5data_units(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::vector<uint16_t>& masks) {
  check_cm5_traffic(t, p, "board traffic");
  std::vector<StreamUnit> u;
  // Each side's TAG_MASK, and its INTERRUPT cleared, before the leaf's messages (a leaf's units
  // go in in order).
  for (uint32_t x = 0; x < masks.size() && x < p.leaves(); ++x)
    for (int side = 0; side < 2; ++side) {
      u.push_back(cm5_ni_unit(cm5_ni_write(x, side, "TAG_MASK", masks[x])));
      u.push_back(cm5_ni_unit(cm5_ni_write(x, side, "INTERRUPT", 0)));
    }
  for (const Cm5DataMessage& m : t.messages) {
    StreamUnit x;
    x.leaf = m.src;
    x.words.push_back(cm5_stream_unit_head(m.dst, m.len, m.tag, m.afd, m.side));
    x.words.insert(x.words.end(), m.data.begin(), m.data.end());
    u.push_back(std::move(x));
  }
  return u;
}

namespace {

// The chips' counters on the board (every chip of both networks, cm5_stream_chip_counters):
//  - at both ends of every link the same count (a leaf link's chip end against the leaf's own
//    accepted and delivered counters, both sides together);
//  - per node of the tree and port (child k; the parents of all its chips together) the model's
//    count: which node a message crosses is fixed by its source and destination, while which chip
//    of a node it takes depends on the cycle it arrives (the LFSR and the parents free then), and
//    the board's cycles depend on how fast the host link feeds it;
//  - every chip's CRC primary and secondary errors as the model's.
void check_chip_counters(const Cm5DataParams& p, const StreamRunResult& got,
                         const std::vector<Cm5DataChipCounters> (&model)[2], std::vector<ReportRow>& rows) {
  std::map<std::string, uint32_t> v;
  for (const CounterReading& r : got.counters) v[r.counter.name] = r.value;
  const std::vector<Cm5StreamChipCounter> list = cm5_stream_chip_counters(p);
  if (!v.count(list.front().name)) return;  // a board without them (an older build)
  auto cnt = [&](int side, uint32_t chip, const std::string& port) {
    return v.at(cm5_stream_chip_region(side, chip) + "." + port);
  };
  size_t ends = 0, ends_ok = 0;
  auto end_pair = [&](uint32_t a, uint32_t b) {
    ++ends;
    ends_ok += a == b;
  };
  for (uint32_t x = 0; x < p.leaves(); ++x) {
    const uint32_t ch = cm5_chip_id(p, 1, x / 4, 0);
    const std::string k = std::to_string(x % 4);
    end_pair(cnt(0, ch, "in_c" + k) + cnt(1, ch, "in_c" + k), v.at("leaf" + std::to_string(x) + ".accepted"));
    end_pair(cnt(0, ch, "out_c" + k) + cnt(1, ch, "out_c" + k), v.at("leaf" + std::to_string(x) + ".delivered"));
  }
  size_t nodes = 0, nodes_ok = 0;
  for (int side = 0; side < 2; ++side)
    for (int l = 1; l <= p.height; ++l) {
      const int pl = p.parents_at(l);
      for (uint32_t n = 0; n < p.nodes_at(l); ++n) {
        // Per node: child port k in and out, the parents in and out (board, model).
        uint64_t b[10] = {}, m[10] = {};
        for (int j = 0; j < p.chips_per_node(l); ++j) {
          const uint32_t a = cm5_chip_id(p, l, n, j);
          const Cm5DataChipCounters& mc = model[side].empty() ? Cm5DataChipCounters{} : model[side][a];
          auto mget = [&](const std::vector<uint64_t>& x, size_t i) { return i < x.size() ? x[i] : uint64_t{0}; };
          for (int k = 0; k < 4; ++k) {
            b[k] += cnt(side, a, "in_c" + std::to_string(k));
            b[4 + k] += cnt(side, a, "out_c" + std::to_string(k));
            m[k] += mget(mc.in, static_cast<size_t>(k));
            m[4 + k] += mget(mc.out, static_cast<size_t>(k));
          }
          for (int q = 0; q < pl; ++q) {
            const std::string qs = std::to_string(q);
            b[8] += cnt(side, a, "in_p" + qs);
            b[9] += cnt(side, a, "out_p" + qs);
            m[8] += mget(mc.in, static_cast<size_t>(4 + q));
            m[9] += mget(mc.out, static_cast<size_t>(4 + q));
            // The link to the parent: this end's out is the parent end's in, and back.
            const uint32_t up = cm5_chip_id(p, l + 1, n / 4, j * pl + q);
            const std::string ck = std::to_string(n % 4);
            end_pair(cnt(side, a, "out_p" + qs), cnt(side, up, "in_c" + ck));
            end_pair(cnt(side, up, "out_c" + ck), cnt(side, a, "in_p" + qs));
          }
        }
        for (int i = 0; i < 10; ++i) {
          ++nodes;
          nodes_ok += b[i] == m[i];
        }
      }
    }
  size_t crc = 0, crc_ok = 0;
  for (int side = 0; side < 2; ++side)
    for (uint32_t a = 0; a < p.total_chips(); ++a) {
      const Cm5DataChipCounters mc = model[side].empty() ? Cm5DataChipCounters{} : model[side][a];
      crc += 2;
      crc_ok += (cnt(side, a, "crc_primary") == mc.crc_primary) + (cnt(side, a, "crc_secondary") == mc.crc_secondary);
    }
  rows.push_back({"chip counters: both ends of every link agree", std::to_string(ends_ok), std::to_string(ends), true});
  rows.push_back({"chip counters per node and port as the model's", std::to_string(nodes_ok), std::to_string(nodes), true});
  rows.push_back({"chip CRC error counters as the model's", std::to_string(crc_ok), std::to_string(crc), true});
}

// The second view: each network's deliveries against the functional oracle written from the
// paper (sim/cm5data/oracle), which shares no code with the model: untimed, as the board's
// receive FIFOs give no cycles (each message once at its destination with its data words, and
// the refusals where the oracle says).
ReportRow oracle_row(const Cm5DataParams& p, const Cm5DataTraffic& t, const StreamRunResult& got) {
  std::vector<std::string> said;
  for (int side = 0; side < 2; ++side) {
    Cm5DataTraffic ts;
    std::vector<size_t> index;  // the traffic's message number of each of this side's
    for (size_t i = 0; i < t.messages.size(); ++i)
      if (t.messages[i].side == side) {
        ts.messages.push_back(t.messages[i]);
        index.push_back(i);
      }
    std::vector<Cm5UntimedDelivery> took;
    for (const StreamUnit& u : got.delivered)
      if (!u.words.empty() && static_cast<int>((u.words[0] >> 29) & 1u) == side)
        took.push_back({u.leaf, std::vector<uint32_t>(u.words.begin() + 1, u.words.end())});
    if (ts.messages.empty() && took.empty()) continue;
    for (const auto& d : cm5_oracle_untimed_disagreements(p, ts, took))
      said.push_back((d.msg < 0 ? std::string(side ? "right" : "left") + " network"
                                : "message " + std::to_string(index.at(static_cast<size_t>(d.msg)))) +
                     ": " + d.what);
  }
  return second_view_row("messages by the paper's view (sim/cm5data/oracle, untimed)", said, "agree");
}

}  // namespace

Cm5BoardCheck cm5data_check_board(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::vector<uint16_t>& masks,
                                  const StreamRunResult& got) {
  Cm5BoardCheck c;
  c.model_ni.assign(2 * static_cast<size_t>(p.leaves()), Cm5NiCounterSet{});
  // The models' deliveries: (side, leaf, words) per message, each side on its own network (the
  // right one's seed is seed + 1), as the board sends them up: the NI's RECV_HEAD (CRC ok, fell,
  // tag, length) with the side, then the data words; the board's come in the board's order:
  // multisets. The traffic's (side, destination, data) for "at their destination".
  std::map<std::tuple<int, uint32_t, std::vector<uint32_t>>, int> want, to_dst;
  for (int side = 0; side < 2; ++side) {
    c.model_chips[side].assign(p.total_chips(), Cm5DataChipCounters{});
    Cm5DataTraffic ts;
    for (const auto& msg : t.messages)
      if (msg.side == side) ts.messages.push_back(msg);
    if (ts.messages.empty()) continue;
    Cm5DataParams ps = p;
    if (side == 1) ps.seed = (p.seed + 1) & 0xFFFFu;
    const Cm5DataRunResult mr = run_cm5data_model(ps, ts);
    c.model_chips[side] = mr.chips;
    c.model_cycles = std::max(c.model_cycles, mr.cycles);
    for (size_t i = 0; i < mr.deliveries.size(); ++i) {
      const Cm5DataDelivery& d = mr.deliveries[i];
      const Cm5DataMessage& msg = ts.messages[i];
      if (!d.delivered) continue;  // refused at the sender (a mapped-out leaf)
      c.model_last_arrival = std::max(c.model_last_arrival, d.arrived + 1);
      const uint32_t h = d.words.at(0);
      std::vector<uint32_t> w{cm5_stream_recv_head(d.crc_ok, (h >> 3) & 1u, static_cast<int>((h >> 8) & 15u),
                                                   static_cast<int>(h & 7u), side)};
      w.insert(w.end(), d.words.begin() + 1, d.words.begin() + 1 + (h & 7u));
      ++want[{side, d.at_leaf, w}];
      ++to_dst[{side, msg.dst, msg.data}];
      c.model_flits += d.words.size() * 32 / static_cast<uint64_t>(p.link_bits);
      Cm5NiCounterSet& at = c.model_ni[d.at_leaf * 2 + side];
      ++at.received;
      at.crc_errors += !d.crc_ok;
      if (d.at_leaf < masks.size() && ((masks[d.at_leaf] >> ((h >> 8) & 15u)) & 1u)) {
        ++at.interrupts;
        at.interrupt = 1;
      }
      ++c.model_ni[msg.src * 2 + side].sent;
    }
  }
  size_t matched = 0, intact = 0, at_dst = 0;
  for (const StreamUnit& u : got.delivered) {
    if (u.words.empty()) continue;
    const int side = (u.words[0] >> 29) & 1u;
    const int len = static_cast<int>((u.words[0] >> 16) & 7u);
    c.board_flits += static_cast<uint64_t>(len + 2) * 32 / static_cast<uint64_t>(p.link_bits);
    auto it = want.find({side, u.leaf, u.words});
    if (it != want.end() && it->second > 0) {
      --it->second;
      ++matched;
    }
    if ((u.words[0] >> 30) & 1u) ++intact;
    auto jt = to_dst.find({side, u.leaf, std::vector<uint32_t>(u.words.begin() + 1, u.words.end())});
    if (jt != to_dst.end() && jt->second > 0) {
      --jt->second;
      ++at_dst;
    }
  }
  size_t n_refused = 0;
  for (const auto& msg : t.messages) n_refused += cm5_refused(p, msg);
  const std::string n = std::to_string(t.messages.size() - n_refused);
  c.rows.push_back({"messages delivered", std::to_string(got.delivered.size()), n, true});
  c.rows.push_back({"messages as the model delivers them (leaf, words)", std::to_string(matched), n, true});
  c.rows.push_back({"delivered at their destination", std::to_string(at_dst), n, true});
  c.rows.push_back({"CRC intact", std::to_string(intact), n, true});
  c.rows.push_back(oracle_row(p, t, got));
  // Counters against the traffic: per leaf accepted (sent) and delivered (received).
  std::vector<uint64_t> sent(p.leaves(), 0), recv(p.leaves(), 0), intr(p.leaves(), 0), refused(p.leaves(), 0);
  for (const auto& msg : t.messages) {
    if (cm5_refused(p, msg)) {  // refused at the sender's interface: never accepted
      ++refused[msg.src];
      ++c.model_ni[msg.src * 2 + msg.side].address_errors;
      continue;
    }
    ++sent[msg.src];
    ++recv[msg.dst];
    if (msg.dst < masks.size() && ((masks[msg.dst] >> msg.tag) & 1u)) ++intr[msg.dst];
  }
  size_t wrong = 0;
  uint32_t held = 0;
  uint64_t board_refused = 0;
  for (const CounterReading& r : got.counters) {
    const std::string& nm = r.counter.name;
    if (nm == "network.held") {
      held = r.value;
      continue;
    }
    if (nm == "network.last_arrival") {
      c.board_last_arrival = r.value;
      continue;
    }
    if (nm.rfind("leaf", 0) != 0) continue;  // the chips' are checked below
    const auto dot = nm.find('.');
    const uint32_t leaf = static_cast<uint32_t>(std::stoul(nm.substr(4, dot - 4)));
    const std::string what = nm.substr(dot + 1);
    if (what == "address_errors") board_refused += r.value;
    const uint64_t expect = what == "accepted"         ? sent.at(leaf)
                            : what == "delivered"      ? recv.at(leaf)
                            : what == "address_errors" ? refused.at(leaf)
                                                       : intr.at(leaf);
    if (r.value != static_cast<uint32_t>(expect)) ++wrong;
  }
  c.rows.push_back({"leaf counters as the traffic, the tag masks and the map-out say",
                    std::to_string(4 * p.leaves() - wrong), std::to_string(4 * p.leaves()), true});
  c.rows.push_back({"messages held at the end", std::to_string(held), "0", true});
  c.rows.push_back({"messages refused at the sender (mapped-out leaves: NI address errors)", std::to_string(board_refused),
                    std::to_string(n_refused), true});
  check_chip_counters(p, got, c.model_chips, c.rows);
  c.agrees = true;
  for (const ReportRow& r : c.rows)
    if (r.compared && r.board != r.model) c.agrees = false;
  return c;
}

StreamWorkload cm5data_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                const std::vector<uint16_t>& masks, Cm5NiDriver* ni,
                                const std::vector<Cm5NiCounterSet>& ni_before) {
  const Cm5DataParams p = cfg.cm5;
  StreamWorkload w;
  w.name = name;
  w.units = cm5data_units(p, t, masks);
  w.expect_units = 0;
  for (const auto& msg : t.messages) w.expect_units += !cm5_refused(p, msg);
  w.compare = [p, t, masks, ni, ni_before](const StreamRunResult& got, RunReport& r) {
    Cm5BoardCheck c = cm5data_check_board(p, t, masks, got);
    if (ni) {
      // The NIs' own counters, read through their registers now that the board is idle: what
      // this run added, against the model's deliveries (sent, received, interrupts under the
      // masks, CRC errors, address errors; nothing refused: the bridge waits for room).
      const std::vector<Cm5NiCounterSet> after = ni->all_counters(p.leaves());
      cm5data_check_ni_counters(c, after, ni_before);
    }
    r.rows.insert(r.rows.end(), c.rows.begin(), c.rows.end());
    r.about.push_back("CM-5 data network: " + std::to_string(p.leaves()) + " leaves, " + std::to_string(p.total_chips()) +
                      " router chips per network, links of " + std::to_string(p.link_bits) +
                      " bits; a cm5data_ni per leaf and side");
    r.agreement_scope = "every delivered message (leaf, side, NI head and data words), every leaf counter, every NI's "
                        "counters, every chip's counters per node and port and CRC errors";
  };
  return w;
}

void cm5data_check_ni_counters(Cm5BoardCheck& c, const std::vector<Cm5NiCounterSet>& after,
                               const std::vector<Cm5NiCounterSet>& before) {
  size_t n = 0, ok = 0, flags = 0, flags_ok = 0, refused = 0;
  for (size_t i = 0; i < after.size() && i < c.model_ni.size(); ++i) {
    const Cm5NiCounterSet b = i < before.size() ? before[i] : Cm5NiCounterSet{};
    const Cm5NiCounterSet& a = after[i];
    const Cm5NiCounterSet& m = c.model_ni[i];
    const uint32_t d[6] = {a.sent - b.sent, a.received - b.received, a.refused - b.refused,
                           a.interrupts - b.interrupts, a.crc_errors - b.crc_errors, a.address_errors - b.address_errors};
    const uint32_t e[6] = {m.sent, m.received, 0, m.interrupts, m.crc_errors, m.address_errors};
    for (int k = 0; k < 6; ++k) {
      ++n;
      ok += d[k] == e[k];
    }
    refused += d[2];
    ++flags;
    flags_ok += a.interrupt == m.interrupt;
  }
  c.ni_counters_checked = n;
  c.rows.push_back({"NI counters (sent, received, refused, interrupts, CRC, address errors) as the model's",
                    std::to_string(ok), std::to_string(n), true});
  c.rows.push_back({"NI INTERRUPT flags as the tag masks say", std::to_string(flags_ok), std::to_string(flags), true});
  c.rows.push_back({"SENDs refused for want of room (the bridge waits)", std::to_string(refused), "0", true});
  c.agrees = true;
  for (const ReportRow& r : c.rows)
    if (r.compared && r.board != r.model) c.agrees = false;
}

StreamRunOutcome run_cm5data_board(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                   const StreamRunArgs& a, std::FILE* out, const std::vector<uint16_t>& masks) {
  const StreamBoardSpec spec = cm5data_stream_spec(cfg);
  StreamConnection conn(spec, a);
  Cm5NiDriver ni(*conn.board, a.timeout_s);
  const std::vector<Cm5NiCounterSet> before = ni.all_counters(cfg.cm5.leaves());
  StreamRunOutcome o = run_stream_workload(conn, cm5data_workload(cfg, t, name, masks, &ni, before), a.out_dir,
                                           a.timeout_s, out);
  if (conn.sim) conn.sim->stop();
  return o;
}

Cm5DataTraffic cm5data_with_replies(const Cm5DataTraffic& requests) {
  Cm5DataTraffic t = requests;
  for (const Cm5DataMessage& m : requests.messages) {
    Cm5DataMessage r = m;
    std::swap(r.src, r.dst);
    r.side = 1;
    r.inject_at = 0;
    if (!r.data.empty()) r.data[0] ^= 0x80000000u;  // the reply's first word: the request's, marked
    t.messages.push_back(r);
  }
  return t;
}

std::vector<uint16_t> cm5data_run_masks(const Cm5DataParams& p) {
  std::vector<uint16_t> m(p.leaves(), 0);
  for (uint32_t x = 1; x < p.leaves(); x += 2) m[x] = 0xFFFF;
  return m;
}

int cm5data_sweep_per_leaf(const Cm5DataParams& p, int max_per_leaf) {
  if (max_per_leaf < 1) throw InputError("sweep: --max-per-proc " + std::to_string(max_per_leaf) + " must be at least 1");
  // Every point's messages wait in the NIs' send FIFOs for the pacer: they must all fit.
  return std::min(max_per_leaf, cm5_stream_send_words(p) / p.message_words(p.max_words));
}

std::vector<double> cm5data_sweep_rates(const Cm5DataParams& p) {
  // Fractions of what a leaf link carries at the pattern's mean length (random 1..max_words).
  const double mean_flits = ((p.max_words + 1) / 2.0 + 2.0) * p.flits_per_word();
  std::vector<double> r;
  for (double f : {0.1, 0.2, 0.3, 0.5, 0.7, 1.0}) r.push_back(cm5_pace_rate_value(cm5_pace_rate(f / mean_flits)));
  return r;
}

uint32_t cm5_pace_rate(double messages_per_cycle) {
  const double x = std::round(messages_per_cycle * 65536.0);
  if (!(x >= 1 && x <= 65535))
    throw InputError("sweep: offered load " + std::to_string(messages_per_cycle) +
                     " messages per cycle per leaf is out of the pacer's range (1/65536 .. 65535/65536)");
  return static_cast<uint32_t>(x);
}

double cm5_pace_rate_value(uint32_t rate) { return rate / 65536.0; }

Cm5DataTraffic cm5data_sweep_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf,
                                     uint32_t rate) {
  // A fresh seed per point (so the points are not one traffic), each leaf's k-th message ready
  // when the pacer's k-th token comes.
  Cm5DataTraffic t = make_cm5_pattern(pattern, p, seed + rate, per_leaf);
  std::vector<uint64_t> k(p.leaves(), 0);
  for (Cm5DataMessage& m : t.messages) m.inject_at = cm5_pace_start(rate, cm5_pace_phase(m.src), k[m.src]++);
  return t;
}

StreamWorkload cm5data_sweep_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, uint32_t rate,
                                      const std::string& name) {
  StreamWorkload w = cm5data_workload(cfg, t, name);
  // PACE enabled at rate 0 holds every NI while the messages go in; the last unit starts the
  // pacers (it comes after every message has been taken: the units go in in order).
  w.units.insert(w.units.begin(), cm5_ni_unit(cm5_bridge_write(0, "PACE", 0x80000000u)));
  w.units.push_back(cm5_ni_unit(cm5_bridge_write(0, "PACE", 0x80000000u | rate)));
  return w;
}

bool run_cm5data_sweep(const Cm5DataConfig& cfg, const std::string& pattern, uint64_t seed, int max_per_leaf,
                       const StreamRunArgs& a, std::FILE* out, std::vector<double> rates) {
  const Cm5DataParams p = cfg.cm5;
  const int per_leaf = cm5data_sweep_per_leaf(p, max_per_leaf);
  if (rates.empty()) rates = cm5data_sweep_rates(p);
  (void)make_cm5_pattern(pattern, p, seed, 1);  // an unknown pattern is refused before the board starts
  for (double r : rates) (void)cm5_pace_rate(r);
  StreamConnection conn(cm5data_stream_spec(cfg), a);
  StreamSweep sw;
  sw.title = cfg.name + ": " + pattern + " traffic, left network, " + std::to_string(per_leaf) +
             " messages per leaf paced by the NIs";
  sw.x_label = "offered load (messages per cycle per leaf)";
  sw.y_label = "accepted throughput (messages per cycle per leaf)";
  for (double r : rates) sw.offered.push_back(cm5_pace_rate_value(cm5_pace_rate(r)));
  sw.workload = [&](double x) {
    const uint32_t rate = cm5_pace_rate(x);
    return cm5data_sweep_workload(cfg, cm5data_sweep_traffic(p, pattern, seed, per_leaf, rate), rate, pattern);
  };
  sw.measure = [&](double x, const StreamRunResult& r) {
    const Cm5DataTraffic t = cm5data_sweep_traffic(p, pattern, seed, per_leaf, cm5_pace_rate(x));
    const Cm5BoardCheck c = cm5data_check_board(p, t, {}, r);
    const double msgs = static_cast<double>(t.messages.size());
    StreamSweepMeasure m;
    m.accepted = c.board_last_arrival ? msgs / (static_cast<double>(c.board_last_arrival) * p.leaves()) : 0;
    m.model_accepted = c.model_last_arrival ? msgs / (static_cast<double>(c.model_last_arrival) * p.leaves()) : 0;
    m.agrees = c.agrees;
    return m;
  };
  return run_stream_sweep(conn, sw, a.out_dir, a.timeout_s, out);
}

}  // namespace cmnet

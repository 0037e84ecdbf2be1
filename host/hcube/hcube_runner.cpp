#include "host/hcube/hcube_runner.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>

#include "gen/core/errors.h"
#include "sim/hcube/hcube_rtl.h"

namespace cmnet {
namespace {


uint64_t ejected_bytes(const HcubeParams& p, const HcubeMessage& m) {
  if (!p.packet()) return p.worm_bytes(m.len) - 2;  // the destination bytes are not ejected
  uint64_t b = 0;
  for (uint64_t k = 0; k < p.packets_of(m.len); ++k) b += static_cast<uint64_t>(p.packet_wire(m.len, k));
  return b;
}

uint64_t segments(const HcubeParams& p, const HcubeMessage& m) {
  if (p.packet()) return p.packets_of(m.len);
  const uint64_t b = ejected_bytes(p, m), s = kHcubeStreamWormSegment;
  return (b + s - 1) / s;
}

uint64_t store_words(const HcubeParams& p, const HcubeMessage& m) {
  if (p.packet()) return p.packets_of(m.len) * static_cast<uint64_t>((p.packet_bytes + 3) / 4 + 1);
  return (p.worm_bytes(m.len) + 3) / 4;
}

// Age ranks: generation tick, then traffic order (the wormhole routers' priority).
std::vector<size_t> age_ranks(const HcubeTraffic& t) {
  std::vector<size_t> order(t.messages.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t.messages[a].gen < t.messages[b].gen; });
  std::vector<size_t> rank(order.size());
  for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
  return rank;
}

}  // namespace

void hcube_board_check_fits(const HcubeParams& p, const HcubeTraffic& t) {
  check_hcube_traffic(t, p, "hcube board traffic");
  const HcubeStreamStore store = hcube_stream_store(p);
  const uint64_t words = 1u << store.word_bits;
  if (t.messages.size() > (65536u >> store.slot_bits))
    throw InputError("hcube board: " + std::to_string(t.messages.size()) + " messages, the 16-bit tags number at most " +
                     std::to_string(65536u >> store.slot_bits));
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const HcubeMessage& m = t.messages[i];
    if (m.gen > 0xFFFFFFFFull) throw InputError("hcube board: a generation tick beyond 32 bits (" + std::to_string(m.gen) + ")");
    if (store_words(p, m) > words)
      throw InputError("hcube board: message " + std::to_string(i) + " (node " + std::to_string(m.src) + ", " + std::to_string(m.len) + " bytes) needs " +
                       std::to_string(store_words(p, m)) + " store words, a slot holds " + std::to_string(words));
  }
}

std::vector<StreamUnit> hcube_units(const HcubeParams& p, const HcubeTraffic& t) {
  hcube_board_check_fits(p, t);
  const std::vector<size_t> rank = age_ranks(t);
  std::vector<StreamUnit> units;
  auto pack = [](std::vector<uint32_t>& w, const std::vector<uint8_t>& b, size_t nbytes) {
    for (size_t i = 0; i < nbytes; i += 4) {
      uint32_t x = 0;
      for (size_t k = 0; k < 4 && i + k < b.size(); ++k) x |= static_cast<uint32_t>(b[i + k]) << (8 * k);
      w.push_back(x);
    }
  };
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const HcubeMessage& m = t.messages[i];
    StreamUnit u;
    u.leaf = m.src;
    const uint32_t tag = static_cast<uint32_t>(rank[i] << hcube_stream_store(p).slot_bits);  // the slot: when it is sent
    u.words = {(tag << 16) | m.dst, static_cast<uint32_t>(m.gen),
               static_cast<uint32_t>(p.packet() ? p.packets_of(m.len) : p.worm_bytes(m.len)),
               static_cast<uint32_t>(ejected_bytes(p, m))};
    if (p.packet()) {
      for (uint64_t k = 0; k < p.packets_of(m.len); ++k) {
        u.words.push_back(static_cast<uint32_t>(p.packet_wire(m.len, k)));
        pack(u.words, hcube_packet_bytes(p, m, k), static_cast<size_t>(p.packet_bytes));
      }
    } else {
      const std::vector<uint8_t> b = hcube_worm_bytes(p, m);
      pack(u.words, b, b.size());
    }
    units.push_back(std::move(u));
  }
  return units;
}

bool hcube_credit(const StreamUnit& u) { return u.words.size() == 1 && (u.words[0] >> 30) == 1u; }

std::function<int(const std::vector<StreamUnit>&, StreamUnit&)> hcube_pull(const HcubeParams& p, const HcubeTraffic& t) {
  struct State {
    std::vector<StreamUnit> units;
    std::vector<std::vector<size_t>> queue;  // per node its messages, in order
    std::vector<size_t> next;                // per node the next to send
    std::vector<bool> ended;                 // per node: its end unit sent
    std::vector<std::vector<uint32_t>> free; // per node its free slots
    size_t seen = 0;                         // delivered units looked at
    bool started = false;
  };
  auto st = std::make_shared<State>();
  st->units = hcube_units(p, t);
  const size_t NN = static_cast<size_t>(p.nodes());
  st->queue.resize(NN);
  st->next.assign(NN, 0);
  st->ended.assign(NN, false);
  st->free.resize(NN);
  for (size_t i = 0; i < t.messages.size(); ++i) st->queue[t.messages[i].src].push_back(i);
  const uint32_t slots = 1u << hcube_stream_store(p).slot_bits;
  for (auto& f : st->free)
    for (uint32_t s = slots; s-- > 0;) f.push_back(s);  // lowest slot last: taken first
  const std::vector<HcubeMessage> msgs = t.messages;
  return [st, msgs, slots](const std::vector<StreamUnit>& got, StreamUnit& out) {
    for (; st->seen < got.size(); ++st->seen)
      if (hcube_credit(got[st->seen])) st->free.at(got[st->seen].leaf).push_back(got[st->seen].words[0] & (slots - 1));
    if (!st->started) {
      out = StreamUnit{0, {0}};  // the start: the ticks run while every node's next message is in
      st->started = true;
      return 1;
    }
    // A node whose messages have all gone gets its end (it no longer holds the network back).
    bool left = false;
    for (size_t x = 0; x < st->queue.size(); ++x) {
      if (st->next[x] < st->queue[x].size() || st->ended[x]) continue;
      out = StreamUnit{static_cast<uint32_t>(x), {1}};
      st->ended[x] = true;
      return 1;
    }
    // The message needed soonest (the smallest generation tick, then traffic order) among the
    // nodes with a free slot; the others wait for their credits.
    size_t best = msgs.size();
    for (size_t x = 0; x < st->queue.size(); ++x) {
      if (st->next[x] == st->queue[x].size()) continue;
      left = true;
      const size_t i = st->queue[x][st->next[x]];
      if (st->free[x].empty()) continue;
      if (best == msgs.size() || msgs[i].gen < msgs[best].gen || (msgs[i].gen == msgs[best].gen && i < best)) best = i;
    }
    if (!left) return -1;
    if (best == msgs.size()) return 0;
    const uint32_t x = msgs[best].src;
    out = st->units[best];
    out.words[0] |= st->free[x].back() << 16;
    st->free[x].pop_back();
    ++st->next[x];
    return 1;
  };
}

HcubeRunResult hcube_board_result(const HcubeParams& p, const HcubeTraffic& t, const StreamRunResult& got, bool keep) {
  HcubeRunResult r;
  HcubeReassemblyCheck check(p, t, r, keep);
  struct Worm {
    std::vector<uint8_t> bytes;
    uint64_t first = 0;
    bool on = false;
  };
  std::map<std::pair<uint32_t, uint32_t>, Worm> worms;                 // (node, dim)
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, HcubeReceived> open;  // (node, src, first dim)
  for (const StreamUnit& u : got.delivered) {
    if (hcube_credit(u)) continue;
    if (u.words.size() < 3) {
      ++r.bad_reassembly;
      continue;
    }
    const bool last = u.words[0] >> 31;
    const uint32_t dim = (u.words[0] >> 16) & 0xFFu, n = u.words[0] & 0xFFFFu;
    const uint64_t tick = u.words[1];
    std::vector<uint8_t> b;
    for (size_t i = 2; i < u.words.size(); ++i)
      for (int k = 0; k < 4; ++k) b.push_back(static_cast<uint8_t>(u.words[i] >> (8 * k)));
    if (b.size() < n || b.size() >= n + 4) {
      ++r.bad_reassembly;
      continue;
    }
    b.resize(n);
    r.ticks = std::max(r.ticks, tick);
    if (!p.packet()) {
      Worm& w = worms[{u.leaf, dim}];
      if (!w.on) w.first = tick;  // the first segment ends with data byte 16 (or is the whole worm)
      w.on = true;
      w.bytes.insert(w.bytes.end(), b.begin(), b.end());
      if (!last) continue;
      const auto& a = w.bytes;
      if (a.size() < 8) {
        ++r.bad_reassembly;
        w = Worm{};
        continue;
      }
      HcubeReceived x;
      const uint32_t field = a[0] | (static_cast<uint32_t>(a[1]) << 8);
      x.dst = u.leaf;
      x.src = field & 0xFFFu;
      x.first_dim = static_cast<int>(field >> 12);
      x.len = a[2] | (a[3] << 8) | (a[4] << 16) | (static_cast<uint32_t>(a[5]) << 24);
      x.type = a[6] | (a[7] << 8);
      x.first = x.len >= 16 ? w.first : tick;
      x.last = tick;
      x.data.assign(a.begin() + 8, a.end());
      check.add(std::move(x));
      w = Worm{};
      continue;
    }
    // Packet scheme: a segment is a packet; reassembled by source and first-hop dimension.
    if (b.size() < 4) {
      ++r.bad_reassembly;
      continue;
    }
    const uint32_t field = b[2] | (static_cast<uint32_t>(b[3]) << 8);
    const auto key = std::make_tuple(u.leaf, field & 0xFFFu, field >> 12);
    auto it = open.find(key);
    size_t from = 4;
    if (it == open.end()) {
      if (b.size() < 10) {
        ++r.bad_reassembly;
        continue;
      }
      HcubeReceived o;
      o.dst = b[0] | (static_cast<uint32_t>(b[1]) << 8);
      o.src = field & 0xFFFu;
      o.first_dim = static_cast<int>(field >> 12);
      o.len = b[4] | (b[5] << 8) | (b[6] << 16) | (static_cast<uint32_t>(b[7]) << 24);
      o.type = b[8] | (b[9] << 8);
      o.first = tick;
      it = open.emplace(key, o).first;
      from = 10;
    }
    it->second.data.insert(it->second.data.end(), b.begin() + static_cast<std::ptrdiff_t>(from), b.end());
    if (it->second.data.size() >= it->second.len) {
      it->second.last = tick;
      check.add(std::move(it->second));
      open.erase(it);
    }
  }
  r.bad_reassembly += open.size();
  r.ports.resize(static_cast<size_t>(p.links()));
  for (const CounterReading& c : got.counters) {
    const std::string& nm = c.counter.name;
    if (nm.empty() || nm[0] != 'n' || nm.rfind("network", 0) == 0) continue;
    unsigned x = 0, d = 0;
    char kind[16] = {0};
    if (std::sscanf(nm.c_str(), "n%u.d%u.%15s", &x, &d, kind) != 3) continue;
    HcubePortCounters& pc = r.ports.at(static_cast<size_t>(x) * static_cast<size_t>(p.dims) + d);
    const std::string k = kind;
    (k == "packets" ? pc.packets : k == "messages" ? pc.messages : k == "bytes" ? pc.bytes : pc.blocked_ticks) = c.value;
  }
  r.completed = r.delivered == t.messages.size() && r.bad_reassembly == 0;
  return r;
}

HcubeBoardCheck hcube_check_board(const HcubeParams& p, const HcubeTraffic& t, const StreamRunResult& got) {
  HcubeBoardCheck c;
  const HcubeRunResult b = hcube_board_result(p, t, got);
  const HcubeRunResult m = run_hcube_model(p, t);
  c.board_ticks = b.ticks;
  c.model_ticks = m.ticks;
  size_t exact = 0, ticks = 0, dims = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const HcubeDelivery& x = b.deliveries[i];
    const HcubeDelivery& y = m.deliveries[i];
    if (x.delivered) c.data_bytes += t.messages[i].len;
    exact += x.delivered && x.data_ok;
    ticks += x.delivered && y.delivered && x.first == y.first && x.last == y.last;
    dims += x.delivered && y.delivered && (!p.packet() || x.first_dim == y.first_dim);
  }
  const std::string n = std::to_string(t.messages.size());
  c.rows.push_back({"messages delivered bit-exact (bytes, length, type, destination)", std::to_string(exact), n, true});
  c.rows.push_back({"messages at the model's first and last tick", std::to_string(ticks), n, true});
  if (p.packet()) c.rows.push_back({"messages on the model's first-hop dimension", std::to_string(dims), n, true});
  c.rows.push_back({"segments that did not reassemble", std::to_string(b.bad_reassembly), "0", true});
  c.rows.push_back({"tick of the last arrival", std::to_string(b.ticks), std::to_string(m.ticks), true});
  size_t same = 0;
  for (size_t i = 0; i < m.ports.size(); ++i) {
    const HcubePortCounters &x = b.ports[i], &y = m.ports[i];
    same += x.packets == y.packets && x.messages == y.messages && x.bytes == y.bytes && x.blocked_ticks == y.blocked_ticks;
  }
  c.rows.push_back({"ports whose packets, messages, bytes and blocked ticks equal the model's", std::to_string(same),
                    std::to_string(m.ports.size()), true});
  // The leaf counters against the traffic.
  std::vector<uint64_t> loaded(static_cast<size_t>(p.nodes()), 0), recv(loaded), msgs(loaded);
  for (const HcubeMessage& x : t.messages) {
    loaded[x.src] += ejected_bytes(p, x);
    recv[x.dst] += ejected_bytes(p, x);
    ++msgs[x.src];
  }
  size_t right = 0, total = 0;
  uint32_t held = 0;
  for (const CounterReading& r : got.counters) {
    const std::string& nm = r.counter.name;
    if (nm == "network.held_bytes") held = r.value;
    if (nm.rfind("leaf", 0) != 0) continue;
    const auto dot = nm.find('.');
    const size_t leaf = std::stoul(nm.substr(4, dot - 4));
    const std::string what = nm.substr(dot + 1);
    const uint64_t expect = what == "loaded_bytes"      ? loaded.at(leaf)
                            : what == "delivered_bytes" ? recv.at(leaf)
                            : what == "messages"        ? msgs.at(leaf)
                                                        : 0;  // refused words, overflowed bytes
    ++total;
    right += r.value == static_cast<uint32_t>(expect);
  }
  c.rows.push_back({"leaf counters (bytes loaded and delivered, messages; nothing refused or overflowed)", std::to_string(right),
                    std::to_string(total), true});
  c.rows.push_back({"bytes held at the end", std::to_string(held), "0", true});
  c.agrees = true;
  for (const ReportRow& r : c.rows)
    if (r.compared && r.board != r.model) c.agrees = false;
  return c;
}

StreamWorkload hcube_workload(const HcubeConfig& cfg, const HcubeTraffic& t, const std::string& name) {
  const HcubeParams p = cfg.hc;
  StreamWorkload w;
  w.name = name;
  w.pull = hcube_pull(p, t);  // refuses a traffic that does not fit before the board starts
  w.expect_units = t.messages.size();  // a credit per message
  for (const HcubeMessage& m : t.messages) w.expect_units += segments(p, m);
  w.compare = [p, t](const StreamRunResult& got, RunReport& r) {
    const HcubeBoardCheck c = hcube_check_board(p, t, got);
    r.rows.insert(r.rows.end(), c.rows.begin(), c.rows.end());
    r.about.push_back("hypercube: " + std::to_string(static_cast<uint64_t>(p.dims)) + "-cube, " +
                      (p.packet() ? "packet scheme, " + p.routing + " routing" : std::string("wormhole")) + ", " +
                      std::to_string(t.messages.size()) + " messages");
    r.notes.push_back("ticks: the board's tick counter counts the cycles its network was enabled (run on, every node's "
                      "next message loaded, room in every receive FIFO): the model's ticks");
    r.agreement_scope = "every message (bytes, first and last tick), every port counter, every leaf counter";
  };
  return w;
}

StreamRunOutcome run_hcube_board(const HcubeConfig& cfg, const HcubeTraffic& t, const std::string& name,
                                 const StreamRunArgs& a, std::FILE* out) {
  StreamWorkload w = hcube_workload(cfg, t, name);  // refuses a traffic that does not fit before the board starts
  return run_stream_workload(hcube_stream_spec(cfg), w, a, out);
}

std::vector<double> hcube_sweep_gaps() { return {1600, 800, 400, 200, 100, 50}; }

HcubeTraffic hcube_sweep_traffic(const HcubeParams& p, const std::string& pattern, uint64_t seed, double gap,
                                 int per_node, double mean_len) {
  return make_hcube_workload(p.dims, pattern, mean_len, gap, per_node, seed);
}

bool run_hcube_sweep(const HcubeConfig& cfg, const std::string& pattern, uint64_t seed, int per_node,
                     const StreamRunArgs& a, std::FILE* out) {
  const HcubeParams p = cfg.hc;
  const double mean_len = 24;
  std::map<double, HcubeTraffic> traffic;  // by offered load
  for (double gap : hcube_sweep_gaps()) {
    HcubeTraffic t = hcube_sweep_traffic(p, pattern, seed, gap, per_node, mean_len);
    hcube_board_check_fits(p, t);  // every point before the board starts
    traffic[1000.0 / gap] = std::move(t);
  }
  StreamConnection conn(hcube_stream_spec(cfg), a);
  StreamSweep sw;
  sw.title = cfg.name + ": " + pattern + " traffic, " + std::to_string(per_node) + " messages per node of mean " +
             std::to_string(static_cast<int>(mean_len)) + " bytes";
  sw.x_label = "offered load (messages generated per 1,000 ticks per node)";
  sw.y_label = "accepted (data bytes delivered per tick per node until the last arrival)";
  for (const auto& [x, t] : traffic) sw.offered.push_back(x);
  sw.workload = [&](double x) { return hcube_workload(cfg, traffic.at(x), pattern); };
  sw.measure = [&](double x, const StreamRunResult& r) {
    const HcubeBoardCheck c = hcube_check_board(p, traffic.at(x), r);
    uint64_t bytes = 0;
    for (const HcubeMessage& m : traffic.at(x).messages) bytes += m.len;
    StreamSweepMeasure s;
    const double nodes = p.nodes();
    s.accepted = c.board_ticks ? static_cast<double>(c.data_bytes) / (static_cast<double>(c.board_ticks) * nodes) : 0;
    s.model_accepted = c.model_ticks ? static_cast<double>(bytes) / (static_cast<double>(c.model_ticks) * nodes) : 0;
    s.agrees = c.agrees;
    return s;
  };
  return run_stream_sweep(conn, sw, a.out_dir, a.timeout_s, out);
}

}  // namespace cmnet

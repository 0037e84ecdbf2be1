// The packet scheme's reference model (hcube_model.h says what it models and how it times it).
// Event-stepped: it visits only ticks where something can change (an end of a transmission, a
// packet's destination bytes arriving downstream, a source with something to hand over), and
// in each visited tick does, in this order: (1) transmissions ending now free their buffer
// upstream and deliver to a destination; (2) packets whose destination bytes arrive now join
// their next port's queue; (3) every idle channel, by node then dimension, starts the oldest
// packet of its queue that can move; (4) every source, by node, hands one packet to a port.
#include <algorithm>
#include <chrono>
#include <map>
#include <queue>
#include <tuple>

#include "sim/hcube/hcube_model.h"

namespace cmnet {
namespace {

struct Pkt {
  uint32_t msg = 0;        // bookkeeping of the model's own records only (started, first_dim)
  uint32_t src = 0, dst = 0;
  uint32_t len = 0, type = 0;  // header fields of the first packet
  int first_dim = 0;       // carried in the source field's upper bits: the reassembly context
  bool first = false;
  bool contrary = false;   // in its source's buffer, on a first hop other than e-cube's
  int wire = 0;
  uint32_t at = 0;         // the node whose port it is going to (or is) queued at
  int qdim = 0;            // that port's dimension
  std::vector<uint8_t> data;
};

struct Port {
  std::vector<uint32_t> queue;  // packets here, waiting for the channel, oldest first
  int used = 0;                 // buffers reserved or holding a packet
  int contrary = 0;             // buffers holding contrary packets
  bool busy = false;
  uint32_t sending = 0;         // the packet on the channel
  bool sending_contrary = false;
};

struct Source {
  std::vector<size_t> msgs;  // this node's messages, in order
  size_t next = 0;           // the message being handed over
  uint64_t k = 0;            // its next packet
  int dim = -1;              // its first hop, chosen at its first packet
  bool contrary = false;
};

enum EvKind { kEnd = 0, kHeader = 1 };
using Event = std::tuple<uint64_t, int, uint32_t>;  // tick, kind, port (end) or packet (header)

}  // namespace

HcubeRunResult run_hcube_packet_model(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const int n = p.dims, N = p.nodes(), B = p.buffers;
  const uint64_t A = static_cast<uint64_t>(p.arb_ticks), T = static_cast<uint64_t>(p.ticks_per_byte);
  HcubeRunResult r;
  r.ports.resize(static_cast<size_t>(p.links()));
  HcubeReassemblyCheck check(p, t, r, opt.keep_received);

  std::vector<Pkt> pool;
  std::vector<uint32_t> free_ids;
  auto alloc = [&]() -> uint32_t {
    if (!free_ids.empty()) {
      const uint32_t id = free_ids.back();
      free_ids.pop_back();
      return id;
    }
    pool.emplace_back();
    return static_cast<uint32_t>(pool.size() - 1);
  };
  std::vector<Port> ports(static_cast<size_t>(p.links()));
  auto port = [&](uint32_t node, int dim) -> Port& { return ports[static_cast<size_t>(node) * n + dim]; };
  std::vector<Source> src(static_cast<size_t>(N));
  for (size_t i = 0; i < t.messages.size(); ++i) src[t.messages[i].src].msgs.push_back(i);
  // Reassembly contexts of every destination: (dst, src, first_dim) -> the message so far.
  std::map<std::tuple<uint32_t, uint32_t, int>, HcubeReceived> ctx;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> ev;

  // Where packet `id`, sent on (x, d), goes next: -1 = it is at its destination.
  auto next_dim = [&](const Pkt& k, uint32_t x, int d) { return hcube_ecube_dim(x ^ (1u << d), k.dst); };
  auto can_move = [&](const Pkt& k, uint32_t x, int d) {
    const int nd = next_dim(k, x, d);
    return nd < 0 || port(x ^ (1u << d), nd).used < B;
  };

  const uint64_t total = t.messages.size();
  uint64_t now = 0;
  std::vector<uint32_t> blocked_ports;
  std::vector<int> blocked_sources;
  while (true) {
    ++r.events;
    // (1) ends, (2) destination bytes downstream.
    while (!ev.empty() && std::get<0>(ev.top()) == now) {
      const auto [tick, kind, id] = ev.top();
      ev.pop();
      if (kind == kEnd) {
        Port& pt = ports[id];
        const uint32_t x = id / static_cast<uint32_t>(n);
        const int d = static_cast<int>(id % static_cast<uint32_t>(n));
        Pkt& k = pool[pt.sending];
        pt.busy = false;
        --pt.used;
        if (pt.sending_contrary) --pt.contrary;
        if ((x ^ (1u << d)) == k.dst) {
          const auto key = std::make_tuple(k.dst, k.src, k.first_dim);
          auto it = ctx.find(key);
          if (k.first) {
            if (it != ctx.end()) {  // a first packet while a message is open: the old one is lost
              ++r.bad_reassembly;
              ctx.erase(it);
            }
            HcubeReceived m;
            m.dst = k.dst;
            m.src = k.src;
            m.len = k.len;
            m.type = k.type;
            m.first = now;
            m.data.reserve(k.len);
            it = ctx.emplace(key, std::move(m)).first;
          }
          if (it == ctx.end()) {
            ++r.bad_reassembly;  // a later packet with no message open
          } else {
            it->second.data.insert(it->second.data.end(), k.data.begin(), k.data.end());
            if (it->second.data.size() >= it->second.len) {
              it->second.last = now;
              check.add(std::move(it->second));
              ctx.erase(it);
            }
          }
          free_ids.push_back(pt.sending);
        }
      } else {
        Pkt& k = pool[id];
        k.contrary = false;  // off its source: from here on e-cube
        port(k.at, k.qdim).queue.push_back(id);  // its buffer was reserved when it was sent
      }
      (void)tick;
    }
    // (3) starts.
    for (uint32_t x = 0; x < static_cast<uint32_t>(N); ++x)
      for (int d = 0; d < n; ++d) {
        Port& pt = port(x, d);
        if (pt.busy || pt.queue.empty()) continue;
        size_t pick = pt.queue.size();
        for (size_t i = 0; i < pt.queue.size() && pick == pt.queue.size(); ++i)
          if (can_move(pool[pt.queue[i]], x, d)) pick = i;
        if (pick == pt.queue.size()) {
          blocked_ports.push_back(x * static_cast<uint32_t>(n) + static_cast<uint32_t>(d));
          continue;
        }
        const uint32_t id = pt.queue[pick];
        pt.queue.erase(pt.queue.begin() + static_cast<std::ptrdiff_t>(pick));
        Pkt& k = pool[id];
        pt.busy = true;
        pt.sending = id;
        pt.sending_contrary = k.contrary;
        const uint32_t pidx = x * static_cast<uint32_t>(n) + static_cast<uint32_t>(d);
        HcubePortCounters& c = r.ports[pidx];
        ++c.packets;
        c.messages += k.first ? 1 : 0;
        c.bytes += static_cast<uint64_t>(k.wire);
        if (k.first && x == k.src) r.deliveries[k.msg].started = now;
        ev.emplace(now + A + T * static_cast<uint64_t>(k.wire), kEnd, pidx);
        const int nd = next_dim(k, x, d);
        if (nd >= 0) {
          k.at = x ^ (1u << d);
          k.qdim = nd;
          Port& np = port(k.at, nd);
          ++np.used;
          r.max_buffer_used = std::max(r.max_buffer_used, np.used);
          ev.emplace(now + A + T * HcubeParams::kRouteBytes, kHeader, id);
        }
      }
    // (4) sources.
    uint64_t next_try = UINT64_MAX;
    for (uint32_t x = 0; x < static_cast<uint32_t>(N); ++x) {
      Source& s = src[x];
      if (s.next >= s.msgs.size()) continue;
      const HcubeMessage& m = t.messages[s.msgs[s.next]];
      if (m.gen > now) {
        next_try = std::min(next_try, m.gen);
        continue;
      }
      if (s.k == 0) {
        const int e = hcube_ecube_dim(x, m.dst);
        int dim = e;
        if (p.quasi()) {
          for (int d = 0; d < n; ++d)
            if (((x ^ m.dst) >> d & 1u) && port(x, d).used < port(x, dim).used) dim = d;
        }
        s.dim = dim;
        s.contrary = dim != e;
      }
      Port& pt = port(x, s.dim);
      const bool rule_ok = !s.contrary || !opt.deadlock_rule || pt.contrary < B - 1;
      if (pt.used >= B || !rule_ok) {
        blocked_sources.push_back(static_cast<int>(x));
        continue;
      }
      const uint32_t id = alloc();
      Pkt& k = pool[id];
      k.msg = static_cast<uint32_t>(s.msgs[s.next]);
      k.src = x;
      k.dst = m.dst;
      k.len = m.len;
      k.type = m.seq & 0xFFFFu;
      k.first_dim = s.dim;
      k.first = s.k == 0;
      k.contrary = s.contrary;
      k.wire = p.packet_wire(m.len, s.k);
      const uint64_t off = s.k == 0 ? 0 : static_cast<uint64_t>(p.first_data_bytes()) + (s.k - 1) * p.data_bytes();
      k.data.resize(static_cast<size_t>(p.packet_data(m.len, s.k)));
      for (size_t i = 0; i < k.data.size(); ++i) k.data[i] = hcube_data_byte(p.seed, x, m.seq, off + i);
      if (k.first) r.deliveries[k.msg].first_dim = s.dim;
      k.at = x;
      k.qdim = s.dim;
      pt.queue.push_back(id);
      ++pt.used;
      pt.contrary += s.contrary ? 1 : 0;
      r.max_buffer_used = std::max(r.max_buffer_used, pt.used);
      r.max_contrary = std::max(r.max_contrary, pt.contrary);
      next_try = std::min(next_try, now + 1);  // it can take its channel from the next tick
      if (++s.k == p.packets_of(m.len)) {
        s.k = 0;
        ++s.next;
      }
      if (s.next < s.msgs.size()) next_try = std::min(next_try, std::max(now + 1, t.messages[s.msgs[s.next]].gen));
    }
    uint64_t next = next_try;
    if (!ev.empty()) next = std::min(next, std::get<0>(ev.top()));
    if (next == UINT64_MAX || next > opt.max_ticks) {
      r.ticks = now;
      break;
    }
    for (uint32_t pi : blocked_ports) r.ports[pi].blocked_ticks += next - now;
    r.source_blocked_ticks += (next - now) * blocked_sources.size();
    blocked_ports.clear();
    blocked_sources.clear();
    now = next;
  }
  r.completed = r.delivered == total && r.bad_reassembly == 0;
  bool pending = !ev.empty();
  for (const Source& s : src) pending = pending || s.next < s.msgs.size();
  for (const Port& pt : ports) pending = pending || !pt.queue.empty();
  r.deadlock = !r.completed && r.ticks < opt.max_ticks && pending;
  uint64_t last = 0;
  for (const auto& d : r.deliveries) last = std::max(last, d.last);
  if (r.completed) r.ticks = last;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace cmnet

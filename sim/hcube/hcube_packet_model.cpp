// The packet scheme's reference model (hcube_model.h says what it models and how it times it).
// Event-stepped: it visits only ticks where something can change (an end of a transmission, a
// packet's destination bytes arriving downstream, a source with something to hand over), and
// in each visited tick does, in this order: (1) transmissions ending now free their buffer
// upstream and deliver to a destination; (2) packets whose destination bytes arrive now join
// their next port's queue; (3) every idle channel, by node then dimension, starts the oldest
// packet of its queue that can move; (4) every source, by node, starts the message at the head of
// its queue on a port that is not taking another of its messages, and hands one packet to each
// port that is taking one.
#include <algorithm>
#include <chrono>
#include <map>
#include <queue>
#include <set>
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

// One message being handed to one output port, a packet per tick while a buffer is free.
struct Feeder {
  bool active = false;
  size_t msg = 0;
  uint64_t k = 0;            // its next packet
  bool contrary = false;     // its port is not the e-cube one
};

struct Source {
  std::vector<size_t> msgs;  // this node's messages, in order
  size_t next = 0;           // the head of its queue
  std::vector<Feeder> feed;  // by output port
};

enum EvKind { kEnd = 0, kHeader = 1, kWake = 2 };
// tick, kind, key, packet: an end is keyed by its port, a header by the port that sent it (so
// packets entering one queue in one tick line up by sender, node then dimension), a wake by its
// node (its queue's head is generated).
using Event = std::tuple<uint64_t, int, uint32_t, uint32_t>;

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
  for (Source& s : src) s.feed.resize(static_cast<size_t>(n));
  // Reassembly contexts of every destination: (dst, src, first_dim) -> the message so far.
  std::map<std::tuple<uint32_t, uint32_t, int>, HcubeReceived> ctx;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> ev;
  // Only what can act is visited, in index order: idle ports with packets, sources with work.
  std::set<uint32_t> ready_ports, active_src;
  for (uint32_t x = 0; x < static_cast<uint32_t>(N); ++x)
    if (!src[x].msgs.empty()) ev.emplace(t.messages[src[x].msgs[0]].gen, kWake, x, 0);
  auto enqueue = [&](uint32_t pidx, uint32_t id) {
    ports[pidx].queue.push_back(id);
    if (!ports[pidx].busy) ready_ports.insert(pidx);
  };

  // Where packet `id`, sent on (x, d), goes next: -1 = it is at its destination.
  auto next_dim = [&](const Pkt& k, uint32_t x, int d) { return hcube_ecube_dim(x ^ (1u << d), k.dst); };
  auto can_move = [&](const Pkt& k, uint32_t x, int d) {
    const int nd = next_dim(k, x, d);
    return nd < 0 || port(x ^ (1u << d), nd).used < B;
  };

  const uint64_t total = t.messages.size();
  uint64_t now = 0;
  std::vector<uint32_t> blocked_ports;
  uint64_t blocked_feeders = 0;
  while (true) {
    ++r.events;
    // (1) ends, (2) destination bytes downstream.
    while (!ev.empty() && std::get<0>(ev.top()) == now) {
      const auto [tick, kind, ekey, pkt] = ev.top();
      const uint32_t id = kind == kHeader ? pkt : ekey;
      ev.pop();
      if (kind == kEnd) {
        Port& pt = ports[id];
        const uint32_t x = id / static_cast<uint32_t>(n);
        const int d = static_cast<int>(id % static_cast<uint32_t>(n));
        Pkt& k = pool[pt.sending];
        pt.busy = false;
        if (!pt.queue.empty()) ready_ports.insert(id);
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
      } else if (kind == kHeader) {
        Pkt& k = pool[id];
        k.contrary = false;  // off its source: from here on e-cube
        enqueue(k.at * static_cast<uint32_t>(n) + static_cast<uint32_t>(k.qdim), id);  // its buffer was reserved when sent
      } else {
        active_src.insert(id);
      }
      (void)tick;
    }
    // (3) starts.
    for (auto pit = ready_ports.begin(); pit != ready_ports.end();) {
      const uint32_t pidx = *pit;
      const uint32_t x = pidx / static_cast<uint32_t>(n);
      const int d = static_cast<int>(pidx % static_cast<uint32_t>(n));
      Port& pt = ports[pidx];
      {
        size_t pick = pt.queue.size();
        for (size_t i = 0; i < pt.queue.size() && pick == pt.queue.size(); ++i)
          if (can_move(pool[pt.queue[i]], x, d)) pick = i;
        if (pick == pt.queue.size()) {
          blocked_ports.push_back(pidx);
          ++pit;
          continue;
        }
        pit = ready_ports.erase(pit);
        const uint32_t id = pt.queue[pick];
        pt.queue.erase(pt.queue.begin() + static_cast<std::ptrdiff_t>(pick));
        Pkt& k = pool[id];
        pt.busy = true;
        pt.sending = id;
        pt.sending_contrary = k.contrary;
        HcubePortCounters& c = r.ports[pidx];
        ++c.packets;
        c.messages += k.first ? 1 : 0;
        c.bytes += static_cast<uint64_t>(k.wire);
        if (k.first && x == k.src) r.deliveries[k.msg].started = now;
        ev.emplace(now + A + T * static_cast<uint64_t>(k.wire), kEnd, pidx, 0);
        const int nd = next_dim(k, x, d);
        if (nd >= 0) {
          k.at = x ^ (1u << d);
          k.qdim = nd;
          Port& np = port(k.at, nd);
          ++np.used;
          r.max_buffer_used = std::max(r.max_buffer_used, np.used);
          ev.emplace(now + A + T * HcubeParams::kRouteBytes, kHeader, pidx, id);
        }
      }
    }
    // (4) sources: the head of the queue takes a free feeder, then every feeder hands over a packet.
    uint64_t next_try = UINT64_MAX;
    for (auto sit = active_src.begin(); sit != active_src.end();) {
      const uint32_t x = *sit;
      Source& s = src[x];
      bool feeding = false;
      if (s.next < s.msgs.size()) {
        const HcubeMessage& m = t.messages[s.msgs[s.next]];
        if (m.gen <= now) {
          const int e = hcube_ecube_dim(x, m.dst);
          int dim = s.feed[static_cast<size_t>(e)].active ? -1 : e;
          if (p.quasi()) {
            for (int d = 0; d < n; ++d)
              if (((x ^ m.dst) >> d & 1u) && !s.feed[static_cast<size_t>(d)].active &&
                  (dim < 0 || port(x, d).used < port(x, dim).used))
                dim = d;
          }
          if (dim >= 0) {
            Feeder& fd = s.feed[static_cast<size_t>(dim)];
            fd.active = true;
            fd.msg = s.msgs[s.next];
            fd.k = 0;
            fd.contrary = dim != e;
            r.deliveries[fd.msg].first_dim = dim;
            ++s.next;
            if (s.next < s.msgs.size()) ev.emplace(std::max(now + 1, t.messages[s.msgs[s.next]].gen), kWake, x, 0);
          }
        }
      }
      for (int d = 0; d < n; ++d) {
        Feeder& fd = s.feed[static_cast<size_t>(d)];
        if (!fd.active) continue;
        feeding = true;
        const HcubeMessage& m = t.messages[fd.msg];
        Port& pt = port(x, d);
        const bool rule_ok = !fd.contrary || !opt.deadlock_rule || pt.contrary < B - 1;
        if (pt.used >= B || !rule_ok) {
          ++blocked_feeders;
          continue;
        }
        const uint32_t id = alloc();
        Pkt& k = pool[id];
        k.msg = static_cast<uint32_t>(fd.msg);
        k.src = x;
        k.dst = m.dst;
        k.len = m.len;
        k.type = m.seq & 0xFFFFu;
        k.first_dim = d;
        k.first = fd.k == 0;
        k.contrary = fd.contrary;
        k.wire = p.packet_wire(m.len, fd.k);
        const uint64_t off = fd.k == 0 ? 0 : static_cast<uint64_t>(p.first_data_bytes()) + (fd.k - 1) * p.data_bytes();
        k.data.resize(static_cast<size_t>(p.packet_data(m.len, fd.k)));
        for (size_t i = 0; i < k.data.size(); ++i) k.data[i] = hcube_data_byte(p.seed, x, m.seq, off + i);
        k.at = x;
        k.qdim = d;
        enqueue(x * static_cast<uint32_t>(n) + static_cast<uint32_t>(d), id);
        ++pt.used;
        pt.contrary += fd.contrary ? 1 : 0;
        r.max_buffer_used = std::max(r.max_buffer_used, pt.used);
        r.max_contrary = std::max(r.max_contrary, pt.contrary);
        // It can take its channel from the next tick; the feeder (or the queue's head) goes on then.
        next_try = std::min(next_try, now + 1);
        if (++fd.k == p.packets_of(m.len)) fd.active = false;
      }
      // A source with nothing to hand over now leaves the set; a wake event brings it back.
      const bool head_now = s.next < s.msgs.size() && t.messages[s.msgs[s.next]].gen <= now;
      if (!feeding && !head_now) sit = active_src.erase(sit);
      else ++sit;
    }
    uint64_t next = next_try;
    if (!ev.empty()) next = std::min(next, std::get<0>(ev.top()));
    if (next == UINT64_MAX || next > opt.max_ticks) {
      r.ticks = now;
      break;
    }
    for (uint32_t pi : blocked_ports) r.ports[pi].blocked_ticks += next - now;
    r.source_blocked_ticks += (next - now) * blocked_feeders;
    blocked_ports.clear();
    blocked_feeders = 0;
    now = next;
  }
  r.completed = r.delivered == total && r.bad_reassembly == 0;
  bool pending = !ev.empty();
  for (const Source& s : src) {
    pending = pending || s.next < s.msgs.size();
    for (const Feeder& fd : s.feed) pending = pending || fd.active;
  }
  for (const Port& pt : ports) pending = pending || !pt.queue.empty();
  r.deadlock = !r.completed && r.ticks < opt.max_ticks && pending;
  uint64_t last = 0;
  for (const auto& d : r.deliveries) last = std::max(last, d.last);
  if (r.completed) r.ticks = last;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace cmnet

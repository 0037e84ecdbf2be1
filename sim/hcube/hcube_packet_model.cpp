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

// One run of the model: the network's state, and the steps of one visited tick.
class PacketSim {
 public:
  PacketSim(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt, HcubeRunResult& r)
      : p_(p), t_(t), opt_(opt), r_(r), n_(p.dims), N_(p.nodes()), B_(p.buffers),
        A_(static_cast<uint64_t>(p.arb_ticks)), T_(static_cast<uint64_t>(p.ticks_per_byte)),
        check_(p, t, r, opt.keep_received) {
    r.ports.resize(static_cast<size_t>(p.links()));
    ports_.resize(static_cast<size_t>(p.links()));
    src_.resize(static_cast<size_t>(N_));
    for (size_t i = 0; i < t.messages.size(); ++i) src_[t.messages[i].src].msgs.push_back(i);
    for (Source& s : src_) s.feed.resize(static_cast<size_t>(n_));
    for (uint32_t x = 0; x < static_cast<uint32_t>(N_); ++x)
      if (!src_[x].msgs.empty()) ev_.emplace(t.messages[src_[x].msgs[0]].gen, kWake, x, 0);
  }

  void run() {
    while (true) {
      ++r_.events;
      take_events();
      start_channels();
      const uint64_t next_try = run_sources();
      if (!advance(next_try)) break;
    }
  }

  void finish() {
    const uint64_t total = t_.messages.size();
    r_.completed = r_.delivered == total && r_.bad_reassembly == 0;
    bool pending = !ev_.empty();
    for (const Source& s : src_) {
      pending = pending || s.next < s.msgs.size();
      for (const Feeder& fd : s.feed) pending = pending || fd.active;
    }
    for (const Port& pt : ports_) pending = pending || !pt.queue.empty();
    r_.deadlock = !r_.completed && r_.ticks < opt_.max_ticks && pending;
    uint64_t last = 0;
    for (const auto& d : r_.deliveries) last = std::max(last, d.last);
    if (r_.completed) r_.ticks = last;
  }

 private:
  uint32_t alloc() {
    if (!free_ids_.empty()) {
      const uint32_t id = free_ids_.back();
      free_ids_.pop_back();
      return id;
    }
    pool_.emplace_back();
    return static_cast<uint32_t>(pool_.size() - 1);
  }
  Port& port(uint32_t node, int dim) { return ports_[static_cast<size_t>(node) * n_ + dim]; }
  void enqueue(uint32_t pidx, uint32_t id) {
    ports_[pidx].queue.push_back(id);
    if (!ports_[pidx].busy) ready_ports_.insert(pidx);
  }
  // Where packet `id`, sent on (x, d), goes next: -1 = it is at its destination.
  int next_dim(const Pkt& k, uint32_t x, int d) const { return hcube_ecube_dim(x ^ (1u << d), k.dst); }
  bool can_move(const Pkt& k, uint32_t x, int d) {
    const int nd = next_dim(k, x, d);
    return nd < 0 || port(x ^ (1u << d), nd).used < B_;
  }

  // (1) ends, (2) destination bytes downstream.
  void take_events() {
    while (!ev_.empty() && std::get<0>(ev_.top()) == now_) {
      const auto [tick, kind, ekey, pkt] = ev_.top();
      const uint32_t id = kind == kHeader ? pkt : ekey;
      ev_.pop();
      if (kind == kEnd) {
        end_transmission(id);
      } else if (kind == kHeader) {
        Pkt& k = pool_[id];
        k.contrary = false;  // off its source: from here on e-cube
        enqueue(k.at * static_cast<uint32_t>(n_) + static_cast<uint32_t>(k.qdim), id);  // its buffer was reserved when sent
      } else {
        active_src_.insert(id);
      }
      (void)tick;
    }
  }

  // Port `id`'s transmission ends: its buffer is free, and a packet at its destination is delivered.
  void end_transmission(uint32_t id) {
    Port& pt = ports_[id];
    const uint32_t x = id / static_cast<uint32_t>(n_);
    const int d = static_cast<int>(id % static_cast<uint32_t>(n_));
    Pkt& k = pool_[pt.sending];
    pt.busy = false;
    if (!pt.queue.empty()) ready_ports_.insert(id);
    --pt.used;
    if (pt.sending_contrary) --pt.contrary;
    if ((x ^ (1u << d)) == k.dst) {
      reassemble(k);
      free_ids_.push_back(pt.sending);
    }
  }

  void reassemble(const Pkt& k) {
    const auto key = std::make_tuple(k.dst, k.src, k.first_dim);
    auto it = ctx_.find(key);
    if (k.first) {
      if (it != ctx_.end()) {  // a first packet while a message is open: the old one is lost
        ++r_.bad_reassembly;
        ctx_.erase(it);
      }
      HcubeReceived m;
      m.dst = k.dst;
      m.src = k.src;
      m.len = k.len;
      m.type = k.type;
      m.first = now_;
      m.data.reserve(k.len);
      it = ctx_.emplace(key, std::move(m)).first;
    }
    if (it == ctx_.end()) {
      ++r_.bad_reassembly;  // a later packet with no message open
    } else {
      it->second.data.insert(it->second.data.end(), k.data.begin(), k.data.end());
      if (it->second.data.size() >= it->second.len) {
        it->second.last = now_;
        check_.add(std::move(it->second));
        ctx_.erase(it);
      }
    }
  }

  // (3) starts.
  void start_channels() {
    for (auto pit = ready_ports_.begin(); pit != ready_ports_.end();) {
      const uint32_t pidx = *pit;
      const uint32_t x = pidx / static_cast<uint32_t>(n_);
      const int d = static_cast<int>(pidx % static_cast<uint32_t>(n_));
      Port& pt = ports_[pidx];
      size_t pick = pt.queue.size();
      for (size_t i = 0; i < pt.queue.size() && pick == pt.queue.size(); ++i)
        if (can_move(pool_[pt.queue[i]], x, d)) pick = i;
      if (pick == pt.queue.size()) {
        blocked_ports_.push_back(pidx);
        ++pit;
        continue;
      }
      pit = ready_ports_.erase(pit);
      start(pidx, pick);
    }
  }

  // Port pidx starts sending the packet at `pick` in its queue.
  void start(uint32_t pidx, size_t pick) {
    const uint32_t x = pidx / static_cast<uint32_t>(n_);
    const int d = static_cast<int>(pidx % static_cast<uint32_t>(n_));
    Port& pt = ports_[pidx];
    const uint32_t id = pt.queue[pick];
    pt.queue.erase(pt.queue.begin() + static_cast<std::ptrdiff_t>(pick));
    Pkt& k = pool_[id];
    pt.busy = true;
    pt.sending = id;
    pt.sending_contrary = k.contrary;
    HcubePortCounters& c = r_.ports[pidx];
    ++c.packets;
    c.messages += k.first ? 1 : 0;
    c.bytes += static_cast<uint64_t>(k.wire);
    if (k.first && x == k.src) r_.deliveries[k.msg].started = now_;
    ev_.emplace(now_ + A_ + T_ * static_cast<uint64_t>(k.wire), kEnd, pidx, 0);
    const int nd = next_dim(k, x, d);
    if (nd >= 0) {
      k.at = x ^ (1u << d);
      k.qdim = nd;
      Port& np = port(k.at, nd);
      ++np.used;
      r_.max_buffer_used = std::max(r_.max_buffer_used, np.used);
      ev_.emplace(now_ + A_ + T_ * HcubeParams::kRouteBytes, kHeader, pidx, id);
    }
  }

  // (4) sources: the head of the queue takes a free feeder, then every feeder hands over a packet.
  // Returns the next tick a handed-over packet can move (UINT64_MAX: none).
  uint64_t run_sources() {
    uint64_t next_try = UINT64_MAX;
    for (auto sit = active_src_.begin(); sit != active_src_.end();) {
      const uint32_t x = *sit;
      Source& s = src_[x];
      bool feeding = false;
      if (s.next < s.msgs.size()) take_head(x, s);
      for (int d = 0; d < n_; ++d) {
        Feeder& fd = s.feed[static_cast<size_t>(d)];
        if (!fd.active) continue;
        feeding = true;
        if (hand_over(x, d, fd)) next_try = std::min(next_try, now_ + 1);
      }
      // A source with nothing to hand over now leaves the set; a wake event brings it back.
      const bool head_now = s.next < s.msgs.size() && t_.messages[s.msgs[s.next]].gen <= now_;
      if (!feeding && !head_now) sit = active_src_.erase(sit);
      else ++sit;
    }
    return next_try;
  }

  // The message at the head of source x's queue, once generated, takes a free feeder: e-cube's,
  // or (quasi-minimal) the least used free port on a minimal path.
  void take_head(uint32_t x, Source& s) {
    const HcubeMessage& m = t_.messages[s.msgs[s.next]];
    if (m.gen > now_) return;
    const int e = hcube_ecube_dim(x, m.dst);
    int dim = s.feed[static_cast<size_t>(e)].active ? -1 : e;
    if (p_.quasi()) {
      for (int d = 0; d < n_; ++d)
        if (((x ^ m.dst) >> d & 1u) && !s.feed[static_cast<size_t>(d)].active &&
            (dim < 0 || port(x, d).used < port(x, dim).used))
          dim = d;
    }
    if (dim < 0) return;
    Feeder& fd = s.feed[static_cast<size_t>(dim)];
    fd.active = true;
    fd.msg = s.msgs[s.next];
    fd.k = 0;
    fd.contrary = dim != e;
    r_.deliveries[fd.msg].first_dim = dim;
    ++s.next;
    if (s.next < s.msgs.size()) ev_.emplace(std::max(now_ + 1, t_.messages[s.msgs[s.next]].gen), kWake, x, 0);
  }

  // Feeder fd hands its next packet to port (x, d) if a buffer is free; false if it is blocked.
  bool hand_over(uint32_t x, int d, Feeder& fd) {
    const HcubeMessage& m = t_.messages[fd.msg];
    Port& pt = port(x, d);
    const bool rule_ok = !fd.contrary || !opt_.deadlock_rule || pt.contrary < B_ - 1;
    if (pt.used >= B_ || !rule_ok) {
      ++blocked_feeders_;
      return false;
    }
    const uint32_t id = alloc();
    Pkt& k = pool_[id];
    k.msg = static_cast<uint32_t>(fd.msg);
    k.src = x;
    k.dst = m.dst;
    k.len = m.len;
    k.type = m.seq & 0xFFFFu;
    k.first_dim = d;
    k.first = fd.k == 0;
    k.contrary = fd.contrary;
    k.wire = p_.packet_wire(m.len, fd.k);
    const uint64_t off = fd.k == 0 ? 0 : static_cast<uint64_t>(p_.first_data_bytes()) + (fd.k - 1) * p_.data_bytes();
    k.data.resize(static_cast<size_t>(p_.packet_data(m.len, fd.k)));
    for (size_t i = 0; i < k.data.size(); ++i) k.data[i] = hcube_data_byte(p_.seed, x, m.seq, off + i);
    k.at = x;
    k.qdim = d;
    enqueue(x * static_cast<uint32_t>(n_) + static_cast<uint32_t>(d), id);
    ++pt.used;
    pt.contrary += fd.contrary ? 1 : 0;
    r_.max_buffer_used = std::max(r_.max_buffer_used, pt.used);
    r_.max_contrary = std::max(r_.max_contrary, pt.contrary);
    // It can take its channel from the next tick; the feeder (or the queue's head) goes on then.
    if (++fd.k == p_.packets_of(m.len)) fd.active = false;
    return true;
  }

  // To the next tick where something can happen, charging the blocked ports and feeders for the
  // ticks skipped; false when there is none (or it is past max_ticks).
  bool advance(uint64_t next_try) {
    uint64_t next = next_try;
    if (!ev_.empty()) next = std::min(next, std::get<0>(ev_.top()));
    if (next == UINT64_MAX || next > opt_.max_ticks) {
      r_.ticks = now_;
      return false;
    }
    for (uint32_t pi : blocked_ports_) r_.ports[pi].blocked_ticks += next - now_;
    r_.source_blocked_ticks += (next - now_) * blocked_feeders_;
    blocked_ports_.clear();
    blocked_feeders_ = 0;
    now_ = next;
    return true;
  }

  const HcubeParams& p_;
  const HcubeTraffic& t_;
  const HcubeModelOptions& opt_;
  HcubeRunResult& r_;
  const int n_, N_, B_;
  const uint64_t A_, T_;
  HcubeReassemblyCheck check_;
  std::vector<Pkt> pool_;
  std::vector<uint32_t> free_ids_;
  std::vector<Port> ports_;
  std::vector<Source> src_;
  // Reassembly contexts of every destination: (dst, src, first_dim) -> the message so far.
  std::map<std::tuple<uint32_t, uint32_t, int>, HcubeReceived> ctx_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> ev_;
  // Only what can act is visited, in index order: idle ports with packets, sources with work.
  std::set<uint32_t> ready_ports_, active_src_;
  uint64_t now_ = 0;
  std::vector<uint32_t> blocked_ports_;
  uint64_t blocked_feeders_ = 0;
};

}  // namespace

HcubeRunResult run_hcube_packet_model(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  HcubeRunResult r;
  PacketSim sim(p, t, opt, r);
  sim.run();
  sim.finish();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace cmnet

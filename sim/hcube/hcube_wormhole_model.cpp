// The wormhole baseline's reference model (hcube_model.h says what it models and how it times
// it). Event-stepped like the packet model; in each visited tick, in this order: (1) channels
// whose worm's tail has passed are released;
// (2) headers arriving at a node join the wait list of their next channel, or, at the
// destination, fix the worm's arrival ticks and the release tick of every channel it holds (a
// worm shorter than its path has released its first channels on the way, as its tail passed);
// (3) every source, by node, puts the header of the message at the head of its queue on the wait
// list of its first channel (the next one follows once that one has its channel); (4) every free channel, by node then dimension, is granted to the oldest waiting
// header (generation tick, then traffic order).
#include <algorithm>
#include <chrono>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "sim/hcube/hcube_model.h"

namespace cmnet {
namespace {

struct Worm {
  uint32_t at = 0;                 // node the header is at (or going to)
  std::vector<uint32_t> path;      // channels held, in order
};

struct Source {
  std::vector<size_t> msgs;
  size_t next = 0;       // the head of its queue
  bool waiting = false;  // the head's header is waiting for its first channel
};

enum EvKind { kRelease = 0, kHeader = 1, kWake = 2 };  // wake: a source's head may go
using Event = std::tuple<uint64_t, int, uint32_t>;

}  // namespace

HcubeRunResult run_hcube_wormhole_model(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const int n = p.dims, N = p.nodes();
  const uint64_t A = static_cast<uint64_t>(p.arb_ticks), T = static_cast<uint64_t>(p.ticks_per_byte);
  HcubeRunResult r;
  r.ports.resize(static_cast<size_t>(p.links()));
  HcubeReassemblyCheck check(p, t, r, opt.keep_received);
  std::vector<Worm> worms(t.messages.size());
  std::vector<Source> src(static_cast<size_t>(N));
  for (size_t i = 0; i < t.messages.size(); ++i) src[t.messages[i].src].msgs.push_back(i);
  std::vector<bool> held(static_cast<size_t>(p.links()), false);
  std::vector<std::vector<uint32_t>> waiting(static_cast<size_t>(p.links()));
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> ev;
  auto chan = [&](uint32_t x, int d) { return x * static_cast<uint32_t>(n) + static_cast<uint32_t>(d); };
  // Only what can act is visited, in index order: channels with waiting headers, sources to start.
  std::set<uint32_t> wanted, active_src;
  for (uint32_t x = 0; x < static_cast<uint32_t>(N); ++x)
    if (!src[x].msgs.empty()) ev.emplace(t.messages[src[x].msgs[0]].gen + 1, kWake, x);
  auto wait_for = [&](uint32_t c, uint32_t id) {
    waiting[c].push_back(id);
    wanted.insert(c);
  };
  auto older = [&](uint32_t a, uint32_t b) {
    return std::make_pair(t.messages[a].gen, a) < std::make_pair(t.messages[b].gen, b);
  };

  uint64_t now = 0;
  while (true) {
    ++r.events;
    // (1), (2).
    while (!ev.empty() && std::get<0>(ev.top()) == now) {
      const auto [tick, kind, id] = ev.top();
      ev.pop();
      (void)tick;
      if (kind == kRelease) {
        held[id] = false;
      } else if (kind == kWake) {
        active_src.insert(id);
      } else {
        Worm& w = worms[id];
        const HcubeMessage& m = t.messages[id];
        // Behind a header at hop j, byte k of the worm sits k - 2 nodes back (one flit buffer a
        // node), so its tail (byte bytes - 1) crosses channel j - (bytes - 2) T after the header
        // arrives: a worm shorter than its path releases its first channels on the way.
        const uint64_t bytes = p.worm_bytes(m.len), h = w.path.size();
        if (w.at != m.dst) {
          if (h >= bytes - 2) ev.emplace(now + T, kRelease, w.path[h - (bytes - 2)]);
          wait_for(chan(w.at, hcube_ecube_dim(w.at, m.dst)), id);
          continue;
        }
        // The destination bytes are here: the rest follows at the link rate, and the tail leaves
        // the channels it still holds one per T.
        const uint64_t last = now + T * (bytes - 2);
        const uint64_t first = now + T * (HcubeParams::kMessageHeaderBytes - 2 + std::min<uint64_t>(16, m.len));
        for (uint64_t i = h > bytes - 2 ? h - (bytes - 2) : 0; i < h; ++i)
          ev.emplace(last - (h - 1 - i) * T, kRelease, w.path[i]);
        HcubeReceived x;
        x.dst = m.dst;
        x.src = m.src;
        x.len = m.len;
        x.type = m.seq & 0xFFFFu;
        x.first = first;
        x.last = last;
        x.data = hcube_payload(p.seed, m);  // a worm's bytes arrive in order, whole
        check.add(std::move(x));
      }
    }
    // (3) sources.
    uint64_t next_try = UINT64_MAX;
    for (const uint32_t x : active_src) {
      Source& s = src[x];
      const uint32_t id = static_cast<uint32_t>(s.msgs[s.next]);
      const HcubeMessage& m = t.messages[id];
      s.waiting = true;
      worms[id].at = x;
      wait_for(chan(x, hcube_ecube_dim(x, m.dst)), id);
    }
    active_src.clear();
    // (4) grants.
    for (auto cit = wanted.begin(); cit != wanted.end();) {
      const uint32_t c = *cit;
      auto& wl = waiting[c];
      if (held[c]) {
        ++cit;
        continue;
      }
      auto best = wl.begin();
      for (auto it = wl.begin(); it != wl.end(); ++it)
        if (older(*it, *best)) best = it;
      const uint32_t id = *best;
      wl.erase(best);
      cit = wl.empty() ? wanted.erase(cit) : std::next(cit);
      held[c] = true;
      Worm& w = worms[id];
      const HcubeMessage& m = t.messages[id];
      if (w.path.empty()) {  // off its source: the next message of the queue may go
        r.deliveries[id].started = now;
        r.deliveries[id].first_dim = static_cast<int>(c % static_cast<uint32_t>(n));
        Source& s = src[m.src];
        s.waiting = false;
        ++s.next;
        if (s.next < s.msgs.size()) ev.emplace(std::max(now + 1, t.messages[s.msgs[s.next]].gen + 1), kWake, m.src);
      }
      w.path.push_back(c);
      w.at ^= 1u << (c % static_cast<uint32_t>(n));
      HcubePortCounters& k = r.ports[c];
      ++k.packets;
      ++k.messages;
      k.bytes += p.worm_bytes(m.len);
      ev.emplace(now + A + T * HcubeParams::kRouteBytes, kHeader, id);
    }
    uint64_t next = next_try;
    if (!ev.empty()) next = std::min(next, std::get<0>(ev.top()));
    if (next == UINT64_MAX || next > opt.max_ticks) {
      r.ticks = now;
      break;
    }
    if (next < now) throw std::logic_error("hcube wormhole model: the clock would step back from " + std::to_string(now) +
                                           " to " + std::to_string(next));
    for (const uint32_t c : wanted)
      if (held[c]) r.ports[c].blocked_ticks += next - now;
    now = next;
  }
  const uint64_t total = t.messages.size();
  r.completed = r.delivered == total && r.bad_reassembly == 0;
  bool pending = !ev.empty();
  for (const Source& s : src) pending = pending || s.next < s.msgs.size();
  for (const auto& wl : waiting) pending = pending || !wl.empty();
  r.deadlock = !r.completed && r.ticks < opt.max_ticks && pending;
  uint64_t last = 0;
  for (const auto& d : r.deliveries) last = std::max(last, d.last);
  if (r.completed) r.ticks = last;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace cmnet

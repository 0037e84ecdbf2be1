// The wormhole baseline's reference model (hcube_model.h says what it models and how it times
// it). Event-stepped like the packet model; in each visited tick, in this order: (1) channels
// whose worm's tail has passed are released and sources whose worm has left are free again;
// (2) headers arriving at a node join the wait list of their next channel, or, at the
// destination, fix the worm's arrival ticks and the release tick of every channel it holds;
// (3) every free source, by node, puts its next message's header on the wait list of its first
// channel; (4) every free channel, by node then dimension, is granted to the oldest waiting
// header (generation tick, then traffic order).
#include <algorithm>
#include <chrono>
#include <queue>
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
  size_t next = 0;
  bool busy = false;  // a worm of this source has not left it yet
};

enum EvKind { kRelease = 0, kSourceFree = 1, kHeader = 2 };
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
      } else if (kind == kSourceFree) {
        src[id].busy = false;
      } else {
        Worm& w = worms[id];
        const HcubeMessage& m = t.messages[id];
        if (w.at != m.dst) {
          waiting[chan(w.at, hcube_ecube_dim(w.at, m.dst))].push_back(id);
          continue;
        }
        // The destination bytes are here: the rest follows at the link rate.
        const uint64_t bytes = p.worm_bytes(m.len);
        const uint64_t last = now + T * (bytes - 2);
        const uint64_t first = now + T * (HcubeParams::kMessageHeaderBytes - 2 + std::min<uint64_t>(16, m.len));
        const uint64_t h = w.path.size();
        for (uint64_t i = 0; i < h; ++i) ev.emplace(last - (h - 1 - i) * T, kRelease, w.path[i]);
        ev.emplace(last - (h - 1) * T, kSourceFree, m.src);
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
    for (uint32_t x = 0; x < static_cast<uint32_t>(N); ++x) {
      Source& s = src[x];
      if (s.busy || s.next >= s.msgs.size()) continue;
      const uint32_t id = static_cast<uint32_t>(s.msgs[s.next]);
      const HcubeMessage& m = t.messages[id];
      if (m.gen + 1 > now) {
        next_try = std::min(next_try, m.gen + 1);
        continue;
      }
      s.busy = true;
      ++s.next;
      worms[id].at = x;
      waiting[chan(x, hcube_ecube_dim(x, m.dst))].push_back(id);
    }
    // (4) grants.
    for (uint32_t c = 0; c < static_cast<uint32_t>(p.links()); ++c) {
      auto& wl = waiting[c];
      if (held[c] || wl.empty()) continue;
      auto best = wl.begin();
      for (auto it = wl.begin(); it != wl.end(); ++it)
        if (older(*it, *best)) best = it;
      const uint32_t id = *best;
      wl.erase(best);
      held[c] = true;
      Worm& w = worms[id];
      const HcubeMessage& m = t.messages[id];
      if (w.path.empty()) {
        r.deliveries[id].started = now;
        r.deliveries[id].first_dim = static_cast<int>(c % static_cast<uint32_t>(n));
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
    for (uint32_t c = 0; c < static_cast<uint32_t>(p.links()); ++c)
      if (held[c] && !waiting[c].empty()) r.ports[c].blocked_ticks += next - now;
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

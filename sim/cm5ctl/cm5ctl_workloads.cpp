#include "sim/cm5ctl/cm5ctl_workloads.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "gen/core/errors.h"

namespace cmnet {

std::vector<std::string> cm5ctl_pattern_names() {
  return {"paper", "reduce-or", "reduce-xor", "reduce-max", "reduce-add", "reduce-uadd", "scan-fwd",
          "scan-bwd", "scan-seg", "multiword", "broadcast", "barrier", "router-done", "abstain", "mixed", "flush", "reduce-scan"};
}

namespace {

uint64_t random_word(std::mt19937_64& rng, int w, bool edges) {
  const uint64_t m = cm5::mask(w);
  if (!edges) return rng() & m;
  switch (rng() % 4) {
    case 0: return rng() % 8;
    case 1: return (m - rng() % 8) & m;                 // near -1 / unsigned max
    case 2: return ((m >> 1) - rng() % 8) & m;          // near the signed max
    default: return ((m >> 1) + 1 + rng() % 8) & m;     // near the signed min
  }
}

Cm5Workload blank(const std::string& name, int leaves) {
  Cm5Workload w;
  w.name = name;
  w.leaf.resize(static_cast<size_t>(leaves));
  return w;
}

}  // namespace

Cm5Workload random_cm5ctl_mix(int leaves, int word_bits, uint64_t seed, const Cm5MixOptions& o) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 12345);
  Cm5Workload w = blank("mix", leaves);
  // Broadcast slots among the combining operations of the broadcaster.
  std::vector<int> bslot(static_cast<size_t>(o.broadcasts));
  for (auto& s : bslot) s = o.ops > 0 ? static_cast<int>(rng() % static_cast<uint64_t>(o.ops + 1)) : 0;
  std::sort(bslot.begin(), bslot.end());
  size_t nb = 0;
  for (int k = 0; k <= o.ops; ++k) {
    while (nb < bslot.size() && bslot[nb] == k) {
      Cm5Op b;
      b.broadcast = true;
      b.kind = static_cast<uint8_t>(rng() % 4);
      b.data = random_word(rng, word_bits, false);
      w.leaf.at(static_cast<size_t>(o.broadcaster)).push_back(b);
      ++nb;
    }
    if (k == o.ops) break;
    const uint8_t kind = static_cast<uint8_t>(rng() % 4);
    const uint8_t comb = static_cast<uint8_t>(rng() % cm5::kCombs);
    const bool segd = (kind == cm5::kScanFwd || kind == cm5::kScanBwd) && rng() % 2;
    // An addition may go on for more words (a multi-word addition), with the same bits.
    int words = 1;
    if (kind != cm5::kSync && cm5::is_add(comb) && std::uniform_real_distribution<double>(0, 1)(rng) < o.chains)
      words = 2 + static_cast<int>(rng() % static_cast<uint64_t>(std::max(1, 128 / word_bits - 1)));
    std::vector<bool> seg(static_cast<size_t>(leaves)), abst(static_cast<size_t>(leaves));
    std::vector<uint64_t> rel(static_cast<size_t>(leaves), 0);
    for (int i = 0; i < leaves; ++i) {
      seg[static_cast<size_t>(i)] = segd && std::uniform_real_distribution<double>(0, 1)(rng) < o.segment;
      abst[static_cast<size_t>(i)] = o.abstain > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < o.abstain;
      if (o.release_spread > 0) rel[static_cast<size_t>(i)] = rng() % static_cast<uint64_t>(o.release_spread);
    }
    for (int j = 0; j < words; ++j)
      for (int i = 0; i < leaves; ++i) {
        Cm5Op op;
        op.kind = kind;
        op.comb = j == 0 ? comb : (cm5::is_signed_add(comb) ? cm5::kAddc : cm5::kUaddc);
        op.segmented = segd;
        op.seg = seg[static_cast<size_t>(i)];
        op.abstain = abst[static_cast<size_t>(i)];
        op.data = kind == cm5::kSync ? rng() % 2 : random_word(rng, word_bits, o.small_values);
        op.release = rel[static_cast<size_t>(i)];
        w.leaf[static_cast<size_t>(i)].push_back(op);
      }
  }
  return w;
}

Cm5RouterDone router_done_workload(int leaves, uint64_t seed, int messages, const std::string& fault) {
  if (fault != "none" && fault != "lost" && fault != "duplicated")
    throw InputError("router-done fault " + fault + ": allowed none, lost, duplicated");
  std::mt19937_64 rng(seed * 7919 + 17);
  Cm5RouterDone out;
  Cm5Workload& w = out.w;
  w.name = "router-done";
  w.leaf.resize(static_cast<size_t>(leaves));
  w.counters.resize(static_cast<size_t>(leaves));
  std::vector<std::vector<std::pair<uint64_t, int>>> delta(static_cast<size_t>(leaves));
  std::vector<uint64_t> done_sending(static_cast<size_t>(leaves), 0);
  struct Msg {
    size_t src, dst;
    uint64_t sent, arrives;
  };
  std::vector<Msg> msgs;
  for (int m = 0; m < messages; ++m) {
    Msg x;
    x.src = rng() % static_cast<uint64_t>(leaves);
    x.dst = rng() % static_cast<uint64_t>(leaves);
    x.sent = rng() % 300;
    x.arrives = x.sent + 10 + rng() % 140;
    msgs.push_back(x);
  }
  size_t last = 0;
  for (size_t m = 0; m < msgs.size(); ++m)
    if (msgs[m].arrives > msgs[last].arrives) last = m;
  for (size_t m = 0; m < msgs.size(); ++m) {
    const Msg& x = msgs[m];
    delta[x.src].emplace_back(x.sent, +1);
    done_sending[x.src] = std::max(done_sending[x.src], x.sent + 1);
    if (fault == "lost" && m == last) continue;
    delta[x.dst].emplace_back(x.arrives, -1);
    out.last_arrival = std::max(out.last_arrival, x.arrives);
    // The duplicate arrives with the original: the sum steps from 1 to -1, never through 0.
    if (fault == "duplicated" && m == last) delta[x.dst].emplace_back(x.arrives, -1);
  }
  for (size_t i = 0; i < delta.size(); ++i) {
    std::sort(delta[i].begin(), delta[i].end());
    int64_t c = 0;
    for (const auto& [t, d] : delta[i]) {
      c += d;
      if (!w.counters[i].empty() && w.counters[i].back().first == t) w.counters[i].back().second = c;
      else w.counters[i].emplace_back(t, c);
    }
    Cm5Op rd;
    rd.kind = cm5::kReduce;
    rd.comb = cm5::kRouterDone;
    rd.release = done_sending[i];
    w.leaf[i].push_back(rd);
    Cm5Op after;
    after.kind = cm5::kReduce;
    after.comb = cm5::kAdd;
    after.data = i + 1;
    w.leaf[i].push_back(after);
  }
  return out;
}

Cm5Workload with_flush(Cm5Workload w, uint32_t flusher, size_t after, uint64_t at, uint64_t restart) {
  auto& ops = w.leaf.at(flusher);
  Cm5Op f;
  f.broadcast = true;
  f.kind = cm5::kSupervisor;
  f.comb = cm5::kFlushComb;
  f.data = 0xf1;
  f.release = at;
  ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(std::min(after, ops.size())), f);
  for (size_t i = 0; i < w.leaf.size(); ++i) w.restarts.emplace_back(restart, static_cast<uint32_t>(i));
  std::sort(w.restarts.begin(), w.restarts.end());
  return w;
}

Cm5Workload partitioned_mix(const Cm5ctlParams& p, uint64_t seed, const Cm5MixOptions& o, int junk) {
  const Cm5Topology t = cm5_topology(p);
  Cm5Workload w = blank("partitioned-mix", p.leaves);
  std::mt19937_64 rng(seed + 99);
  for (size_t q = 0; q < t.roots.size(); ++q) {
    std::vector<size_t> members;
    for (size_t i = 0; i < t.part.size(); ++i)
      if (t.part[i] == static_cast<int>(q)) members.push_back(i);
    Cm5MixOptions oq = o;
    oq.broadcaster = 0;
    const Cm5Workload m = random_cm5ctl_mix(static_cast<int>(members.size()), p.word_bits, seed * 131 + q, oq);
    for (size_t k = 0; k < members.size(); ++k) w.leaf[members[k]] = m.leaf[k];
  }
  for (size_t i = 0; i < t.part.size(); ++i)
    if (t.part[i] < 0)
      for (int k = 0; k < junk; ++k) {
        Cm5Op x;
        x.kind = cm5::kReduce;
        x.comb = cm5::kAdd;
        x.data = rng() & cm5::mask(p.word_bits);
        w.leaf[i].push_back(x);
      }
  return w;
}

Cm5Workload make_cm5ctl_workload(const std::string& name, int leaves, int word_bits, uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  if (count < 1) throw InputError("a workload needs at least one operation");
  auto all_leaves = [&](Cm5Workload& w, auto make) {
    for (int k = 0; k < count; ++k)
      for (int i = 0; i < leaves; ++i) w.leaf[static_cast<size_t>(i)].push_back(make(k, i));
  };
  if (name == "paper") {
    Cm5Workload w = blank(name, leaves);
    static const uint64_t v[] = {3, 2, 0, 4, 2, 6, 5, 8};
    all_leaves(w, [&](int, int i) {
      Cm5Op o;
      o.kind = cm5::kScanFwd;
      o.comb = cm5::kAdd;
      o.data = v[i % 8];
      return o;
    });
    return w;
  }
  static const std::vector<std::pair<std::string, uint8_t>> reduces = {
      {"reduce-or", cm5::kOr}, {"reduce-xor", cm5::kXor}, {"reduce-max", cm5::kMax},
      {"reduce-add", cm5::kAdd}, {"reduce-uadd", cm5::kUadd}};
  for (const auto& [n, comb] : reduces)
    if (name == n) {
      Cm5Workload w = blank(name, leaves);
      all_leaves(w, [&, c = comb](int, int) {
        Cm5Op o;
        o.kind = cm5::kReduce;
        o.comb = c;
        o.data = random_word(rng, word_bits, false);
        return o;
      });
      return w;
    }
  if (name == "scan-fwd" || name == "scan-bwd" || name == "scan-seg") {
    Cm5Workload w = blank(name, leaves);
    all_leaves(w, [&](int k, int) {
      Cm5Op o;
      o.kind = name == "scan-bwd" || (name == "scan-seg" && k % 2) ? cm5::kScanBwd : cm5::kScanFwd;
      o.comb = static_cast<uint8_t>(k % cm5::kCombs);
      o.segmented = name == "scan-seg";
      o.seg = o.segmented && rng() % 4 == 0;
      o.data = random_word(rng, word_bits, false);
      return o;
    });
    return w;
  }
  if (name == "multiword") {
    // Multi-word additions of 128 bits (least significant word first): reductions and scans,
    // signed and unsigned, some segmented.
    Cm5Workload w = blank(name, leaves);
    const int words = 128 / word_bits;
    for (int k = 0; k < count; ++k) {
      const uint8_t kind = static_cast<uint8_t>(k % 3);
      const uint8_t comb = k % 2 ? cm5::kUadd : cm5::kAdd;
      const bool segd = kind != cm5::kReduce && k % 4 >= 2;
      std::vector<bool> seg(static_cast<size_t>(leaves));
      for (auto&& b : seg) b = segd && rng() % 4 == 0;
      for (int j = 0; j < words && j * word_bits < 128; ++j)
        for (int i = 0; i < leaves; ++i) {
          Cm5Op o;
          o.kind = kind;
          o.comb = j == 0 ? comb : (comb == cm5::kAdd ? cm5::kAddc : cm5::kUaddc);
          o.segmented = segd;
          o.seg = seg[static_cast<size_t>(i)];
          o.data = random_word(rng, word_bits, k % 3 == 1);
          w.leaf[static_cast<size_t>(i)].push_back(o);
        }
    }
    return w;
  }
  if (name == "broadcast") {
    Cm5Workload w = blank(name, leaves);
    for (int k = 0; k < count; ++k) {
      Cm5Op o;
      o.broadcast = true;
      o.kind = cm5::kUser;
      o.data = random_word(rng, word_bits, false);
      w.leaf[0].push_back(o);
    }
    return w;
  }
  if (name == "barrier") {
    Cm5Workload w = blank(name, leaves);
    all_leaves(w, [&](int, int) {
      Cm5Op o;
      o.kind = cm5::kSync;
      o.comb = cm5::kOr;
      o.data = rng() % static_cast<uint64_t>(2 * leaves) == 0 ? 1 : 0;
      return o;
    });
    return w;
  }
  if (name == "router-done") {
    Cm5Workload w = router_done_workload(leaves, seed, count * leaves).w;
    return w;
  }
  if (name == "abstain") {
    Cm5MixOptions o;
    o.ops = count;
    o.abstain = 0.3;
    Cm5Workload w = random_cm5ctl_mix(leaves, word_bits, seed, o);
    w.name = name;
    return w;
  }
  if (name == "mixed") {
    Cm5MixOptions o;
    o.ops = count;
    o.broadcasts = std::max(1, count / 4);
    o.abstain = 0.1;
    Cm5Workload w = random_cm5ctl_mix(leaves, word_bits, seed, o);
    w.name = name;
    return w;
  }
  if (name == "reduce-scan") {
    // What `cmnet run` does by default: reductions and forward scans in turn, through the combiners.
    Cm5Workload w = blank(name, leaves);
    all_leaves(w, [&](int k, int) {
      Cm5Op o;
      o.kind = k % 2 ? cm5::kScanFwd : cm5::kReduce;
      o.comb = static_cast<uint8_t>((k / 2) % cm5::kCombs);
      o.data = random_word(rng, word_bits, false);
      return o;
    });
    return w;
  }
  if (name == "flush") {
    Cm5MixOptions o;
    o.ops = count;
    o.release_spread = 200;
    Cm5Workload w = with_flush(random_cm5ctl_mix(leaves, word_bits, seed, o), 0, static_cast<size_t>(count) / 2, 150,
                               1500);
    w.name = name;
    return w;
  }
  std::string list;
  for (const auto& n : cm5ctl_pattern_names()) list += (list.empty() ? "" : ", ") + n;
  throw InputError("--pattern " + name + ": not a cm5ctl pattern (patterns: " + list + ")");
}

}  // namespace cmnet

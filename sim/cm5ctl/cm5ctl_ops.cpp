#include "sim/cm5ctl/cm5ctl_ops.h"

#include <cstdio>
#include <stdexcept>
#include <tuple>

namespace cmnet {

size_t Cm5Workload::multi_ops() const {
  size_t n = 0;
  if (!leaf.empty())
    for (const Cm5Op& o : leaf[0]) n += o.broadcast ? 0 : 1;
  return n;
}

size_t Cm5Workload::broadcasts() const {
  size_t n = 0;
  for (const auto& l : leaf)
    for (const Cm5Op& o : l) n += o.broadcast ? 1 : 0;
  return n;
}

void check_workload(const Cm5Workload& w, int leaves) {
  if (static_cast<int>(w.leaf.size()) != leaves)
    throw std::invalid_argument("workload '" + w.name + "' has " + std::to_string(w.leaf.size()) +
                                " leaves, the network " + std::to_string(leaves));
  const size_t m = w.multi_ops();
  for (size_t i = 0; i < w.leaf.size(); ++i) {
    size_t n = 0;
    for (const Cm5Op& o : w.leaf[i]) n += o.broadcast ? 0 : 1;
    if (n != m)
      throw std::invalid_argument("workload '" + w.name + "': leaf " + std::to_string(i) + " pushes " +
                                  std::to_string(n) + " combining operations, leaf 0 pushes " +
                                  std::to_string(m) + " (every leaf takes part in every one, or abstains)");
  }
}

void check_workload(const Cm5Workload& w, const Cm5Topology& t) {
  const size_t n = t.part.size();
  if (w.leaf.size() != n)
    throw std::invalid_argument("workload '" + w.name + "' has " + std::to_string(w.leaf.size()) +
                                " leaves, the network " + std::to_string(n));
  std::vector<long> per(t.roots.size(), -1);
  std::vector<size_t> first(t.roots.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    if (t.part[i] < 0) continue;
    long m = 0;
    for (const Cm5Op& o : w.leaf[i]) m += o.broadcast ? 0 : 1;
    const size_t q = static_cast<size_t>(t.part[i]);
    if (per[q] < 0) {
      per[q] = m;
      first[q] = i;
    } else if (per[q] != m) {
      throw std::invalid_argument("workload '" + w.name + "': leaf " + std::to_string(i) + " pushes " +
                                  std::to_string(m) + " combining operations, leaf " + std::to_string(first[q]) +
                                  " of the same partition " + std::to_string(per[q]));
    }
  }
}

bool Cm5Result::operator==(const Cm5Result& o) const {
  return std::tie(leaf, cycle, broadcast, kind, comb, data, ovf, err, abstained) ==
         std::tie(o.leaf, o.cycle, o.broadcast, o.kind, o.comb, o.data, o.ovf, o.err, o.abstained);
}

std::string Cm5Result::str() const {
  char buf[200];
  std::snprintf(buf, sizeof buf, "leaf %u cycle %llu %s %s%s data %llx%s%s%s", leaf,
                static_cast<unsigned long long>(cycle), broadcast ? "broadcast" : "combine",
                broadcast ? cm5::bcast_name(kind) : cm5::kind_name(kind),
                broadcast ? "" : (std::string("/") + cm5::comb_name(comb)).c_str(),
                static_cast<unsigned long long>(data), ovf ? " ovf" : "", err ? " err" : "",
                abstained ? " abstained" : "");
  return buf;
}

namespace cm5 {

uint64_t mask(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

int64_t to_signed(uint64_t x, int w) {
  x &= mask(w);
  return (x >> (w - 1)) & 1 ? static_cast<int64_t>(x) - static_cast<int64_t>(1ull << w) : static_cast<int64_t>(x);
}


uint64_t identity(uint8_t comb, int w) { return comb == kMax ? 1ull << (w - 1) : 0; }

uint64_t apply(uint8_t comb, uint64_t a, uint64_t b, int w, bool* ovf, bool cin, bool* cout) {
  const uint64_t m = mask(w);
  a &= m;
  b &= m;
  bool o = false, c = false;
  uint64_t r = 0;
  const uint64_t ci = (comb == kAddc || comb == kUaddc) && cin ? 1 : 0;
  switch (comb) {
    case kOr: r = a | b; break;
    case kXor: r = a ^ b; break;
    case kMax: r = to_signed(a, w) >= to_signed(b, w) ? a : b; break;
    case kAdd:
    case kAddc: {
      const int64_t s = to_signed(a, w) + to_signed(b, w) + static_cast<int64_t>(ci);
      o = s > static_cast<int64_t>(m >> 1) || s < -static_cast<int64_t>(m >> 1) - 1;
      r = (a + b + ci) & m;
      c = a + b + ci > m;
      break;
    }
    case kUadd:
    case kUaddc:
      r = (a + b + ci) & m;
      o = c = a + b + ci > m;
      break;
    default: break;  // no combiner (a corrupted packet): 0, as the RTL's ALU
  }
  if (ovf) *ovf = o;
  if (cout) *cout = c;
  return r;
}

}  // namespace cm5

namespace {

using u128 = unsigned __int128;

// One combining operation as the leaves pushed it: the values (identity for abstainers), the
// segment bits that count, and the operation every participant agreed on (or not: err).
struct OpView {
  uint8_t kind = 0, comb = 0, raw_comb = 0;
  bool segd = false, err = false;
  std::vector<uint64_t> x;
  std::vector<bool> s, abstain;
};

// A subtree's up-sweep over a chain of K words: what the combining tree computes, for the
// overflow flags (per word, sticky) of the whole chain.
struct Leg {
  bool f = false;
  std::vector<uint64_t> v;
  std::vector<bool> ovf;
};

Leg up_sweep(const std::vector<const OpView*>& words, size_t lo, size_t hi, int w) {
  const size_t K = words.size();
  const OpView& o = *words[0];
  Leg out;
  if (hi - lo == 1) {
    out.f = o.s[lo];
    for (size_t j = 0; j < K; ++j) out.v.push_back(words[j]->x[lo]);
    out.ovf.assign(K, false);
    return out;
  }
  const size_t mid = (lo + hi) / 2;
  const Leg l = up_sweep(words, lo, mid, w), r = up_sweep(words, mid, hi, w);
  out.f = l.f || r.f;
  out.ovf.resize(K);
  for (size_t j = 0; j < K; ++j) out.ovf[j] = l.ovf[j] || r.ovf[j];
  if (o.kind == cm5::kScanFwd && o.segd && r.f) {
    out.v = r.v;
  } else if (o.kind == cm5::kScanBwd && o.segd && l.f) {
    out.v = l.v;
  } else {
    bool carry = false;
    for (size_t j = 0; j < K; ++j) {
      bool ov = false, co = false;
      out.v.push_back(cm5::apply(words[j]->comb, l.v[j], r.v[j], w, &ov, carry, &co));
      out.ovf[j] = out.ovf[j] || ov;
      carry = co;
    }
  }
  return out;
}

OpView view_of(const std::vector<const Cm5Op*>& ops, int word_bits) {
  const size_t n = ops.size();
  const Cm5Op* base = ops[0];
  for (size_t i = 0; i < n; ++i)
    if (!ops[i]->abstain) {
      base = ops[i];
      break;
    }
  OpView v;
  v.kind = base->kind & 3;
  const bool scan = v.kind == cm5::kScanFwd || v.kind == cm5::kScanBwd;
  v.segd = scan && base->segmented;
  v.raw_comb = v.kind == cm5::kSync ? cm5::kOr : base->comb;
  v.comb = v.raw_comb;
  v.x.resize(n);
  v.s.resize(n);
  v.abstain.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Cm5Op& o = *ops[i];
    if (!o.abstain) {
      const bool osegd = (o.kind == cm5::kScanFwd || o.kind == cm5::kScanBwd) && o.segmented;
      const uint8_t ocomb = o.kind == cm5::kSync ? cm5::kOr : o.comb;
      v.err = v.err || (o.kind & 3) != v.kind || ocomb != v.comb || osegd != v.segd;
    }
    if (v.comb == cm5::kRouterDone) {
      v.x[i] = 0;
      continue;
    }
    v.x[i] = o.abstain ? cm5::identity(v.comb, word_bits)
                       : (v.kind == cm5::kSync ? o.data & 1 : o.data & cm5::mask(word_bits));
    v.s[i] = v.segd && o.seg && !o.abstain;
    v.abstain[i] = o.abstain;
  }
  return v;
}

// Every leaf's result of one operation, or of every word of a multi-word addition (words[0]
// its least significant word; the segment bits are the first word's).
std::vector<std::vector<uint64_t>> results_of(const std::vector<const OpView*>& words, int w) {
  const OpView& o = *words[0];
  const size_t n = o.x.size(), K = words.size();
  std::vector<std::vector<uint64_t>> out(K, std::vector<uint64_t>(n));
  if (!cm5::is_add(o.comb)) {  // one word, no carries
    const uint8_t c = o.comb;
    const uint64_t id = cm5::identity(c, w);
    if (o.kind == cm5::kReduce || o.kind == cm5::kSync) {
      uint64_t acc = id;
      for (size_t i = 0; i < n; ++i) acc = cm5::apply(c, acc, o.x[i], w, nullptr);
      out[0].assign(n, acc);
    } else {
      const bool fwd = o.kind == cm5::kScanFwd;
      uint64_t acc = id;
      for (size_t k = 0; k < n; ++k) {
        const size_t i = fwd ? k : n - 1 - k;
        if (o.s[i]) acc = id;
        out[0][i] = acc;
        acc = cm5::apply(c, acc, o.x[i], w, nullptr);
      }
    }
    return out;
  }
  if (static_cast<int>(K) * w > 128) throw std::invalid_argument("multi-word additions past 128 bits are not computed");
  const u128 m = static_cast<int>(K) * w == 128 ? ~static_cast<u128>(0) : (static_cast<u128>(1) << (K * static_cast<size_t>(w))) - 1;
  std::vector<u128> X(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < K; ++j) X[i] |= static_cast<u128>(words[j]->x[i]) << (j * static_cast<size_t>(w));
  std::vector<u128> R(n, 0);
  if (o.kind == cm5::kReduce || o.kind == cm5::kSync) {
    u128 acc = 0;
    for (size_t i = 0; i < n; ++i) acc = (acc + X[i]) & m;
    R.assign(n, acc);
  } else {
    const bool fwd = o.kind == cm5::kScanFwd;
    u128 acc = 0;
    for (size_t k = 0; k < n; ++k) {
      const size_t i = fwd ? k : n - 1 - k;
      if (o.s[i]) acc = 0;
      R[i] = acc;
      acc = (acc + X[i]) & m;
    }
  }
  for (size_t j = 0; j < K; ++j)
    for (size_t i = 0; i < n; ++i) out[j][i] = static_cast<uint64_t>(R[i] >> (j * static_cast<size_t>(w))) & cm5::mask(w);
  return out;
}

}  // namespace

Cm5Expected expected_results(const Cm5Workload& w, int word_bits) {
  const size_t n = w.leaf.size();
  check_workload(w, static_cast<int>(n));
  Cm5Expected e;
  e.multi.resize(n);
  e.bcast.resize(n);
  // Combining operations: the k-th of every leaf.
  std::vector<std::vector<const Cm5Op*>> ops(n);
  for (size_t i = 0; i < n; ++i)
    for (const Cm5Op& o : w.leaf[i])
      if (!o.broadcast) ops[i].push_back(&o);
  const size_t m = w.multi_ops();
  std::vector<OpView> views;
  for (size_t k = 0; k < m; ++k) {
    std::vector<const Cm5Op*> at(n);
    for (size_t i = 0; i < n; ++i) at[i] = ops[i][k];
    views.push_back(view_of(at, word_bits));
  }
  for (size_t k = 0; k < m;) {
    // A chain: an addition and the ADDC / UADDC words right after it.
    size_t k1 = k + 1;
    if (cm5::is_add(views[k].comb))
      while (k1 < m && (views[k1].comb == cm5::kAddc || views[k1].comb == cm5::kUaddc)) ++k1;
    if (views[k].kind == cm5::kReduce && views[k].comb == cm5::kRouterDone) {
      // Router-done: done, when the counters balance (what the reductions conclude is timing's).
      for (size_t i = 0; i < n; ++i) {
        Cm5Result r;
        r.leaf = static_cast<uint32_t>(i);
        r.kind = cm5::kReduce;
        r.comb = cm5::kRouterDone;
        r.err = views[k].err;
        e.multi[i].push_back(r);
      }
      ++k;
      continue;
    }
    std::vector<const OpView*> words;
    for (size_t j = k; j < k1; ++j) words.push_back(&views[j]);
    const auto out = results_of(words, word_bits);
    const Leg up = up_sweep(words, 0, n, word_bits);
    for (size_t j = 0; j < words.size(); ++j)
      for (size_t i = 0; i < n; ++i) {
        Cm5Result r;
        r.leaf = static_cast<uint32_t>(i);
        r.kind = words[j]->kind;
        r.comb = words[j]->raw_comb;
        r.data = out[j][i];
        r.ovf = up.ovf[j];
        r.err = words[j]->err;
        r.abstained = words[j]->abstain[i];
        e.multi[i].push_back(r);
      }
    k = k1;
  }
  // Broadcasts: every leaf receives every one, in order.
  for (size_t src = 0; src < n; ++src)
    for (const Cm5Op& o : w.leaf[src])
      if (o.broadcast)
        for (size_t i = 0; i < n; ++i) {
          Cm5Result r;
          r.leaf = static_cast<uint32_t>(i);
          r.broadcast = true;
          r.kind = o.comb == cm5::kFlushComb ? cm5::kSupervisor : o.kind & 3;
          r.comb = o.comb == cm5::kFlushComb ? cm5::kFlushComb : 0;
          r.data = o.data & cm5::mask(word_bits);
          e.bcast[i].push_back(r);
        }
  return e;
}

Cm5Expected expected_results(const Cm5Workload& w, int word_bits, const Cm5Topology& t) {
  check_workload(w, t);
  const size_t n = t.part.size();
  Cm5Expected e;
  e.multi.resize(n);
  e.bcast.resize(n);
  for (size_t q = 0; q < t.roots.size(); ++q) {
    // The partition's subtree, every leaf of it: a leaf not in use takes part as one that
    // abstains from everything (what its mapped-out subtree amounts to at its parent), so the
    // combining follows the tree's own grouping; it gets no results.
    size_t lo = static_cast<size_t>(t.roots[q]), hi = lo + 1;
    while (lo < n) {
      lo *= 2;
      hi *= 2;
    }
    lo -= n;
    hi -= n;
    size_t model_leaf = n;
    for (size_t i = lo; i < hi; ++i)
      if (t.part[i] == static_cast<int>(q)) {
        model_leaf = i;
        break;
      }
    Cm5Workload sub;
    sub.name = w.name;
    for (size_t i = lo; i < hi; ++i) {
      if (t.part[i] == static_cast<int>(q)) {
        sub.leaf.push_back(w.leaf[i]);
        continue;
      }
      std::vector<Cm5Op> abst;
      for (const Cm5Op& o : w.leaf[model_leaf])
        if (!o.broadcast) {
          Cm5Op a = o;
          a.abstain = true;
          a.seg = false;
          abst.push_back(a);
        }
      sub.leaf.push_back(abst);
    }
    const Cm5Expected se = expected_results(sub, word_bits);
    for (size_t k = 0; k < hi - lo; ++k) {
      const size_t i = lo + k;
      if (t.part[i] != static_cast<int>(q)) continue;
      for (Cm5Result r : se.multi[k]) {
        r.leaf = static_cast<uint32_t>(i);
        e.multi[i].push_back(r);
      }
      for (Cm5Result r : se.bcast[k]) {
        r.leaf = static_cast<uint32_t>(i);
        e.bcast[i].push_back(r);
      }
    }
  }
  return e;
}

Cm5Expected split_results(const std::vector<Cm5Result>& results, int leaves) {
  Cm5Expected e;
  e.multi.resize(static_cast<size_t>(leaves));
  e.bcast.resize(static_cast<size_t>(leaves));
  for (const Cm5Result& r : results) (r.broadcast ? e.bcast : e.multi).at(r.leaf).push_back(r);
  return e;
}

std::string compare_to_expected(const Cm5Expected& want, const Cm5Expected& got) {
  auto same = [](const Cm5Result& a, const Cm5Result& b) {
    if (a.broadcast != b.broadcast || a.kind != b.kind || a.err != b.err || a.abstained != b.abstained) return false;
    if (a.err) return true;  // values of mixed-up operations are not defined
    return a.comb == b.comb && a.data == b.data && a.ovf == b.ovf;
  };
  for (int pass = 0; pass < 2; ++pass) {
    const auto& w = pass == 0 ? want.multi : want.bcast;
    const auto& g = pass == 0 ? got.multi : got.bcast;
    const char* what = pass == 0 ? "combining results" : "broadcasts";
    if (w.size() != g.size()) return "leaf count differs";
    for (size_t i = 0; i < w.size(); ++i) {
      for (size_t k = 0; k < w[i].size() && k < g[i].size(); ++k)
        if (!same(w[i][k], g[i][k]))
          return "leaf " + std::to_string(i) + ", " + what + " #" + std::to_string(k) + ": want " + w[i][k].str() +
                 ", got " + g[i][k].str();
      if (w[i].size() != g[i].size())
        return "leaf " + std::to_string(i) + ": " + std::to_string(g[i].size()) + " " + what + ", want " +
               std::to_string(w[i].size());
    }
  }
  return "";
}

}  // namespace cmnet

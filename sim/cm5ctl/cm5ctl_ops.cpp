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

uint64_t apply(uint8_t comb, uint64_t a, uint64_t b, int w, bool* ovf) {
  const uint64_t m = mask(w);
  a &= m;
  b &= m;
  bool o = false;
  uint64_t r = 0;
  switch (comb) {
    case kOr: r = a | b; break;
    case kXor: r = a ^ b; break;
    case kMax: r = to_signed(a, w) >= to_signed(b, w) ? a : b; break;
    case kAdd: {
      const int64_t s = to_signed(a, w) + to_signed(b, w);
      o = s > static_cast<int64_t>(m >> 1) || s < -static_cast<int64_t>(m >> 1) - 1;
      r = (a + b) & m;
      break;
    }
    case kUadd: r = (a + b) & m; o = a + b > m; break;
    default: throw std::invalid_argument("combiner " + std::to_string(comb) + " does not exist");
  }
  if (ovf) *ovf = o;
  return r;
}

}  // namespace cm5

namespace {

struct Leg {
  bool f = false;
  uint64_t v = 0;
  bool ovf = false;
};

// The up-sweep over leaves [lo, hi): what the combining tree computes, for the overflow flag.
Leg up_sweep(const std::vector<uint64_t>& x, const std::vector<bool>& s, uint8_t kind, uint8_t comb, bool segd,
             size_t lo, size_t hi, int w) {
  if (hi - lo == 1) return {s[lo], x[lo], false};
  const size_t mid = (lo + hi) / 2;
  const Leg l = up_sweep(x, s, kind, comb, segd, lo, mid, w), r = up_sweep(x, s, kind, comb, segd, mid, hi, w);
  Leg o;
  o.f = l.f || r.f;
  o.ovf = l.ovf || r.ovf;
  if (kind == cm5::kScanFwd && segd && r.f) {
    o.v = r.v;
  } else if (kind == cm5::kScanBwd && segd && l.f) {
    o.v = l.v;
  } else {
    bool ov = false;
    o.v = cm5::apply(comb, l.v, r.v, w, &ov);
    o.ovf = o.ovf || ov;
  }
  return o;
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
  for (size_t k = 0; k < m; ++k) {
    const Cm5Op* base = ops[0][k];
    for (size_t i = 0; i < n; ++i)
      if (!ops[i][k]->abstain) {
        base = ops[i][k];
        break;
      }
    const uint8_t kind = base->kind;
    const bool scan = kind == cm5::kScanFwd || kind == cm5::kScanBwd;
    const bool segd = scan && base->segmented;
    const uint8_t comb = kind == cm5::kSync ? cm5::kOr : base->comb;
    bool err = false;
    std::vector<uint64_t> x(n);
    std::vector<bool> s(n);
    for (size_t i = 0; i < n; ++i) {
      const Cm5Op& o = *ops[i][k];
      if (!o.abstain) {
        const bool osegd = (o.kind == cm5::kScanFwd || o.kind == cm5::kScanBwd) && o.segmented;
        const uint8_t ocomb = o.kind == cm5::kSync ? cm5::kOr : o.comb;
        err = err || o.kind != kind || ocomb != comb || osegd != segd;
      }
      x[i] = o.abstain ? cm5::identity(comb, word_bits)
                       : (kind == cm5::kSync ? o.data & 1 : o.data & cm5::mask(word_bits));
      s[i] = segd && o.seg && !o.abstain;
    }
    const bool ovf = up_sweep(x, s, kind, comb, segd, 0, n, word_bits).ovf;
    std::vector<uint64_t> out(n, cm5::identity(comb, word_bits));
    if (kind == cm5::kReduce || kind == cm5::kSync) {
      uint64_t acc = cm5::identity(comb, word_bits);
      for (size_t i = 0; i < n; ++i) acc = cm5::apply(comb, acc, x[i], word_bits, nullptr);
      out.assign(n, acc);
    } else if (kind == cm5::kScanFwd) {
      uint64_t acc = cm5::identity(comb, word_bits);
      for (size_t i = 0; i < n; ++i) {
        if (s[i]) acc = cm5::identity(comb, word_bits);
        out[i] = acc;
        acc = cm5::apply(comb, acc, x[i], word_bits, nullptr);
      }
    } else {
      uint64_t acc = cm5::identity(comb, word_bits);
      for (size_t j = n; j-- > 0;) {
        if (s[j]) acc = cm5::identity(comb, word_bits);
        out[j] = acc;
        acc = cm5::apply(comb, acc, x[j], word_bits, nullptr);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      Cm5Result r;
      r.leaf = static_cast<uint32_t>(i);
      r.kind = kind;
      r.comb = comb;
      r.data = out[i];
      r.ovf = ovf;
      r.err = err;
      r.abstained = ops[i][k]->abstain;
      e.multi[i].push_back(r);
    }
  }
  // Broadcasts: every leaf receives every one, in order.
  for (size_t src = 0; src < n; ++src)
    for (const Cm5Op& o : w.leaf[src])
      if (o.broadcast)
        for (size_t i = 0; i < n; ++i) {
          Cm5Result r;
          r.leaf = static_cast<uint32_t>(i);
          r.broadcast = true;
          r.kind = o.kind & 3;
          r.data = o.data & cm5::mask(word_bits);
          e.bcast[i].push_back(r);
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

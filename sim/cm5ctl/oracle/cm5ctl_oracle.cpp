#include "cm5ctl_oracle.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cmnet::cm5ctl_oracle {
namespace {

using u128 = unsigned __int128;

u128 low_bits(int bits) { return bits >= 128 ? ~static_cast<u128>(0) : (static_cast<u128>(1) << bits) - 1; }
bool negative(u128 x, int bits) { return ((x >> (bits - 1)) & 1) != 0; }
bool is_scan(Kind k) { return k == Kind::kScanForward || k == Kind::kScanBackward; }
bool is_add(Operator op) { return op == Operator::kSignedAdd || op == Operator::kUnsignedAdd; }

// Two leaves asked for the same operation (what is ignored where it has no meaning: a
// barrier's operator, the segmentation of what is not a scan).
bool same_operation(const LeafInput& a, const LeafInput& b) {
  if (a.kind != b.kind) return false;
  if (is_scan(a.kind)) return a.op == b.op && a.segmented == b.segmented;
  return a.kind != Kind::kReduce || a.op == b.op;
}

// The operator on values of `bits` bits (MAX: one word, signed).
struct Arith {
  Operator op = Operator::kOr;
  int bits = 32;
  u128 identity() const { return op == Operator::kMax ? static_cast<u128>(1) << (bits - 1) : 0; }
  u128 apply(u128 a, u128 b) const {
    switch (op) {
      case Operator::kOr: return a | b;
      case Operator::kXor: return a ^ b;
      case Operator::kMax:
        if (negative(a, bits) != negative(b, bits)) return negative(a, bits) ? b : a;
        return a >= b ? a : b;
      default: return (a + b) & low_bits(bits);
    }
  }
};

// a + b overflows `bits` bits: unsigned, a carry out; signed, the two's complement range.
bool add_overflows(bool is_signed, u128 a, u128 b, int bits) {
  const u128 m = low_bits(bits);
  a &= m;
  b &= m;
  const u128 s = (a + b) & m;
  if (!is_signed) return bits == 128 ? s < a : a + b > m;
  return negative(a, bits) == negative(b, bits) && negative(s, bits) != negative(a, bits);
}

// The exact sum of `xs` (each `bits` bits, signed or not) fits in `bits` bits. The sum is kept
// as hi x 2^bits + lo.
bool exact_sum_fits(const std::vector<u128>& xs, int bits, bool is_signed) {
  const u128 m = low_bits(bits);
  int64_t hi = 0;
  u128 lo = 0;
  for (u128 x : xs) {
    x &= m;
    if (is_signed && negative(x, bits)) --hi;
    const u128 s = (lo + x) & m;
    if (bits == 128 ? s < lo : lo + x > m) ++hi;
    lo = s;
  }
  if (!is_signed) return hi == 0;
  return negative(lo, bits) ? hi == -1 : hi == 0;
}

// One combining operation, as its participants agreed on it.
struct Op {
  LeafInput what;        // the first participant's (leaf 0's when every leaf abstains)
  bool error = false;    // participants disagree
  size_t words = 1;
  std::vector<u128> v;   // each leaf's value (identity when it abstains), words * W bits
  std::vector<bool> cut; // cut[j]: a scan does not pass between leaves j - 1 and j (j = 1..n-1)
};

Op agreed(const Combining& c, const Options& opt) {
  const size_t n = c.leaf.size();
  Op o;
  o.what = c.leaf[0];
  bool first = true;
  for (const LeafInput& x : c.leaf) {
    if (x.abstain) continue;
    if (first) o.what = x;
    o.error = o.error || !same_operation(o.what, x);
    first = false;
  }
  for (const LeafInput& x : c.leaf) o.words = std::max(o.words, x.words.size());
  const int W = opt.word_bits;
  const bool barrier = o.what.kind == Kind::kBarrier;
  if (static_cast<int>(o.words) * W > 128) throw std::invalid_argument("cm5ctl oracle: values past 128 bits");
  if (o.words > 1 && (barrier || !is_add(o.what.op)))
    throw std::invalid_argument("cm5ctl oracle: several words with an operator that is not an addition");
  const Arith a{barrier ? Operator::kOr : o.what.op, static_cast<int>(o.words) * W};
  o.v.assign(n, a.identity());
  o.cut.assign(n + 1, false);
  for (size_t i = 0; i < n; ++i) {
    const LeafInput& x = c.leaf[i];
    if (!x.abstain) {
      u128 v = 0;
      for (size_t j = 0; j < x.words.size(); ++j) v |= static_cast<u128>(x.words[j] & low_bits(W)) << (j * W);
      o.v[i] = barrier ? v & 1 : v;
    }
    const bool bit = is_scan(o.what.kind) && o.what.segmented && x.segment_bit &&
                     (!x.abstain || opt.abstainer_segment_bit_counts);
    if (!bit) continue;
    const bool before = o.what.kind == Kind::kScanForward ||
                        opt.backward_segment == Options::BackwardSegment::kStartsInLeafOrder;
    o.cut[before ? i : i + 1] = true;
  }
  o.cut[0] = o.cut[n] = false;
  return o;
}

// Each leaf's value of a scan or reduction, words * W bits.
std::vector<u128> values_of(const Op& o, const Options& opt) {
  const size_t n = o.v.size();
  const bool barrier = o.what.kind == Kind::kBarrier;
  const Arith a{barrier ? Operator::kOr : o.what.op, static_cast<int>(o.words) * opt.word_bits};
  if (!is_scan(o.what.kind)) {
    u128 total = a.identity();
    for (u128 x : o.v) total = a.apply(total, x);
    return std::vector<u128>(n, total);
  }
  const u128 start = opt.scan_start == Options::ScanStart::kIdentity ? a.identity() : 0;
  const bool fwd = o.what.kind == Kind::kScanForward;
  std::vector<u128> out(n);
  u128 acc = a.identity();
  bool empty = true;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = fwd ? k : n - 1 - k;
    if (o.cut[fwd ? i : i + 1]) {
      acc = a.identity();
      empty = true;
    }
    out[i] = empty ? start : acc;
    acc = a.apply(acc, o.v[i]);
    empty = false;
  }
  return out;
}

// kAnySubtree: the value the block [lo, hi) passes on in the scan's direction (a reduction:
// its combination), flagging in *ovf every word whose addition of the two halves overflowed.
u128 subtree(const Op& o, size_t lo, size_t hi, int W, std::vector<bool>* ovf) {
  if (hi - lo == 1) return o.v[lo];
  const size_t mid = (lo + hi) / 2;
  const u128 l = subtree(o, lo, mid, W, ovf), r = subtree(o, mid, hi, W, ovf);
  bool passes = true;  // the far half's value reaches the other side of the near half
  if (o.what.kind == Kind::kScanForward)
    for (size_t k = mid; k < hi; ++k) passes = passes && !o.cut[k];
  if (o.what.kind == Kind::kScanBackward)
    for (size_t k = lo + 1; k <= mid; ++k) passes = passes && !o.cut[k];
  if (!passes) return o.what.kind == Kind::kScanForward ? r : l;
  for (size_t j = 0; j < o.words; ++j)
    if (add_overflows(o.what.op == Operator::kSignedAdd, l, r, static_cast<int>(j + 1) * W)) (*ovf)[j] = true;
  return (l + r) & low_bits(static_cast<int>(o.words) * W);
}

std::vector<bool> overflow_of(const Op& o, const Options& opt) {
  std::vector<bool> ovf(o.words, false);
  if (o.what.kind == Kind::kBarrier || !is_add(o.what.op)) return ovf;
  const int W = opt.word_bits;
  if (opt.overflow == Options::Overflow::kAnySubtree) {
    subtree(o, 0, o.v.size(), W, &ovf);
    return ovf;
  }
  for (size_t j = 0; j < o.words; ++j)
    ovf[j] = !exact_sum_fits(o.v, static_cast<int>(j + 1) * W, o.what.op == Operator::kSignedAdd);
  return ovf;
}

}  // namespace

Output evaluate(const Input& in, const Options& opt) {
  const size_t n = static_cast<size_t>(in.leaves);
  if (in.leaves < 1 || opt.word_bits < 1 || opt.word_bits > 64)
    throw std::invalid_argument("cm5ctl oracle: leaves or word_bits out of range");
  Output out;
  out.combining.resize(n);
  out.broadcasts.resize(n);
  for (size_t k = 0; k < in.combining.size(); ++k) {
    const Combining& c = in.combining[k];
    if (c.leaf.size() != n)
      throw std::invalid_argument("cm5ctl oracle: operation " + std::to_string(k) + " has " +
                                  std::to_string(c.leaf.size()) + " leaves, not " + std::to_string(n));
    const Op o = agreed(c, opt);
    LeafResult r;
    r.op = k;
    std::vector<u128> v;
    if (o.error) {
      r.error = true;
    } else if (o.what.kind == Kind::kRouterDone) {
      int64_t sum = 0;  // messages still in the data network
      for (const LeafInput& x : c.leaf) sum += x.abstain ? 0 : x.messages;
      if (sum > 0) break;  // never done: nothing after it completes either
      r.error = sum < 0;   // messages were created
      if (!r.error) {
        r.words = {0};
        r.overflow = {false};
      }
    } else {
      v = values_of(o, opt);
      r.overflow = overflow_of(o, opt);
    }
    for (size_t i = 0; i < n; ++i) {
      r.abstained = c.leaf[i].abstain;
      if (r.abstained && !opt.abstainer_gets_result) continue;
      if (!v.empty()) {
        r.words.clear();
        for (size_t j = 0; j < o.words; ++j)
          r.words.push_back(static_cast<uint64_t>(v[i] >> (j * static_cast<size_t>(opt.word_bits))) &
                            static_cast<uint64_t>(low_bits(opt.word_bits)));
      }
      out.combining[i].push_back(r);
    }
  }
  for (Broadcast b : in.broadcasts) {
    if (b.source < 0 || b.source >= in.leaves) throw std::invalid_argument("cm5ctl oracle: broadcast from no leaf");
    b.word &= static_cast<uint64_t>(low_bits(opt.word_bits));
    for (size_t i = 0; i < n; ++i)
      if (static_cast<int>(i) != b.source || opt.sender_gets_own_broadcast) out.broadcasts[i].push_back(b);
  }
  return out;
}

}  // namespace cmnet::cm5ctl_oracle

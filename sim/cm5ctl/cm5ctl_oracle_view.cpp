#include "sim/cm5ctl/cm5ctl_oracle_view.h"

#include <cstdio>
#include <deque>
#include <map>

#include "gen/cm5ctl/cm5ctl_packet.h"

namespace cmnet::cm5ctl_view {
namespace {

using cm5ctl_oracle::BroadcastKind;
using cm5ctl_oracle::Kind;
using cm5ctl_oracle::Operator;

Kind kind_of(const Cm5Op& o) {
  if (o.kind == cm5::kReduce && o.comb == cm5::kRouterDone) return Kind::kRouterDone;
  static constexpr Kind kinds[] = {Kind::kReduce, Kind::kScanForward, Kind::kScanBackward, Kind::kBarrier};
  return kinds[o.kind & 3];
}

Operator operator_of(uint8_t comb) {
  switch (comb) {
    case cm5::kXor: return Operator::kXor;
    case cm5::kMax: return Operator::kMax;
    case cm5::kAdd:
    case cm5::kAddc: return Operator::kSignedAdd;
    case cm5::kUadd:
    case cm5::kUaddc: return Operator::kUnsignedAdd;
    default: return Operator::kOr;
  }
}

// An expected result and what it is, for the messages.
struct Want {
  Cm5Result r;
  std::string what;
};
struct Wants {
  std::vector<std::vector<Want>> multi, bcast;
};

// The leaves [lo, hi) under heap node `root` of an N-leaf tree.
std::pair<size_t, size_t> leaves_under(int root, size_t n) {
  size_t lo = static_cast<size_t>(root), hi = lo + 1;
  while (lo < n) {
    lo *= 2;
    hi *= 2;
  }
  return {lo - n, hi - n};
}

// One partition's operations for the oracle and its answers back in `out`.
void partition_wants(const Cm5ctlParams& p, const Cm5Workload& w, const Cm5Topology& t, int q, Wants* out) {
  const auto [lo, hi] = leaves_under(t.roots[static_cast<size_t>(q)], t.part.size());
  std::vector<std::vector<const Cm5Op*>> ops(hi - lo);
  size_t ref = hi;  // the first leaf in use: its operations name each one
  for (size_t i = lo; i < hi; ++i) {
    if (t.part[i] != q) continue;
    if (ref == hi) ref = i;
    for (const Cm5Op& o : w.leaf[i])
      if (!o.broadcast) ops[i - lo].push_back(&o);
  }
  if (ref == hi) return;
  const std::vector<const Cm5Op*>& rops = ops[ref - lo];
  cm5ctl_oracle::Input in;
  in.leaves = static_cast<int>(hi - lo);
  std::vector<std::pair<size_t, size_t>> groups;  // each oracle operation's words [k, k1)
  for (size_t k = 0; k < rops.size();) {
    size_t k1 = k + 1;
    if (rops[k]->kind != cm5::kSync && cm5::is_add(rops[k]->comb))
      while (k1 < rops.size() && (rops[k1]->comb == cm5::kAddc || rops[k1]->comb == cm5::kUaddc)) ++k1;
    cm5ctl_oracle::Combining c;
    c.leaf.resize(hi - lo);
    for (size_t s = 0; s < hi - lo; ++s) {
      cm5ctl_oracle::LeafInput& x = c.leaf[s];
      const bool used = t.part[lo + s] == q;  // else it abstains from the operation the others push
      const Cm5Op& o = used ? *ops[s].at(k) : *rops[k];
      x.kind = kind_of(o);
      x.op = operator_of(o.comb);
      x.segmented = o.segmented;
      x.abstain = !used || o.abstain;
      if (!used) continue;
      x.segment_bit = o.seg;
      for (size_t j = k; j < k1; ++j) x.words.push_back(ops[s].at(j)->data);
      const auto& ctr = w.counters.size() > lo + s ? w.counters[lo + s] : std::vector<std::pair<uint64_t, int64_t>>{};
      x.messages = ctr.empty() ? 0 : ctr.back().second;
    }
    in.combining.push_back(std::move(c));
    groups.push_back({k, k1});
    k = k1;
  }
  for (size_t i = lo; i < hi; ++i)
    if (t.part[i] == q)
      for (const Cm5Op& o : w.leaf[i])
        if (o.broadcast)
          in.broadcasts.push_back({static_cast<int>(i - lo),
                                   o.comb == cm5::kFlushComb ? BroadcastKind::kFlush : static_cast<BroadcastKind>(o.kind & 3),
                                   o.data});
  const cm5ctl_oracle::Output got = cm5ctl_oracle::evaluate(in, as_built_oracle_options(p));
  for (size_t i = lo; i < hi; ++i) {
    if (t.part[i] != q) continue;
    for (const cm5ctl_oracle::LeafResult& r : got.combining[i - lo]) {
      const auto [k, k1] = groups[r.op];
      for (size_t j = 0; j < k1 - k; ++j) {
        const Cm5Op& o = *rops[k + j];
        Want x;
        x.r.leaf = static_cast<uint32_t>(i);
        x.r.kind = o.kind & 3;
        x.r.comb = o.kind == cm5::kSync ? cm5::kOr : o.comb;
        x.r.data = r.words.empty() ? 0 : r.words.at(j);
        x.r.ovf = !r.overflow.empty() && r.overflow.at(j);
        x.r.err = r.error;
        x.r.abstained = r.abstained;
        x.what = "combining operation " + std::to_string(r.op) + " (" + cm5::kind_name(o.kind & 3) + "/" +
                 cm5::comb_name(o.comb) + ", word " + std::to_string(j + 1) + " of " + std::to_string(k1 - k) + ")";
        out->multi[i].push_back(x);
      }
    }
    size_t b = 0;
    for (const cm5ctl_oracle::Broadcast& r : got.broadcasts[i - lo]) {
      Want x;
      x.r.leaf = static_cast<uint32_t>(i);
      x.r.broadcast = true;
      const bool flush = r.kind == BroadcastKind::kFlush;
      x.r.kind = flush ? cm5::kSupervisor : static_cast<uint8_t>(r.kind);
      x.r.comb = flush ? cm5::kFlushComb : 0;
      x.r.data = r.word;
      x.what = "broadcast " + std::to_string(b++) + " (from leaf " + std::to_string(lo + static_cast<size_t>(r.source)) + ")";
      out->bcast[i].push_back(x);
    }
  }
}

Wants wants_of(const Cm5ctlParams& p, const Cm5Workload& w) {
  const Cm5Topology t = cm5_topology(p);
  check_workload(w, t);
  Wants out;
  out.multi.resize(t.part.size());
  out.bcast.resize(t.part.size());
  for (size_t q = 0; q < t.roots.size(); ++q) partition_wants(p, w, t, static_cast<int>(q), &out);
  return out;
}

std::string flags(const Cm5Result& r) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s/%u data 0x%llx%s%s%s", r.broadcast ? "broadcast" : "combine", r.kind & 3,
                static_cast<unsigned long long>(r.data), r.ovf ? " ovf" : "", r.err ? " err" : "",
                r.abstained ? " abstained" : "");
  return std::string(buf) + (r.broadcast ? "" : std::string(" comb ") + cm5::comb_name(r.comb));
}

bool same(const Cm5Result& want, const Cm5Result& got) {
  if (want.broadcast != got.broadcast || want.err != got.err || want.abstained != got.abstained) return false;
  if (want.err) return true;  // the values of mixed-up operations are not defined
  return want.kind == got.kind && want.comb == got.comb && want.data == got.data && want.ovf == got.ovf;
}

// A run's results at leaf i (none when the run gave it none).
const std::vector<Cm5Result>& at_leaf(const std::vector<std::vector<Cm5Result>>& v, size_t i) {
  static const std::vector<Cm5Result> none;
  return i < v.size() ? v[i] : none;
}

// The disagreements of one workload's run: at most 20, then how many more.
struct Notes {
  std::string name;
  std::vector<std::string> out;
  size_t more = 0;
  void add(std::string s) {
    if (out.size() < 20) out.push_back(name + ": " + std::move(s));
    else ++more;
  }
  std::vector<std::string> done() {
    if (more > 0) out.push_back("... and " + std::to_string(more) + " more");
    return std::move(out);
  }
};

}  // namespace

cm5ctl_oracle::Options as_built_oracle_options(const Cm5ctlParams& p) {
  cm5ctl_oracle::Options o;  // its defaults are the hardware's choices
  o.word_bits = p.word_bits;
  return o;
}

Cm5Expected oracle_expected(const Cm5ctlParams& p, const Cm5Workload& w) {
  const Wants ws = wants_of(p, w);
  Cm5Expected e;
  for (auto [from, to] : {std::pair{&ws.multi, &e.multi}, std::pair{&ws.bcast, &e.bcast}}) {
    to->resize(from->size());
    for (size_t i = 0; i < from->size(); ++i)
      for (const Want& x : (*from)[i]) (*to)[i].push_back(x.r);
  }
  return e;
}

std::vector<std::string> oracle_disagreements(const Cm5ctlParams& p, const Cm5Workload& w,
                                              const std::vector<Cm5Result>& results) {
  return oracle_disagreements(p, w, split_results(results, p.leaves));
}

std::vector<std::string> oracle_disagreements(const Cm5ctlParams& p, const Cm5Workload& w, const Cm5Expected& got) {
  const Wants ws = wants_of(p, w);
  Notes notes{w.name, {}, 0};
  for (int pass = 0; pass < 2; ++pass) {
    const auto& want = pass == 0 ? ws.multi : ws.bcast;
    const auto& have = pass == 0 ? got.multi : got.bcast;
    const char* what = pass == 0 ? "combining results" : "broadcasts";
    for (size_t i = 0; i < want.size(); ++i) {
      const std::vector<Cm5Result>& g = at_leaf(have, i);
      for (size_t k = 0; k < want[i].size() && k < g.size(); ++k)
        if (!same(want[i][k].r, g[k]))
          notes.add("leaf " + std::to_string(i) + ", " + want[i][k].what + ": the oracle says " + flags(want[i][k].r) +
                    ", got " + flags(g[k]));
      if (want[i].size() != g.size())
        notes.add("leaf " + std::to_string(i) + ": " + std::to_string(g.size()) + " " + what + ", the oracle says " +
                  std::to_string(want[i].size()));
    }
  }
  return notes.done();
}

std::vector<std::string> oracle_disagreements_under_faults(const Cm5ctlParams& p, const Cm5Workload& w,
                                                            const std::vector<Cm5Result>& results) {
  return oracle_disagreements_under_faults(p, w, split_results(results, p.leaves));
}

std::vector<std::string> oracle_disagreements_under_faults(const Cm5ctlParams& p, const Cm5Workload& w,
                                                            const Cm5Expected& got) {
  const Wants ws = wants_of(p, w);
  Notes notes{w.name, {}, 0};
  for (size_t i = 0; i < ws.multi.size(); ++i) {
    const std::vector<Cm5Result>& g = at_leaf(got.multi, i);
    const std::string leaf = "leaf " + std::to_string(i) + ", ";
    if (g.size() > ws.multi[i].size())
      notes.add(leaf + std::to_string(g.size()) + " combining results, more than the oracle's " +
                std::to_string(ws.multi[i].size()));
    for (size_t k = 0; k < g.size() && k < ws.multi[i].size(); ++k)
      if (!g[k].err && !same(ws.multi[i][k].r, g[k]))
        notes.add(leaf + ws.multi[i][k].what + " unmarked: the oracle says " + flags(ws.multi[i][k].r) + ", got " +
                  flags(g[k]));
  }
  // Broadcasts: those received unmarked are the oracle's, in its order, some perhaps missing.
  for (size_t i = 0; i < ws.bcast.size(); ++i) {
    size_t k = 0;
    for (const Cm5Result& r : at_leaf(got.bcast, i)) {
      if (r.err) continue;
      while (k < ws.bcast[i].size() && !same(ws.bcast[i][k].r, r)) ++k;
      if (k == ws.bcast[i].size()) {
        notes.add("leaf " + std::to_string(i) + ", broadcast " + flags(r) +
                  " unmarked and not one the oracle sends there (or out of order)");
        break;
      }
      ++k;
    }
  }
  return notes.done();
}

Cm5Expected in_order_of(const Cm5Expected& want, const Cm5Expected& got, int (*class_of)(const Cm5Result&)) {
  auto reorder = [&](const std::vector<std::vector<Cm5Result>>& w, const std::vector<std::vector<Cm5Result>>& g) {
    std::vector<std::vector<Cm5Result>> out(g.size());
    for (size_t i = 0; i < g.size(); ++i) {
      std::map<int, std::deque<Cm5Result>> left;
      for (const Cm5Result& r : g[i]) left[class_of(r)].push_back(r);
      for (const Cm5Result& r : at_leaf(w, i)) {
        auto& q = left[class_of(r)];
        if (q.empty()) continue;
        out[i].push_back(q.front());
        q.pop_front();
      }
      for (auto& [c, q] : left) out[i].insert(out[i].end(), q.begin(), q.end());
    }
    return out;
  };
  return {reorder(want.multi, got.multi), reorder(want.bcast, got.bcast)};
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

}  // namespace cmnet::cm5ctl_view

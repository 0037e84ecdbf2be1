#include "host/cli/cm5ctl/cm5ctl_lines.h"

#include <algorithm>

#include "gen/cm5ctl/cm5ctl_packet.h"

namespace cmnet {
namespace {

bool in_use(const Cm5Topology& t, size_t leaf) { return t.part.at(leaf) >= 0; }

// A result as an arrived end: the value, its flags and what the software computes for it.
SimEnd result_end(const Cm5Result& r, const Cm5Result* want, int word_bits) {
  SimEnd e{r.leaf, r.cycle, {r.data}, {}, {}};
  const bool done = !r.broadcast && r.comb == cm5::kRouterDone;
  e.flags = {{"ovf", r.ovf}, {"err", r.err}, {"abstained", r.abstained}};
  if (done) e.flags["sum"] = cm5::to_signed(r.data, word_bits);
  // Router-done's value is the counters' (timing), not a function of the inputs: no software value.
  e.flags["want"] = want && !done ? nlohmann::ordered_json(sim_hex(want->data)) : nlohmann::ordered_json(nullptr);
  return e;
}

// The k-th combining operation of every leaf in use.
SimRecord combine_record(const Cm5Workload& w, const Cm5Topology& t, const Cm5Expected& got, const Cm5Expected& want,
                         size_t k, int word_bits) {
  SimRecord r;
  r.kind = "operation";
  nlohmann::ordered_json dst = nlohmann::ordered_json::array();
  const Cm5Op* first = nullptr;
  size_t expected = 0;
  for (size_t i = 0; i < w.leaf.size(); ++i) {
    if (!in_use(t, i)) continue;
    size_t n = 0;
    for (const Cm5Op& o : w.leaf[i]) {
      if (o.broadcast || n++ != k) continue;
      if (!first) first = &o;
      SimEnd e{i, o.release, {o.data}, {}, {}};
      e.flags = {{"abstain", o.abstain}, {"seg", o.seg}};
      r.sent.push_back(e);
      break;
    }
    const Cm5Result* exp = k < want.multi.at(i).size() ? &want.multi[i][k] : nullptr;
    if (exp) {
      dst.push_back(i);
      ++expected;
    }
    if (k < got.multi.at(i).size()) r.arrived.push_back(result_end(got.multi[i][k], exp, word_bits));
  }
  r.dst = dst;
  r.delivered = r.arrived.size() >= expected && expected > 0;
  if (first) {
    r.extra["type"] = "combine";
    r.extra["kind"] = cm5::kind_name(first->kind);
    r.extra["comb"] = cm5::comb_name(first->comb);
    r.extra["segmented"] = first->segmented;
  }
  return r;
}

// Broadcast b (in order of sender, then push), `seq[i]` the broadcasts leaf i received before it.
SimRecord broadcast_record(const Cm5Op& o, size_t src, const Cm5Topology& t, const Cm5Expected& got,
                           const Cm5Expected& want, std::vector<size_t>& seq, int word_bits) {
  SimRecord r;
  r.kind = "operation";
  r.sent.push_back(SimEnd{src, o.release, {o.data}, {}, {}});
  nlohmann::ordered_json dst = nlohmann::ordered_json::array();
  for (size_t i = 0; i < t.part.size(); ++i) {
    if (!in_use(t, i) || t.part[i] != t.part.at(src)) continue;
    dst.push_back(i);
    const size_t j = seq[i]++;
    const Cm5Result* exp = j < want.bcast.at(i).size() ? &want.bcast[i][j] : nullptr;
    if (j < got.bcast.at(i).size()) r.arrived.push_back(result_end(got.bcast[i][j], exp, word_bits));
  }
  r.delivered = !dst.empty() && r.arrived.size() == dst.size();
  r.dst = dst;
  const bool flush = o.comb == cm5::kFlushComb;
  r.extra["type"] = "broadcast";
  r.extra["kind"] = flush ? "flush" : cm5::bcast_name(o.kind & 3);
  return r;
}

// Every change of a global input sent, every change of a leaf's global outputs arrived.
SimRecord globals_record(const Cm5Workload& w, const Cm5Topology& t, const std::vector<Cm5GlobalOut>& globals) {
  SimRecord r;
  r.kind = "globals";
  for (const Cm5GlobalIn& g : w.globals) r.sent.push_back(SimEnd{g.leaf, g.cycle, {g.value}, {}, {}});
  nlohmann::ordered_json dst = nlohmann::ordered_json::array();
  for (size_t i = 0; i < t.part.size(); ++i)
    if (in_use(t, i)) dst.push_back(i);
  r.dst = dst;
  for (const Cm5GlobalOut& g : globals) r.arrived.push_back(SimEnd{g.leaf, g.cycle, {g.value}, {}, {}});
  r.delivered = !r.arrived.empty();
  r.extra["bits"] = "1: async OR 0, 2: async OR 1, 4: hard error";
  return r;
}

}  // namespace

std::vector<SimRecord> cm5ctl_records(const Cm5Workload& w, const Cm5Topology& t, const std::vector<Cm5Result>& results,
                                      const std::vector<Cm5GlobalOut>& globals, const Cm5Expected& want,
                                      int word_bits, uint64_t first_id) {
  const Cm5Expected got = split_results(results, static_cast<int>(t.part.size()));
  std::vector<SimRecord> out;
  size_t ops = 0;
  for (size_t i = 0; i < w.leaf.size(); ++i) {
    size_t n = 0;
    for (const Cm5Op& o : w.leaf[i]) n += !o.broadcast;
    ops = std::max(ops, n);
  }
  std::vector<SimRecord> multi;
  for (size_t k = 0; k < ops; ++k) multi.push_back(combine_record(w, t, got, want, k, word_bits));
  // Broadcasts credited in the order every leaf receives them (sender, then push).
  std::vector<size_t> seq(t.part.size(), 0);
  std::vector<std::vector<SimRecord>> bcast(w.leaf.size());
  for (size_t src = 0; src < w.leaf.size(); ++src)
    for (const Cm5Op& o : w.leaf[src])
      if (o.broadcast && in_use(t, src)) bcast[src].push_back(broadcast_record(o, src, t, got, want, seq, word_bits));
  // Numbered in the push order of the first leaf that broadcasts (of the first leaf in use when
  // none does): a workload file's order of lines; then what that leaf did not push.
  size_t lead = w.leaf.size();
  for (size_t i = 0; i < w.leaf.size() && lead == w.leaf.size(); ++i)
    if (!bcast[i].empty()) lead = i;
  for (size_t i = 0; i < w.leaf.size() && lead == w.leaf.size(); ++i)
    if (in_use(t, i)) lead = i;
  size_t k = 0, b = 0;
  if (lead < w.leaf.size())
    for (const Cm5Op& o : w.leaf[lead]) {
      if (!o.broadcast && k < multi.size()) out.push_back(std::move(multi[k++]));
      else if (o.broadcast && b < bcast[lead].size()) out.push_back(std::move(bcast[lead][b++]));
    }
  for (; k < multi.size(); ++k) out.push_back(std::move(multi[k]));
  for (size_t src = 0; src < bcast.size(); ++src)
    for (size_t j = src == lead ? b : 0; j < bcast[src].size(); ++j) out.push_back(std::move(bcast[src][j]));
  if (!w.globals.empty()) out.push_back(globals_record(w, t, globals));
  for (size_t k = 0; k < out.size(); ++k) out[k].id = first_id + k;
  return out;
}

}  // namespace cmnet

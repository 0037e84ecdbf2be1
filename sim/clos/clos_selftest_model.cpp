#include "sim/clos/clos_selftest_model.h"

#include <algorithm>
#include <numeric>

#include "gen/core/errors.h"
#include "sim/clos/clos_ctrl_rtl.h"
#include "sim/clos/clos_data_words.h"

namespace cmnet {

namespace {

// Per leaf (src) its circuits' destinations and word counts, in order: the data words drawn
// from `seed`, leaf by leaf, circuit by circuit; then the expectations.
ClosSelfTest selftest_of(const ClosConfig& cfg, const std::vector<std::vector<std::pair<int, int>>>& per_leaf,
                         const std::string& workload, uint64_t seed) {
  const ClosParams& p = cfg.clos;
  ClosSelfTest t;
  t.workload = workload;
  t.seed = seed;
  t.leaves.resize(static_cast<size_t>(p.ports()));
  uint64_t state = seed;
  std::vector<ClosLeafRequest> reqs;
  for (int g = 0; g < p.ports(); ++g)
    for (const auto& [dest, words] : per_leaf[static_cast<size_t>(g)]) {
      ClosSelfTestCircuit c;
      c.dest = dest;
      for (int w = 0; w < words; ++w) c.words.push_back(static_cast<uint32_t>(clos_next_data_word(state, p.width)));
      ClosSelfTestLeaf& at = t.leaves.at(static_cast<size_t>(dest));
      at.rx_circuits += words > 0 ? 1 : 0;
      at.rx_words += static_cast<uint32_t>(words);
      for (uint32_t w : c.words) at.rx_xor ^= w;
      t.leaves[static_cast<size_t>(g)].circuits.push_back(std::move(c));
      reqs.push_back({g, dest, 1, words + 1});  // as the board's leaves: READY and DDCR registered
    }
  const ClosCtrlRtlRun run = run_clos_ctrl_rtl(cfg, reqs);
  const std::string what = "clos self-test: the engines' reference run of '" + workload + "': ";
  if (run.mismatches) throw ConfigError(what + "the model disagrees: " + run.first_mismatches.front());
  if (!run.model_error.empty()) throw ConfigError(what + "the model: " + run.model_error);
  if (run.requests_done != reqs.size() || !run.model_idle || run.overflow)
    throw ConfigError(what + std::to_string(run.requests_done) + " of " + std::to_string(reqs.size()) +
                      " circuits done in " + std::to_string(run.cycles) + " cycles" +
                      (run.overflow ? ", a WaitingQueue overflowed" : ""));
  uint64_t last = 0;
  for (const ClosLogged& e : run.log)
    if (e.msg.type == ClosMsgType::kDDCR) last = std::max(last, e.at);
  // The last DDCR handled in cycle `last` reaches its leaf registered a cycle later, which is
  // done the cycle after: the first cycle in which every leaf is.
  t.end_cycle = last + 2;
  t.counts.readies = static_cast<uint32_t>(run.readies);
  t.counts.handled = static_cast<uint32_t>(run.handled);
  t.counts.cancels = static_cast<uint32_t>(run.handled_by_type[static_cast<int>(ClosMsgType::kCANCEL)]);
  t.counts.resends = static_cast<uint32_t>(run.handled_by_type[static_cast<int>(ClosMsgType::kRESEND)]);
  t.counts.cfg_writes = static_cast<uint32_t>(run.cfg_writes);
  return t;
}

}  // namespace

ClosSelfTest clos_selftest_rounds(const ClosConfig& cfg, uint64_t seed, int rounds, int words) {
  const ClosParams& p = cfg.clos;
  const int N = p.ports();
  if (rounds < 1 || rounds > kClosSelfTestMaxCircuits)
    throw ConfigError("clos self-test: " + std::to_string(rounds) + " rounds (circuits per leaf; allowed: 1.." +
                      std::to_string(kClosSelfTestMaxCircuits) + ", what a leaf's ROM holds)");
  if (words < 0 || static_cast<int64_t>(rounds) * words > kClosSelfTestMaxWords)
    throw ConfigError("clos self-test: " + std::to_string(rounds) + " rounds of " + std::to_string(words) +
                      " words: a leaf's ROM holds " + std::to_string(kClosSelfTestMaxWords) + " words");
  if (N < 2) throw ConfigError("clos self-test: a permutation needs 2 leaves or more");
  // Fisher-Yates on splitmix64 (not std::shuffle: its algorithm is the library's), again until
  // no leaf is its own destination.
  uint64_t state = seed ^ 0x5e1f7e57ull;
  std::vector<std::vector<std::pair<int, int>>> per_leaf(static_cast<size_t>(N));
  std::vector<int> perm(static_cast<size_t>(N));
  for (int r = 0; r < rounds; ++r) {
    bool fixed = true;
    while (fixed) {
      std::iota(perm.begin(), perm.end(), 0);
      for (int i = N - 1; i > 0; --i)
        std::swap(perm[static_cast<size_t>(i)], perm[clos_next_data_word(state, 64) % static_cast<uint64_t>(i + 1)]);
      fixed = false;
      for (int i = 0; i < N; ++i) fixed = fixed || perm[static_cast<size_t>(i)] == i;
    }
    for (int i = 0; i < N; ++i) per_leaf[static_cast<size_t>(i)].push_back({perm[static_cast<size_t>(i)], words});
  }
  return selftest_of(cfg, per_leaf, std::to_string(rounds) + " random permutations of " + std::to_string(words) + "-word circuits",
                     seed);
}

ClosSelfTest clos_selftest_of(const ClosConfig& cfg, const std::vector<ClosCircuitRequest>& c, const std::string& name,
                              uint64_t seed) {
  std::vector<std::vector<std::pair<int, int>>> per_leaf(static_cast<size_t>(cfg.clos.ports()));
  std::vector<int> words(per_leaf.size(), 0);
  for (const ClosCircuitRequest& r : c) {
    per_leaf.at(static_cast<size_t>(r.src)).push_back({r.dst, r.words});
    if ((words[static_cast<size_t>(r.src)] += r.words) > kClosSelfTestMaxWords ||
        per_leaf[static_cast<size_t>(r.src)].size() > static_cast<size_t>(kClosSelfTestMaxCircuits))
      throw InputError(name + ":" + std::to_string(r.line) + ": leaf " + std::to_string(r.src) + " sends more than a " +
                       "self-test leaf's ROM holds (" + std::to_string(kClosSelfTestMaxCircuits) + " circuits, " +
                       std::to_string(kClosSelfTestMaxWords) + " words)");
  }
  return selftest_of(cfg, per_leaf, name, seed);
}

}  // namespace cmnet

#include "host/clos/clos_run.h"

#include <algorithm>
#include <deque>
#include <map>
#include <numeric>
#include <random>

#include "gen/clos/clos_emitter.h"
#include "gen/core/errors.h"
#include "sim/clos/clos_setup_model.h"

namespace cmnet {

StreamWorkload clos_permutation_workload(const ClosConfig& cfg, const ClosRunOptions& o) {
  const int N = cfg.clos.ports();
  if (o.words < 1 || o.words > clos_stream_max_words())
    throw InputError("--per-proc " + std::to_string(o.words) + ": a circuit carries 1.." +
                     std::to_string(clos_stream_max_words()) + " data words on the board");
  // A random permutation with no leaf sending to itself (a circuit needs two leaves).
  std::mt19937_64 rng(o.seed);
  std::vector<int> perm(static_cast<size_t>(N));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (int i = 0; i < N; ++i)
    if (perm[static_cast<size_t>(i)] == i) std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>((i + 1) % N)]);
  StreamWorkload w;
  w.name = "permutation (seed " + std::to_string(o.seed) + ", " + std::to_string(o.words) + " words per circuit)";
  std::map<uint32_t, std::vector<uint32_t>> expect;  // destination -> {source, words}
  std::uniform_int_distribution<uint32_t> word;
  for (int i = 0; i < N; ++i) {
    StreamUnit u{static_cast<uint32_t>(i), {static_cast<uint32_t>(perm[static_cast<size_t>(i)])}};
    std::vector<uint32_t> got{static_cast<uint32_t>(i)};
    for (int k = 0; k < o.words; ++k) {
      const uint32_t x = word(rng);
      u.words.push_back(x);
      got.push_back(x);
    }
    expect[static_cast<uint32_t>(perm[static_cast<size_t>(i)])] = got;
    w.units.push_back(std::move(u));
  }
  w.expect_units = static_cast<size_t>(N);
  // The set-up model on the same requests, its messages handled in the order they are sent: how
  // many circuits it sets up (each torn down once READY), and that it ends idle.
  uint64_t model_ready = 0;
  {
    ClosProtocolModel model(cfg.clos, ClosSetupOptions{});
    std::deque<ClosMsg> q;
    for (int i = 0; i < N; ++i) {
      ClosMsg m;
      m.type = ClosMsgType::kCSR;
      m.orig = i;
      m.dest = perm[static_cast<size_t>(i)];
      m.to = (i / cfg.clos.n) % cfg.clos.hnodes();
      q.push_back(m);
    }
    for (size_t steps = 0; !q.empty() && steps < 1000000; ++steps) {
      const ClosMsg m = q.front();
      q.pop_front();
      for (ClosMsg x : model.handle(m.to, m)) {
        if (x.type == ClosMsgType::kREADY) {
          ++model_ready;
          x.type = ClosMsgType::kODCR;  // the leaf sends its words, then releases the circuit
        }
        q.push_back(x);
      }
    }
    if (!model.error().empty() || !model.idle())
      throw InputError("clos run: the set-up model failed on the workload: " + model.error());
  }
  w.compare = [expect, N, model_ready](const StreamRunResult& board, RunReport& r) {
    size_t exact = 0;
    for (const StreamUnit& u : board.delivered) {
      const auto it = expect.find(u.leaf);
      if (it != expect.end() && it->second == u.words) ++exact;
    }
    uint64_t ready = 0, dropped = 0, cancels = 0;
    for (const CounterReading& c : board.counters) {
      if (c.counter.name == "circuits.ready") ready = c.value;
      if (c.counter.name == "words.dropped") dropped = c.value;
      if (c.counter.name == "circuits.cancels") cancels = c.value;
    }
    r.rows.push_back({"circuits delivered bit-exact", std::to_string(exact), std::to_string(N), true});
    r.rows.push_back({"READY (circuits set up)", std::to_string(ready), std::to_string(model_ready), true});
    r.rows.push_back({"words dropped", std::to_string(dropped), "0", true});
    r.rows.push_back({"CANCELs (races)", std::to_string(cancels), "", false});
  };
  return w;
}

StreamRunOutcome run_clos_stream(const ClosConfig& cfg, const ClosRunOptions& o, const StreamRunArgs& a, std::FILE* out) {
  return run_stream_workload(clos_stream_spec(cfg), clos_permutation_workload(cfg, o), a, out);
}

}  // namespace cmnet

#include "host/clos/clos_runner.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>

#include "gen/clos/clos_emitter.h"
#include "gen/core/errors.h"
#include "sim/clos/clos_setup_model.h"

namespace cmnet {

namespace {

// The set-up model on the same requests as the board, its messages handled in the order they
// are sent: each leaf's requests one after another (the next CSR once the DDCR of its previous
// one is handled, as the board's leaves do), each circuit torn down once READY. Returns the
// circuits it set up; throws if it fails or does not end idle.
uint64_t model_readies(const ClosConfig& cfg, const std::vector<std::deque<int>>& dests) {
  ClosProtocolModel model(cfg.clos, clos_protocol_options(cfg.clos));
  std::vector<std::deque<int>> left = dests;
  std::deque<ClosMsg> q;
  auto next_csr = [&](int leaf) {
    auto& d = left[static_cast<size_t>(leaf)];
    if (d.empty()) return;
    ClosMsg m;
    m.type = ClosMsgType::kCSR;
    m.orig = leaf;
    m.dest = d.front();
    m.to = (leaf / cfg.clos.n) % cfg.clos.hnodes();
    d.pop_front();
    q.push_back(m);
  };
  for (int i = 0; i < static_cast<int>(left.size()); ++i) next_csr(i);
  uint64_t ready = 0;
  for (size_t steps = 0; !q.empty() && steps < 10000000; ++steps) {
    const ClosMsg m = q.front();
    q.pop_front();
    for (ClosMsg x : model.handle(m.to, m)) {
      if (x.type == ClosMsgType::kREADY) {
        ++ready;
        x.type = ClosMsgType::kODCR;  // the leaf sends its words, then releases the circuit
      }
      q.push_back(x);
    }
    if (m.type == ClosMsgType::kDDCR) next_csr(m.orig);  // that leaf's request is over
  }
  if (!model.error().empty() || !model.idle() || !q.empty())
    throw InputError("clos run: the set-up model failed on the workload: " +
                     (model.error().empty() ? std::string("it did not end idle") : model.error()));
  return ready;
}

uint64_t counter(const StreamRunResult& board, const std::string& name) {
  for (const CounterReading& c : board.counters)
    if (c.counter.name == name) return c.value;
  return 0;
}

// Delivered units matching the expected {destination, {source, words}} (each matched once).
size_t exact_units(const std::multiset<std::pair<uint32_t, std::vector<uint32_t>>>& expect,
                   const std::vector<StreamUnit>& delivered) {
  auto left = expect;
  size_t exact = 0;
  for (const StreamUnit& u : delivered) {
    const auto it = left.find({u.leaf, u.words});
    if (it != left.end()) {
      left.erase(it);
      ++exact;
    }
  }
  return exact;
}

using Expect = std::multiset<std::pair<uint32_t, std::vector<uint32_t>>>;  // {destination, {source, words}}

// k rounds of random permutations: the units, what each destination must deliver, and the
// model's READY count for the same requests.
struct RoundsPlan {
  std::vector<StreamUnit> units;
  std::shared_ptr<Expect> expect = std::make_shared<Expect>();
  uint64_t model_ready = 0;
};

RoundsPlan plan_rounds(const ClosConfig& cfg, int rounds, int words, uint64_t seed) {
  const int N = cfg.clos.ports();
  if (words < 1 || words > clos_stream_max_words())
    throw InputError("--per-proc " + std::to_string(words) + ": a circuit carries 1.." +
                     std::to_string(clos_stream_max_words()) + " data words on the board");
  if (rounds < 1) throw InputError("clos run: " + std::to_string(rounds) + " circuits per leaf (at least 1)");
  if (N < 2) throw InputError("clos run: a circuit needs two leaves, the network has " + std::to_string(N));
  std::mt19937_64 rng(seed);
  RoundsPlan plan;
  std::vector<std::deque<int>> dests(static_cast<size_t>(N));
  std::uniform_int_distribution<uint32_t> word;
  for (int k = 0; k < rounds; ++k) {
    // A random permutation with no leaf sending to itself (a circuit needs two leaves).
    std::vector<int> perm(static_cast<size_t>(N));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int i = 0; i < N; ++i)
      if (perm[static_cast<size_t>(i)] == i)
        std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>((i + 1) % N)]);
    for (int i = 0; i < N; ++i) {
      const int d = perm[static_cast<size_t>(i)];
      StreamUnit u{static_cast<uint32_t>(i), {static_cast<uint32_t>(d)}};
      std::vector<uint32_t> got{static_cast<uint32_t>(i)};
      for (int x = 0; x < words; ++x) {
        const uint32_t v = word(rng);
        u.words.push_back(v);
        got.push_back(v);
      }
      plan.expect->insert({static_cast<uint32_t>(d), got});
      dests[static_cast<size_t>(i)].push_back(d);
      plan.units.push_back(std::move(u));
    }
  }
  plan.model_ready = model_readies(cfg, dests);
  return plan;
}

bool point_agrees(const RoundsPlan& plan, const StreamRunResult& board) {
  return counter(board, "circuits.ready") == plan.model_ready && board.delivered.size() == plan.expect->size() &&
         exact_units(*plan.expect, board.delivered) == plan.expect->size() && counter(board, "words.dropped") == 0;
}

StreamWorkload workload_of(const RoundsPlan& plan) {
  StreamWorkload w;
  w.units = plan.units;
  w.expect_units = plan.units.size();
  w.compare = [expect = plan.expect, model_ready = plan.model_ready](const StreamRunResult& board, RunReport& r) {
    r.rows.push_back({"circuits delivered bit-exact", std::to_string(exact_units(*expect, board.delivered)),
                      std::to_string(expect->size()), true});
    r.rows.push_back({"READY (circuits set up)", std::to_string(counter(board, "circuits.ready")),
                      std::to_string(model_ready), true});
    r.rows.push_back({"words dropped", std::to_string(counter(board, "words.dropped")), "0", true});
    r.rows.push_back({"CANCELs (races)", std::to_string(counter(board, "circuits.cancels")), "", false});
  };
  return w;
}

}  // namespace

StreamWorkload clos_rounds_workload(const ClosConfig& cfg, int rounds, int words, uint64_t seed) {
  StreamWorkload w = workload_of(plan_rounds(cfg, rounds, words, seed));
  w.name = std::to_string(rounds) + " rounds of random permutations (seed " + std::to_string(seed) + ", " +
           std::to_string(words) + " words per circuit)";
  return w;
}

StreamWorkload clos_permutation_workload(const ClosConfig& cfg, const ClosRunOptions& o) {
  StreamWorkload w = clos_rounds_workload(cfg, 1, o.words, o.seed);
  w.name = "permutation (seed " + std::to_string(o.seed) + ", " + std::to_string(o.words) + " words per circuit)";
  return w;
}

bool run_clos_sweep(const ClosConfig& cfg, const ClosSweepOptions& o, const StreamRunArgs& a, std::FILE* out) {
  const int N = cfg.clos.ports();
  StreamConnection conn(clos_stream_spec(cfg), a);
  struct Point {
    int circuits = 0;
    uint64_t cycles = 0, ready = 0, words = 0;
  };
  std::vector<Point> rate;
  StreamSweep sw;
  sw.title = cfg.name + ": " + clos_name(cfg.clos) + ", rounds of random permutations of circuits, " +
             std::to_string(o.words) + " data words each";
  sw.x_label = "circuits requested per leaf";
  sw.y_label = "circuits established per leaf";
  for (int c : o.circuits) sw.offered.push_back(c);
  std::map<int, RoundsPlan> plans;  // each point's requests, kept from its workload for its measure
  sw.workload = [&](double x) {
    const int k = static_cast<int>(x);
    plans[k] = plan_rounds(cfg, k, o.words, o.seed + static_cast<uint64_t>(k));
    return workload_of(plans[k]);
  };
  sw.measure = [&](double x, const StreamRunResult& board) {
    const int k = static_cast<int>(x);
    const RoundsPlan& plan = plans.at(k);
    const uint64_t ready = counter(board, "circuits.ready");
    StreamSweepMeasure m;
    m.accepted = static_cast<double>(ready) / N;
    m.model_accepted = static_cast<double>(plan.model_ready) / N;
    m.agrees = point_agrees(plan, board);
    rate.push_back({k, board.cycles, ready,
                    static_cast<uint64_t>(exact_units(*plan.expect, board.delivered)) * static_cast<uint64_t>(o.words)});
    return m;
  };
  const bool ok = run_stream_sweep(conn, sw, a.out_dir, a.timeout_s, out);
  std::string csv = "circuits_per_leaf,cycles,circuits,data_words,circuits_per_kcycle,words_per_kcycle\n";
  std::fprintf(out, "   the board's rate (its cycles from the start of the run to idle):\n");
  std::fprintf(out, "   %10s %10s %10s %10s %18s %16s\n", "per leaf", "cycles", "circuits", "words", "circuits/kcycle",
               "words/kcycle");
  for (const Point& p : rate) {
    const double kc = p.cycles ? 1000.0 / static_cast<double>(p.cycles) : 0;
    std::fprintf(out, "   %10d %10llu %10llu %10llu %18.3f %16.3f\n", p.circuits,
                 static_cast<unsigned long long>(p.cycles), static_cast<unsigned long long>(p.ready),
                 static_cast<unsigned long long>(p.words), static_cast<double>(p.ready) * kc,
                 static_cast<double>(p.words) * kc);
    csv += std::to_string(p.circuits) + "," + std::to_string(p.cycles) + "," + std::to_string(p.ready) + "," +
           std::to_string(p.words) + "," + std::to_string(static_cast<double>(p.ready) * kc) + "," +
           std::to_string(static_cast<double>(p.words) * kc) + "\n";
  }
  std::ofstream(a.out_dir + "/sweep_rate.csv") << csv;
  return ok;
}

StreamRunOutcome run_clos_stream(const ClosConfig& cfg, const ClosRunOptions& o, const StreamRunArgs& a, std::FILE* out) {
  return run_stream_workload(clos_stream_spec(cfg), clos_permutation_workload(cfg, o), a, out);
}

}  // namespace cmnet

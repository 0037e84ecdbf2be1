#include "host/clos/clos_runner.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>

#include <fmt/format.h>

#include "gen/clos/clos_emitter.h"
#include "gen/core/errors.h"
#include "sim/clos/clos_circuit_file.h"
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

// One circuit the host asks for: its leaves, its data words, the file line it comes from (0: a
// pattern's).
struct PlannedCircuit {
  int src = 0, dst = 0, line = 0;
  std::vector<uint32_t> words;
};

// The circuits in the order the host sends them, what each destination must deliver, and the
// model's READY count for the same requests.
struct CircuitPlan {
  std::vector<PlannedCircuit> circuits;
  std::shared_ptr<Expect> expect = std::make_shared<Expect>();
  uint64_t model_ready = 0;
};

// Adds a circuit from src to dst, its `words` data words drawn from `rng` (every run's generator,
// so a seed means the same words to the board and the model).
void plan_circuit(CircuitPlan& plan, int src, int dst, int words, int line, std::mt19937_64& rng) {
  PlannedCircuit c{src, dst, line, {}};
  std::uniform_int_distribution<uint32_t> word;
  for (int x = 0; x < words; ++x) c.words.push_back(word(rng));
  std::vector<uint32_t> got{static_cast<uint32_t>(src)};
  got.insert(got.end(), c.words.begin(), c.words.end());
  plan.expect->insert({static_cast<uint32_t>(dst), got});
  plan.circuits.push_back(std::move(c));
}

// Each source leaf's requests in the order the host sends them, for the set-up model.
std::vector<std::deque<int>> requests_of(const ClosConfig& cfg, const CircuitPlan& plan) {
  std::vector<std::deque<int>> dests(static_cast<size_t>(cfg.clos.ports()));
  for (const PlannedCircuit& c : plan.circuits) dests[static_cast<size_t>(c.src)].push_back(c.dst);
  return dests;
}

void check_words(int words) {
  if (words < 1 || words > clos_stream_max_words())
    throw InputError("--per-proc " + std::to_string(words) + ": a circuit carries 1.." +
                     std::to_string(clos_stream_max_words()) + " data words on the board");
}

// k rounds of random permutations, no leaf to itself (a circuit needs two leaves).
CircuitPlan plan_rounds(const ClosConfig& cfg, int rounds, int words, uint64_t seed) {
  const int N = cfg.clos.ports();
  check_words(words);
  if (rounds < 1) throw InputError("clos run: " + std::to_string(rounds) + " circuits per leaf (at least 1)");
  if (N < 2) throw InputError("clos run: a circuit needs two leaves, the network has " + std::to_string(N));
  std::mt19937_64 rng(seed);
  CircuitPlan plan;
  for (int k = 0; k < rounds; ++k) {
    std::vector<int> perm(static_cast<size_t>(N));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int i = 0; i < N; ++i)
      if (perm[static_cast<size_t>(i)] == i)
        std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>((i + 1) % N)]);
    for (int i = 0; i < N; ++i) plan_circuit(plan, i, perm[static_cast<size_t>(i)], words, 0, rng);
  }
  plan.model_ready = model_readies(cfg, requests_of(cfg, plan));
  return plan;
}

// A user's connection set: every line's circuit, in the file's order, its WORDS drawn as a
// pattern's are. A circuit longer than the board's receive buffer is refused (never cut).
CircuitPlan plan_file(const ClosConfig& cfg, const std::string& path, int default_words, uint64_t seed) {
  std::mt19937_64 rng(seed);
  CircuitPlan plan;
  for (const ClosCircuitRequest& c : read_clos_circuit_file(path, cfg.clos, default_words)) {
    if (c.words > clos_stream_max_words())
      throw InputError(path + ":" + std::to_string(c.line) + ": " + std::to_string(c.words) +
                       " data words (WORDS, or --per-proc where a line has none): a circuit on the board carries at most " +
                       std::to_string(clos_stream_max_words()) + " (the destination leaf's receive buffer)");
    plan_circuit(plan, c.src, c.dst, c.words, c.line, rng);
  }
  plan.model_ready = model_readies(cfg, requests_of(cfg, plan));
  return plan;
}

bool point_agrees(const CircuitPlan& plan, const StreamRunResult& board) {
  return counter(board, "circuits.ready") == plan.model_ready && board.delivered.size() == plan.expect->size() &&
         exact_units(*plan.expect, board.delivered) == plan.expect->size() && counter(board, "words.dropped") == 0;
}

std::string hex_words(const std::vector<uint32_t>& w, size_t from = 0) {
  std::string s;
  for (size_t i = from; i < w.size(); ++i) s += (i > from ? " " : "") + fmt::format("{:x}", w[i]);
  return s;
}

// What arrived of each circuit: the delivered unit from its source at its destination, one whose
// words are the circuit's if there is one (a source may send to one destination more than once
// over rounds), else the first unmatched; null when none arrived.
std::vector<const StreamUnit*> arrivals(const CircuitPlan& plan, const std::vector<StreamUnit>& delivered) {
  std::vector<const StreamUnit*> got(plan.circuits.size(), nullptr);
  std::vector<bool> used(delivered.size(), false);
  for (const bool exact : {true, false})
    for (size_t c = 0; c < plan.circuits.size(); ++c) {
      const PlannedCircuit& x = plan.circuits[c];
      for (size_t u = 0; u < delivered.size() && !got[c]; ++u) {
        const StreamUnit& d = delivered[u];
        if (used[u] || d.leaf != static_cast<uint32_t>(x.dst) || d.words.empty() ||
            d.words[0] != static_cast<uint32_t>(x.src) ||
            (exact && !std::equal(d.words.begin() + 1, d.words.end(), x.words.begin(), x.words.end())))
          continue;
        used[u] = true;
        got[c] = &d;
      }
    }
  return got;
}

// Every circuit's words as sent and as they arrived: run.json's "circuits" and circuits.csv.
void report_circuits(const CircuitPlan& plan, const std::vector<StreamUnit>& delivered, RunReport& r) {
  const std::vector<const StreamUnit*> got = arrivals(plan, delivered);
  nlohmann::ordered_json js = nlohmann::ordered_json::array();
  ReportTable t;
  t.file = "circuits.csv";
  t.columns = {"id", "line", "src", "dst", "sent", "arrived", "bit_exact"};
  for (size_t c = 0; c < plan.circuits.size(); ++c) {
    const PlannedCircuit& x = plan.circuits[c];
    const StreamUnit* u = got[c];
    const bool exact = u && std::equal(u->words.begin() + 1, u->words.end(), x.words.begin(), x.words.end());
    nlohmann::ordered_json j = {{"id", c}, {"src", x.src}, {"dst", x.dst}};
    if (x.line) j["line"] = x.line;
    j["sent"] = nlohmann::ordered_json::array();
    for (uint32_t w : x.words) j["sent"].push_back(fmt::format("{:x}", w));
    j["arrived"] = nullptr;
    if (u) {
      j["arrived"] = nlohmann::ordered_json::array();
      for (size_t i = 1; i < u->words.size(); ++i) j["arrived"].push_back(fmt::format("{:x}", u->words[i]));
    }
    j["bit_exact"] = exact;
    js.push_back(j);
    t.rows.push_back({std::to_string(c), x.line ? std::to_string(x.line) : "", std::to_string(x.src),
                      std::to_string(x.dst), hex_words(x.words), u ? hex_words(u->words, 1) : "-", exact ? "1" : "0"});
  }
  r.json["circuits"] = js;
  r.tables.push_back(t);
}

StreamWorkload workload_of(const CircuitPlan& plan) {
  StreamWorkload w;
  for (const PlannedCircuit& c : plan.circuits) {
    StreamUnit u{static_cast<uint32_t>(c.src), {static_cast<uint32_t>(c.dst)}};
    u.words.insert(u.words.end(), c.words.begin(), c.words.end());
    w.units.push_back(std::move(u));
  }
  w.expect_units = w.units.size();
  w.compare = [plan](const StreamRunResult& board, RunReport& r) {
    r.rows.push_back({"circuits delivered bit-exact", std::to_string(exact_units(*plan.expect, board.delivered)),
                      std::to_string(plan.expect->size()), true});
    r.rows.push_back({"READY (circuits set up)", std::to_string(counter(board, "circuits.ready")),
                      std::to_string(plan.model_ready), true});
    r.rows.push_back({"words dropped", std::to_string(counter(board, "words.dropped")), "0", true});
    r.rows.push_back({"CANCELs (races)", std::to_string(counter(board, "circuits.cancels")), "", false});
    report_circuits(plan, board.delivered, r);
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
  std::map<int, CircuitPlan> plans;  // each point's requests, kept from its workload for its measure
  sw.workload = [&](double x) {
    const int k = static_cast<int>(x);
    plans[k] = plan_rounds(cfg, k, o.words, o.seed + static_cast<uint64_t>(k));
    return workload_of(plans[k]);
  };
  sw.measure = [&](double x, const StreamRunResult& board) {
    const int k = static_cast<int>(x);
    const CircuitPlan& plan = plans.at(k);
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

StreamWorkload clos_circuit_file_workload(const ClosConfig& cfg, const std::string& path, int default_words,
                                          uint64_t seed) {
  const CircuitPlan plan = plan_file(cfg, path, default_words, seed);
  StreamWorkload w = workload_of(plan);
  w.name = path + " (" + std::to_string(plan.circuits.size()) + " circuits, seed " + std::to_string(seed) + ")";
  return w;
}

StreamRunOutcome run_clos_stream(const ClosConfig& cfg, const ClosRunOptions& o, const StreamRunArgs& a, std::FILE* out) {
  const StreamWorkload w = o.traffic.empty() ? clos_permutation_workload(cfg, o)
                                             : clos_circuit_file_workload(cfg, o.traffic, o.words, o.seed);
  return run_stream_workload(clos_stream_spec(cfg), w, a, out);
}

}  // namespace cmnet

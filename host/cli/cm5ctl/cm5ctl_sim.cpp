// `cmnet sim` for the CM-5 control network: one named workload (--pattern) or a user's workload
// file (--traffic, sim/cm5ctl/cm5ctl_workload_file.h) on the RTL (Verilator) or the reference
// model; one JSON line per operation (host/cli/cm5ctl/cm5ctl_lines.h: each leaf's input, each
// leaf's result beside the software result it should be), one for the global ORs when the
// workload sets global inputs, and a summary line. Exit 0 when every result arrived and matches the plain software computation
// (and every leaf's last global outputs are the OR of its partition's last inputs), 3 otherwise.
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "host/cli/cm5ctl/cm5ctl_family.h"
#include "host/cli/cm5ctl/cm5ctl_lines.h"
#include "gen/core/errors.h"
#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/cm5ctl/cm5ctl_rtl.h"
#include "sim/cm5ctl/cm5ctl_workload_file.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"

namespace cmnet {
namespace {

// "" when every leaf in use ends with global outputs equal to the OR of its partition's last
// global inputs (what the global ORs mean, no tree, no timing), else the first leaf that does not.
std::string check_globals(const Cm5Workload& w, const Cm5Topology& t, const std::vector<Cm5GlobalOut>& got) {
  if (w.globals.empty()) return "";
  std::vector<uint8_t> in(t.part.size(), 0), out(t.part.size(), 0), want(t.roots.size(), 0);
  for (const Cm5GlobalIn& g : w.globals) in.at(g.leaf) = g.value & 7u;
  for (size_t i = 0; i < in.size(); ++i)
    if (t.part[i] >= 0) want[static_cast<size_t>(t.part[i])] |= in[i];
  for (const Cm5GlobalOut& g : got) out.at(g.leaf) = g.value;  // in cycle order: the last stays
  for (size_t i = 0; i < out.size(); ++i)
    if (t.part[i] >= 0 && out[i] != want[static_cast<size_t>(t.part[i])])
      return "leaf " + std::to_string(i) + " ends with global outputs " + std::to_string(out[i]) + ", the OR of its "
             "partition's inputs is " + std::to_string(want[static_cast<size_t>(t.part[i])]);
  return "";
}

}  // namespace

int cm5ctl_sim(const Cm5ctlConfig& cfg, const SimArgs& a) {
  const Cm5ctlParams& p = cfg.p;
  if (!a.mode.empty()) throw InputError("--mode: not used by the cm5ctl family");
  if (a.pattern.empty() == a.traffic.empty()) throw InputError("sim: give --pattern NAME or --traffic FILE");
  if (a.engine != "model" && a.engine != "rtl")
    throw InputError("--engine " + a.engine + ": unknown engine (allowed: rtl, model)");
  // --per-proc: the operations each leaf pushes; --seed: the values (a pattern's, not a file's).
  const Cm5Workload w = a.traffic.empty() ? make_cm5ctl_workload(a.pattern, p.leaves, p.word_bits, a.seed, a.per_proc)
                                          : read_cm5ctl_workload(a.traffic, p.leaves, p.word_bits);
  const std::string what = a.traffic.empty() ? a.pattern : a.traffic;
  check_trace(a.trace, a.engine);
  const uint64_t max_cycles = a.max_steps * static_cast<uint64_t>(p.packet_time());
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Cm5Result> results;
  std::vector<Cm5GlobalOut> globals;
  uint64_t cycles = 0;
  bool completed = false, fault = false, drop = false;
  // Global inputs: run until the last change has reached every leaf.
  const uint64_t min_cycles = w.globals.empty() ? 0 : w.globals.back().cycle + cm5ctl_global_settle(p);
  std::string model_diff;  // the RTL engine: its run against the model's, cycle for cycle
  if (a.engine == "model") {
    Cm5ModelOptions o;
    o.max_cycles = max_cycles;
    o.min_cycles = min_cycles;
    const Cm5RunResult r = run_cm5ctl_model(p, w, o);
    results = r.results;
    globals = r.globals;
    cycles = r.cycles;
    completed = r.completed;
    fault = r.faults.any_design_fault();
    drop = r.faults.bcast_drops > 0;
  } else {
    Cm5RtlOptions o;
    o.max_cycles = max_cycles;
    o.min_cycles = min_cycles;
    o.trace = a.trace;
    const Cm5RtlRun r = run_cm5ctl_rtl(cfg, w, o);
    Cm5ModelOptions mo;
    mo.max_cycles = max_cycles;
    mo.min_cycles = min_cycles;
    model_diff = compare_runs(run_cm5ctl_model(p, w, mo), r);
    results = r.results;
    globals = r.globals;
    cycles = r.cycles;
    completed = r.completed;
    fault = r.fault;
    drop = r.bcast_drop;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Cm5Expected want = expected_results(w, p.word_bits, cm5_topology(p));
  const Cm5Expected got = split_results(results, p.leaves);
  std::string diff = compare_to_expected(want, got);
  if (diff.empty()) diff = check_globals(w, cm5_topology(p), globals);

  SimLinesWriter out(a.out);
  for (const SimRecord& r : cm5ctl_records(w, cm5_topology(p), results, globals, want, p.word_bits)) out.write(r);
  uint64_t last = 0;
  for (const Cm5Result& r : results) last = std::max(last, r.cycle);
  SimSummary s;
  s.family = "cm5ctl";
  s.engine = a.engine;
  s.time_unit = "cycles";
  s.completed = completed;
  s.extra = {{a.traffic.empty() ? "pattern" : "traffic", what},
             {"seed", a.seed},
             {"leaves", p.leaves},
             {"combining_ops_per_leaf", w.multi_ops()},
             {"broadcasts", w.broadcasts()},
             {"global_changes", globals.size()},
             {"results", results.size()},
             {"expected_results", expected_result_count(w, cm5_topology(p))},
             {"software_agrees", diff.empty()},
             {"difference", diff},
             {"model_agrees", a.engine == "rtl" ? nlohmann::ordered_json(model_diff.empty()) : nlohmann::ordered_json(nullptr)},
             {"model_difference", model_diff},
             {"cycles", cycles},
             {"last_result_cycle", last},
             {"packet_time_cycles", p.packet_time()},
             {"latency_bound_cycles", p.latency_bound()},
             {"fault", fault},
             {"bcast_drop", drop},
             {"seconds", secs}};
  out.finish(s);
  const std::string vs_model =
      a.engine != "rtl" ? "" : model_diff.empty() ? "; the model agrees cycle for cycle" : "; the model DIFFERS: " + model_diff;
  std::printf("%s: %s on %d leaves: %zu results of %llu, last at cycle %llu; software results %s%s -> %s\n",
              a.engine.c_str(), what.c_str(), p.leaves, results.size(),
              static_cast<unsigned long long>(expected_result_count(w, cm5_topology(p))), static_cast<unsigned long long>(last),
              diff.empty() ? "agree" : ("DIFFER: " + diff).c_str(), vs_model.c_str(), a.out.c_str());
  return completed && diff.empty() && model_diff.empty() && !fault ? 0 : 3;
}

}  // namespace cmnet

// `cmnet sim` for the CM-5 control network: one named workload on the RTL (Verilator) or the
// reference model; one JSON object per result (leaf, cycle, operation, value, flags, the
// software result it should be) and a summary line. Exit 0 when every result arrived and
// matches the plain software computation, 3 otherwise.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "host/cli/cm5ctl/cm5ctl_family.h"
#include "gen/core/errors.h"
#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/cm5ctl/cm5ctl_rtl.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"

namespace cmnet {

int cm5ctl_sim(const Cm5ctlConfig& cfg, const SimArgs& a) {
  const Cm5ctlParams& p = cfg.p;
  if (!a.traffic.empty()) throw InputError("--traffic: not used by the cm5ctl family (give --pattern NAME)");
  if (!a.mode.empty()) throw InputError("--mode: not used by the cm5ctl family");
  if (a.pattern.empty()) throw InputError("sim: give --pattern NAME");
  if (a.engine != "model" && a.engine != "rtl")
    throw InputError("--engine " + a.engine + ": unknown engine (allowed: rtl, model)");
  // --per-proc: the operations each leaf pushes; --seed: the values.
  const Cm5Workload w = make_cm5ctl_workload(a.pattern, p.leaves, p.word_bits, a.seed, a.per_proc);
  check_trace(a.trace, a.engine);
  const uint64_t max_cycles = a.max_steps * static_cast<uint64_t>(p.packet_time());
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Cm5Result> results;
  uint64_t cycles = 0;
  bool completed = false, fault = false, drop = false;
  if (a.engine == "model") {
    Cm5ModelOptions o;
    o.max_cycles = max_cycles;
    const Cm5RunResult r = run_cm5ctl_model(p, w, o);
    results = r.results;
    cycles = r.cycles;
    completed = r.completed;
    fault = r.faults.any_design_fault();
    drop = r.faults.bcast_drops > 0;
  } else {
    Cm5RtlOptions o;
    o.max_cycles = max_cycles;
    o.trace = a.trace;
    const Cm5RtlRun r = run_cm5ctl_rtl(cfg, w, o);
    results = r.results;
    cycles = r.cycles;
    completed = r.completed;
    fault = r.fault;
    drop = r.bcast_drop;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Cm5Expected want = expected_results(w, p.word_bits, cm5_topology(p));
  const Cm5Expected got = split_results(results, p.leaves);
  const std::string diff = compare_to_expected(want, got);

  std::ofstream out(a.out);
  if (!out) throw InputError(a.out + ": cannot write output file");
  std::vector<size_t> seen_multi(static_cast<size_t>(p.leaves), 0), seen_bcast(static_cast<size_t>(p.leaves), 0);
  uint64_t last = 0;
  char hex[32];
  for (const Cm5Result& r : results) {
    auto& seen = r.broadcast ? seen_bcast : seen_multi;
    const auto& exp = (r.broadcast ? want.bcast : want.multi).at(r.leaf);
    const size_t k = seen[r.leaf]++;
    nlohmann::ordered_json j;
    j["leaf"] = r.leaf;
    j["cycle"] = r.cycle;
    j["op"] = k;
    j["type"] = r.broadcast ? "broadcast" : "combine";
    j["kind"] = r.broadcast ? cm5::bcast_name(r.kind) : cm5::kind_name(r.kind);
    if (!r.broadcast) j["comb"] = cm5::comb_name(r.comb);
    std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(r.data));
    j["data"] = hex;
    if (k < exp.size()) {
      std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(exp[k].data));
      j["want"] = hex;
    } else {
      j["want"] = nullptr;
    }
    j["ovf"] = r.ovf;
    j["err"] = r.err;
    j["abstained"] = r.abstained;
    out << j.dump() << '\n';
    last = std::max(last, r.cycle);
  }
  nlohmann::ordered_json s;
  s["summary"] = {{"engine", a.engine},
                  {"pattern", a.pattern},
                  {"seed", a.seed},
                  {"leaves", p.leaves},
                  {"combining_ops_per_leaf", w.multi_ops()},
                  {"broadcasts", w.broadcasts()},
                  {"results", results.size()},
                  {"expected_results", expected_result_count(w, cm5_topology(p))},
                  {"completed", completed},
                  {"software_agrees", diff.empty()},
                  {"difference", diff},
                  {"cycles", cycles},
                  {"last_result_cycle", last},
                  {"packet_time_cycles", p.packet_time()},
                  {"latency_bound_cycles", p.latency_bound()},
                  {"fault", fault},
                  {"bcast_drop", drop},
                  {"seconds", secs}};
  out << s.dump() << '\n';
  std::printf("%s: %s on %d leaves: %zu results of %llu, last at cycle %llu; software results %s -> %s\n",
              a.engine.c_str(), a.pattern.c_str(), p.leaves, results.size(),
              static_cast<unsigned long long>(expected_result_count(w, cm5_topology(p))), static_cast<unsigned long long>(last),
              diff.empty() ? "agree" : ("DIFFER: " + diff).c_str(), a.out.c_str());
  return completed && diff.empty() && !fault ? 0 : 3;
}

}  // namespace cmnet

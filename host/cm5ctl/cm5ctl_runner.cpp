#include "host/cm5ctl/cm5ctl_runner.h"

#include "gen/cm5ctl/cm5ctl_stream.h"
#include "gen/core/errors.h"
#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"

namespace cmnet {

StreamWorkload cm5ctl_stream_workload(const Cm5ctlConfig& cfg, const Cm5Workload& w) {
  const Cm5ctlParams& p = cfg.p;
  const Cm5Topology t = cm5_topology(p);
  check_workload(w, t);
  if (!w.flips.empty() || !w.globals.empty() || !w.restarts.empty())
    throw InputError("workload '" + w.name + "': link faults, global inputs and restarts are not in the board's unit format");
  StreamWorkload sw;
  sw.name = w.name;
  size_t longest = 0;
  for (const auto& ops : w.leaf) longest = std::max(longest, ops.size());
  for (size_t k = 0; k < longest; ++k)
    for (size_t i = 0; i < w.leaf.size(); ++i) {
      if (k >= w.leaf[i].size()) continue;
      const Cm5Op& o = w.leaf[i][k];
      if (o.broadcast && o.comb == cm5::kFlushComb)
        throw InputError("workload '" + w.name + "': a flush halts the interfaces and the board's unit format has no restart");
      sw.units.push_back(StreamUnit{static_cast<uint32_t>(i),
                                    cm5unit::encode_op(o.broadcast, o.abstain, o.kind, o.comb, o.segmented, o.seg,
                                                       static_cast<uint32_t>(o.data & cm5::mask(p.word_bits)))});
    }
  sw.expect_units = static_cast<size_t>(expected_result_count(w, t));
  const Cm5Expected want = expected_results(w, p.word_bits, t);
  const Cm5RunResult model = run_cm5ctl_model(p, w);
  sw.compare = [want, model, t, n = p.leaves, name = w.name](const StreamRunResult& board, RunReport& r) {
    std::vector<Cm5Result> got;
    for (const StreamUnit& u : board.delivered) {
      if (u.words.size() != 2) {
        ++r.mismatches;
        continue;
      }
      const cm5unit::Decoded d = cm5unit::decode_result(u.words[0], u.words[1]);
      Cm5Result x;
      x.leaf = u.leaf;
      x.broadcast = d.broadcast;
      x.kind = d.kind;
      x.comb = d.comb;
      x.data = d.data;
      x.ovf = d.ovf;
      x.err = d.err;
      x.abstained = d.abstained;
      got.push_back(x);
    }
    const std::string diff = compare_to_expected(want, split_results(got, n));
    r.rows.push_back({"results delivered", std::to_string(got.size()), std::to_string(model.results.size()), true});
    r.rows.push_back({"results as computed in software", diff.empty() ? "all equal" : diff, "all equal", true});
    std::vector<uint64_t> per(static_cast<size_t>(n), 0);
    for (const auto& x : model.results) ++per[x.leaf];
    for (const CounterReading& c : board.counters) {
      const std::string& nm = c.counter.name;
      const size_t dot = nm.find('.');
      if (nm.rfind("leaf", 0) != 0 || dot == std::string::npos) continue;
      const size_t leaf = std::stoul(nm.substr(4, dot - 4));
      const std::string what = nm.substr(dot + 1);
      if (what == "due" || what == "results")
        r.rows.push_back({nm, std::to_string(c.value), std::to_string(per.at(leaf)), true});
      else if (what == "pending")
        r.rows.push_back({nm, std::to_string(c.value), "0", true});
    }
    r.about.push_back("workload " + name + ": results compared leaf by leaf, in order, with the software results; "
                      "counters with the reference model's result counts (the board's timing is the host's)");
    r.agreement_scope = "every result and every leaf's counters";
    r.json["model_cycles"] = model.cycles;
    r.json["model_results"] = model.results.size();
  };
  return sw;
}

StreamRunOutcome cm5ctl_run(const Cm5ctlConfig& cfg, const Cm5RunArgs& a, std::FILE* out) {
  const Cm5Workload w = make_cm5ctl_workload(a.pattern, cfg.p.leaves, cfg.p.word_bits, a.seed, a.count);
  return run_stream_workload(cm5ctl_stream_spec(cfg), cm5ctl_stream_workload(cfg, w), a.stream, out);
}

}  // namespace cmnet

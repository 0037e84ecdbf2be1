#include "sim/cm5ctl/cm5ctl_rtl.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

Cm5RtlRun run_cm5ctl_rtl(const Cm5ctlConfig& cfg, const Cm5Workload& w, const Cm5RtlOptions& opt) {
  const Cm5ctlParams& p = cfg.p;
  const Cm5Topology topo = cm5_topology(p);
  check_workload(w, topo);
  const GeneratedDesign design = emit_cm5ctl(cfg);
  const std::string exe = build_verilated_model(design, "cm5ctl_tree",
                                                std::string(CMNET_SOURCE_DIR) + "/sim/cm5ctl/cm5ctl_tree_main.cpp");
  char tmpl[] = "/tmp/cmnet-cm5rtl-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("cannot create a temporary directory");
  const fs::path work(tmpl);
  const std::string in_path = (work / "in.txt").string(), out_path = (work / "out.txt").string();
  {
    std::ofstream in(in_path);
    const uint64_t drain = opt.drain_cycles ? opt.drain_cycles : 4ull * static_cast<uint64_t>(p.packet_time());
    in << "params " << p.leaves << ' ' << p.word_bits << ' ' << expected_result_count(w, topo) << ' '
       << opt.max_cycles << ' ' << drain << ' ' << opt.min_cycles << '\n';
    for (size_t i = 0; i < w.leaf.size(); ++i)
      for (const Cm5Op& o : w.leaf[i]) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "op %zu %" PRIu64 " %d %d %d %d %d %d %" PRIx64 "\n", i, o.release,
                      o.broadcast ? 1 : 0, o.abstain ? 1 : 0, o.kind & 3, o.comb & 7, o.segmented ? 1 : 0,
                      o.seg ? 1 : 0, o.data & cm5::mask(p.word_bits));
        in << buf;
      }
    for (size_t i = 0; i < w.counters.size(); ++i)
      for (const auto& [t, v] : w.counters[i])
        in << "cnt " << i << ' ' << t << ' ' << std::hex << (static_cast<uint64_t>(v) & cm5::mask(p.word_bits))
           << std::dec << '\n';
    for (const auto& [t, leaf] : w.restarts) in << "restart " << leaf << ' ' << t << '\n';
    for (const Cm5GlobalIn& g : w.globals) in << "glob " << g.leaf << ' ' << g.cycle << ' ' << int(g.value & 7) << '\n';
    for (const Cm5Flip& f : w.flips) in << "flip " << (f.up ? 'u' : 'd') << ' ' << f.link << ' ' << f.cycle << '\n';
  }
  const int rc = run_child({exe, in_path, out_path}, opt.timeout_s, (work / "log.txt").string());
  if (rc != 0) {
    std::ifstream lg(work / "log.txt");
    std::stringstream ss;
    ss << lg.rdbuf();
    fs::remove_all(work);
    throw std::runtime_error("cm5ctl RTL harness failed (exit " + std::to_string(rc) + "): " + ss.str());
  }
  Cm5RtlRun run;
  run.injected.resize(static_cast<size_t>(p.leaves));
  run.aligned.assign(static_cast<size_t>(p.leaves), -1);
  std::ifstream out(out_path);
  std::string kind;
  while (out >> kind) {
    if (kind == "res") {
      Cm5Result r;
      int b = 0, k = 0, c = 0, ov = 0, er = 0, ab = 0;
      std::string data;
      out >> r.leaf >> r.cycle >> b >> k >> c >> data >> ov >> er >> ab;
      r.broadcast = b;
      r.kind = static_cast<uint8_t>(k);
      r.comb = static_cast<uint8_t>(c);
      r.data = std::stoull(data, nullptr, 16);
      r.ovf = ov;
      r.err = er;
      r.abstained = ab;
      run.results.push_back(r);
    } else if (kind == "a") {
      size_t leaf = 0;
      int64_t t = 0;
      out >> leaf >> t;
      run.aligned.at(leaf) = t;
    } else if (kind == "g") {
      Cm5GlobalOut g;
      unsigned v = 0;
      out >> g.leaf >> g.cycle >> v;
      g.value = static_cast<uint8_t>(v);
      run.globals.push_back(g);
    } else if (kind == "inj") {
      size_t leaf = 0;
      uint64_t t = 0;
      out >> leaf >> t;
      run.injected.at(leaf).push_back(t);
    } else if (kind == "done") {
      int completed = 0, fault = 0, drop = 0, link = 0;
      out >> run.cycles >> completed >> fault >> drop >> link >> run.sim_seconds;
      run.link_error = link;
      run.completed = completed;
      run.fault = fault;
      run.bcast_drop = drop;
    } else {
      fs::remove_all(work);
      throw std::runtime_error("cm5ctl RTL harness output: unknown record '" + kind + "'");
    }
  }
  fs::remove_all(work);
  if (!run.results.empty()) run.last_result_cycle = run.results.back().cycle;
  return run;
}

std::string compare_runs(const Cm5RunResult& model, const Cm5RtlRun& rtl) {
  const size_t n = std::min(model.results.size(), rtl.results.size());
  for (size_t i = 0; i < n; ++i)
    if (!(model.results[i] == rtl.results[i]))
      return "result #" + std::to_string(i) + ": model " + model.results[i].str() + ", rtl " + rtl.results[i].str();
  if (model.results.size() != rtl.results.size())
    return "model " + std::to_string(model.results.size()) + " results, rtl " + std::to_string(rtl.results.size());
  if (model.injected != rtl.injected) {
    for (size_t i = 0; i < model.injected.size() && i < rtl.injected.size(); ++i)
      for (size_t k = 0; k < model.injected[i].size() || k < rtl.injected[i].size(); ++k) {
        const auto at = [k](const std::vector<uint64_t>& v) { return k < v.size() ? std::to_string(v[k]) : "none"; };
        if (at(model.injected[i]) != at(rtl.injected[i]))
          return "leaf " + std::to_string(i) + " push #" + std::to_string(k) + " accepted: model cycle " +
                 at(model.injected[i]) + ", rtl " + at(rtl.injected[i]);
      }
    return "the pushes were accepted in different cycles";
  }
  if ((model.faults.link_errors > 0) != rtl.link_error)
    return std::string("link errors: model ") + std::to_string(model.faults.link_errors) + ", rtl " +
           (rtl.link_error ? "flagged" : "none");
  if (model.aligned != rtl.aligned) {
    for (size_t i = 0; i < model.aligned.size() && i < rtl.aligned.size(); ++i)
      if (model.aligned[i] != rtl.aligned[i])
        return "leaf " + std::to_string(i) + " aligned: model cycle " + std::to_string(model.aligned[i]) + ", rtl " +
               std::to_string(rtl.aligned[i]);
    return "aligned: leaf counts differ";
  }
  if (model.globals != rtl.globals) {
    const size_t m = std::min(model.globals.size(), rtl.globals.size());
    for (size_t i = 0; i < m; ++i)
      if (!(model.globals[i] == rtl.globals[i]))
        return "global outputs change #" + std::to_string(i) + ": model leaf " + std::to_string(model.globals[i].leaf) +
               " cycle " + std::to_string(model.globals[i].cycle) + " value " + std::to_string(model.globals[i].value) +
               ", rtl leaf " + std::to_string(rtl.globals[i].leaf) + " cycle " + std::to_string(rtl.globals[i].cycle) +
               " value " + std::to_string(rtl.globals[i].value);
    return "global outputs: model " + std::to_string(model.globals.size()) + " changes, rtl " +
           std::to_string(rtl.globals.size());
  }
  if (model.cycles != rtl.cycles)
    return "model ran " + std::to_string(model.cycles) + " cycles, rtl " + std::to_string(rtl.cycles);
  return "";
}

}  // namespace cmnet

#include "sim/clos/clos_hnode_rtl.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gen/clos/clos_emitter.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

ClosHnodeRtlRun run_clos_hnode_rtl(const ClosConfig& cfg, const std::vector<ClosHnodeOp>& ops, double timeout_s) {
  const ClosParams& p = cfg.clos;
  const std::string exe = build_verilated_model(emit_clos_hnode(cfg), "clos_hnode_top",
                                                std::string(CMNET_SOURCE_DIR) + "/sim/clos/clos_hnode_main.cpp");
  std::ostringstream in;
  {
    in << "params " << p.m << '\n';
    auto bits = [&](const std::vector<char>& v) {
      std::string s(static_cast<size_t>(p.m), '0');
      for (size_t i = 0; i < v.size() && i < s.size(); ++i) s[i] = v[i] ? '1' : '0';
      return s;
    };
    // Each hnode's operations in the order the model handled them, from reset.
    for (int h = 0; h < p.hnodes(); ++h) {
      in << "reset\n";
      for (const ClosHnodeOp& o : ops) {
        if (o.hnode != h) continue;
        in << "op " << static_cast<int>(o.code) << ' ' << o.sw << ' ' << o.k << ' ' << o.ms << ' ' << o.in_sw << ' '
           << o.out_sw << ' ' << o.start << ' ' << bits(o.iv) << ' ' << bits(o.tried) << ' ' << (o.found ? 1 : 0) << ' '
           << (o.res_ms < 0 ? 0 : o.res_ms) << ' ' << (o.accept ? 1 : 0) << '\n';
      }
    }
  }
  const HarnessRunResult run_out = run_harness("hnode RTL harness", exe, in.str(), timeout_s);
  ClosHnodeRtlRun run;
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "result") {
      out >> run.ops >> run.mismatches;
    } else {
      std::string line;
      std::getline(out, line);
      if (run.first_mismatches.size() < 8) run.first_mismatches.push_back(kind + line);
    }
  }
  return run;
}

ClosLeafRtlRun run_clos_leaf_rtl(const ClosConfig& cfg, const std::vector<ClosLeafOp>& ops, int req_bits,
                                 int queue_bits, double timeout_s) {
  const ClosParams& p = cfg.clos;
  const std::string exe = build_verilated_model(emit_clos_leaf_status(cfg, req_bits, queue_bits), "clos_leaf_status_top",
                                                std::string(CMNET_SOURCE_DIR) + "/sim/clos/clos_leaf_main.cpp");
  std::ostringstream in;
  {
    for (int h = 0; h < p.hnodes(); ++h) {
      in << "reset\n";
      for (const ClosLeafOp& o : ops) {
        if (o.hnode != h) continue;
        if (o.req >= (1 << req_bits) || o.res_req >= (1 << req_bits))
          throw std::invalid_argument("request number does not fit in req_bits");
        in << "op " << (o.release ? 1 : 0) << ' ' << o.leaf << ' ' << o.req << ' ' << o.kind << ' ' << (o.wait ? 1 : 0)
           << ' ' << (o.resume ? 1 : 0) << ' ' << o.res_req << ' ' << o.res_kind << '\n';
      }
    }
  }
  const HarnessRunResult run_out = run_harness("leaf status RTL harness", exe, in.str(), timeout_s);
  ClosLeafRtlRun run;
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "result") {
      out >> run.ops >> run.mismatches >> run.full;
    } else {
      std::string line;
      std::getline(out, line);
      if (run.first_mismatches.size() < 8) run.first_mismatches.push_back(kind + line);
    }
  }
  return run;
}

}  // namespace cmnet

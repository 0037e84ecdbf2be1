#include "sim/clos/clos_tree_rtl.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "sim/clos/clos_tree.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

ClosTreeRtlRun run_clos_tree_rtl(const ClosTreeLayout& l, const std::vector<ClosTreeMessage>& msgs, uint64_t max_cycles,
                                 double timeout_s) {
  if (l.MW > 64) throw std::invalid_argument("clos tree RTL harness: messages wider than 64 bits");
  if (msgs.size() >= (size_t{1} << l.PW)) throw std::invalid_argument("clos tree RTL harness: more messages than payloads");
  const ClosTree model(ClosTreeShape{l.hnode_dims, l.degrees});
  const int pay = 0, src_lsb = l.PW, dst_lsb = src_lsb + l.AW, ctrl = dst_lsb + l.AW, th = ctrl + 1, ch = th + l.HC;
  (void)pay;
  auto f = [](uint64_t m, int lsb, int w) { return static_cast<int>((m >> lsb) & ((uint64_t{1} << w) - 1)); };
  const std::string exe = build_verilated_model(emit_clos_tree(l), "clos_tree_top",
                                                std::string(CMNET_SOURCE_DIR) + "/sim/clos/clos_tree_main.cpp");
  std::ostringstream in;
  {
    in << "params " << l.leaves << ' ' << (1 << l.hnode_dims) << ' ' << l.MW << ' ' << max_cycles << '\n';
    for (size_t i = 0; i < msgs.size(); ++i) {
      const ClosTreeMessage& m = msgs[i];
      if (m.src < 0 || m.src >= l.leaves || m.dst >= l.leaves || m.dst == m.src)
        throw std::invalid_argument("clos tree RTL harness: bad message " + std::to_string(m.src) + " -> " +
                                    std::to_string(m.dst));
      const uint64_t w = static_cast<uint64_t>(i) | (static_cast<uint64_t>(m.src) << src_lsb) |
                         (static_cast<uint64_t>(m.dst < 0 ? 0 : m.dst) << dst_lsb) |
                         (static_cast<uint64_t>(m.dst < 0 ? 1 : 0) << ctrl) |
                         (uint64_t{1} << th);  // the leaf's own hop up to its tnode
      in << "msg " << m.src << ' ' << std::hex << w << std::dec << '\n';
    }
  }
  const HarnessRunResult run_out = run_harness("clos tree RTL harness", exe, in.str(), timeout_s);
  ClosTreeRtlRun run;
  std::vector<char> seen(msgs.size(), 0);
  auto bad = [&](const std::string& s) {
    if (run.mismatches++ < 8) run.first_mismatches.push_back(s);
  };
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "end") {
      out >> run.cycles;
      break;
    }
    uint64_t cycle = 0, w = 0;
    int where = 0;
    out >> cycle >> where >> std::hex >> w >> std::dec;
    const size_t id = static_cast<size_t>(f(w, 0, l.PW));
    run.arrivals.push_back({cycle, kind == "C", where, f(w, src_lsb, l.AW), f(w, dst_lsb, l.AW), static_cast<int>(id),
                            f(w, th, l.HC), f(w, ch, l.HC)});
    if (id >= msgs.size() || seen[id]) {
      bad("an unknown or repeated message arrived: payload " + std::to_string(id));
      continue;
    }
    seen[id] = 1;
    ++run.arrived;
    run.max_latency = std::max(run.max_latency, cycle);
    const ClosTreeMessage& m = msgs[id];
    const ClosTreeRoute r = model.route(m.src, m.dst);
    const std::string what = "message " + std::to_string(id) + " " + std::to_string(m.src) + " -> " + std::to_string(m.dst);
    // Where the model's route ends: the destination leaf, or the source's hnode.
    const bool ctl = kind == "C";
    if (ctl) ++run.control;
    if (ctl != (m.dst < 0) || (ctl ? where != r.path.back().tree : where != r.path.back().lo))
      bad(what + ": arrived at " + kind + " " + std::to_string(where));
    if (f(w, th, l.HC) != r.tree_hops || f(w, ch, l.HC) != r.cube_hops)
      bad(what + ": hops " + std::to_string(f(w, th, l.HC)) + " + " + std::to_string(f(w, ch, l.HC)) + ", model " +
          std::to_string(r.tree_hops) + " + " + std::to_string(r.cube_hops));
    if (f(w, src_lsb, l.AW) != m.src || f(w, ctrl, 1) != (m.dst < 0 ? 1 : 0) || (m.dst >= 0 && f(w, dst_lsb, l.AW) != m.dst))
      bad(what + ": header changed");
  }
  if (run.arrived != msgs.size()) {
    size_t first = 0;
    while (first < seen.size() && seen[first]) ++first;
    bad("message " + std::to_string(first) + " " + std::to_string(msgs[first].src) + " -> " +
        std::to_string(msgs[first].dst) + " (and maybe others) did not arrive");
  }
  if (run.arrived != msgs.size()) bad(std::to_string(msgs.size() - run.arrived) + " messages did not arrive");
  return run;
}

}  // namespace cmnet

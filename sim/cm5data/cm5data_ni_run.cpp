#include "sim/cm5data/cm5data_ni_run.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "gen/cm5data/cm5data_ni_regmap.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_ni.h"
#include "sim/cm5data/cm5data_ni_regs.h"
#include "sim/core/harness_run.h"

namespace cmnet {
namespace fs = std::filesystem;

namespace {


void check_script(uint32_t N, const std::vector<Cm5NiAccess>& script, uint64_t cycles) {
  std::map<std::pair<uint64_t, uint32_t>, size_t> seen;
  for (size_t i = 0; i < script.size(); ++i) {
    const Cm5NiAccess& a = script[i];
    const std::string at = "ni script: access " + std::to_string(i) + ": ";
    if (a.leaf >= N) throw InputError(at + "leaf " + std::to_string(a.leaf) + " out of range 0.." + std::to_string(N - 1));
    if (a.cycle >= cycles) throw InputError(at + "cycle " + std::to_string(a.cycle) + " not before the run's end");
    if (a.addr >= (1u << cm5nimap::kAddrBits))
      throw InputError(at + "address " + std::to_string(a.addr) + " outside the register map");
    if (!seen.emplace(std::make_pair(a.cycle, a.leaf), i).second)
      throw InputError(at + "a second access of leaf " + std::to_string(a.leaf) + " in cycle " + std::to_string(a.cycle));
  }
}

}  // namespace

std::vector<Cm5NiRead> run_cm5data_ni_model(const Cm5DataParams& p, const std::vector<Cm5NiAccess>& script, uint64_t cycles) {
  const uint32_t N = p.leaves();
  check_script(N, script, cycles);
  Cm5DataNiConfig nc;
  nc.send_words = cm5_ni_send_words(p);
  nc.recv_flits = p.ni_recv_words * p.flits_per_word();
  Cm5DataNetwork net(p);
  std::vector<Cm5DataNi> nis;
  for (uint32_t x = 0; x < N; ++x) nis.emplace_back(p, x, nc);
  std::vector<Cm5NiModelRegs> regs;
  for (uint32_t x = 0; x < N; ++x) regs.emplace_back(p, nis[x]);
  std::vector<Cm5NiAccess> sorted = script;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Cm5NiAccess& a, const Cm5NiAccess& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.leaf < b.leaf;
  });
  std::vector<Cm5NiRead> out;
  size_t i = 0;
  for (uint64_t t = 0; t < cycles; ++t) {
    const size_t first = i;
    while (i < sorted.size() && sorted[i].cycle == t) {
      const Cm5NiAccess& a = sorted[i++];
      if (!a.write) out.push_back({t, a.leaf, a.addr, regs[a.leaf].read(a.addr)});
      regs[a.leaf].before(a);
    }
    for (uint32_t x = 0; x < N; ++x) nis[x].cycle(0, net);
    net.step();
    for (size_t k = first; k < i; ++k) regs[sorted[k].leaf].after(sorted[k]);
  }
  return out;
}

std::vector<Cm5NiRead> run_cm5data_ni_rtl(const Cm5DataConfig& cfg, const std::vector<Cm5NiAccess>& script, uint64_t cycles,
                                          const TraceWindow& trace) {
  const uint32_t N = cfg.cm5.leaves();
  check_script(N, script, cycles);
  const GeneratedDesign design = emit_cm5data_ni(cfg);
  const std::string exe = build_verilated_model(design, "cm5data_ni_net", std::string(CMNET_SOURCE_DIR) + "/sim/cm5data/cm5data_ni_main.cpp",
                                                {}, {}, trace.on() ? trace_flags() : std::vector<std::string>{});
  std::ostringstream in;
  {
    in << "params " << N << ' ' << cycles << '\n';
    for (const Cm5NiAccess& a : script)
      in << "acc " << a.cycle << ' ' << a.leaf << ' ' << (a.write ? 1 : 0) << ' ' << a.addr << ' ' << a.data << '\n';
  }
  const HarnessRunResult run_out = run_harness("cm5data NI harness", exe, in.str(), 600, trace.env());
  std::vector<Cm5NiRead> out;
  std::istringstream o(run_out.out);
  std::string kind;
  while (o >> kind) {
    if (kind != "rd") throw std::runtime_error("cm5data NI harness output: unknown record '" + kind + "'");
    Cm5NiRead r;
    o >> r.cycle >> r.leaf >> r.addr >> r.value;
    out.push_back(r);
  }
  return out;
}

}  // namespace cmnet

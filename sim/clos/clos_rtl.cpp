#include "sim/clos/clos_rtl.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gen/clos/clos_emitter.h"
#include "sim/clos/clos_data_words.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

namespace {

uint64_t case_seed(uint64_t seed, uint64_t case_no) { return seed * 1000003ull + case_no; }

}  // namespace

std::vector<std::vector<uint64_t>> clos_case_words(const ClosParams& p, uint64_t seed, uint64_t case_no, uint64_t words) {
  uint64_t s = case_seed(seed, case_no);
  std::vector<std::vector<uint64_t>> w(words, std::vector<uint64_t>(static_cast<size_t>(p.ports())));
  for (auto& row : w)
    for (auto& x : row) x = clos_next_data_word(s, p.width);
  return w;
}

ClosRtlRun run_clos_rtl(const ClosConfig& cfg, const std::vector<ClosRtlCase>& cases, uint64_t seed,
                        double timeout_s, const TraceWindow& trace) {
  const ClosParams& p = cfg.clos;
  const GeneratedDesign design = emit_clos(cfg);
  const std::string exe =
      build_verilated_model(design, "clos_network", std::string(CMNET_SOURCE_DIR) + "/sim/clos/clos_network_main.cpp",
                            {}, {}, trace.on() ? trace_flags() : std::vector<std::string>{});
  ClosRtlRun run;
  std::ostringstream in;
  {
    in << "params " << p.ports() << ' ' << p.width << ' ' << p.cfg_addr_bits() << ' ' << (p.cfg_sel_bits() + 1) << '\n';
    // After reset every output is idle: configuration word 0.
    std::vector<uint32_t> loaded(static_cast<size_t>(p.cfg_entries()), 0);
    for (size_t c = 0; c < cases.size(); ++c) {
      const ClosRtlCase& k = cases[c];
      if (static_cast<int>(k.dest.size()) != p.ports()) throw std::invalid_argument("case dest has the wrong size");
      in << "case\n";
      for (const auto& [a, d] : cfg_writes(p, k.settings)) {
        if (loaded[a] == d) continue;
        loaded[a] = d;
        in << "cfg " << a << ' ' << d << '\n';
        ++run.cfg_writes;
      }
      in << "dest";
      for (int d : k.dest) in << ' ' << d;
      in << "\nwords " << k.words << ' ' << case_seed(seed, c) << (k.verbose ? " verbose" : "") << '\n';
    }
  }
  const HarnessRunResult run_out = run_harness("Clos RTL harness", exe, in.str(), timeout_s, trace.env());
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "result") {
      uint64_t c = 0, w = 0, mm = 0;
      out >> c >> w >> mm;
      ++run.cases;
      run.words += w;
      run.mismatches += mm;
    } else if (kind == "mismatch") {
      std::string line;
      std::getline(out, line);
      if (run.first_mismatches.size() < 16) run.first_mismatches.push_back(line);
    } else if (kind == "rx") {
      ClosRx r;
      std::string sent, got;
      out >> r.case_no >> r.word >> r.src >> r.dst >> sent >> got;
      r.sent = std::stoull(sent, nullptr, 16);
      r.got = std::stoull(got, nullptr, 16);
      run.rx.push_back(r);
    } else if (kind == "out") {
      ClosOut o;
      std::string got;
      out >> o.case_no >> o.word >> o.port >> got;
      o.got = std::stoull(got, nullptr, 16);
      run.outputs.push_back(o);
    } else {
      throw std::runtime_error("Clos RTL harness output: unknown record '" + kind + "'");
    }
  }
  return run;
}

}  // namespace cmnet

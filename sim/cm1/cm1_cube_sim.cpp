#include "sim/cm1/cm1_cube_sim.h"

#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace fs = std::filesystem;

namespace cmnet {

bool CubeSimResult::all_pass() const {
  for (const auto& b : boards)
    if (b.state != "pass") return false;
  return !boards.empty();
}

int cube_top_dims(const GeneratedDesign& design) {
  if (design.top != "cm1_cube_board_top")
    throw std::invalid_argument("cube simulation: the design's top is '" + design.top +
                                "', not cm1_cube_board_top");
  for (const auto& [name, text] : design.files) {
    if (name != design.top + ".v") continue;
    static const std::regex port(R"(output\s+wire\s+\[(\d+):0\]\s+cube_out\b)");
    std::smatch m;
    if (std::regex_search(text, m, port)) return std::stoi(m[1].str()) + 1;
    throw std::invalid_argument("cube simulation: " + name + " has no cube_out port");
  }
  throw std::invalid_argument("cube simulation: the design has no file " + design.top + ".v");
}

CubeSimResult run_cube_boards(const GeneratedDesign& design, const CubeSimOptions& opt) {
  const int cube_dims = cube_top_dims(design);
  if (cube_dims < 1 || cube_dims > 8)
    throw std::invalid_argument("cube simulation: cube_dims = " + std::to_string(cube_dims) + " out of range 1..8");
  const size_t nb = size_t{1} << cube_dims;
  auto per_board = [&](const std::vector<double>& v, const char* what) {
    if (!v.empty() && v.size() != nb)
      throw std::invalid_argument(std::string("cube simulation: ") + what + " has " + std::to_string(v.size()) +
                                  " entries for " + std::to_string(nb) + " boards");
  };
  per_board(opt.ppm, "ppm");
  per_board(opt.start_us, "start_us");
  if (!(opt.clock_mhz > 0.1 && opt.clock_mhz < 1000))
    throw std::invalid_argument("cube simulation: clock_mhz out of range 0.1..1000");
  if (!(opt.meta_ns >= 0) || !(opt.cable_ns > opt.meta_ns) || !(opt.sync_ns > opt.meta_ns))
    throw std::invalid_argument("cube simulation: cable_ns and sync_ns must exceed meta_ns >= 0");
  for (const auto& s : opt.swaps)
    if (s.chip < 0 || static_cast<size_t>(s.chip) >= nb || s.dim_a < 0 || s.dim_a >= cube_dims || s.dim_b < 0 ||
        s.dim_b >= cube_dims)
      throw std::invalid_argument("cube simulation: swap fault out of range");
  for (int c : opt.no_sync)
    if (c < 0 || static_cast<size_t>(c) >= nb) throw std::invalid_argument("cube simulation: no_sync board out of range");

  if (!opt.trace_file.empty() && (opt.trace_board < 0 || static_cast<size_t>(opt.trace_board) >= nb))
    throw std::invalid_argument("cube simulation: trace board " + std::to_string(opt.trace_board) + " out of range 0.." +
                                std::to_string(nb - 1));
  const TraceWindow trace{opt.trace_file, opt.trace_from, opt.trace_to};
  const std::string exe =
      build_verilated_model(design, design.top, std::string(CMNET_SOURCE_DIR) + "/sim/cm1/cm1_cube_main.cpp", {}, {},
                            trace.on() ? trace_flags() : std::vector<std::string>{});
  auto ps = [](double ns) { return static_cast<uint64_t>(std::llround(ns * 1000.0)); };
  std::ostringstream in;
  {
    in << "cube " << cube_dims << ' ' << ps(opt.max_us * 1000.0) << ' ' << opt.seed << ' ' << ps(opt.meta_ns) << ' '
       << ps(opt.cable_ns) << ' ' << ps(opt.sync_ns) << '\n';
    const double period_ns = 1000.0 / opt.clock_mhz;
    for (size_t n = 0; n < nb; ++n) {
      const double ppm = opt.ppm.empty() ? 0.0 : opt.ppm[n];
      const double start = opt.start_us.empty() ? 0.0 : opt.start_us[n];
      in << "board " << n << ' ' << ps(period_ns * (1.0 + ppm * 1e-6)) << ' ' << ps(start * 1000.0) << '\n';
    }
    for (const auto& s : opt.swaps) in << "swap " << s.chip << ' ' << s.dim_a << ' ' << s.dim_b << '\n';
    for (int c : opt.no_sync) in << "nosync " << c << '\n';
  }
  std::vector<std::string> env = trace.env();
  if (trace.on()) env.push_back("CMNET_TRACE_BOARD=" + std::to_string(opt.trace_board));
  // The harness reports on its stdout (the log).
  const std::string log_text =
      run_harness("cube harness", exe, in.str(), opt.timeout_s, env, {}, false).log;
  CubeSimResult r;
  std::istringstream text(log_text);
  std::string kind;
  while (text >> kind) {
    if (kind == "board") {
      CubeBoardResult b;
      text >> b.chip >> b.state >> b.cycles >> b.why;
      r.boards.push_back(b);
    } else if (kind == "end") {
      uint64_t end_ps = 0;
      text >> end_ps;
      r.end_us = static_cast<double>(end_ps) / 1e6;
    }
  }
  if (r.boards.size() != nb) throw std::runtime_error("cube harness: expected " + std::to_string(nb) + " boards, output:\n" + log_text);
  return r;
}

}  // namespace cmnet

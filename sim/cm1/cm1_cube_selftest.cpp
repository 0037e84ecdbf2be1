#include "sim/cm1/cm1_cube_selftest.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/cm1/cm1_selftest.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

std::vector<double> default_ppm(size_t n) {
  static const double p[] = {-100, 37, 100, -58, 12, -91, 76, 3};
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(p[i % 8]);
  return v;
}

}  // namespace

CubeRun run_cube_selftest(const Cm1Config& cfg, const CubeRunRequest& a,
                          const std::function<void(const CubeSweepPoint&)>& on_point) {
  const Cm1Params& p = cfg.cm1;
  CubeTopOptions o;
  o.board.reset_port = false;
  o.board.led_active_low = {false, false, false};
  o.board.blink_log2 = 4;
  o.board.pattern = a.pattern;
  o.board.seed = a.seed;
  o.board.per_proc = a.per_proc;
  o.bit_clocks = a.bit_clocks;
  o.go_delay_petit = a.go_delay;
  CubeSelfTestExpect e;
  GeneratedDesign d = cm1_cube_board_top(cfg, o, &e);
  CubeRun run;
  run.pattern = a.pattern;
  run.seed = a.seed;
  run.bit_clocks = a.bit_clocks;
  run.messages = e.messages;
  run.run_petit = e.run_petit;
  if (!a.rtl.empty()) {
    // A build directory (its rtl/) or an rtl directory itself.
    const std::string dir = std::filesystem::exists(a.rtl + "/rtl/filelist.f") ? a.rtl + "/rtl" : a.rtl;
    d = read_design(dir, "cm1_cube_board_top");
    // The self-test as built (its pattern and bit-time), not as the request says.
    std::ifstream st(dir + "/cube_selftest.json");
    if (!st) throw InputError("--rtl " + a.rtl + ": no cube_selftest.json beside the Verilog (not a cube top build)");
    const nlohmann::json bj = nlohmann::json::parse(st, nullptr, false);
    if (bj.is_discarded()) throw InputError(dir + "/cube_selftest.json: not valid JSON");
    run.pattern = bj.value("pattern", "?");
    run.seed = bj.value("seed", uint64_t{0});
    run.bit_clocks = bj.value("bit_clocks", 0);
    run.messages = bj.value("messages", uint64_t{0});
    run.run_petit = bj.value("run_petit_cycles", uint64_t{0});
    if (cube_top_dims(d) != p.cube_dims)
      throw InputError("--rtl " + a.rtl + ": its top has c = " + std::to_string(cube_top_dims(d)) + ", the config c = " +
                       std::to_string(p.cube_dims));
  }
  const size_t nb = static_cast<size_t>(p.chips());
  run.boards = nb;
  if (!a.ppm.empty() && a.ppm.size() != nb)
    throw InputError("--ppm: " + std::to_string(a.ppm.size()) + " values for " + std::to_string(nb) + " boards");
  CubeSimOptions& s = run.sim;
  s.clock_mhz = a.clock_mhz;
  s.ppm = a.ppm.empty() ? default_ppm(nb) : a.ppm;
  for (size_t n = 0; n < nb; ++n) s.start_us.push_back(static_cast<double>((n * 37) % 101));
  s.cable_ns = a.cable_ns;
  s.sync_ns = a.cable_ns;
  s.max_us = a.max_us;
  if (!a.trace.empty()) {
    if (!a.trace.ends_with(".fst")) throw InputError("--trace " + a.trace + ": the waveform file must end in .fst");
    if (a.trace_board < 0 || static_cast<size_t>(a.trace_board) >= nb)
      throw InputError("--trace-board " + std::to_string(a.trace_board) + ": out of range 0.." + std::to_string(nb - 1));
    s.trace_file = a.trace;
    s.trace_board = a.trace_board;
    s.trace_from = a.trace_from;
    s.trace_to = a.trace_to;
  }
  run.result = run_cube_boards(d, s);
  if (a.sweep) {
    const double clk_ns = 1000.0 / a.clock_mhz;
    for (int k = 0; k <= run.bit_clocks + 1; ++k) {
      CubeSimOptions t = s;
      t.trace_file.clear();  // the waveform is of the main run only
      t.cable_ns = t.sync_ns = 0.5 + k * clk_ns;
      const CubeSweepPoint pt{k, t.cable_ns, run_cube_boards(d, t).all_pass()};
      run.sweep.push_back(pt);
      if (on_point) on_point(pt);
      if (pt.pass && run.tolerated_lo < 0) run.tolerated_lo = k;
      if (pt.pass) run.tolerated_hi = k;
    }
  }
  return run;
}

}  // namespace cmnet

// `cmnet cube`: the multi-board top (one router chip per FPGA, 2^c boards cabled into a
// cube) simulated as 2^c boards on their own oscillators (sim/cm1/cm1_cube_sim.h), each board
// checking its own chip against the reference model, as its LEDs would show.
//
//   cmnet cube CONFIG [--pattern NAME] [--seed S] [--per-proc N] [--bit-clocks K]
//                     [--clock-mhz F] [--ppm LIST] [--cable-ns X] [--sweep-cable] [--rtl DIR]
//                     [--json FILE]
// --rtl DIR simulates a build directory (cmnet build --mode cube: the rtl/ its bitstream was
// made from) instead of a newly emitted top. --sweep-cable repeats the run with cable delays of 0..K+1 clocks and prints the
// window of delays the boards tolerate. Exit 0 when every board passes.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gen/cli/cm1/cm1_family.h"
#include "gen/cli/commands.h"
#include "gen/cm1/cm1_cube_board_emitter.h"
#include "gen/core/errors.h"
#include "sim/cm1/cm1_cube_sim.h"

namespace cmnet {
namespace {

struct CubeArgs {
  std::string config, pattern = "permutation", rtl, json;
  uint64_t seed = 1;
  int per_proc = 1, bit_clocks = 8, go_delay = 16;
  double clock_mhz = 12, cable_ns = 10, max_us = 20000;
  std::vector<double> ppm;
  bool sweep = false;
  std::string trace;
  int trace_board = 0;
  uint64_t trace_from = 0, trace_to = UINT64_MAX;
} g_cube;

std::vector<double> default_ppm(size_t n) {
  static const double p[] = {-100, 37, 100, -58, 12, -91, 76, 3};
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(p[i % 8]);
  return v;
}

int do_cube(const CubeArgs& a) {
  const Cm1Config cfg = load_cm1_config(a.config);
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
  GeneratedDesign d = emit_cm1_cube_board_top(cfg, o, &e);
  CubeArgs built = a;  // what the simulated top was made with
  if (!a.rtl.empty()) {
    // A build directory (its rtl/) or an rtl directory itself.
    const std::string dir = std::filesystem::exists(a.rtl + "/rtl/filelist.f") ? a.rtl + "/rtl" : a.rtl;
    d = read_design(dir, "cm1_cube_board_top");
    // The self-test as built (its pattern and bit-time), not as this command's options say.
    std::ifstream st(dir + "/cube_selftest.json");
    if (!st) throw InputError("--rtl " + a.rtl + ": no cube_selftest.json beside the Verilog (not a cube top build)");
    const nlohmann::json bj = nlohmann::json::parse(st, nullptr, false);
    if (bj.is_discarded()) throw InputError(dir + "/cube_selftest.json: not valid JSON");
    built.pattern = bj.value("pattern", "?");
    built.seed = bj.value("seed", uint64_t{0});
    built.bit_clocks = bj.value("bit_clocks", 0);
    e.messages = bj.value("messages", uint64_t{0});
    e.run_petit = bj.value("run_petit_cycles", uint64_t{0});
    if (cube_top_dims(d) != p.cube_dims)
      throw InputError("--rtl " + a.rtl + ": its top has c = " + std::to_string(cube_top_dims(d)) + ", the config c = " +
                       std::to_string(p.cube_dims));
  }
  const size_t nb = static_cast<size_t>(p.chips());
  if (!a.ppm.empty() && a.ppm.size() != nb)
    throw InputError("--ppm: " + std::to_string(a.ppm.size()) + " values for " + std::to_string(nb) + " boards");
  CubeSimOptions s;
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

  std::printf("== cmnet cube: %zu boards (c = %d), one router chip of %d processors each, %s\n", nb, p.cube_dims,
              p.procs_per_chip, a.rtl.empty() ? "emitted top" : ("rtl from " + a.rtl).c_str());
  fmt::print("   bit-time = {} clocks at {:.3g} MHz; pattern {} seed {}: {} messages, {} petit cycles (model)\n",
             built.bit_clocks, a.clock_mhz, built.pattern, built.seed, e.messages, e.run_petit);
  std::fflush(stdout);
  const CubeSimResult r = run_cube_boards(d, s);
  if (!a.trace.empty()) std::printf("   wrote %s (board %d; open it with gtkwave)\n", a.trace.c_str(), a.trace_board);
  std::printf("   %-6s %-8s %-10s %-8s %s\n", "board", "ppm", "power-on", "result", "clocks to result");
  nlohmann::ordered_json j;
  j["boards"] = nb;
  j["bit_clocks"] = built.bit_clocks;
  j["clock_mhz"] = a.clock_mhz;
  j["cable_ns"] = a.cable_ns;
  j["messages"] = e.messages;
  j["run_petit_cycles"] = e.run_petit;
  for (const auto& b : r.boards) {
    const size_t n = static_cast<size_t>(b.chip);
    fmt::print("   {:<6} {:<8.0f} {:<7.1f} us {:<8} {}{}\n", b.chip, s.ppm[n], s.start_us[n], b.state, b.cycles,
               b.state == "pass" ? "" : "  (" + b.why + ")");
    j["results"].push_back({{"chip", b.chip}, {"ppm", s.ppm[n]}, {"start_us", s.start_us[n]}, {"state", b.state},
                            {"clocks", b.cycles}});
  }
  std::printf("   every board's chip agrees with the reference model: %s (simulated %.0f us)\n",
              r.all_pass() ? "YES" : "NO", r.end_us);
  j["all_pass"] = r.all_pass();
  for (const auto& b : r.boards)
    if (b.state == "running") {
      std::printf("   (board %d never finished within --max-us %.0f: a top built with a long --go-delay needs more)\n",
                  b.chip, a.max_us);
      break;
    }
  if (a.sweep) {
    const double clk_ns = 1000.0 / a.clock_mhz;
    std::printf("   cable delay sweep (every cube wire and the sync bus):\n");
    int lo = -1, hi = -1;
    for (int k = 0; k <= built.bit_clocks + 1; ++k) {
      CubeSimOptions t = s;
      t.trace_file.clear();  // the waveform is of the main run only
      t.cable_ns = t.sync_ns = 0.5 + k * clk_ns;
      const bool ok = run_cube_boards(d, t).all_pass();
      std::printf("     %2d clocks (%6.1f ns): %s\n", k, t.cable_ns, ok ? "pass" : "fail");
      std::fflush(stdout);
      j["sweep"].push_back({{"clocks", k}, {"cable_ns", t.cable_ns}, {"pass", ok}});
      if (ok && lo < 0) lo = k;
      if (ok) hi = k;
    }
    if (lo >= 0)
      std::printf("   tolerated cable delay: %d..%d clocks (%.0f..%.0f ns at %.3g MHz) of a %d-clock bit-time\n", lo, hi,
                  lo * clk_ns, hi * clk_ns, a.clock_mhz, built.bit_clocks);
  }
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    if (!out) throw InputError("--json " + a.json + ": cannot write");
    out << j.dump(2) << "\n";
    std::printf("   wrote %s\n", a.json.c_str());
  }
  return r.all_pass() ? 0 : 1;
}

}  // namespace

void add_cube_command(CLI::App& app) {
  auto* c = app.add_subcommand("cube", "CM-1: the multi-board top, 2^c boards (one router chip each) simulated together");
  c->add_option("config", g_cube.config, "network config (JSON)")->required();
  c->add_option("--pattern", g_cube.pattern, "self-test pattern");
  c->add_option("--seed", g_cube.seed, "pattern seed");
  c->add_option("--per-proc", g_cube.per_proc, "messages per processor (<= queue_depth)");
  c->add_option("--bit-clocks", g_cube.bit_clocks, "clocks per bit-time (8..64)")->check(CLI::Range(8, 64));
  c->add_option("--go-delay", g_cube.go_delay, "petit cycles from chip 0's lock to the run")->check(CLI::Range(4, 1 << 20));
  c->add_option("--clock-mhz", g_cube.clock_mhz, "nominal oscillator")->check(CLI::Range(0.5, 500.0));
  c->add_option("--ppm", g_cube.ppm, "per-board oscillator error in ppm (one per board)")->delimiter(',');
  c->add_option("--cable-ns", g_cube.cable_ns, "delay of every cube wire and of the sync bus")->check(CLI::Range(0.5, 1e6));
  c->add_option("--max-us", g_cube.max_us, "simulated time limit in microseconds")->check(CLI::Range(1.0, 1e8));
  c->add_flag("--sweep-cable", g_cube.sweep, "also sweep the cable delay over 0..K+1 clocks");
  c->add_option("--rtl", g_cube.rtl, "simulate a build directory (cmnet build --mode cube): the rtl/ its bitstream was made from");
  c->add_option("--json", g_cube.json, "write the results as JSON");
  c->add_option("--trace", g_cube.trace, "write an FST waveform of one board (time in ps of the cube's time base)");
  c->add_option("--trace-board", g_cube.trace_board, "the board whose waveform --trace writes (default 0)");
  c->add_option("--trace-from", g_cube.trace_from, "first clock cycle of that board (after power-on) in the waveform");
  c->add_option("--trace-to", g_cube.trace_to, "last clock cycle in the waveform");
  c->callback([] { throw CommandExit{do_cube(g_cube)}; });
}

}  // namespace cmnet

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
#include <fstream>
#include <nlohmann/json.hpp>

#include "host/cli/cm1/cm1_family.h"
#include "host/cli/commands.h"
#include "sim/cm1/cm1_cube_selftest.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

struct CubeArgs : CubeRunRequest {
  std::string config, json;
} g_cube;

int do_cube(const CubeArgs& a) {
  const Cm1Config cfg = load_cm1_config(a.config);
  const Cm1Params& p = cfg.cm1;
  std::printf("== cmnet cube: %d boards (c = %d), one router chip of %d processors each, %s\n", p.chips(), p.cube_dims,
              p.procs_per_chip, a.rtl.empty() ? "emitted top" : ("rtl from " + a.rtl).c_str());
  std::fflush(stdout);
  bool sweep_header = false;
  const CubeRun run = run_cube_selftest(cfg, a, [&](const CubeSweepPoint& pt) {
    if (!sweep_header) std::printf("   cable delay sweep (every cube wire and the sync bus):\n");
    sweep_header = true;
    std::printf("     %2d clocks (%6.1f ns): %s\n", pt.clocks, pt.cable_ns, pt.pass ? "pass" : "fail");
    std::fflush(stdout);
  });
  const CubeSimOptions& s = run.sim;
  const CubeSimResult& r = run.result;
  fmt::print("   bit-time = {} clocks at {:.3g} MHz; pattern {} seed {}: {} messages, {} petit cycles (model)\n",
             run.bit_clocks, a.clock_mhz, run.pattern, run.seed, run.messages, run.run_petit);
  if (!a.trace.empty()) std::printf("   wrote %s (board %d; open it with gtkwave)\n", a.trace.c_str(), a.trace_board);
  std::printf("   %-6s %-8s %-10s %-8s %s\n", "board", "ppm", "power-on", "result", "clocks to result");
  nlohmann::ordered_json j;
  j["boards"] = run.boards;
  j["bit_clocks"] = run.bit_clocks;
  j["clock_mhz"] = a.clock_mhz;
  j["cable_ns"] = a.cable_ns;
  j["messages"] = run.messages;
  j["run_petit_cycles"] = run.run_petit;
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
  for (const auto& pt : run.sweep) j["sweep"].push_back({{"clocks", pt.clocks}, {"cable_ns", pt.cable_ns}, {"pass", pt.pass}});
  if (run.tolerated_lo >= 0) {
    const double clk_ns = 1000.0 / a.clock_mhz;
    std::printf("   tolerated cable delay: %d..%d clocks (%.0f..%.0f ns at %.3g MHz) of a %d-clock bit-time\n",
                run.tolerated_lo, run.tolerated_hi, run.tolerated_lo * clk_ns, run.tolerated_hi * clk_ns, a.clock_mhz,
                run.bit_clocks);
  }
  write_json_option(a.json, j);
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

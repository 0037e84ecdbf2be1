// `cmnet cabled`: the CM-5 data network split over boards (gen/cm5data/cm5data_cabled.h), the
// two network boards and a board per leaf simulated together on their own oscillators
// (sim/cm5data/cm5data_cabled_sim.h), each checking what arrived against the reference model,
// as its LEDs would show.
//
//   cmnet cabled CONFIG [--pattern NAME] [--pattern-seed S] [--per-proc N] [--traffic FILE] [--bit-clocks K]
//                       [--clock-mhz F] [--ppm LIST] [--start-us LIST] [--cable-ns X]
//                       [--trace FILE] [--json FILE]
// Exit 0 when every board passes.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gen/cm5data/cm5data_cabled.h"
#include "gen/core/errors.h"
#include "host/cli/cm5data/cm5data_family.h"
#include "host/cli/commands.h"
#include "sim/cm5data/cm5data_cabled_sim.h"
#include "sim/cm5data/cm5data_selftest_model.h"

namespace cmnet {
namespace {

struct CabledArgs {
  std::string config, pattern = "random", traffic, json;
  uint64_t pattern_seed = 1;
  int per_proc = 2;
  Cm5CabledOptions top;
  Cm5CabledSimOptions sim;
} g_cabled;

// The simulation's boards: 3 active-high LEDs, no button (sim/core/multiboard_main.cpp).
board_parts::SelfTestPins sim_pins() {
  board_parts::SelfTestPins p;
  p.reset_port = false;
  p.led_active_low = {false, false, false};
  return p;
}

int do_cabled(CabledArgs a) {
  const Family* fam = nullptr;
  const NetworkConfig env = load_network(a.config, &fam);
  if (fam->name() != "cm5data") throw InputError(a.config + ": cmnet cabled is for cm5data networks, this is " + fam->name());
  const Cm5DataConfig cfg = cm5data_config(env);
  const Cm5CabledTraffic t =
      a.traffic.empty() ? cm5_cabled_traffic(cfg.cm5, a.pattern, a.pattern_seed, a.per_proc)
                        : cm5_cabled_traffic_of(cfg.cm5, read_cm5_traffic_file(a.traffic, cfg.cm5), a.traffic);
  const std::string workload = a.traffic.empty() ? "pattern " + a.pattern + " seed " + std::to_string(a.pattern_seed)
                                                 : "traffic " + a.traffic;
  const GeneratedDesign d = emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, a.top);
  const size_t nb = t.sides[0].net.leaves.size() + 2;
  cm5_cabled_spread(a.sim, a.sim.seed, nb);  // --ppm and --start-us, when given, win
  uint64_t messages = 0;
  for (const auto& side : t.sides)
    for (const auto& l : side.net.leaves) messages += l.messages.size();
  fmt::print("== cmnet cabled: {} boards: the left and right networks (one router chip each), a board per leaf {}; "
             "cables of 2 wires each way\n"
             "   {} clocks per cable bit at {:.3g} MHz, cables {:.0f} ns; {}: {} messages, each leaf's "
             "alternating between the networks\n",
             nb, a.top.interfaces ? "with its two network interfaces" : "(ROM leaves, no interfaces)", a.top.bit_clocks,
             a.sim.clock_mhz, a.sim.cable_ns, workload, messages);
  std::fflush(stdout);
  const Cm5CabledResult r = run_cm5_cabled(d, a.sim);
  std::printf("   %-8s %-8s %-10s %-8s %s\n", "board", "ppm", "power-on", "result", "clocks to result");
  nlohmann::ordered_json j;
  j["workload"] = workload;
  j["interfaces"] = a.top.interfaces;
  j["messages"] = messages;
  j["bit_clocks"] = a.top.bit_clocks;
  j["clock_mhz"] = a.sim.clock_mhz;
  j["cable_ns"] = a.sim.cable_ns;
  for (const auto& b : r.boards) {
    const size_t n = static_cast<size_t>(b.board);
    fmt::print("   {:<8} {:<8.0f} {:<7.1f} us {:<8} {}\n", b.role, a.sim.ppm[n], a.sim.start_us[n], b.state, b.cycles);
    j["boards"].push_back({{"board", b.role}, {"ppm", a.sim.ppm[n]}, {"start_us", a.sim.start_us[n]},
                           {"state", b.state}, {"clocks", b.cycles}});
  }
  std::printf("   every board received what the reference model delivers: %s (simulated %.0f us)\n",
              r.all_pass() ? "YES" : "NO", r.end_us);
  if (!a.sim.trace_file.empty()) std::printf("   wrote %s (every board; time in ps)\n", a.sim.trace_file.c_str());
  j["all_pass"] = r.all_pass();
  write_json_option(a.json, j);
  return r.all_pass() ? 0 : 1;
}

}  // namespace

void add_cabled_command(CLI::App& app) {
  auto* c = app.add_subcommand("cabled", "cm5data: the network split over boards (each network on one, each leaf with its interfaces on its own), "
                                         "simulated together on their own oscillators");
  c->add_option("config", g_cabled.config, "network config (JSON; height 1)")->required();
  c->add_option("--pattern", g_cabled.pattern, "traffic pattern (the self-test's)");
  c->add_option("--pattern-seed", g_cabled.pattern_seed, "pattern seed");
  c->add_option("--traffic", g_cabled.traffic, "the messages from a traffic file (SRC DST DATA... per line) instead of a pattern");
  c->add_option("--per-proc", g_cabled.per_proc, "messages per leaf")->check(CLI::Range(1, 64));
  c->add_option("--bit-clocks", g_cabled.top.bit_clocks, "clocks per cable bit (4..64, default 8)")->check(CLI::Range(4, 64));
  c->add_option("--clock-mhz", g_cabled.sim.clock_mhz, "nominal oscillator")->check(CLI::Range(0.5, 500.0));
  c->add_option("--ppm", g_cabled.sim.ppm, "per-board oscillator error in ppm (left network, right network, then each leaf)")->delimiter(',');
  c->add_option("--start-us", g_cabled.sim.start_us, "per-board power-on time in us (left network, right network, then each leaf)")->delimiter(',');
  c->add_option("--cable-ns", g_cabled.sim.cable_ns, "delay of every cable wire")->check(CLI::Range(0.5, 1e5));
  c->add_option("--seed", g_cabled.sim.seed, "seed of the boards' spread (oscillators within +-100 ppm, power-on within 100 us) and of the metastable samples");
  c->add_flag("!--no-interfaces", g_cabled.top.interfaces, "leaf boards without NIs: the words from a ROM straight onto the links");
  c->add_option("--trace", g_cabled.sim.trace_file, "write an FST waveform of every board (time in ps)");
  c->add_option("--json", g_cabled.json, "write the results as JSON");
  c->callback([] { throw CommandExit{do_cabled(g_cabled)}; });
}

}  // namespace cmnet

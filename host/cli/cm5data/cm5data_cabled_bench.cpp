// `cmnet bench --family cm5data --only cabled`: the 4-leaf node split over six boards
// (gen/cm5data/cm5data_cabled.h), how long a self-test run takes against the clocks per cable bit
// and the cable's delay, over seeds (each seed: the boards' oscillator errors within +-100 ppm,
// their power-on times within 100 us, and the metastable samples). A run ends when the last board
// shows its verdict; the figure is its time after the last board was switched on. A run delivers
// every message, so there is no window to lengthen: the seeds are the spread.
#include <cstdio>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_cabled.h"
#include "gen/core/config.h"
#include "host/cli/bench_stats.h"
#include "host/cli/cm5data/cm5data_family.h"
#include "sim/cm5data/cm5data_cabled_sim.h"
#include "sim/cm5data/cm5data_selftest_model.h"

namespace cmnet {
nlohmann::ordered_json cm5data_cabled_figures(bool quick) {
  const Cm5DataConfig cfg =
      cm5data_config(load_config_file(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5data_4_board.json"));
  const int per_leaf = 4;
  const Cm5CabledTraffic t = cm5_cabled_traffic(cfg.cm5, "random", 1, per_leaf);
  board_parts::SelfTestPins pins;
  pins.reset_port = false;
  pins.led_active_low = {false, false, false};
  const std::vector<uint64_t> seeds = {7, 8, 9};
  const std::vector<int> ks = quick ? std::vector<int>{8} : std::vector<int>{4, 8, 16};
  const std::vector<double> cables = {5, 1000};
  std::printf("\n== the 4-leaf node split over six boards (cmnet cabled): random, %d messages per leaf, 12 MHz, "
              "NIs on the leaf boards;\n   us from the last board's power-on to the last verdict, mean [min, max] "
              "over seeds 7, 8, 9 (oscillators within +-100 ppm, power-on within 100 us)\n",
              per_leaf);
  std::printf("   %-14s %-10s %-28s %s\n", "clocks a bit", "cable", "run (us)", "every board passed");
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (int k : ks) {
    Cm5CabledOptions o;
    o.bit_clocks = k;
    const GeneratedDesign d = emit_cm5data_cabled(cfg, t, pins, Cm5CabledTop::kSim, o);
    for (double cable : cables) {
      std::vector<double> us;
      bool all = true;
      for (uint64_t seed : seeds) {
        Cm5CabledSimOptions s;
        s.cable_ns = cable;
        cm5_cabled_spread(s, seed, t.sides[0].net.leaves.size() + 2);
        const Cm5CabledResult r = run_cm5_cabled(d, s);
        double last_on = 0;
        for (double x : s.start_us) last_on = std::max(last_on, x);
        us.push_back(r.end_us - last_on);
        all = all && r.all_pass();
      }
      const bench::Spread f = bench::Spread::of(seeds, us);
      std::printf("   %-14d %-7.0f ns %-28s %s\n", k, cable, f.str("%.1f").c_str(), all ? "yes" : "NO");
      std::fflush(stdout);
      rows.push_back({{"bit_clocks", k}, {"cable_ns", cable}, {"run_us", f.to_json()}, {"all_pass", all}});
    }
  }
  return {{"pattern", "random"}, {"messages_per_leaf", per_leaf}, {"clock_mhz", 12}, {"rows", rows}};
}

}  // namespace cmnet

// `cmnet bench`: the CM-1 figures of the paper, measured. Prints a table and writes JSON.
//   - T_heart and the delivery time k*l + 2c measured on the RTL (Verilator), beside the
//     paper's 74 bit-times (c = 12, b = 7, l = 50);
//   - heart flip-flops counted by yosys, beside the paper's 2bc = 168 bits;
//   - Figure 12 on the reference model at full scale (v = 1..8), with the lower bound,
//     wire utilization and the one-message ejector's slowdown;
//   - model speed (messages and hops per second) and RTL speed (bit-times per second).
#include <unistd.h>

#include <chrono>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "gen/core/text_file.h"
#include "bitstreams/flow.h"
#include "host/cli/bench_stats.h"
#include "host/cli/cm1/cm1_family.h"
#include "gen/cm1/cm1_emitter.h"
#include "sim/cm1/cm1_figures.h"
#include "sim/cm1/cm1_rtl.h"
#include "sim/core/rtl_build.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {
namespace {

using json = nlohmann::ordered_json;

Cm1Config paper_config(int c, int P, int d) {
  Cm1Config cfg;
  cfg.cm1.cube_dims = c;
  cfg.cm1.procs_per_chip = P;
  cfg.cm1.data_bits = d;
  cfg.cm1.vp_bits = 0;
  cfg.cm1.rows = 7;
  return cfg;
}

// Flip-flop bits of one heart column as yosys counts them after `proc; opt`.
int heart_column_ff_bits(const Cm1Params& p, int col) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cmnet-bench-yosys-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string log = (dir / "yosys.log").string();
  const int pw = std::max(1, clog2(static_cast<uint64_t>(p.petit_period())));
  const std::string script =
      "read_verilog " + hw_path("cm1_phase_flags.v") + " " + hw_path("cm1_heart_column.v") + "; chparam -set B " +
      std::to_string(p.rows) +
      " -set C " + std::to_string(p.cube_dims) + " -set COL " + std::to_string(col) + " -set L " +
      std::to_string(p.msg_len()) + " -set TP " + std::to_string(p.petit_period()) + " -set PW " +
      std::to_string(pw) + " cm1_heart_column; hierarchy -top cm1_heart_column; flatten; proc; opt; stat -width";
  const int rc = run_child({CMNET_YOSYS, "-q", "-p", script, "-l", log}, 300, "");
  const std::string text = read_file_or_empty(log);
  fs::remove_all(dir);
  if (rc != 0) throw std::runtime_error("yosys failed on cm1_heart_column:\n" + text);
  // The flow's parser of `stat -width` ($dff, $sdff, $sdffce, ... cells by width and count).
  return static_cast<int>(parse_yosys_ff_bits(text));
}

// Figure 12 on the model at full scale (c = 12, P = 16), random permutations of seeds 7, 8 and 9:
// per v the mean [min, max] of each figure (bench_stats.h). A delivery cycle runs until every
// message is delivered, so there is no window to lengthen: the seeds are the spread.
void figure12_over_seeds(json& out, bool quick) {
  const std::vector<uint64_t> seeds = {7, 8, 9};
  std::vector<Cm1Fig12> runs;
  for (uint64_t s : seeds) runs.push_back(cm1_figure12(cm1_figure12_params(), quick ? 1 : 8, s));  // --quick: v = 1 only
  const Cm1Fig12& f0 = runs.front();
  std::printf("\n== Figure 12 on the reference model (c = %d, P = %d, b = %d, d = %d), random permutations, OR-combining\n"
              "   ejector; mean [min, max] over seeds 7, 8, 9 (a whole delivery cycle each: no window)\n",
              f0.params.cube_dims, f0.params.procs_per_chip, f0.params.rows, f0.params.data_bits);
  std::printf("   %3s %8s %-18s %6s %-21s %-21s %-18s %s\n", "v", "messages", "petit cycles", "bound", "ratio", "wire use",
              "one-message", "slowdown");
  json rows = json::array();
  double secs = 0, msgs = 0, hops = 0;
  for (const Cm1Fig12& f : runs) secs += f.seconds, msgs += static_cast<double>(f.messages), hops += static_cast<double>(f.hops);
  for (size_t i = 0; i < f0.rows.size(); ++i) {
    auto over = [&](auto get) {
      std::vector<double> v;
      for (const Cm1Fig12& f : runs) v.push_back(static_cast<double>(get(f.rows[i])));
      return bench::Spread::of(seeds, v);
    };
    const auto petit = over([](const Cm1Fig12Row& r) { return r.petit_or; });
    const auto ratio = over([](const Cm1Fig12Row& r) { return r.ratio; });
    const auto util = over([](const Cm1Fig12Row& r) { return 100.0 * r.utilization; });
    const auto one = over([](const Cm1Fig12Row& r) { return r.petit_one; });
    const auto slow = over([](const Cm1Fig12Row& r) { return r.slowdown; });
    bool done = true;
    for (const Cm1Fig12& f : runs) done = done && f.rows[i].completed_or && (f.rows[i].petit_one == 0 || f.rows[i].completed_one);
    const Cm1Fig12Row& r = f0.rows[i];
    std::printf("   %3d %8llu %-18s %6.0f %-21s %-21s %-18s %s%s\n", r.v, static_cast<unsigned long long>(r.messages),
                petit.str("%.1f").c_str(), r.lower_bound, ratio.str("%.3f").c_str(), util.str("%.1f").c_str(),
                one.str("%.1f").c_str(), slow.str("%.2f").c_str(), done ? "" : "  (NOT all completed)");
    rows.push_back({{"v", r.v}, {"messages", r.messages}, {"lower_bound", r.lower_bound}, {"completed", done},
                    {"petit_or", petit.to_json()}, {"ratio", ratio.to_json()}, {"utilization_pct", util.to_json()},
                    {"petit_one", one.to_json()}, {"one_message_slowdown", slow.to_json()}});
  }
  const double mps = secs > 0 ? msgs / secs : 0, hps = secs > 0 ? hops / secs : 0;
  std::printf("   model speed: %.3g messages/s, %.3g hops/s over the %zu runs\n", mps, hps, runs.size());
  out["figure12"] = {{"seeds", seeds}, {"load", "v messages per processor, a random permutation each"}, {"rows", rows},
                     {"paper", "v=1: > 8 (about 11-12), approaching 8v as v grows; 90-95% wire use; "
                               "one-message mode 2-2.5x slower"}};
  out["model_speed"] = {{"messages_per_second", mps}, {"hops_per_second", hps}};
}

int run_cm1_bench(const std::string& json_path, bool quick) {
  json out;
  out["tool"] = "cmnet bench";

  // --- T_heart and heart storage, the paper's machine (c = 12, b = 7, P = 16, d = 32: l = 50).
  const Cm1Config paper = paper_config(12, 16, 32);
  const Cm1Params& pp = paper.cm1;
  std::printf("== CM-1 heart, the paper's router (c = %d, b = %d, l = %d)\n", pp.cube_dims, pp.rows,
              pp.msg_len());
  // One message from chip 0 to chip 4095 crosses all 12 dimensions.
  const Traffic one{{Message{0, static_cast<uint32_t>(pp.processors() - 1), 0, 0x1234abcd}}};
  const auto t0 = std::chrono::steady_clock::now();
  const Cm1RtlRun r1 = run_cm1_rtl(paper, one, EjectMode::kOrCombine);
  const double build_and_run = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r1.receptions.size() != 1) throw std::runtime_error("bench: the single message was not delivered");
  const uint64_t t_heart = r1.receptions[0].bit_time + 1;
  int ff = 0;
  for (int col = 0; col < pp.cube_dims; ++col) ff += heart_column_ff_bits(pp, col);
  const int storage = 2 * pp.rows * pp.cube_dims;
  const int switch_state = ff - storage;
  std::printf("   %-40s %10s %10s\n", "", "measured", "paper");
  fmt::print("   {:<40} {:>10} {:>10}\n", "T_heart (bit-times, RTL, 12 hops)", t_heart, 74);
  std::printf("   %-40s %10d %10d\n", "heart message storage (r0,r1 bits)", storage, 168);
  std::printf("   %-40s %10d %10s\n", "heart flip-flops in all (yosys)", ff, "-");
  std::printf("   %-40s %10d %10s\n", "  of which switch settings", switch_state, "-");
  std::printf("   %-40s %10d %10d\n", "naive pipeline storage (3.4.3)", pp.naive_heart_storage_bits(), 630);
  out["heart"] = {{"c", pp.cube_dims}, {"b", pp.rows}, {"l", pp.msg_len()},
                  {"t_heart_rtl", t_heart}, {"t_heart_paper", 74},
                  {"storage_bits", storage}, {"storage_paper", 168},
                  {"heart_ff_bits_yosys", ff}, {"switch_state_bits", switch_state},
                  {"rtl_seconds_incl_build", build_and_run}};

  // --- Delivery time k*l + 2c on the RTL (a random permutation at c = 6, l = 50).
  const Cm1Config mid = paper_config(6, 16, 32 + 6);  // l = 6 + c + d = 50
  const Traffic perm = make_pattern("permutation", mid.cm1, 12, 1);
  const Cm1RtlRun r2 = run_cm1_rtl(mid, perm, EjectMode::kOrCombine);
  uint64_t last = 0;
  for (const auto& x : r2.receptions) last = std::max(last, x.bit_time + 1);
  const uint64_t formula = mid.cm1.delivery_bit_times(static_cast<int64_t>(r2.petit_cycles));
  std::printf("\n== Delivery cycle on the RTL (c = %d, l = %d, random permutation of %zu messages)\n",
              mid.cm1.cube_dims, mid.cm1.msg_len(), perm.messages.size());
  fmt::print("   petit cycles k = {}; last bit delivered at bit-time {}; k*l + 2c = {}\n", r2.petit_cycles, last,
             formula);
  out["delivery_cycle"] = {{"c", mid.cm1.cube_dims}, {"l", mid.cm1.msg_len()},
                           {"petit_cycles", r2.petit_cycles}, {"last_bit_rtl", last},
                           {"k_l_plus_2c", formula}};

  // --- Figure 12 on the model at full scale, over three seeds.
  figure12_over_seeds(out, quick);

  // --- RTL speed: bit-times per second of the chip-composed simulation (model already built).
  std::printf("\n== RTL simulation speed (Verilator, 2^c chip models, P = 16, random permutation)\n");
  json speed = json::array();
  for (int c : {6, 8}) {
    const Cm1Config cfg = paper_config(c, 16, 16);
    const Traffic t = make_pattern("permutation", cfg.cm1, 5, 1);
    const Cm1RtlRun r = run_cm1_rtl(cfg, t, EjectMode::kOrCombine);  // builds on first use
    const double sec = r.sim_seconds;
    const double bps = sec > 0 ? static_cast<double>(r.sim_cycles) / sec : 0;
    fmt::print("   c = {}: {} bit-times in {:.3f} s: {:.0f} bit-times/s, {:.2e} chip-cycles/s\n", c, r.sim_cycles, sec, bps,
               bps * cfg.cm1.chips());
    speed.push_back({{"c", c}, {"chips", cfg.cm1.chips()}, {"bit_times", r.sim_cycles},
                     {"seconds", sec}, {"bit_times_per_second", bps},
                     {"chip_cycles_per_second", bps * cfg.cm1.chips()}});
  }
  out["rtl_speed"] = speed;

  std::ofstream js(json_path);
  js << out.dump(2) << "\n";
  std::printf("\nJSON: %s\n", json_path.c_str());
  return 0;
}

}  // namespace

int cm1_bench(const BenchArgs& a) {
  const std::string json_path = a.json.empty() ? "out/bench-cm1.json" : a.json;
  std::filesystem::path p(json_path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  if (a.only == "boards") return cm1_boards_bench(a);
  if (a.only == "figure12") {
    json out;
    out["tool"] = "cmnet bench";
    out["family"] = "cm1";
    figure12_over_seeds(out, a.quick);
    std::ofstream(json_path) << out.dump(2) << "\n";
    std::printf("\nJSON: %s\n", json_path.c_str());
    return 0;
  }
  return run_cm1_bench(json_path, a.quick);
}

}  // namespace cmnet

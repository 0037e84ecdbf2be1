// `cmnet bench --family cm5data`: the CM-5 data network's figures beside the paper's. Prints
// tables and writes JSON (default out/bench-cm5data.json).
//   - accepted throughput against offered load (open loop: every leaf starts 5-word messages as
//     a Bernoulli process) for uniform random, random permutation and nearest neighbour, on the
//     model up to 16,384 leaves and on the RTL at 64, beside the paper's performance model:
//     the worst arm load / arm bandwidth for the same pattern gives the rate bound, and the
//     saturation throughput is reported as a fraction of it;
//   - the paper's figures at its own link rate (4 bits at 40 MHz = 20 MB/s per link):
//     random permutations > 4 MB/s per node, nearest neighbour 15 MB/s, latency 3-7 us;
//   - model speed in flit-hops per second and RTL speed in cycles per second.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "bitstreams/flow.h"
#include "host/cli/bench_stats.h"
#include "host/cli/cm5data/cm5data_family.h"
#include "gen/cm5data/cm5data_emitter.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/cm5data/cm5data_selftest.h"
#include "sim/cm5data/cm5data_selftest_model.h"
#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_perf.h"
#include "sim/cm5data/cm5data_rtl.h"

namespace cmnet {
namespace {

using json = nlohmann::ordered_json;

constexpr double kClockHz = 40e6;  // the CM-5 data network clock
constexpr int kWords = 5;          // data words per message (the network interface's maximum)

struct Point {
  double load = 0;        // offered, as a fraction of the bound
  double offered = 0;     // flits per cycle per leaf actually offered in the window
  double accepted = 0;    // flits per cycle per leaf delivered in the window
  double latency = 0;     // mean cycles from inject_at to arrival, messages arriving in the window
  uint64_t messages = 0;
  double seconds = 0;
  uint64_t flit_hops = 0;
  uint64_t cycles = 0;
};

Cm5DataConfig bench_config(int h, const std::string& profile, int buffer_words = 2, int slots = 0) {
  Cm5DataConfig c;
  c.name = "bench";
  c.cm5.height = h;
  c.cm5.profile = profile;
  c.cm5.link_bits = 4;
  c.cm5.max_words = kWords;
  c.cm5.buffer_words = buffer_words;
  c.cm5.slots = slots;
  c.cm5.seed = 1;
  return c;
}

Point run_point(const Cm5DataConfig& cfg, const std::string& engine, const std::string& pattern, double bound, double load,
                uint64_t warmup, uint64_t cycles, uint64_t seed, std::vector<Cm5DataDelivery>* keep = nullptr) {
  const Cm5DataParams& p = cfg.cm5;
  const double msg_flits = p.message_flits(kWords);
  const Cm5DataTraffic t = make_cm5_open_loop(pattern, p, seed, load * bound / msg_flits, cycles, kWords);
  Cm5DataRunResult r;
  if (engine == "model") {
    Cm5DataModelOptions o;
    o.max_cycles = cycles;
    o.stop_when_done = false;
    r = run_cm5data_model(p, t, o);
  } else {
    Cm5DataRtlOptions o;
    o.max_cycles = cycles;
    r = run_cm5data_rtl(cfg, t, o);
  }
  Point pt;
  pt.load = load;
  pt.messages = t.messages.size();
  pt.seconds = r.seconds;
  pt.flit_hops = r.flit_hops;
  pt.cycles = r.cycles;
  const double window = static_cast<double>(cycles - warmup) * p.leaves();
  double offered = 0, accepted = 0, lat = 0, n = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    if (t.messages[i].inject_at >= warmup) offered += msg_flits;
    const Cm5DataDelivery& d = r.deliveries[i];
    if (d.delivered && d.arrived >= warmup && d.arrived < cycles) {
      accepted += msg_flits;
      lat += static_cast<double>(d.arrived - t.messages[i].inject_at);
      n += 1;
    }
  }
  pt.offered = offered / window;
  pt.accepted = accepted / window;
  pt.latency = n > 0 ? lat / n : 0;
  if (keep) *keep = r.deliveries;
  return pt;
}

// MB/s of payload per node at the paper's link rate: flits of 4 bits at 40 MHz, 5 of 7 words data.
double mbytes(const Cm5DataParams& p, double flits_per_cycle) {
  return flits_per_cycle * p.link_bits * kClockHz / 8.0 / 1e6 * kWords / (kWords + 2.0);
}

// The paper's performance model for the pattern's expected arm loads (`samples` sampled
// destinations, about 4 million unless told, at least 64 per leaf).
Cm5DataArmBound pattern_bound(const Cm5DataParams& p, const std::string& pattern, uint64_t samples = 1u << 22) {
  return cm5_pattern_bound(p, pattern, 99, std::max<uint64_t>(64, samples / p.leaves()), kWords);
}

const char* paper_name(const std::string& pattern) {
  return pattern == "random" ? "uniform random" : pattern == "permutation" ? "random permutation" : "nearest neighbour";
}

// How a saturation figure is measured: accepted throughput at `load` of the bound (beyond
// saturation: open-loop sources keep every input busy), over three seeds of the traffic, in a
// window of `window` cycles after window / 3 cycles of warm-up, the window doubled (up to
// `doublings` times) until a longer one no longer moves the mean (bench_stats.h). --quick (a
// test's seconds, not a figure): uniform random only, short windows, a bound from fewer samples.
struct SatPlan {
  uint64_t window = 4500;
  int doublings = 3;
  double load = 1.25;
  bool progress = false;
  std::vector<std::string> patterns = {"random", "permutation", "nearest-neighbour"};
  uint64_t bound_samples = 1u << 22;
};

SatPlan sat_plan(bool quick) {
  SatPlan s;
  if (quick) {
    s.window = 300;
    s.doublings = 1;
    s.patterns = {"random"};
    s.bound_samples = 1u << 14;
  } else {
    s.progress = true;
  }
  return s;
}

// The saturation figure of `pattern` on `cfg`, as a fraction of the bound `bound`.
bench::SteadyFigure saturation_figure(const Cm5DataConfig& cfg, const std::string& pattern, double bound,
                                      const SatPlan& plan) {
  bench::SteadyOptions o;
  o.window = plan.window;
  o.max_doublings = plan.doublings;
  o.load = std::to_string(plan.load).substr(0, 4) + " of the bound";
  o.window_unit = "cycles";
  if (plan.progress)
    o.progress = pattern + ", " + std::to_string(cfg.cm5.leaves()) + " leaves, buffers " +
                 std::to_string(cfg.cm5.buffer_words) + ", slots " + std::to_string(cfg.cm5.slots);
  return bench::measure_steady(
      [&](uint64_t seed, uint64_t w) {
        return run_point(cfg, "model", pattern, bound, plan.load, w / 3, w + w / 3, seed).accepted / bound;
      },
      o);
}

json figure_json(const bench::SteadyFigure& f, double bound) {
  json j = f.to_json();
  j["unit"] = "fraction of the bound";
  j["bound_flits_per_cycle_per_leaf"] = bound;
  return j;
}

}  // namespace

// The CM-5's router chip (W = 4, 2-word input buffers, 5-word messages; 4 children) with `parents`
// parents and `slots` message slots per input (0: FIFO inputs), its requests registered when
// `request_stage` is 1, as a module to place alone.
namespace {
// The CM-5's network as its blocks are placed: 64 leaves, W = 4, 2-word buffers, 5-word messages.
Cm5DataParams cm5_block_params() {
  Cm5DataParams p;
  p.height = 3;
  p.link_bits = 4;
  p.buffer_words = 2;
  p.max_words = 5;
  return p;
}
}  // namespace

PlaceableModule cm5data_router_placeable(int parents, int slots, int request_stage) {
  Cm5DataParams p = cm5_block_params();
  p.slots = slots;  // 8 slots: the slot memory (synchronous read) can be block RAM
  p.request_stage = request_stage;
  p.profile.clear();
  p.parents = {parents, parents};
  return {emit_cm5data_router(p, parents), "cm5data_router_p" + std::to_string(parents), "", {}};
}

// The memory-mapped network interface (cm5data_ni, one side of a node) for the CM-5's network
// (W = 4, 5-word messages, 64 leaves: LEAF is a strap).
PlaceableModule cm5data_ni_placeable() {
  GeneratedDesign d;
  d.top = "cm5data_ni";
  d.files = {{"cm5data_ni.v", emit_cm5data_ni_module(cm5_block_params())}};
  return {d, "cm5data_ni", "chparam -set LEAF 5 cm5data_ni", {}};
}

// One router chip alone on the iCE40 HX8K (bitstreams/flow.h place_module_ice40: yosys synth_ice40,
// nextpnr-ice40; its ports come from a shift chain, so nothing is optimised away): the CM-5's chip
// (W = 4, 2-word input buffers, 5-word messages) with 2 and with 4 parents.
json cm5data_chip_on_ice40(const std::string& dir) {
  std::printf("\n== one router chip on the iCE40 HX8K (W = 4, messages of 1..5 words; input buffers of 2 words, or sN: N message slots)\n");
  std::printf("   %-8s %7s %7s %7s %5s %16s %10s\n", "parents", "LUT4", "FF", "carry", "RAM", "logic cells", "Fmax MHz");
  json rows = json::array();
  for (const auto& [parents, slots] : std::vector<std::pair<int, int>>{{2, 0}, {4, 0}, {2, 8}, {4, 8}}) {
    const PlaceableModule mod = cm5data_router_placeable(parents, slots);
    const std::string label = std::to_string(parents) + (slots ? " s" + std::to_string(slots) : "");
    ModulePlaceOptions o = module_place_options(mod, dir + "/" + mod.top + (slots ? "-slots" + std::to_string(slots) : ""));
    // Placed for the boards' 12 MHz; Fmax is measured either way (the CM-5's chip ran at 40 MHz).
    o.freq_mhz = 12;
    json row = {{"parents", parents}, {"slots", slots}, {"top", mod.top}};
    try {
      const ModulePlacement m = place_module_ice40(mod.design, mod.top, o);
      row.update({{"luts", m.luts}, {"ffs", m.ffs}, {"carries", m.carries}, {"ram_blocks", m.ram_blocks},
                  {"wrapped", m.wrapped}, {"placed", m.placed}, {"logic_cells", m.logic_cells},
                  {"logic_cells_available", m.logic_cells_available}, {"fmax_mhz", m.fmax_mhz},
                  {"timing_met_12mhz", m.timing_met},
                  {"meets_cm5_40mhz", m.fmax_mhz >= 40}});
      std::printf("   %-8s %7ld %7ld %7ld %5ld %7ld / %6ld %10.1f%s\n", label.c_str(), m.luts, m.ffs, m.carries, m.ram_blocks,
                  m.logic_cells, m.logic_cells_available, m.fmax_mhz, m.wrapped ? "  (ports through a shift chain)" : "");
    } catch (const std::exception& e) {
      // Most likely it does not fit: the synthesis counts still say how far off.
      ModulePlaceOptions s = o;
      s.place = false;
      s.dir = o.dir + "-synth";
      row["place_error"] = e.what();
      try {
        const ModulePlacement m = place_module_ice40(mod.design, mod.top, s);
        row.update({{"luts", m.luts}, {"ffs", m.ffs}, {"carries", m.carries}, {"ram_blocks", m.ram_blocks}});
        std::printf("   %-8s %7ld %7ld %7ld %5ld %16s %10s  (not placed: %s)\n", label.c_str(), m.luts, m.ffs, m.carries,
                    m.ram_blocks, "-", "-", e.what());
      } catch (const std::exception& e2) {
        row["synth_error"] = e2.what();
        std::printf("   %-8s failed: %s\n", label.c_str(), e2.what());
      }
    }
    std::fflush(stdout);
    rows.push_back(row);
  }
  return rows;
}

// The network interface (cm5data_ni_placeable) alone on the HX8K.
json cm5data_ni_on_ice40(const std::string& dir) {
  std::printf("\n== the network interface (cm5data_ni) on the iCE40 HX8K (W = 4, messages of 1..5 words)\n");
  const PlaceableModule mod = cm5data_ni_placeable();
  ModulePlaceOptions o = module_place_options(mod, dir + "/cm5data_ni");
  o.freq_mhz = 12;
  json row = {{"top", "cm5data_ni"}};
  try {
    const ModulePlacement m = place_module_ice40(mod.design, mod.top, o);
    row.update({{"luts", m.luts}, {"ffs", m.ffs}, {"carries", m.carries}, {"ram_blocks", m.ram_blocks},
                {"wrapped", m.wrapped}, {"logic_cells", m.logic_cells}, {"fmax_mhz", m.fmax_mhz}});
    std::printf("   LUT4 %ld, FF %ld, carries %ld, RAM %ld, logic cells %ld / %ld, Fmax %.1f MHz%s\n", m.luts, m.ffs,
                m.carries, m.ram_blocks, m.logic_cells, m.logic_cells_available, m.fmax_mhz,
                m.wrapped ? " (ports through a shift chain)" : "");
  } catch (const std::exception& e) {
    row["place_error"] = e.what();
    std::printf("   failed: %s\n", e.what());
  }
  std::fflush(stdout);
  return row;
}

// A small network on one board: the self-test top (`cmnet build --mode network`, the network with
// its leaves played from a ROM and checked against the model) of 4-leaf networks through the
// whole flow on the HX8K breakout board (synthesis, place and route, bitstream, icetime).
json cm5data_selftest_on_ice40(const std::string& dir) {
  std::printf("\n== a small network on one board: the self-test top, 4 leaves (one chip), iCE40 HX8K breakout, "
              "random 4 messages per leaf\n");
  std::printf("   %-22s %7s %7s %7s %5s %16s %10s\n", "network", "LUT4", "FF", "carry", "RAM", "logic cells", "Fmax MHz");
  json rows = json::array();
  struct Variant {
    std::string label;
    int link_bits, slots;
  };
  const Board board = load_board("ice40hx8k_breakout");
  for (const Variant& v : std::vector<Variant>{{"W 4, 2-word FIFOs", 4, 0}, {"W 8, 2-word FIFOs", 8, 0}, {"W 4, 2 slots", 4, 2}}) {
    Cm5DataConfig cfg;
    cfg.name = "cm5data-4-selftest";
    cfg.cm5.height = 1;
    cfg.cm5.link_bits = v.link_bits;
    cfg.cm5.buffer_words = 2;
    cfg.cm5.max_words = 5;
    cfg.cm5.slots = v.slots;
    FlowOptions o;
    o.out_dir = dir + "/selftest-w" + std::to_string(v.link_bits) + "-s" + std::to_string(v.slots);
    o.mode = "network";
    json row = {{"network", v.label}, {"leaves", 4}, {"link_bits", v.link_bits}, {"slots", v.slots}};
    try {
      const FlowResult r = run_flow(emit_cm5data_selftest(cfg, cm5_selftest_traffic(cfg.cm5, "random", 1, 4),
                                                          selftest_pins(board)),
                                    board, o);
      const auto lc = r.utilisation.count("ICESTORM_LC") ? r.utilisation.at("ICESTORM_LC") : Resource{};
      row.update({{"fits", r.fits}, {"luts", r.luts}, {"ffs", r.ffs}, {"carries", r.carries}, {"ram_blocks", r.ram_blocks},
                  {"logic_cells", lc.used}, {"logic_cells_available", lc.available}, {"fmax_mhz", r.fmax_nextpnr},
                  {"fmax_icetime_mhz", r.fmax_icetime}, {"timing_met", r.timing_met}, {"bitstream", r.bitstream}});
      std::printf("   %-22s %7ld %7ld %7ld %5ld %7ld / %6ld %10.1f\n", v.label.c_str(), r.luts, r.ffs, r.carries,
                  r.ram_blocks, lc.used, lc.available, r.fmax_nextpnr);
    } catch (const std::exception& e) {
      row["error"] = e.what();
      std::printf("   %-22s failed: %s\n", v.label.c_str(), e.what());
    }
    std::fflush(stdout);
    rows.push_back(row);
  }
  return rows;
}

// The paper's two throughput figures (random permutation, nearest neighbour) on `leaves` leaves
// with `slots` input slots (0: the default chip's 2-word FIFO inputs): the saturation figure
// (SatPlan, CM-5 profile) in MB/s per node, on one network and on the node's two.
json cm5data_paper_figures(bool quick, uint32_t leaves, int slots) {
  const SatPlan plan = sat_plan(quick);
  const std::string chip = slots ? std::to_string(slots) + " input slots" : "2-word FIFO inputs (the default chip)";
  std::printf("== the paper's figures, %s (model, CM-5 profile; MB/s of payload per node, one network and the node's "
              "two; offered load %.2f of the bound, mean [min, max] over 3 seeds)\n", chip.c_str(), plan.load);
  std::printf("   %-20s %7s %9s %-22s %10s %10s  %s\n", "pattern", "leaves", "sat.", "/bound", "MB/s", "x2 networks",
              "window");
  int h = 0;
  while ((1u << (2 * h)) < leaves) ++h;  // leaves = 4^h
  json rows = json::array();
  for (const std::string pat : {"permutation", "nearest-neighbour"}) {
    const Cm5DataConfig cfg = bench_config(h, "cm5", 2, slots);
    const Cm5DataArmBound b = pattern_bound(cfg.cm5, pat);
    const bench::SteadyFigure f = saturation_figure(cfg, pat, b.rate_per_leaf, plan);
    const double sat = f.figure.mean * b.rate_per_leaf;
    const double mb = mbytes(cfg.cm5, sat);
    std::printf("   %-20s %7u %9.4f %-22s %10.2f %10.2f  %llu cycles, %s\n", paper_name(pat), cfg.cm5.leaves(), sat,
                f.figure.str().c_str(), mb, 2 * mb, static_cast<unsigned long long>(f.window),
                f.steady ? "steady" : "NOT steady");
    std::fflush(stdout);
    rows.push_back({{"pattern", pat}, {"leaves", cfg.cm5.leaves()}, {"slots", slots}, {"saturation", sat},
                    {"over_bound", f.figure.mean}, {"figure", figure_json(f, b.rate_per_leaf)}, {"mbytes_per_node", mb},
                    {"mbytes_per_node_two_networks", 2 * mb}});
  }
  std::printf("   paper: random permutations > 4 MB/s per node, nearest neighbour 15 MB/s (two networks, with software)\n\n");
  return rows;
}

namespace {

namespace fs = std::filesystem;

const std::vector<std::string>& bench_patterns() {
  static const std::vector<std::string> patterns = {"random", "permutation", "nearest-neighbour"};
  return patterns;
}

// The open-loop measurement window: messages arriving in cycles warmup..cycles count.
struct Window {
  uint64_t warmup = 0, cycles = 0;
};

void write_bench_json(const json& out, const std::string& path) {
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << out.dump(2) << '\n';
}

void print_bench_header(const Window& w) {
  std::printf("== cmnet bench: CM-5 data network (Leiserson et al. 1992), CM-5 profile (2 parents on levels 1-2, 4 "
              "above), links of 4 bits (20 MB/s at 40 MHz), %d-word messages (%d flits), input buffers 2 words\n",
              kWords, bench_config(2, "cm5").cm5.message_flits(kWords));
  std::printf("   open loop, Bernoulli sources; window cycles %llu..%llu; load = offered / bound; bound = the paper's "
              "performance model (worst arm load / arm bandwidth) for the same pattern, in flits/cycle/leaf\n\n",
              static_cast<unsigned long long>(w.warmup), static_cast<unsigned long long>(w.cycles));
}

// Throughput curves against offered load; every curve lands in `curves`, and the model's speed
// figure is the CM-5 profile's uniform random curve at 1,024 leaves (the first one).
struct Curves {
  Window w;
  SatPlan plan;
  json curves = json::array();
  double speed_1024 = 0;

  // The curve's points (seed 7, window w) and its saturation figure (SatPlan: three seeds, a
  // steady window). Returns the saturation throughput (the figure's mean) and the bound, in
  // flits/cycle/leaf.
  std::pair<double, double> run(const Cm5DataConfig& cfg, const std::string& pattern, const std::string& engine,
                                const std::vector<double>& lds) {
    const Cm5DataParams& p = cfg.cm5;
    const Cm5DataArmBound b = pattern_bound(p, pattern);
    std::printf("-- %s, %u leaves, %s (%s, buffers %d words), bound %.3f flits/cycle/leaf (worst arm: %s)\n", paper_name(pattern),
                p.leaves(), engine.c_str(), p.profile.c_str(), p.buffer_words, b.rate_per_leaf, b.worst_arm.c_str());
    std::printf("   %6s %9s %9s %9s %10s %9s\n", "load", "offered", "accepted", "/bound", "latency", "MB/s/node");
    json pts = json::array();
    double hops = 0, secs = 0;
    for (double ld : lds) {
      const Point pt = run_point(cfg, engine, pattern, b.rate_per_leaf, ld, w.warmup, w.cycles, 7);
      hops += static_cast<double>(pt.flit_hops);
      secs += pt.seconds;
      std::printf("   %6.2f %9.4f %9.4f %9.3f %10.1f %9.2f\n", ld, pt.offered, pt.accepted, pt.accepted / b.rate_per_leaf,
                  pt.latency, mbytes(p, pt.accepted));
      std::fflush(stdout);
      pts.push_back({{"load", ld}, {"offered", pt.offered}, {"accepted", pt.accepted},
                     {"accepted_over_bound", pt.accepted / b.rate_per_leaf}, {"mean_latency_cycles", pt.latency},
                     {"messages", pt.messages}, {"seconds", pt.seconds}, {"cycles", pt.cycles}});
    }
    const double speed = engine == "model" ? (secs > 0 ? hops / secs : 0) : 0;
    const bench::SteadyFigure f = saturation_figure(cfg, pattern, b.rate_per_leaf, plan);
    const double sat = f.figure.mean * b.rate_per_leaf;
    std::printf("   saturation %.4f flits/cycle/leaf = %.2f MB/s per node%s\n   of the bound: %s at %s\n\n", sat,
                mbytes(p, sat),
                engine == "model" ? (" (model: " + std::to_string(static_cast<long long>(speed)) + " flit-hops/s)").c_str()
                                  : "",
                f.str().c_str(), f.load.c_str());
    if (engine == "model" && p.leaves() == 1024 && pattern == "random" && p.profile == "cm5" && speed_1024 == 0)
      speed_1024 = speed;
    curves.push_back({{"pattern", pattern}, {"leaves", p.leaves()}, {"profile", p.profile}, {"engine", engine},
                      {"bound_flits_per_cycle_per_leaf", b.rate_per_leaf}, {"worst_arm", b.worst_arm},
                      {"saturation", sat}, {"saturation_over_bound", f.figure.mean},
                      {"saturation_figure", figure_json(f, b.rate_per_leaf)},
                      {"saturation_mbytes_per_node", mbytes(p, sat)}, {"flit_hops_per_s", speed}, {"points", pts}});
    return std::make_pair(sat, b.rate_per_leaf);
  }
};

// Saturation in MB/s per node, by pattern and number of leaves.
using SaturationMb = std::map<std::string, std::map<uint32_t, double>>;

// The CM-5 profile's curves by machine size, on the model.
SaturationMb profile_curves(Curves& c, const std::vector<int>& heights, const std::vector<double>& loads) {
  SaturationMb sat_mb;
  // 4,096 and 16,384 leaves: fewer points (below, at and beyond the bound), the runs are long.
  const std::vector<double> big_loads = {0.5, 1.0, 1.25};
  for (int h : heights) {
    const Cm5DataConfig cfg = bench_config(h, "cm5");
    for (const auto& pat : bench_patterns())
      sat_mb[pat][cfg.cm5.leaves()] = mbytes(cfg.cm5, c.run(cfg, pat, "model", h >= 6 ? big_loads : loads).first);
  }
  return sat_mb;
}

// Full bisection, for comparison with cycle-level NoC simulators' 4-ary fat trees (there:
// 0.79 / 0.73 of injection at 64 / 1,024 nodes with 16 virtual channels of 8 flits, 0.53 / 0.47
// with 2); and what deeper input buffers buy (a blocked message then sits whole in one chip
// instead of holding links back to its source).
json buffer_depth_curves(Curves& c, bool quick, const std::vector<double>& loads) {
  json depth = json::array();
  for (int h : quick ? std::vector<int>{3} : std::vector<int>{3, 5})
    for (int bw : {2, 7, 14}) {
      const auto [sat, bound] = c.run(bench_config(h, "full", bw), "random", "model", loads);
      depth.push_back({{"profile", "full"}, {"leaves", 1u << (2 * h)}, {"buffer_words", bw}, {"saturation", sat},
                       {"over_bound", sat / bound}});
    }
  for (int bw : {7, 14}) {
    const auto [sat, bound] = c.run(bench_config(4, "cm5", bw), "random", "model", loads);
    depth.push_back({{"profile", "cm5"}, {"leaves", 256}, {"buffer_words", bw}, {"saturation", sat}, {"over_bound", sat / bound}});
  }
  return depth;
}

// The chip's input organisation (no virtual channels): FIFO inputs of 2, 7 (one whole message)
// and 14 words, against k message slots per input (Cm5DataParams::slots: a message for a free
// output passes one waiting for a busy one). The saturation figure (SatPlan) as a fraction of
// the bound, beside a cycle-level NoC simulator's full-bisection 4-ary fat tree with 16 VCs of 8
// flits (0.79 at 64). --quick: 8 slots at 64 leaves (SatPlan's quick patterns).
json input_organisation(bool quick) {
  const SatPlan plan = sat_plan(quick);
  const std::vector<int> heights = quick ? std::vector<int>{3} : std::vector<int>{3, 4};
  std::printf("== saturation by input organisation (model, CM-5 profile, fraction of the bound at offered load %.2f of "
              "it; mean [min, max] over 3 seeds, steady window; a NoC simulator's 4-ary fat tree with 16 VCs of 8 "
              "flits: 0.79 at 64 nodes, 0.73 at 1,024)\n", plan.load);
  std::printf("   %-26s", "inputs");
  for (int h : heights)
    for (const auto& pat : plan.patterns) std::printf(" %5u %-17.17s", 1u << (2 * h), pat.c_str());
  std::printf("\n");
  json options = json::array();
  const std::vector<std::pair<int, int>> orgs =
      quick ? std::vector<std::pair<int, int>>{{2, 8}}
            : std::vector<std::pair<int, int>>{{2, 8}, {2, 0}, {7, 0}, {14, 0}, {2, 2}, {2, 4}, {2, 6}};
  for (const auto& [bw, k] : orgs) {
    const std::string name = k == 0 ? "FIFO " + std::to_string(bw) + " words" : std::to_string(k) + " slots (" + std::to_string(7 * k) + " words)";
    std::printf("   %-26s", name.c_str());
    for (int h : heights)
      for (const auto& pat : plan.patterns) {
        const Cm5DataConfig cfg = bench_config(h, "cm5", bw, k);
        const Cm5DataArmBound b = pattern_bound(cfg.cm5, pat, plan.bound_samples);
        const bench::SteadyFigure f = saturation_figure(cfg, pat, b.rate_per_leaf, plan);
        std::printf(" %-22s%s", f.figure.str().c_str(), f.steady ? " " : "!");
        std::fflush(stdout);
        options.push_back({{"inputs", name}, {"buffer_words", bw}, {"slots", k}, {"leaves", cfg.cm5.leaves()},
                           {"pattern", pat}, {"saturation", f.figure.mean * b.rate_per_leaf}, {"bound", b.rate_per_leaf},
                           {"over_bound", f.figure.mean}, {"figure", figure_json(f, b.rate_per_leaf)},
                           {"beats_0_79", f.figure.mean > 0.79}});
      }
    std::printf("\n");
  }
  std::printf("   (each figure: accepted / bound, mean [min, max] over seeds 7, 8, 9; '!' = the longest window still "
              "moved the mean; windows in the JSON)\n\n");
  return options;
}

// The CM-5 profile's saturation figures (SatPlan) by machine size, FIFO inputs of 2 words, the
// three patterns: flits/cycle/leaf and the fraction of the bound, 64 to 4,096 leaves (16,384
// takes about an hour on a loaded 2-core machine; the whole bench's curves measure it).
// --quick: 64 leaves (SatPlan's quick patterns).
json saturation_by_size(bool quick) {
  const SatPlan plan = sat_plan(quick);
  const std::vector<int> heights = quick ? std::vector<int>{3} : std::vector<int>{3, 4, 5, 6};
  std::printf("== saturation by machine size (model, CM-5 profile, 2-word FIFO inputs, offered load %.2f of the bound; "
              "flits/cycle/leaf, and of the bound: mean [min, max] over 3 seeds, steady window)\n", plan.load);
  std::printf("   %-20s %7s %9s %-22s %s\n", "pattern", "leaves", "flits", "/bound", "window");
  json rows = json::array();
  for (const auto& pat : plan.patterns)
    for (int h : heights) {
      const Cm5DataConfig cfg = bench_config(h, "cm5");
      const Cm5DataArmBound b = pattern_bound(cfg.cm5, pat, plan.bound_samples);
      const bench::SteadyFigure f = saturation_figure(cfg, pat, b.rate_per_leaf, plan);
      std::printf("   %-20s %7u %9.4f %-22s %llu cycles (%llu: %.3f), %s\n", paper_name(pat), cfg.cm5.leaves(),
                  f.figure.mean * b.rate_per_leaf, f.figure.str().c_str(), static_cast<unsigned long long>(f.window),
                  static_cast<unsigned long long>(f.shorter_window), f.shorter.mean, f.steady ? "steady" : "NOT steady");
      std::fflush(stdout);
      rows.push_back({{"pattern", pat}, {"leaves", cfg.cm5.leaves()}, {"saturation", f.figure.mean * b.rate_per_leaf},
                      {"over_bound", f.figure.mean}, {"figure", figure_json(f, b.rate_per_leaf)}});
    }
  std::printf("\n");
  return rows;
}

// One row of the output-port table: the ports of one direction on one level, summed over chips.
json port_stats_row(const Cm5DataParams& p, const Cm5DataRunResult& r, int bw, int l, int up) {
  Cm5DataPortStats s{};
  for (uint32_t n = 0; n < p.nodes_at(l); ++n)
    for (int j = 0; j < p.chips_per_node(l); ++j) {
      const auto& st = r.port_stats[cm5_chip_id(p, l, n, j)];
      for (int k = up ? 4 : 0; k < (up ? 4 + p.parents_at(l) : 4); ++k) {
        const auto& x = st[static_cast<size_t>(k)];
        s.moving += x.moving;
        s.no_credit += x.no_credit;
        s.no_flit += x.no_flit;
        s.granting += x.granting;
        s.free += x.free;
      }
    }
  const double tot = static_cast<double>(s.moving + s.no_credit + s.no_flit + s.granting + s.free);
  const std::string name = "level " + std::to_string(l) + (up ? " up" : " down");
  std::printf("   %-14s %8.3f %14.3f %14.3f %9.3f %6.3f\n", name.c_str(), s.moving / tot, s.no_credit / tot,
              s.no_flit / tot, s.granting / tot, s.free / tot);
  return {{"buffer_words", bw}, {"ports", name}, {"moving", s.moving / tot}, {"no_credit", s.no_credit / tot},
          {"no_flit", s.no_flit / tot}, {"granting", s.granting / tot}, {"free", s.free / tot}};
}

// What stops the saturation short of the bound: per level and direction, what the output
// ports did at saturation (load 1.25 of the bound, uniform random, 64 leaves, CM-5 profile)
// with 2-word buffers and with whole-message (7-word) buffers.
json what_stops_saturation(const Window& w) {
  std::printf("== what stops it: the output ports at saturation (uniform random, 64 leaves, CM-5 profile, load 1.25 "
              "of the bound), fraction of cycles\n");
  json stops = json::array();
  for (int bw : {2, 7}) {
    const Cm5DataConfig cfg = bench_config(3, "cm5", bw);
    const Cm5DataParams& p = cfg.cm5;
    const Cm5DataArmBound b = pattern_bound(p, "random");
    const Cm5DataTraffic t = make_cm5_open_loop("random", p, 7, 1.25 * b.rate_per_leaf / p.message_flits(kWords), w.cycles, kWords);
    Cm5DataModelOptions o;
    o.max_cycles = w.cycles;
    o.stop_when_done = false;
    o.link_stats = true;
    const Cm5DataRunResult r = run_cm5data_model(p, t, o);
    double acc = 0;
    for (const auto& d : r.deliveries)
      if (d.delivered && d.arrived >= w.warmup) acc += p.message_flits(kWords);
    acc /= static_cast<double>(w.cycles - w.warmup) * p.leaves();
    std::printf("   buffers of %d words: accepted %.4f = %.3f of the bound\n", bw, acc, acc / b.rate_per_leaf);
    std::printf("   %-14s %8s %14s %14s %9s %6s\n", "ports", "moving", "allocated,", "allocated,", "granting", "free");
    std::printf("   %-14s %8s %14s %14s %9s %6s\n", "", "", "no credit", "no flit", "", "");
    for (int l = 1; l <= p.height; ++l)
      for (int up = 0; up < 2; ++up) {
        if (up && l == p.height) continue;
        stops.push_back(port_stats_row(p, r, bw, l, up));
      }
  }
  std::printf("   With 2-word buffers the bound's arm (level 2 up) is allocated but blocked (no credit) a large part of\n"
              "   the time: a message blocked at a top chip on its single path down holds the link behind it (wormhole).\n"
              "   With whole-message buffers that goes to 0, and what is left is head-of-line blocking at the top\n"
              "   chips' FIFO inputs: their down ports idle while the message that could use one waits behind a\n"
              "   blocked head; a 4x4 input-queued switch with FIFO inputs saturates at 0.655 under uniform traffic\n"
              "   (Karol, Hluchyj, Morgan 1987). Going beyond needs per-output queues at the inputs (virtual\n"
              "   channels or output queues) or crossbar speedup.\n\n");
  return stops;
}

// The RTL: the same points, and the same deliveries as the model's.
struct RtlComparison {
  Window w;
  json rows = json::array();
  bool agrees = true;
  double speed = 0;  // cycles/s at 64 leaves with FIFO inputs

  void section(int h, int slots) {
    const Cm5DataConfig rcfg = bench_config(h, "cm5", 2, slots);
    std::printf("== RTL (Verilator, the emitted cm5data_network), %u leaves, %s, the same points as the model\n",
                rcfg.cm5.leaves(), slots ? (std::to_string(slots) + " slots per input").c_str() : "2-word FIFO inputs");
    double rtl_cycles = 0, rtl_secs = 0;
    for (const auto& pat : bench_patterns()) {
      const Cm5DataArmBound b = pattern_bound(rcfg.cm5, pat);
      for (double ld : std::vector<double>{0.5, 0.9, 1.25}) {
        std::vector<Cm5DataDelivery> dm, dr;
        const Point m = run_point(rcfg, "model", pat, b.rate_per_leaf, ld, w.warmup, w.cycles, 7, &dm);
        Point r;
        try {
          r = run_point(rcfg, "rtl", pat, b.rate_per_leaf, ld, w.warmup, w.cycles, 7, &dr);
        } catch (const std::exception& e) {
          std::printf("   RTL failed: %s\n", e.what());
          agrees = false;
          return;
        }
        bool same = dm.size() == dr.size();
        for (size_t i = 0; same && i < dm.size(); ++i)
          same = dm[i].delivered == dr[i].delivered && (!dm[i].delivered || dm[i].arrived == dr[i].arrived);
        agrees = agrees && same;
        rtl_cycles += static_cast<double>(r.cycles);
        rtl_secs += r.seconds;
        std::printf("   %-18s load %.2f: offered %.4f accepted rtl %.4f model %.4f (/bound %.3f), deliveries identical: %s\n",
                    paper_name(pat), ld, r.offered, r.accepted, m.accepted, r.accepted / b.rate_per_leaf, same ? "YES" : "NO");
        std::fflush(stdout);
        rows.push_back({{"leaves", rcfg.cm5.leaves()}, {"slots", slots}, {"pattern", pat}, {"load", ld}, {"offered", r.offered},
                        {"accepted_rtl", r.accepted}, {"accepted_model", m.accepted}, {"bound", b.rate_per_leaf},
                        {"identical", same}});
      }
    }
    const double s = rtl_secs > 0 ? rtl_cycles / rtl_secs : 0;
    if (h == 3 && slots == 0) speed = s;
    std::printf("   RTL speed: %.0f cycles/s at %u leaves (%u chips)\n\n", s, rcfg.cm5.leaves(), rcfg.cm5.total_chips());
  }
};

// Latency: one message alone from leaf 0 to the last leaf (over the root), by machine size.
// One 5-word message alone, leaf 0 to leaf N-1 (over the root): its cycles, first flit sent to
// last arrived, on the model.
uint64_t one_message_cycles(const Cm5DataParams& p) {
  Cm5DataTraffic t;
  Cm5DataMessage m;
  m.src = 0;
  m.dst = p.leaves() - 1;
  m.len = kWords;
  m.data.assign(kWords, 0x5a5a5a5au);
  t.messages.push_back(m);
  const Cm5DataRunResult r = run_cm5data_model(p, t);
  return r.deliveries.at(0).arrived - r.deliveries.at(0).sent + 1;
}

// What the registered request (Cm5DataParams::request_stage) costs in cycles: one message's
// latency alone (a cycle per chip it crosses) and the saturation figure (SatPlan) at 64 and 256
// leaves with the default chip's 2-word FIFO inputs (and at 64 with 8 slots), without and with it.
json request_stage_cost(bool quick) {
  const SatPlan plan = sat_plan(quick);
  json out;
  std::printf("== the registered request (request_stage 1) against the chip without it (model, CM-5 profile)\n");
  std::printf("   one 5-word message alone, leaf 0 to leaf N-1 (cycles):\n");
  json lat = json::array();
  for (int h = 1; h <= (quick ? 3 : 5); ++h) {
    uint64_t cyc[2] = {0, 0};
    for (int stage : {0, 1}) {
      Cm5DataConfig cfg = bench_config(h, "cm5");
      cfg.cm5.request_stage = stage;
      cyc[stage] = one_message_cycles(cfg.cm5);
    }
    std::printf("   %6u leaves: %4llu -> %4llu cycles (+%llu: %d chips crossed)\n", 1u << (2 * h),
                static_cast<unsigned long long>(cyc[0]), static_cast<unsigned long long>(cyc[1]),
                static_cast<unsigned long long>(cyc[1] - cyc[0]), 2 * h - 1);
    lat.push_back({{"leaves", 1u << (2 * h)}, {"cycles", cyc[0]}, {"cycles_request_stage", cyc[1]}});
  }
  out["latency_one_message"] = lat;
  std::printf("   saturation, accepted / bound at offered load %.2f of it, mean [min, max] over seeds 7, 8, 9:\n", plan.load);
  json sat = json::array();
  for (int slots : {0, 8})  // 8 slots at 64 leaves only: at 256 each figure takes minutes
  for (int h : quick || slots ? std::vector<int>{3} : std::vector<int>{3, 4})
    for (const auto& pat : plan.patterns) {
      std::printf("   %-9s %6u leaves %-18s", slots ? "8 slots" : "FIFO", 1u << (2 * h), pat.c_str());
      json row = {{"inputs", slots ? "8 slots" : "FIFO 2 words"}, {"slots", slots}, {"leaves", 1u << (2 * h)}, {"pattern", pat}};
      for (int stage : {0, 1}) {
        Cm5DataConfig cfg = bench_config(h, "cm5", 2, slots);
        cfg.cm5.request_stage = stage;
        const Cm5DataArmBound b = pattern_bound(cfg.cm5, pat, plan.bound_samples);
        const bench::SteadyFigure f = saturation_figure(cfg, pat, b.rate_per_leaf, plan);
        std::printf(" %s %-22s%s", stage ? "->" : "", f.figure.str().c_str(), f.steady ? " " : "!");
        std::fflush(stdout);
        row[stage ? "request_stage" : "default"] = figure_json(f, b.rate_per_leaf);
      }
      std::printf("\n");
      sat.push_back(row);
    }
  out["saturation"] = sat;
  std::printf("   ('!' = the longest window still moved the mean)\n\n");
  return out;
}

json latency_one_message() {
  std::printf("== latency of one 5-word message alone, leaf 0 to leaf N-1 (over the root), at 40 MHz\n");
  json lat = json::array();
  for (int h = 1; h <= 7; ++h) {
    const Cm5DataConfig cfg = bench_config(h, "cm5");
    const double cyc = static_cast<double>(one_message_cycles(cfg.cm5));
    std::printf("   %6u leaves: %4.0f cycles = %.2f us\n", cfg.cm5.leaves(), cyc, cyc / kClockHz * 1e6);
    lat.push_back({{"leaves", cfg.cm5.leaves()}, {"cycles", cyc}, {"us", cyc / kClockHz * 1e6}});
  }
  return lat;
}

void print_beside_paper(bool quick, SaturationMb& sat_mb, const json& lat, double speed_1024, bool rtl_agrees) {
  const uint32_t big = quick ? 1024u : 16384u;
  std::printf("\n== beside the paper (one network; the paper's nodes have two, left and right, each 20 MB/s)\n");
  std::printf("   %-48s %-22s %s\n", "", "measured (model)", "paper");
  std::printf("   %-48s %-22s %s\n", ("random permutation, MB/s per node (" + std::to_string(big) + " leaves)").c_str(),
              (std::to_string(sat_mb["permutation"][big]).substr(0, 5) + " (x2 networks " +
               std::to_string(2 * sat_mb["permutation"][big]).substr(0, 5) + ")").c_str(),
              "> 4 (with software)");
  std::printf("   %-48s %-22s %s\n", ("nearest neighbour, MB/s per node (" + std::to_string(big) + " leaves)").c_str(),
              (std::to_string(sat_mb["nearest-neighbour"][big]).substr(0, 5) + " (x2 networks " +
               std::to_string(2 * sat_mb["nearest-neighbour"][big]).substr(0, 5) + ")").c_str(),
              "15 (with software)");
  std::printf("   %-48s %-22s %s\n", "latency, one message, 4 to 16,384 leaves (us)",
              (std::to_string(lat.front()["us"].get<double>()).substr(0, 4) + " to " +
               std::to_string(lat.back()["us"].get<double>()).substr(0, 4))
                  .c_str(),
              "3 to 7 (with software)");
  std::printf("   %-48s %-22s %s\n", "model speed at 1,024 leaves (flit-hops/s)",
              std::to_string(static_cast<long long>(speed_1024)).c_str(), "goal >= 1e7");
  std::printf("   %-48s %-22s %s\n", "RTL == model (every delivery cycle)", rtl_agrees ? "YES" : "NO", "");
}

}  // namespace

int cm5data_bench(const BenchArgs& a) {
  const bool quick = a.quick;
  json out;
  out["tool"] = "cmnet bench";
  out["family"] = "cm5data";
  out["link"] = {{"bits", 4}, {"clock_hz", kClockHz}, {"mbytes_per_s", 4 * kClockHz / 8 / 1e6}};
  out["message_words"] = kWords;
  // The paper's figures over seeds in a steady window: with 8 slots at 1,024 leaves (the chip
  // that reaches 0.9 of the bound; --quick: 64), and the default chip at the paper's 16,384
  // (about an hour of one core; --quick: 256).
  if (a.only == "paper-slots" || a.only == "paper-16384") {
    const bool slots = a.only == "paper-slots";
    const char* key = slots ? "paper_with_slots" : "paper_16384";
    out[key] = slots ? cm5data_paper_figures(quick, quick ? 64 : 1024, 8) : cm5data_paper_figures(quick, quick ? 256 : 16384, 0);
    const std::string path = a.json.empty() ? "out/bench-cm5data-" + a.only + ".json" : a.json;
    write_bench_json(out, path);
    std::printf("wrote %s\n", path.c_str());
    return 0;
  }
  if (a.only == "cabled") {
    out["cabled"] = cm5data_cabled_figures(quick);
    const std::string path = a.json.empty() ? "out/bench-cm5data-cabled.json" : a.json;
    write_bench_json(out, path);
    std::printf("wrote %s\n", path.c_str());
    return 0;
  }
  if (a.only == "request-stage") {
    out["request_stage"] = request_stage_cost(quick);
    const std::string path = a.json.empty() ? "out/bench-cm5data-request-stage.json" : a.json;
    write_bench_json(out, path);
    std::printf("wrote %s\n", path.c_str());
    return 0;
  }
  if (a.only == "saturation") {
    out["input_organisation"] = input_organisation(quick);
    out["saturation_by_size"] = saturation_by_size(quick);
    const std::string path = a.json.empty() ? "out/bench-cm5data-saturation.json" : a.json;
    write_bench_json(out, path);
    std::printf("wrote %s\n", path.c_str());
    return 0;
  }
  out["router_chip_ice40_hx8k"] = cm5data_chip_on_ice40("out/bench-cm5data-ice40");
  out["ni_ice40_hx8k"] = cm5data_ni_on_ice40("out/bench-cm5data-ice40");
  out["selftest_board_ice40_hx8k"] = cm5data_selftest_on_ice40("out/bench-cm5data-ice40");
  const std::vector<int> heights = quick ? std::vector<int>{3, 4, 5} : std::vector<int>{3, 4, 5, 6, 7};
  const std::vector<double> loads = quick ? std::vector<double>{0.5, 0.9, 1.25}
                                          : std::vector<double>{0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.25};
  const Window w{1500, quick ? 4500u : 6000u};
  print_bench_header(w);

  Curves curves{w, sat_plan(quick), json::array(), 0};
  SaturationMb sat_mb = profile_curves(curves, heights, loads);
  out["buffer_depth"] = buffer_depth_curves(curves, quick, loads);
  out["input_organisation"] = input_organisation(quick);
  out["what_stops_saturation"] = what_stops_saturation(w);

  // At 64 leaves with FIFO inputs (the default chip) and with 8 slots, and at 256 leaves (not with
  // --quick: the Verilator build of 128 chips takes long).
  RtlComparison rtl{w, json::array(), true, 0};
  rtl.section(3, 0);
  rtl.section(3, 8);
  if (!quick) {
    rtl.section(4, 0);
    rtl.section(4, 8);
  }
  const json lat = latency_one_message();

  out["paper_with_slots"] = cm5data_paper_figures(quick, quick ? 64 : 1024, 8);
  print_beside_paper(quick, sat_mb, lat, curves.speed_1024, rtl.agrees);

  out["curves"] = curves.curves;
  out["rtl"] = rtl.rows;
  out["rtl_agrees"] = rtl.agrees;
  out["rtl_cycles_per_s"] = rtl.speed;
  out["latency_one_message"] = lat;
  out["model_flit_hops_per_s_1024"] = curves.speed_1024;
  out["paper"] = {{"random_permutation_mbytes_per_node", "> 4"}, {"nearest_neighbour_mbytes_per_node", 15},
                  {"latency_us", "3 to 7"}};
  const std::string path = a.json.empty() ? "out/bench-cm5data.json" : a.json;
  write_bench_json(out, path);
  std::printf("\nwrote %s\n", path.c_str());
  return rtl.agrees ? 0 : 1;
}

}  // namespace cmnet

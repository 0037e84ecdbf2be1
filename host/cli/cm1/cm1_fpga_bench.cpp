// `cmnet bench --family cm1 --only boards`: router and network sizes and Fmax per board (HX8K,
// UP5K, and the XC7A35T by yosys), beside Hoplite's published figures, and the largest CM-1 network
// that fits each iCE40 board. Prints a table, writes JSON. Also CM-1's `cmnet bench-fpga` blocks
// (the chip tops on the HX8K) and the board-top options every CM-1 self-test top takes from a
// board file.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bitstreams/board.h"
#include "bitstreams/flow.h"
#include "host/cli/cm1/cm1_family.h"
#include "host/cli/commands.h"
#include "gen/cm1/cm1_board_emitter.h"
#include "gen/cm1/cm1_cube_board_emitter.h"
#include "gen/cm1/cm1_host_board_emitter.h"
#include "gen/core/errors.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

struct BenchFpgaArgs {
  std::string out_json = "out/bench-cm1-boards.json";
  std::string work = "out/bench-cm1-boards";
  bool quick = false;
  int seed = 1;
};

// ---------------------------------------------------------------------------------------
// bench-fpga

Cm1Config net_cfg(int c, int P, int d) {
  Cm1Config cfg;
  cfg.name = "bench";
  cfg.cm1.cube_dims = c;
  cfg.cm1.procs_per_chip = P;
  cfg.cm1.data_bits = d;
  return cfg;
}

// Per-component iCE40 LUTs / FFs of the router (bitstreams/flow.h). The injector is flattened
// first: its prefix counters are generic modules that only shrink to size with the injector's
// constant inputs.
std::map<std::string, std::pair<long, long>> router_breakdown(const GeneratedDesign& d, const std::string& dir) {
  std::map<std::string, std::pair<long, long>> out;
  for (const auto& [part, c] : synth_ice40_parts(d, "cm1_router", dir, {"cm1_", "cmnet_"}, "flatten *cm1_injector"))
    out[part.empty() ? "router glue (counter increments, muxes)" : part] = {c.luts, c.ffs};
  return out;
}

using ojson = nlohmann::ordered_json;

}  // namespace

FpgaMeasurement cm1_chip_top_on(const Cm1Config& cfg, const Board& b, const FpgaRunOptions& o) {
  BuildArgs ba;
  ba.mode = "chip";
  return measure_board_top(cm1_board_top(cfg, b, ba), b, "chip", config_to_json(cfg), o);
}

namespace {

// The chip top of `cfg` placed and routed on board b at 100 MHz; `col` gets the table's cell.
ojson chip_top_on(const Cm1Config& cfg, const Board& b, const BenchFpgaArgs& a, const std::string& tag, std::string& col) {
  FpgaRunOptions o;
  o.dir = a.work + "/chip_" + b.name + "_" + tag;
  o.seeds = {a.seed};
  const FpgaMeasurement m = cm1_chip_top_on(cfg, b, o);
  if (m.status == FpgaMeasurement::Status::Placed) {
    const double f = m.fmax.front().fmax_mhz;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%ld / %.1f MHz", m.logic_cells, f);
    col = buf;
    return {{"fits", true}, {"logic_cells", m.logic_cells}, {"luts", m.luts}, {"ffs", m.ffs},
            {"fmax_nextpnr_mhz", f}, {"met_100mhz", f >= 100}};
  }
  col = m.status == FpgaMeasurement::Status::DoesNotFit ? "no fit (" + m.detail.substr(0, m.detail.find(' ')) + ")"
                                                        : "too few pins";  // ConfigError: 2c cube wires
  return {{"fits", false}, {"detail", m.detail}};
}

// The router's iCE40 LUTs and FFs by part, printed and into `row`.
void router_parts(const GeneratedDesign& d, const BenchFpgaArgs& a, const std::string& tag, int ports, ojson& row) {
  const auto parts = router_breakdown(d, a.work + "/router_parts_" + tag);
  ojson bj = ojson::object();
  std::string line;
  for (const auto& [name, lf] : parts) {
    bj[name] = {{"luts", lf.first}, {"ffs", lf.second}};
    line += (line.empty() ? "" : ", ") + name + " " + std::to_string(lf.first) + "/" + std::to_string(lf.second);
  }
  row["router_ice40_breakdown_noflatten"] = bj;
  long no_cnt = 0;
  for (const auto& [name, lf] : parts)
    if (name != "cmnet_counter_bank") no_cnt += lf.first;
  row["router_ice40_luts_without_counters"] = no_cnt;
  std::printf("          iCE40 LUT/FF by part (unflattened): %s\n", line.c_str());
  std::printf("          without the 32-bit statistics counters: %ld LUT4 = %.1f per port\n", no_cnt,
              static_cast<double>(no_cnt) / ports);
}

struct RouterParams {
  int c, P, d;
};

// One row of part 1: the router alone (iCE40, xc7 estimate), its chip top on both boards.
ojson router_row(const RouterParams& rp, const BenchFpgaArgs& a, const Board& hx, const Board& up) {
  const Cm1Config cfg = net_cfg(rp.c, rp.P, rp.d);
  const std::string tag = "c" + std::to_string(rp.c) + "_P" + std::to_string(rp.P);
  const GeneratedDesign d = emit_cm1(cfg);
  const auto ice = synth_cells(d, "cm1_router", "synth_ice40", a.work + "/router_ice40_" + tag);
  const auto xc = synth_cells(d, "cm1_router", "synth_xilinx -flatten -family xc7", a.work + "/router_xc7_" + tag);
  const long ilut = count_cells(ice, "SB_LUT4"), iff = count_cells(ice, "SB_DFF"), icar = count_cells(ice, "SB_CARRY");
  const long xlut = count_cells(xc, "LUT"), xff = count_cells(xc, "FD");
  const int ports = rp.P + rp.c;
  ojson row = {{"c", rp.c}, {"P", rp.P}, {"d", rp.d}, {"rows", cfg.cm1.rows}, {"ports", ports},
               {"router_ice40", {{"luts", ilut}, {"ffs", iff}, {"carry", icar}}},
               {"router_xc7_estimate", {{"luts", xlut}, {"ffs", xff}}},
               {"luts_per_port_ice40", static_cast<double>(ilut) / ports},
               {"luts_per_port_xc7", static_cast<double>(xlut) / ports},
               {"ffs_per_port_xc7", static_cast<double>(xff) / ports}};
  std::string cols[2];
  row["chip_top_hx8k"] = chip_top_on(cfg, hx, a, tag, cols[0]);
  row["chip_top_up5k"] = chip_top_on(cfg, up, a, tag, cols[1]);
  char a1[64], a2[64], a3[64];
  std::snprintf(a1, sizeof a1, "%ld/%ld/%ld", ilut, iff, icar);
  std::snprintf(a2, sizeof a2, "%ld/%ld", xlut, xff);
  std::snprintf(a3, sizeof a3, "%.1f / %.1f", static_cast<double>(ilut) / ports,
                static_cast<double>(xlut) / ports);
  std::printf("%4d %4d | %-22s | %-22s | %-16s | %-19s | %-19s\n", rp.c, rp.P, a1, a2, a3,
              cols[0].c_str(), cols[1].c_str());
  router_parts(d, a, tag, ports, row);
  std::fflush(stdout);
  return row;
}

struct NetworkParams {
  int P, rows;
};

// Part 2 on one board: the network self-test top for c = 1, 2, ... until it no longer fits.
ojson largest_network(const Board& b, const NetworkParams& fp, const BenchFpgaArgs& a) {
  const int P = fp.P;
  ojson entry = {{"board", b.name}, {"part", b.part}, {"P", P}, {"rows", fp.rows}};
  ojson tried = ojson::array();
  int best = 0;
  for (int c = 1; c <= 8; ++c) {
    Cm1Config cfg = net_cfg(c, P, 8);
    cfg.cm1.rows = fp.rows;
    BuildArgs ba;
    ba.mode = "network";
    ba.per_proc = 1;
    const GeneratedDesign top = cm1_board_top(cfg, b, ba);
    FlowOptions fo;
    fo.out_dir = a.work + "/net_" + b.name + "_c" + std::to_string(c) + "_P" + std::to_string(P) + "_b" +
                 std::to_string(fp.rows);
    fo.seed = a.seed;
    fo.mode = "network";
    fo.config_json = config_to_json(cfg);
    try {
      const FlowResult r = run_flow(top, b, fo);
      const long lc = r.utilisation.count("ICESTORM_LC") ? r.utilisation.at("ICESTORM_LC").used : -1;
      tried.push_back({{"c", c}, {"fits", true}, {"logic_cells", lc}, {"luts", r.luts}, {"ffs", r.ffs},
                       {"ram_blocks", r.ram_blocks}, {"fmax_nextpnr_mhz", r.fmax_nextpnr},
                       {"fmax_icetime_mhz", r.fmax_icetime}, {"meets_board_clock", r.timing_met}});
      std::printf("  %-20s P=%-3d b=%d c=%d: fits, %ld LCs of %d, %ld LUTs, %ld FFs, Fmax %.1f MHz (icetime %.1f)%s\n",
                  b.name.c_str(), P, fp.rows, c, lc, b.logic_cells, r.luts, r.ffs, r.fmax_nextpnr,
                  r.fmax_icetime, r.timing_met ? "" : " -- below the board clock");
      best = c;
    } catch (const DoesNotFit& e) {
      tried.push_back({{"c", c}, {"fits", false}, {"resource", e.resource}, {"used", e.used},
                       {"available", e.available}});
      std::printf("  %-20s P=%-3d b=%d c=%d: does not fit: %s %ld > %ld\n", b.name.c_str(), P, fp.rows, c,
                  e.resource.c_str(), e.used, e.available);
      std::fflush(stdout);
      break;
    }
    std::fflush(stdout);
  }
  entry["largest_c"] = best;
  entry["largest_processors"] = best > 0 ? (1 << best) * P : 0;
  entry["tried"] = tried;
  if (best > 0)
    std::printf("  => %s, P = %d, b = %d: largest network c = %d (%d chips, %d processors)\n", b.name.c_str(),
                P, fp.rows, best, 1 << best, (1 << best) * P);
  else
    std::printf("  => %s, P = %d, b = %d: not even c = 1 fits\n", b.name.c_str(), P, fp.rows);
  return entry;
}

int do_bench(const BenchFpgaArgs& a) {
  const auto t_start = std::chrono::steady_clock::now();
  fs::create_directories(a.work);
  const Board hx = load_board("ice40hx8k_breakout");
  const Board up = load_board("icebreaker");
  ojson out;
  out["note"] =
      "CM-1 router chip and network on iCE40 (yosys 0.23 + nextpnr-ice40 0.4, measured) and "
      "XC7A35T (yosys synth_xilinx estimate). Router = cm1_router alone (injector, heart, "
      "ejector, buffers, 32-bit counters), synthesized by itself. Chip top = "
      "cm1_chip_board_top (router + P endpoints + self-test loader), placed and routed. All "
      "CM-1 ports are 1 bit wide (bit-serial): a router has P processor ports and c cube "
      "ports, so per port = per link bit. Hoplite (Kapre and Gray, FPL 2015): about 60 LUTs "
      "and 100 FFs per 32-bit router on Xilinx (3 ports of 32 bits).";
  out["hoplite_32bit_router"] = {{"luts", 60}, {"ffs", 100}, {"ports", 3}, {"link_bits", 32},
                                 {"luts_per_port", 20.0}, {"luts_per_link_bit", 60.0 / 32}};

  // Part 1: the router chip over a few parameters.
  const std::vector<RouterParams> rps =
      a.quick ? std::vector<RouterParams>{{4, 4, 8}, {4, 16, 8}}
              : std::vector<RouterParams>{{2, 4, 8}, {4, 4, 8}, {4, 16, 8}, {8, 16, 8}, {12, 16, 8}};
  std::printf("== CM-1 router chip (rows b = 7, d = 8): yosys sizes; chip top placed and routed at --freq 100\n");
  std::printf("%4s %4s | %-22s | %-22s | %-16s | %-19s | %-19s\n", "c", "P", "router iCE40 LUT/FF/carry",
              "router xc7 LUT/FF", "per port LUT ice40/xc7", "chip top HX8K LC/Fmax", "chip top UP5K LC/Fmax");
  ojson routers = ojson::array();
  for (const RouterParams& rp : rps) routers.push_back(router_row(rp, a, hx, up));
  out["routers"] = routers;
  std::printf("   Hoplite 32-bit router (published): ~60 LUTs, ~100 FFs; 20 LUTs per 32-bit port, 1.9 LUTs per link bit\n");

  // Part 2: the largest network (self-test top) that fits each iCE40 board, c = 1, 2, ...
  std::printf("\n== Largest CM-1 network (network self-test top, d = 8) that fits, search over c\n");
  ojson fits = ojson::array();
  const std::vector<NetworkParams> fps =
      a.quick ? std::vector<NetworkParams>{{4, 7}} : std::vector<NetworkParams>{{4, 7}, {16, 7}, {2, 3}, {4, 3}};
  for (const Board* b : {&hx, &up})
    for (const NetworkParams& fp : fps) fits.push_back(largest_network(*b, fp, a));
  out["largest_network"] = fits;
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  std::ofstream(a.out_json) << out.dump(2) << "\n";
  std::printf("\nwrote %s\n", a.out_json.c_str());
  return 0;
}

}  // namespace

BoardTopOptions top_options(const Board& b) {
  const board_parts::SelfTestPins pins = selftest_pins(b);
  BoardTopOptions o;
  o.reset_port = pins.reset_port;
  o.reset_active_low = pins.reset_active_low;
  o.led_active_low = pins.led_active_low;
  o.blink_log2 = pins.blink_log2;
  return o;
}

int cm1_boards_bench(const BenchArgs& args) {
  BenchFpgaArgs a;
  if (!args.json.empty()) a.out_json = args.json;
  a.quick = args.quick;
  if (fs::path(a.out_json).has_parent_path()) fs::create_directories(fs::path(a.out_json).parent_path());
  return do_bench(a);
}

std::vector<FpgaBlock> Cm1Family::fpga_blocks() const {
  std::vector<FpgaBlock> out;
  for (const RouterParams& rp : std::vector<RouterParams>{{2, 4, 8}, {4, 4, 8}, {4, 16, 8}, {8, 16, 8}, {12, 16, 8}}) {
    FpgaBlock b;
    b.name = "router chip c = " + std::to_string(rp.c) + ", P = " + std::to_string(rp.P);
    b.how = "cm1_chip_board_top (router, P endpoints, self-test loader) through the whole flow on the HX8K breakout";
    b.ports = rp.c + rp.P;  // bit-serial: c cube wires and P processor links of 1 bit
    b.port_bits = 1;
    b.measure = [rp](const FpgaRunOptions& o) {
      return cm1_chip_top_on(net_cfg(rp.c, rp.P, rp.d), load_board("ice40hx8k_breakout"), o);
    };
    out.push_back(b);
  }
  return out;
}

}  // namespace cmnet

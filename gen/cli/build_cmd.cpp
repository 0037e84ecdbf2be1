// `cmnet build`, `cmnet flash` and `cmnet bench-fpga`: the FPGA flow from the command line.
//
//   cmnet build CONFIG --board NAME -o DIR [--mode network|chip|cube|host] [--freq MHZ] [--seed N]
//     Emits the self-test board top (cm1_board_top: the whole network in one FPGA;
//     cm1_chip_board_top: one router chip, a single-board test; cm1_cube_board_top: one
//     router chip per FPGA, 2^c boards cabled into a cube) or the host-link top (cm1_host_board,
//     gen/cm1/cm1_host_board_emitter.h), runs yosys / nextpnr-ice40 / icepack /
//     icetime (iCE40) or the yosys synth_xilinx estimate (xc7), writes DIR/report.txt and
//     DIR/report.json. Exit 0: built, timing met; 3: built, timing NOT met at the target
//     (bitstream written anyway); 4: the design does not fit; 2: other errors.
//   cmnet flash DIR
//     openFPGALoader -b <board> DIR/<top>.bin. Exit 5 when openFPGALoader is missing or no
//     board answers.
//   cmnet bench-fpga [-o FILE.json] [--work DIR] [--quick]
//     Router and network sizes and Fmax per board, beside Hoplite's published figures, and
//     the largest CM-1 network that fits each iCE40 board. Prints a table, writes JSON.
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
#include "gen/cli/commands.h"
#include "gen/cm1/cm1_board_emitter.h"
#include "gen/cm1/cm1_cube_board_emitter.h"
#include "gen/cm1/cm1_host_board_emitter.h"
#include "gen/core/errors.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

struct BuildArgs {
  std::string config, board, out, mode = "network", pattern = "permutation";
  double freq = 0;
  int seed = 1;
  uint64_t pattern_seed = 1;
  int per_proc = 1;
  int chip_id = 0;
  int bit_clocks = 8;
  double go_delay_s = 0.5;
};

struct BenchArgs {
  std::string out_json = "bench-fpga.json";
  std::string work = "out/bench-fpga";
  bool quick = false;
  int seed = 1;
};

BoardTopOptions top_options(const Board& b) {
  BoardTopOptions o;
  o.reset_port = b.reset.has_value();
  o.reset_active_low = b.reset ? b.reset->active_low : true;
  o.led_active_low.clear();
  for (size_t i = 0; i < b.leds.size() && i < 3; ++i) o.led_active_low.push_back(b.leds[i].active_low);
  if (o.led_active_low.size() < 2)
    throw ConfigError("board " + b.name + " has " + std::to_string(b.leds.size()) +
                      " LED(s); the self-test top needs 2 (pass, fail)");
  // Blink at about 2-3 Hz whatever the clock.
  int bl = 2;
  while (bl < 30 && (1u << bl) < static_cast<uint64_t>(b.clock_mhz * 1e6 / 3)) ++bl;
  o.blink_log2 = bl;
  return o;
}

GeneratedDesign make_top(const Cm1Config& cfg, const Board& b, const BuildArgs& a) {
  BoardTopOptions o = top_options(b);
  o.pattern = a.pattern;
  o.seed = a.pattern_seed;
  o.per_proc = a.per_proc;
  o.chip_id = a.chip_id;
  if (a.mode == "chip") return emit_cm1_chip_board_top(cfg, o);
  if (a.mode == "network") return emit_cm1_board_top(cfg, o);
  if (a.mode == "cube") {
    CubeTopOptions c;
    c.board = o;
    c.bit_clocks = a.bit_clocks;
    // Long enough for a person to power or reset every board before the run starts.
    const double petit_s = cfg.cm1.petit_period() * a.bit_clocks / (b.clock_mhz * 1e6);
    c.go_delay_petit = std::max(4, static_cast<int>(a.go_delay_s / petit_s));
    return emit_cm1_cube_board_top(cfg, c);
  }
  if (a.mode == "host") {
    // The host-link top (gen/cm1/cm1_host_board_emitter.h): the same flow, its own ports.
    HostBoardOptions h;
    h.clock_hz = static_cast<uint32_t>(b.clock_mhz * 1e6 + 0.5);
    h.reset_button = b.reset.has_value() && b.reset->active_low;
    return emit_cm1_host_board(cfg, h);
  }
  throw InputError("--mode " + a.mode + ": unknown mode (allowed: network, chip, cube, host)");
}

int do_build(const BuildArgs& a) {
  const Cm1Config cfg = load_cm1_config(a.config);
  const Board board = load_board(a.board);
  const GeneratedDesign d = make_top(cfg, board, a);
  FlowOptions fo;
  fo.out_dir = a.out;
  fo.freq_mhz = a.freq;
  fo.seed = a.seed;
  fo.mode = a.mode;
  fo.config_json = config_to_json(cfg);
  std::printf("cmnet build: %s top %s for %s (%s) in %s\n", a.mode.c_str(), d.top.c_str(),
              board.name.c_str(), board.part.c_str(), a.out.c_str());
  std::fflush(stdout);
  FlowResult r;
  try {
    r = run_flow(d, board, fo);
  } catch (const DoesNotFit& e) {
    std::fprintf(stderr, "cmnet build: %s\n", e.what());
    return 4;
  }
  std::printf("%s", report_text(r).c_str());
  if (r.estimate_only) return 0;
  if (!r.timing_met) {
    std::fprintf(stderr, "cmnet build: timing NOT met: Fmax %.2f MHz < target %.2f MHz (bitstream written anyway)\n",
                 r.fmax_nextpnr, r.target_mhz);
    return 3;
  }
  return 0;
}

int do_flash(const std::string& dir) {
  const FlowResult r = read_report(dir);
  if (r.estimate_only || r.bitstream.empty())
    throw InputError(dir + ": board " + r.board + " has no bitstream from this flow (" +
                     (r.estimate_only ? "xc7: yosys estimate only; build it with Vivado: vivado -mode batch "
                                        "-source bitstreams/vivado/build_arty.tcl -tclargs " + dir + " " + r.top +
                                        ", then openFPGALoader -b arty_a7_35t " + dir + "/" + r.top + ".bit"
                                      : "no .bin in the report") + ")");
  if (!fs::exists(r.bitstream)) throw InputError(r.bitstream + ": bitstream missing (rebuild)");
  const Board board = load_board(r.board_file.empty() || !fs::exists(r.board_file) ? r.board : r.board_file);
  const std::string tool = find_tool("openFPGALoader");
  if (tool.empty()) {
    std::fprintf(stderr, "cmnet flash: openFPGALoader not found in PATH (Debian package: openfpgaloader)\n");
    return 5;
  }
  std::printf("cmnet flash: %s -b %s %s\n", tool.c_str(), board.openfpgaloader_board.c_str(), r.bitstream.c_str());
  std::fflush(stdout);
  const std::string log = dir + "/flash.log";
  const int rc = run_child({tool, "-b", board.openfpgaloader_board, r.bitstream}, 600, log);
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  if (rc != 0) {
    const std::string text = ss.str();
    const bool no_board = text.find("device not found") != std::string::npos ||
                          text.find("Failed to claim") != std::string::npos ||
                          text.find("No cable") != std::string::npos ||
                          text.find("unable to open") != std::string::npos;
    const std::string why =
        no_board ? ": no board attached? (no " + board.openfpgaloader_board + " cable answered)" : "";
    std::fprintf(stderr, "cmnet flash: openFPGALoader failed (exit %d)%s:\n%s", rc, why.c_str(), text.c_str());
    return 5;
  }
  std::printf("%s", ss.str().c_str());
  return 0;
}

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

// yosys cell counts of one module of the design (no place and route).
std::map<std::string, long> synth_module(const GeneratedDesign& d, const std::string& top,
                                         const std::string& synth, const std::string& dir) {
  fs::create_directories(dir);
  write_design(d, dir + "/rtl");
  std::string ys;
  for (const auto& f : d.verilog_files()) ys += "read_verilog -DSYNTHESIS " + dir + "/rtl/" + f + "\n";
  ys += synth + " -top " + top + "\n";
  ys += "tee -q -o " + dir + "/stat.json stat -json\n";
  std::ofstream(dir + "/synth.ys") << ys;
  const int rc = run_child({CMNET_YOSYS, "-q", "-l", dir + "/yosys.log", "-s", dir + "/synth.ys"}, 3600,
                           dir + "/yosys.out");
  if (rc != 0) throw FlowError("yosys failed in " + dir);
  std::ifstream in(dir + "/stat.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_yosys_stat_json(ss.str(), top);
}

long count(const std::map<std::string, long>& cells, const std::string& prefix) {
  long n = 0;
  for (const auto& [k, v] : cells)
    if (k.rfind(prefix, 0) == 0) n += v;
  return n;
}

// Per-component iCE40 LUTs / FFs of the router: synth_ice40 -noflatten, `stat` per module,
// times the instance counts listed in cm1_router's block.
std::map<std::string, std::pair<long, long>> router_breakdown(const GeneratedDesign& d, const std::string& dir) {
  fs::create_directories(dir);
  write_design(d, dir + "/rtl");
  std::string ys;
  for (const auto& f : d.verilog_files()) ys += "read_verilog -DSYNTHESIS " + dir + "/rtl/" + f + "\n";
  // The injector is flattened first: its prefix counters are generic modules that only
  // shrink to size with the injector's constant inputs.
  ys += "hierarchy -top cm1_router\nflatten *cm1_injector\n";
  ys += "synth_ice40 -noflatten -top cm1_router\ntee -q -o " + dir + "/stat.txt stat\n";
  std::ofstream(dir + "/synth.ys") << ys;
  const int rc = run_child({CMNET_YOSYS, "-q", "-l", dir + "/yosys.log", "-s", dir + "/synth.ys"}, 3600,
                           dir + "/yosys.out");
  if (rc != 0) throw FlowError("yosys failed in " + dir);
  std::ifstream in(dir + "/stat.txt");
  std::string line, mod;
  // Per module (full, parameterized name): its own LUTs and FFs, and the user modules it
  // instantiates (the injector has its prefix counters inside).
  std::map<std::string, std::pair<long, long>> own;
  std::map<std::string, std::vector<std::pair<std::string, long>>> subs;
  auto short_name = [](std::string n) {
    const size_t bs = n.rfind('\\');
    return bs == std::string::npos ? n : n.substr(bs + 1);
  };
  auto user_module = [&](const std::string& type) {
    const std::string s = short_name(type);
    return s.rfind("cm1_", 0) == 0 || s.rfind("cmnet_", 0) == 0;
  };
  while (std::getline(in, line)) {
    const size_t a = line.find("=== ");
    if (a != std::string::npos) {
      const size_t b = line.find(" ===", a + 4);
      mod = line.substr(a + 4, b - a - 4);
      if (mod == "design hierarchy") break;
      continue;
    }
    std::istringstream ls(line);
    std::string type;
    long n = 0;
    if (!(ls >> type >> n)) continue;
    if (type == "SB_LUT4") own[mod].first += n;
    else if (type.rfind("SB_DFF", 0) == 0) own[mod].second += n;
    else if (user_module(type)) subs[mod].push_back({type, n});
  }
  std::function<std::pair<long, long>(const std::string&)> total = [&](const std::string& m) {
    std::pair<long, long> t = own[m];
    for (const auto& [child, n] : subs[m]) {
      const auto c = total(child);
      t.first += n * c.first;
      t.second += n * c.second;
    }
    return t;
  };
  // The router's parts by module name (the heart columns differ by COL: summed per name).
  std::map<std::string, std::pair<long, long>> out;
  out["router glue (counter increments, muxes)"] = own["cm1_router"];
  for (const auto& [child, n] : subs["cm1_router"]) {
    const auto c = total(child);
    auto& o = out[short_name(child)];
    o.first += n * c.first;
    o.second += n * c.second;
  }
  return out;
}

int do_bench(const BenchArgs& a) {
  using ojson = nlohmann::ordered_json;
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
  struct RP { int c, P, d; };
  std::vector<RP> rps = a.quick ? std::vector<RP>{{4, 4, 8}, {4, 16, 8}}
                                : std::vector<RP>{{2, 4, 8}, {4, 4, 8}, {4, 16, 8}, {8, 16, 8}, {12, 16, 8}};
  std::printf("== CM-1 router chip (rows b = 7, d = 8): yosys sizes; chip top placed and routed at --freq 100\n");
  std::printf("%4s %4s | %-22s | %-22s | %-16s | %-19s | %-19s\n", "c", "P", "router iCE40 LUT/FF/carry",
              "router xc7 LUT/FF", "per port LUT ice40/xc7", "chip top HX8K LC/Fmax", "chip top UP5K LC/Fmax");
  ojson routers = ojson::array();
  for (const RP& rp : rps) {
    const Cm1Config cfg = net_cfg(rp.c, rp.P, rp.d);
    const std::string tag = "c" + std::to_string(rp.c) + "_P" + std::to_string(rp.P);
    const GeneratedDesign d = emit_cm1(cfg);
    const auto ice = synth_module(d, "cm1_router", "synth_ice40", a.work + "/router_ice40_" + tag);
    const auto xc = synth_module(d, "cm1_router", "synth_xilinx -flatten -family xc7", a.work + "/router_xc7_" + tag);
    const long ilut = count(ice, "SB_LUT4"), iff = count(ice, "SB_DFF"), icar = count(ice, "SB_CARRY");
    const long xlut = count(xc, "LUT"), xff = count(xc, "FD");
    const int ports = rp.P + rp.c;
    ojson row = {{"c", rp.c}, {"P", rp.P}, {"d", rp.d}, {"rows", cfg.cm1.rows}, {"ports", ports},
                 {"router_ice40", {{"luts", ilut}, {"ffs", iff}, {"carry", icar}}},
                 {"router_xc7_estimate", {{"luts", xlut}, {"ffs", xff}}},
                 {"luts_per_port_ice40", static_cast<double>(ilut) / ports},
                 {"luts_per_port_xc7", static_cast<double>(xlut) / ports},
                 {"ffs_per_port_xc7", static_cast<double>(xff) / ports}};
    std::string cols[2];
    int k = 0;
    for (const Board* b : {&hx, &up}) {
      BuildArgs ba;
      ba.mode = "chip";
      const GeneratedDesign top = make_top(cfg, *b, ba);
      FlowOptions fo;
      fo.out_dir = a.work + "/chip_" + b->name + "_" + tag;
      fo.freq_mhz = 100;
      fo.seed = a.seed;
      fo.mode = "chip";
      fo.config_json = config_to_json(cfg);
      ojson cell;
      try {
        const FlowResult r = run_flow(top, *b, fo);
        const long lc = r.utilisation.count("ICESTORM_LC") ? r.utilisation.at("ICESTORM_LC").used : -1;
        cell = {{"fits", true}, {"logic_cells", lc}, {"luts", r.luts}, {"ffs", r.ffs},
                {"fmax_nextpnr_mhz", r.fmax_nextpnr}, {"fmax_icetime_mhz", r.fmax_icetime},
                {"met_100mhz", r.timing_met}};
        char buf[64];
        std::snprintf(buf, sizeof buf, "%ld / %.1f MHz", lc, r.fmax_nextpnr);
        cols[k] = buf;
      } catch (const DoesNotFit& e) {
        cell = {{"fits", false}, {"resource", e.resource}, {"used", e.used}, {"available", e.available}};
        cols[k] = "no fit (" + e.resource + ")";
      } catch (const ConfigError& e) {  // e.g. too few header pins for 2c cube wires
        cell = {{"fits", false}, {"error", e.what()}};
        cols[k] = "too few pins";
      }
      row[k == 0 ? "chip_top_hx8k" : "chip_top_up5k"] = cell;
      ++k;
    }
    char a1[64], a2[64], a3[64];
    std::snprintf(a1, sizeof a1, "%ld/%ld/%ld", ilut, iff, icar);
    std::snprintf(a2, sizeof a2, "%ld/%ld", xlut, xff);
    std::snprintf(a3, sizeof a3, "%.1f / %.1f", static_cast<double>(ilut) / ports,
                  static_cast<double>(xlut) / ports);
    std::printf("%4d %4d | %-22s | %-22s | %-16s | %-19s | %-19s\n", rp.c, rp.P, a1, a2, a3,
                cols[0].c_str(), cols[1].c_str());
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
    std::fflush(stdout);
    routers.push_back(row);
  }
  out["routers"] = routers;
  std::printf("   Hoplite 32-bit router (published): ~60 LUTs, ~100 FFs; 20 LUTs per 32-bit port, 1.9 LUTs per link bit\n");

  // Part 2: the largest network (self-test top) that fits each iCE40 board, c = 1, 2, ...
  std::printf("\n== Largest CM-1 network (network self-test top, d = 8) that fits, search over c\n");
  ojson fits = ojson::array();
  struct FP { int P, rows; };
  const std::vector<FP> fps = a.quick ? std::vector<FP>{{4, 7}} : std::vector<FP>{{4, 7}, {16, 7}, {2, 3}, {4, 3}};
  for (const Board* b : {&hx, &up}) {
    for (const FP& fp : fps) {
      const int P = fp.P;
      ojson entry = {{"board", b->name}, {"part", b->part}, {"P", P}, {"rows", fp.rows}};
      ojson tried = ojson::array();
      int best = 0;
      for (int c = 1; c <= 8; ++c) {
        Cm1Config cfg = net_cfg(c, P, 8);
        cfg.cm1.rows = fp.rows;
        BuildArgs ba;
        ba.per_proc = 1;
        const GeneratedDesign top = make_top(cfg, *b, ba);
        FlowOptions fo;
        fo.out_dir = a.work + "/net_" + b->name + "_c" + std::to_string(c) + "_P" + std::to_string(P) + "_b" +
                     std::to_string(fp.rows);
        fo.seed = a.seed;
        fo.mode = "network";
        fo.config_json = config_to_json(cfg);
        try {
          const FlowResult r = run_flow(top, *b, fo);
          const long lc = r.utilisation.count("ICESTORM_LC") ? r.utilisation.at("ICESTORM_LC").used : -1;
          tried.push_back({{"c", c}, {"fits", true}, {"logic_cells", lc}, {"luts", r.luts}, {"ffs", r.ffs},
                           {"ram_blocks", r.ram_blocks}, {"fmax_nextpnr_mhz", r.fmax_nextpnr},
                           {"fmax_icetime_mhz", r.fmax_icetime}, {"meets_board_clock", r.timing_met}});
          std::printf("  %-20s P=%-3d b=%d c=%d: fits, %ld LCs of %d, %ld LUTs, %ld FFs, Fmax %.1f MHz (icetime %.1f)%s\n",
                      b->name.c_str(), P, fp.rows, c, lc, b->logic_cells, r.luts, r.ffs, r.fmax_nextpnr,
                      r.fmax_icetime, r.timing_met ? "" : " -- below the board clock");
          best = c;
        } catch (const DoesNotFit& e) {
          tried.push_back({{"c", c}, {"fits", false}, {"resource", e.resource}, {"used", e.used},
                           {"available", e.available}});
          std::printf("  %-20s P=%-3d b=%d c=%d: does not fit: %s %ld > %ld\n", b->name.c_str(), P, fp.rows, c,
                      e.resource.c_str(), e.used, e.available);
          std::fflush(stdout);
          break;
        }
        std::fflush(stdout);
      }
      entry["largest_c"] = best;
      entry["largest_processors"] = best > 0 ? (1 << best) * P : 0;
      entry["tried"] = tried;
      fits.push_back(entry);
      if (best > 0)
        std::printf("  => %s, P = %d, b = %d: largest network c = %d (%d chips, %d processors)\n", b->name.c_str(),
                    P, fp.rows, best, 1 << best, (1 << best) * P);
      else
        std::printf("  => %s, P = %d, b = %d: not even c = 1 fits\n", b->name.c_str(), P, fp.rows);
    }
  }
  out["largest_network"] = fits;
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  std::ofstream(a.out_json) << out.dump(2) << "\n";
  std::printf("\nwrote %s\n", a.out_json.c_str());
  return 0;
}

BuildArgs g_build;
std::string g_flash_dir;
BenchArgs g_bench;

}  // namespace

void register_build_commands(CLI::App& app) {
  auto* b = app.add_subcommand("build", "FPGA flow: board top, synthesis, place and route, bitstream, report");
  b->add_option("config", g_build.config, "network config (JSON)")->required();
  b->add_option("--board", g_build.board, "board name (constraints/boards/NAME.json) or board .json path")->required();
  b->add_option("-o,--out", g_build.out, "output directory")->required();
  b->add_option("--mode", g_build.mode,
                "network: self-test, whole network in one FPGA; chip: self-test of one router chip on "
                "one board; cube: one router chip per FPGA, 2^c boards cabled into a cube (one bitstream, "
                "chip number on strap pins); host: the host-link top (UART + register file)")
      ->check(CLI::IsMember({"network", "chip", "cube", "host"}));
  b->add_option("--freq", g_build.freq, "nextpnr target frequency in MHz (default: the board clock)")
      ->check(CLI::Range(0.1, 1000.0));
  b->add_option("--seed", g_build.seed, "nextpnr placement seed");
  b->add_option("--pattern", g_build.pattern, "self-test pattern (network mode)");
  b->add_option("--pattern-seed", g_build.pattern_seed, "self-test pattern seed");
  b->add_option("--per-proc", g_build.per_proc, "self-test messages per processor (<= queue_depth)");
  b->add_option("--chip-id", g_build.chip_id, "chip mode: this FPGA's chip number");
  b->add_option("--bit-clocks", g_build.bit_clocks, "cube mode: clocks per bit-time (8..64)")->check(CLI::Range(8, 64));
  b->add_option("--go-delay", g_build.go_delay_s, "cube mode: seconds from chip 0's lock to the run (every board must be on by then)")
      ->check(CLI::Range(0.0, 100.0));
  b->callback([] { throw CommandExit{do_build(g_build)}; });

  auto* f = app.add_subcommand("flash", "Program a built bitstream with openFPGALoader");
  f->add_option("dir", g_flash_dir, "build directory (from cmnet build)")->required();
  f->callback([] { throw CommandExit{do_flash(g_flash_dir)}; });

  auto* bf = app.add_subcommand("bench-fpga", "FPGA sizes and Fmax per board; largest network per iCE40 board");
  bf->add_option("-o,--out", g_bench.out_json, "JSON output");
  bf->add_option("--work", g_bench.work, "work directory for the builds");
  bf->add_flag("--quick", g_bench.quick, "fewer parameters");
  bf->add_option("--seed", g_bench.seed, "nextpnr placement seed");
  bf->callback([] { throw CommandExit{do_bench(g_bench)}; });
}

}  // namespace cmnet

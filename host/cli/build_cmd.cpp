// `cmnet build` and `cmnet flash`: the FPGA flow from the command line.
//
//   cmnet build CONFIG --board NAME -o DIR [--mode MODE] [--freq MHZ] [--seed N] [--ignore-loops]
//     Has the config's family emit its board top of MODE (Family::board_top; CM-1: network,
//     chip, cube, host), runs yosys / nextpnr-ice40 / icepack /
//     icetime (iCE40) or the yosys synth_xilinx estimate (xc7), writes DIR/report.txt and
//     DIR/report.json. Exit 0: built, timing met; 3: built, timing NOT met at the target
//     (bitstream written anyway); 4: the design does not fit; 2: other errors.
//   cmnet flash DIR
//     openFPGALoader -b <board> DIR/<top>.bin. Exit 5 when openFPGALoader is missing or no
//     board answers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gen/core/text_file.h"
#include "bitstreams/board.h"
#include "bitstreams/flow.h"
#include "host/cli/commands.h"
#include "host/cli/family.h"
#include "gen/core/errors.h"
#include "gen/core/process.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

struct BuildCmd {
  std::string config, board, out;
  double freq = 0;
  int seed = 1;
  bool ignore_loops = false;
  BuildArgs family;  // what the family's board top takes
};

int do_build(BuildCmd a) {
  const Family* family = nullptr;
  const NetworkConfig cfg = load_network(a.config, &family);
  const Board board = load_board(a.board);
  const auto modes = family->build_modes();
  if (a.family.mode.empty()) a.family.mode = modes.front();
  if (std::find(modes.begin(), modes.end(), a.family.mode) == modes.end()) {
    std::string list;
    for (const auto& m : modes) list += (list.empty() ? "" : ", ") + m;
    throw InputError("--mode " + a.family.mode + ": not a build mode of the " + family->name() +
                     " family (modes: " + list + ")");
  }
  const GeneratedDesign d = family->board_top(cfg, board, a.family);
  FlowOptions fo;
  fo.out_dir = a.out;
  fo.freq_mhz = a.freq;
  fo.seed = a.seed;
  fo.ignore_loops = a.ignore_loops;
  fo.mode = a.family.mode;
  fo.config_json = family->canonical_json(cfg);
  std::printf("cmnet build: %s top %s for %s (%s) in %s\n", a.family.mode.c_str(), d.top.c_str(),
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
  const std::string text = read_file_or_empty(log);
  if (rc != 0) {
    const bool no_board = text.find("device not found") != std::string::npos ||
                          text.find("Failed to claim") != std::string::npos ||
                          text.find("No cable") != std::string::npos ||
                          text.find("unable to open") != std::string::npos;
    const std::string why =
        no_board ? ": no board attached? (no " + board.openfpgaloader_board + " cable answered)" : "";
    std::fprintf(stderr, "cmnet flash: openFPGALoader failed (exit %d)%s:\n%s", rc, why.c_str(), text.c_str());
    return 5;
  }
  std::printf("%s", text.c_str());
  return 0;
}

BuildCmd g_build;
std::string g_flash_dir;

}  // namespace

void register_build_commands(CLI::App& app) {
  auto* b = app.add_subcommand("build", "FPGA flow: board top, synthesis, place and route, bitstream, report");
  b->add_option("config", g_build.config, "network config (JSON)")->required();
  b->add_option("--board", g_build.board, "board name (constraints/boards/NAME.json) or board .json path")->required();
  b->add_option("-o,--out", g_build.out, "output directory")->required();
  b->add_option("--mode", g_build.family.mode,
                "the board top (default: the family's first). CM-1: network: self-test, whole network "
                "in one FPGA; chip: self-test of one router chip on one board; cube: one router chip per "
                "FPGA, 2^c boards cabled into a cube (one bitstream, chip number on strap pins); host: "
                "the host-link top (UART + register file). Other families: host (clos: stream): the stream board; "
                "cm5data, hcube and clos also network: self-test, the network with its leaves played from a ROM and "
                "checked against the model on one board; cm5data also cabled-network, cabled-leaf, cabled-rom-leaf: "
                "the 4-leaf node split over boards");
  b->add_option("--freq", g_build.freq, "nextpnr target frequency in MHz (default: the board clock)")
      ->check(CLI::Range(0.1, 1000.0));
  b->add_option("--seed", g_build.seed, "nextpnr placement seed");
  b->add_flag("--ignore-loops", g_build.ignore_loops,
              "nextpnr --ignore-loops: time a netlist with combinational loops that never close in operation "
              "(hcube wormhole boards); paths through the loops are not all timed");
  b->add_option("--pattern", g_build.family.pattern, "self-test pattern (network mode)");
  b->add_option("--pattern-seed", g_build.family.pattern_seed, "self-test pattern seed");
  b->add_option("--traffic", g_build.family.traffic, "network and cabled modes: the self-test's traffic from a file in the family's own format (cm5data, hcube: cmnet sim's; clos: a connection set) instead of a pattern");
  b->add_option("--per-proc", g_build.family.per_proc, "self-test messages per processor (CM-1: <= queue_depth; cm5data: 1..64 per leaf; hcube: 1..32 per node; clos: 1..64 rounds of permutations)");
  b->add_option("--chip-id", g_build.family.chip_id, "CM-1 chip mode: this FPGA's chip number; cm5data cabled modes: the network board's side (0 left, 1 right) or the leaf board's leaf");
  b->add_option("--bit-clocks", g_build.family.bit_clocks, "CM-1 cube mode: clocks per bit-time; cm5data cabled modes: clocks per cable bit (8..64)")->check(CLI::Range(8, 64));
  b->add_option("--go-delay", g_build.family.go_delay_s, "cube mode: seconds from chip 0's lock to the run (every board must be on by then)")
      ->check(CLI::Range(0.0, 100.0));
  b->callback([] { throw CommandExit{do_build(g_build)}; });

  auto* f = app.add_subcommand("flash", "Program a built bitstream with openFPGALoader");
  f->add_option("dir", g_flash_dir, "build directory (from cmnet build)")->required();
  f->callback([] { throw CommandExit{do_flash(g_flash_dir)}; });

}

}  // namespace cmnet

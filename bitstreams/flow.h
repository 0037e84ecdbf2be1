// The FPGA flow: a generated design + its top + a board -> a bitstream and its reports.
//
//   ice40: yosys synth_ice40 -> nextpnr-ice40 (device, package, generated PCF, --freq,
//          --seed) -> icepack -> icetime. Reports LUTs, FFs, carry cells, RAM blocks,
//          logic cells used/available, Fmax from nextpnr and from icetime. A timing failure
//          at the target frequency is reported (timing.met = false), never hidden; the
//          bitstream is still packed.
//   xc7:   yosys synth_xilinx -family xc7: an ESTIMATE of LUTs, FFs, carry and RAM (no place
//          and route, no Fmax: Vivado is not available here). The generated .xdc and
//          bitstreams/vivado/build_arty.tcl build the real bitstream where Vivado exists.
//
// Writes into the output directory: rtl/ (the design), <top>.pcf or <top>.xdc, synth.ys,
// yosys.log, yosys_stat.json, <top>.json (netlist), nextpnr.log, nextpnr_report.json,
// <top>.asc, <top>.bin, icetime.txt, report.txt and report.json.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bitstreams/board.h"
#include "gen/core/design.h"

namespace cmnet {

// A flow step failed (tool missing, tool error). The message names the step and shows the
// tail of its log.
struct FlowError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The design needs more of a resource than the device has.
struct DoesNotFit : FlowError {
  DoesNotFit(const std::string& msg, std::string res, long used_, long avail)
      : FlowError(msg), resource(std::move(res)), used(used_), available(avail) {}
  std::string resource;  // e.g. "ICESTORM_LC", "SB_IO", "ICESTORM_RAM"
  long used = 0;
  long available = 0;
};

struct FlowOptions {
  std::string out_dir;
  double freq_mhz = 0;      // nextpnr --freq; 0: the board's clock
  int seed = 1;             // nextpnr --seed
  double timeout_s = 3600;  // per tool
  bool run_icetime = true;
  bool quick_estimate = true;  // reject designs with more flip-flops than the device first
  std::string mode;         // "network" / "chip": recorded in the report
  std::string config_json;  // recorded in the report (the network config)
};

struct Resource {
  long used = -1;       // -1: not known
  long available = -1;
};

struct FlowResult {
  std::string board, part, family, top, mode;
  std::string board_file;      // the board .json the build used
  bool estimate_only = false;  // xc7: yosys numbers only
  bool fits = false;
  // yosys cell counts
  long luts = 0;       // SB_LUT4 / LUT1..LUT6
  long ffs = 0;        // SB_DFF* / FD*
  long carries = 0;    // SB_CARRY / CARRY4
  long ram_blocks = 0; // SB_RAM40_4K / RAMB18E1 + RAMB36E1 (as counted by yosys)
  std::map<std::string, long> cells;  // every cell type yosys reported
  long ff_bits_estimate = -1;          // flip-flop bits before mapping (quick estimate)
  // nextpnr utilisation (ice40)
  std::map<std::string, Resource> utilisation;  // ICESTORM_LC, ICESTORM_RAM, SB_IO, ...
  double target_mhz = 0;
  double fmax_nextpnr = 0;   // MHz, 0 when not known
  double fmax_icetime = 0;
  bool timing_met = false;
  std::string bitstream;     // path of <top>.bin (ice40)
  std::map<std::string, double> seconds;  // per step
  std::string out_dir;
};

FlowResult run_flow(const GeneratedDesign& design, const Board& board, const FlowOptions& opt);

// Synthesis only (no place and route), for size figures: the design's Verilog (all but
// `skip_files`) read into yosys, `before_synth` run (e.g. "chparam -set W 8 node"), then `synth`
// (e.g. "synth_ice40", "synth_xilinx -flatten -family xc7") with -top `top`; returns yosys's cell
// counts of the top by type. Writes dir/{rtl/,synth.ys,yosys.log,stat.json}; FlowError on failure.
std::map<std::string, long> synth_cells(const GeneratedDesign& design, const std::string& top, const std::string& synth,
                                        const std::string& dir, const std::string& before_synth = "",
                                        const std::vector<std::string>& skip_files = {});
// iCE40 LUTs and flip-flops per part of `top`, without flattening: yosys `stat` per module, each
// part the total of one module instantiated in `top` (its own cells and its sub-modules',
// times the instance counts), summed over parameterizations of the same module name; the key
// "" holds `top`'s own cells. Modules whose names start with one of `prefixes` count as parts
// (others, e.g. yosys's cells, as the module's own). `before_synth` runs before synth_ice40
// (e.g. "flatten *inner" for generic modules that only shrink to size with constant inputs).
struct PartCells {
  long luts = 0, ffs = 0;
};
std::map<std::string, PartCells> synth_ice40_parts(const GeneratedDesign& design, const std::string& top,
                                                   const std::string& dir, const std::vector<std::string>& prefixes,
                                                   const std::string& before_synth = "");
// Parses yosys's text `stat` output into synth_ice40_parts's result (exposed for tests).
std::map<std::string, PartCells> parse_ice40_parts(const std::string& stat_text, const std::string& top,
                                                   const std::vector<std::string>& prefixes);

// The sum of the counts of the cell types starting with `prefix` ("SB_DFF" counts every flip-flop kind).
long count_cells(const std::map<std::string, long>& cells, const std::string& prefix);

// Reads a finished build's report.json (for `cmnet flash`).
FlowResult read_report(const std::string& dir);

// Parsers, exposed for tests.
std::map<std::string, long> parse_yosys_stat_json(const std::string& text, const std::string& top);
// "Info: Max frequency for clock 'clk': 75.71 MHz (PASS at 12.00 MHz)": the last such line.
double parse_nextpnr_fmax(const std::string& log, bool* pass = nullptr);
std::map<std::string, Resource> parse_nextpnr_utilisation(const std::string& log);
double parse_icetime_fmax(const std::string& text);
// Sum of width x count over the $*dff* cells of `yosys stat -width` (last module block).
long parse_yosys_ff_bits(const std::string& stat_width_text);

std::string report_text(const FlowResult& r);
std::string report_json(const FlowResult& r, const FlowOptions& opt);

// Path of an executable in PATH, or "" (for clear "tool not found" errors).
std::string find_tool(const std::string& name);

}  // namespace cmnet

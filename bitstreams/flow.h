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
  // nextpnr --ignore-loops: time a design whose netlist has combinational loops that never close
  // in operation (hcube's wormhole network: a byte's acceptance runs along the worm, and a node's
  // channels may be owned by any input); the paths through the loops are then not all timed.
  bool ignore_loops = false;
};

struct Resource {
  long used = -1;       // -1: not known
  long available = -1;
};

// A placement's critical path: its delay, the logic cells it crosses, and where it starts and
// ends, each a cell's name up to the suffix the mapper added ("ctrl.engine0.leaves.head[4]_SB_
// LUT4_..._LC" -> "ctrl.engine0.leaves.head[4]"). ns 0 when nextpnr reported none.
struct CriticalPath {
  double ns = 0;
  int cells = 0;
  std::string from, to;
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
  CriticalPath critical_path;  // nextpnr's (ice40)
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

// One module placed alone on an iCE40, for a block's LUTs, flip-flops and Fmax (a router chip, a
// node, a switch) where no board top exists. Synthesis of the module alone gives the cell counts;
// place and route gives the logic cells and Fmax. A module with more port bits than the package has
// pins (or always, with wrap = Always) is placed inside a wrapper `cmnet_place_wrap`: every input
// bit comes from a shift chain fed by one pin, every output bit is XOR-folded into a shift chain
// read by one pin. Nothing can be optimised away, paths into and out of the module start and end at
// flip-flops, and the wrapper adds one flip-flop per port bit and one LUT per output bit (the
// wrapper's cells are reported apart, in wrapper_ffs).
struct ModulePlaceOptions {
  std::string dir;                        // work directory (created, kept: logs, netlist)
  std::string before_synth;               // yosys commands after reading, e.g. "chparam -set W 8 node"
  std::vector<std::string> skip_files;    // Verilog files of the design not to read
  std::string device = "hx8k", package = "ct256";
  int max_pins = 180;                     // port bits placed on pins directly, at most (Auto)
  enum class Wrap { Auto, Always, Never } wrap = Wrap::Auto;
  std::string clock = "clk";              // the module's clock input (a pin in the wrapper too)
  double freq_mhz = 100;                  // nextpnr --freq (a miss is reported in timing_met, not thrown)
  int seed = 1;
  // Several placements of the one synthesis, one per nextpnr seed (empty: `seed` alone); the
  // ModulePlacement's fields are the first seed's, `runs` holds every seed's.
  std::vector<int> seeds;
  // A module too large for the device returns (placed = false, not_fit set) instead of throwing
  // DoesNotFit: for a bench where "does not fit" is a result.
  bool no_fit_is_result = false;
  bool place = true;                      // false: the synthesis counts only
  double timeout_s = 1800;                // per tool
};
struct ModulePlacement {
  std::string top;
  long luts = 0, carries = 0, ffs = 0, ram_blocks = 0;  // the module alone (yosys synth_ice40)
  std::map<std::string, long> cells;
  int in_bits = 0, out_bits = 0;          // port bits, the clock excluded
  bool wrapped = false;
  long wrapper_ffs = 0;                   // flip-flops the wrapper added (in logic_cells, not in ffs)
  bool placed = false;
  long logic_cells = -1, logic_cells_available = -1;  // nextpnr ICESTORM_LC
  double fmax_mhz = 0;                    // nextpnr's for `clock`
  bool timing_met = false;                // at freq_mhz
  std::string nextpnr_log;                // path
  struct SeedRun {
    int seed = 1;
    long logic_cells = -1;
    double fmax_mhz = 0;
    bool timing_met = false;
    CriticalPath critical;
  };
  std::vector<SeedRun> runs;              // one per placed seed, in the order given
  std::string not_fit;                    // no_fit_is_result: "ICESTORM_LC 13434 used, 7680 available"
};
// FlowError naming the step and the log when a tool fails, a port is inout, or the clock is missing.
ModulePlacement place_module_ice40(const GeneratedDesign& design, const std::string& top, const ModulePlaceOptions& opt);
// The wrapper's Verilog for `top` with these ports (name, direction "input"/"output", width),
// exposed for tests. Ports other than the clock are connected to the chains in the given order.
struct PortBits {
  std::string name, direction;
  int width = 1;
};
std::string place_wrapper_verilog(const std::string& top, const std::vector<PortBits>& ports, const std::string& clock);
// The ports of `top` from yosys's write_json text (after hierarchy and chparam), in port order.
std::vector<PortBits> parse_yosys_ports(const std::string& json_text, const std::string& top);

// The sum of the counts of the cell types starting with `prefix` ("SB_DFF" counts every flip-flop kind).
long count_cells(const std::map<std::string, long>& cells, const std::string& prefix);

// Reads a finished build's report.json (for `cmnet flash`).
FlowResult read_report(const std::string& dir);

// Parsers, exposed for tests.
std::map<std::string, long> parse_yosys_stat_json(const std::string& text, const std::string& top);
// "Info: Max frequency for clock 'clk': 75.71 MHz (PASS at 12.00 MHz)": the last such line.
double parse_nextpnr_fmax(const std::string& log, bool* pass = nullptr);
// nextpnr's critical path report of the clock (posedge -> posedge; the last one in the log):
// its delay, the logic cells it crosses and where it starts and ends (CriticalPath).
CriticalPath parse_nextpnr_critical_path(const std::string& log);
std::map<std::string, Resource> parse_nextpnr_utilisation(const std::string& log);
double parse_icetime_fmax(const std::string& text);
// Sum of width x count over the $*dff* cells of `yosys stat -width` (last module block).
long parse_yosys_ff_bits(const std::string& stat_width_text);

std::string report_text(const FlowResult& r);
std::string report_json(const FlowResult& r, const FlowOptions& opt);

// Path of an executable in PATH, or "" (for clear "tool not found" errors).
std::string find_tool(const std::string& name);

}  // namespace cmnet

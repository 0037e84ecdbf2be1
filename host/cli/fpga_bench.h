// `cmnet bench-fpga`: every family's hardware blocks on the iCE40 HX8K in one table and one JSON.
// A family lists its blocks (Family::fpga_blocks: a name, its ports, the paper's clock and how to
// measure it); this file runs them (in parallel, each at several nextpnr seeds), and writes the
// table and the JSON once for all families.
//
// LUT4 per port bit = the block's SB_LUT4 count / (ports x bits per port), where a port is one
// link of the block (both directions counted once) and its bits are the link's data width in
// one direction: CM-1's links are 1 bit, the CM-5 data network's 4, a hypercube channel 8.
// Hoplite's class: about 0.6 LUT per port bit (a 32-bit deflection router without buffers).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bitstreams/flow.h"
#include "gen/core/design.h"

namespace CLI {
class App;
}

namespace cmnet {

struct FpgaRunOptions {
  std::string dir;          // the block's work directory
  std::vector<int> seeds;   // nextpnr seeds, one place and route each
  double freq_mhz = 100;    // nextpnr's target (the Fmax reported is what it reached)
};

// One block's figures: the synthesis counts (yosys synth_ice40) and one Fmax per seed.
struct FpgaMeasurement {
  enum class Status { Placed, DoesNotFit, Error } status = Status::Error;
  std::string detail;  // DoesNotFit: what ("ICESTORM_LC 13434 used, 7680 available"); Error: the message
  long luts = -1, ffs = -1, ram_blocks = -1, logic_cells = -1, logic_cells_available = -1;
  bool wrapped = false;  // placed in the shift-chain wrapper (bitstreams/flow.h)
  struct Seed {
    int seed = 1;
    double fmax_mhz = 0;
    CriticalPath critical;  // what limits fmax_mhz (nextpnr's report)
  };
  std::vector<Seed> fmax;  // placed: one per seed
};

struct FpgaBlock {
  std::string name;              // the table's row, e.g. "chip, 2 parents, FIFO inputs"
  std::string how;               // how it is measured, one line
  int ports = 0, port_bits = 0;  // for LUT4 per port bit (above); 0: no such figure (not a router)
  double paper_mhz = 0;          // the paper's clock for this block; 0: it gives none
  std::string paper_clock;       // where the paper says so
  std::function<FpgaMeasurement(const FpgaRunOptions&)> measure;
};

// A module placed alone (bitstreams/flow.h place_module_ice40): the design, its top and the yosys
// commands that set its parameters.
struct PlaceableModule {
  GeneratedDesign design;
  std::string top, before_synth;
  std::vector<std::string> skip_files;
};
// place_module_ice40's options for `m` (work directory `dir`, the rest default).
ModulePlaceOptions module_place_options(const PlaceableModule& m, const std::string& dir);
// `m` synthesized once and placed at every seed; "does not fit" is a result.
FpgaMeasurement measure_module(const PlaceableModule& m, const FpgaRunOptions& o);
// A board top through the whole flow (bitstreams/flow.h run_flow) on `board` once per seed
// (ignore_loops: FlowOptions::ignore_loops).
FpgaMeasurement measure_board_top(const GeneratedDesign& top, const Board& board, const std::string& mode,
                                  const std::string& config_json, const FpgaRunOptions& o, bool ignore_loops = false);

// The report: a block, its family and its figures.
struct FpgaBenchRow {
  std::string family;
  FpgaBlock block;
  FpgaMeasurement m;
};
// LUT4 / (ports x port_bits); < 0 when the block has no such figure or was not synthesized.
double lut4_per_port_bit(const FpgaBlock& b, const FpgaMeasurement& m);
// The Markdown table (one row per block) and the JSON of the whole run.
std::string fpga_bench_table(const std::vector<FpgaBenchRow>& rows, const std::vector<int>& seeds);
// What limits each placed block at its first seed, a Markdown list line per block: "block: 25.4 ns
// over 22 logic cells, from ctrl.engine0.leaves.head[4] to ctrl.engine0.status.output_vector[0]".
std::string fpga_bench_critical_paths(const std::vector<FpgaBenchRow>& rows);
nlohmann::ordered_json fpga_bench_json(const std::vector<FpgaBenchRow>& rows, const std::vector<int>& seeds,
                                       double freq_mhz);
// A block's measurement back from fpga_bench_json's "blocks" entry (for --resume).
FpgaMeasurement fpga_measurement_from_json(const nlohmann::ordered_json& block);

// `cmnet bench-fpga [--family F]... [--block TEXT]... [--seeds N] [-o DIR] [--work DIR] [--jobs N] [--resume]`. The
// table and JSON are rewritten after every block (the blocks measured so far); --resume keeps the
// blocks DIR/bench-fpga.json already has at the same seeds (placed or not fitting), of every
// family, and measures the selected families' others, so an interrupted run goes on where it
// stopped.
void add_bench_fpga_command(CLI::App& app);

}  // namespace cmnet

// Runs the multi-board top (gen/cm1/cm1_cube_board_emitter.h) as 2^c boards in one Verilator
// process (sim/cm1/cm1_cube_main.cpp): each board its own oscillator and power-on time, cables
// with delays, inputs sampled with a metastability window. The design is the very one the
// flow synthesizes (pass the emitted design or read_design() of a build's rtl/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_emitter.h"

namespace cmnet {

struct CubeSimOptions {
  double clock_mhz = 12;            // nominal oscillator
  std::vector<double> ppm;          // per board: oscillator error (empty: 0 for all)
  std::vector<double> start_us;     // per board: power-on time (empty: all at 0)
  double cable_ns = 5;              // every cube wire
  double sync_ns = 5;               // the sync bus, chip 0 to each board
  double meta_ns = 0.2;             // a wire changing this close to a clock edge is sampled at random
  uint64_t seed = 1;
  double max_us = 20000;            // give up (boards still running) after this much simulated time
  struct Swap { int chip, dim_a, dim_b; };
  std::vector<Swap> swaps;          // faults: crossed cube_in wires on a board
  std::vector<int> no_sync;         // faults: boards whose sync_in is not cabled
  double timeout_s = 600;           // wall-clock limit for the harness process
  std::string trace_file;           // an FST waveform of one board ("" = none), time in ps
  int trace_board = 0;              // which board
  uint64_t trace_from = 0, trace_to = UINT64_MAX;  // window: that board's clock cycles after power-on
};

struct CubeBoardResult {
  int chip = 0;
  std::string state;    // "pass", "fail" or "running"
  uint64_t cycles = 0;  // the board's clocks until its LEDs showed the result (or in all)
  std::string why;      // the top's check flags and reception figures (for a failure report)
};

struct CubeSimResult {
  std::vector<CubeBoardResult> boards;  // by chip number
  double end_us = 0;                    // simulated time at the end
  bool all_pass() const;
};

// `design` must have top cm1_cube_board_top, emitted without a reset button and with 3
// active-high LEDs; c is read from its cube_out port. Throws std::invalid_argument for bad
// options or designs (naming them) and std::runtime_error when the harness fails.
CubeSimResult run_cube_boards(const GeneratedDesign& design, const CubeSimOptions& opt);
// c of a cm1_cube_board_top design (the width of its cube_out port).
int cube_top_dims(const GeneratedDesign& design);

}  // namespace cmnet

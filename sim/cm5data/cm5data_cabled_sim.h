// Runs the CM-5 data network split over boards (gen/cm5data/cm5data_cabled.h) as its boards in
// one Verilator process (sim/core/multiboard_main.cpp): the two network boards and a board per leaf,
// each with its own oscillator error and power-on time, cables with a delay, inputs sampled with
// a metastability window. The boards are the very tops the flow synthesizes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/core/design.h"

namespace cmnet {

struct Cm5CabledSimOptions {
  double clock_mhz = 12;         // nominal oscillator
  std::vector<double> ppm;       // per board (0, 1 the left, right network, 2 + g leaf g): error (empty: 0)
  std::vector<double> start_us;  // per board: power-on time (empty: all at 0)
  double cable_ns = 5;           // every cable wire
  double meta_ns = 0.2;          // a wire changing this close to a clock edge is sampled at random
  uint64_t seed = 1;
  std::vector<int> cut;          // faults: cable wires (cm5_cabled_wiring's bits) whose receiver reads 0
  double timeout_s = 600;        // wall-clock limit for the harness process
  std::string trace_file;        // an FST waveform of every board ("" = none), time in ps
};

struct Cm5CabledBoard {
  int board = 0;
  std::string role;     // "left", "right" (the network boards) or "leaf G"
  std::string state;    // "pass", "fail" or "running"
  uint64_t cycles = 0;  // its clocks until its LEDs showed the result (or in all)
};

struct Cm5CabledResult {
  std::vector<Cm5CabledBoard> boards;
  double end_us = 0;
  bool all_pass() const;
};

// The boards' spread for a seed: per board an oscillator error within +-100 ppm and a power-on
// time within 100 us (fills only what `s` leaves empty), and the metastable samples' seed.
void cm5_cabled_spread(Cm5CabledSimOptions& s, uint64_t seed, size_t boards);

// `design`: emit_cm5data_cabled(..., Cm5CabledTop::kSim, ...). Throws std::invalid_argument for
// bad options, std::runtime_error when the harness fails.
Cm5CabledResult run_cm5_cabled(const GeneratedDesign& design, const Cm5CabledSimOptions& opt);

}  // namespace cmnet

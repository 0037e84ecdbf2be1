// `cmnet cube` as a library: the multi-board top (emitted, or a build directory's rtl/ with the
// self-test it was built with) run as 2^c simulated boards (sim/cm1/cm1_cube_sim.h), optionally
// again over a range of cable delays to find the window the boards tolerate. The CLI
// (host/cli/cm1/cm1_cube.cpp) parses options and prints what this returns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gen/cm1/cm1_config.h"
#include "sim/cm1/cm1_cube_sim.h"

namespace cmnet {

struct CubeRunRequest {
  std::string pattern = "permutation";
  std::string rtl;                  // a build directory (or its rtl/) instead of an emitted top
  uint64_t seed = 1;
  int per_proc = 1, bit_clocks = 8, go_delay = 16;
  double clock_mhz = 12, cable_ns = 10, max_us = 20000;
  std::vector<double> ppm;          // per board; empty: a fixed spread of +-100 ppm
  bool sweep = false;               // also run every cable delay of 0..K+1 clocks
  std::string trace;                // an FST waveform of one board ("" = none)
  int trace_board = 0;
  uint64_t trace_from = 0, trace_to = UINT64_MAX;
};

struct CubeSweepPoint {
  int clocks = 0;
  double cable_ns = 0;
  bool pass = false;
};

struct CubeRun {
  size_t boards = 0;
  std::string pattern;              // the self-test as built (an --rtl top's own)
  uint64_t seed = 0;
  int bit_clocks = 0;
  uint64_t messages = 0, run_petit = 0;  // the model's expectation
  CubeSimOptions sim;               // as run (ppm and power-on times filled in)
  CubeSimResult result;
  std::vector<CubeSweepPoint> sweep;
  int tolerated_lo = -1, tolerated_hi = -1;  // the passing cable delays, in clocks (-1: none)
};

// InputError for bad requests (a --rtl that is not a cube top build, a --ppm list of the wrong
// length, a trace that is not .fst). `on_point` is called after each sweep point (progress).
CubeRun run_cube_selftest(const Cm1Config& cfg, const CubeRunRequest& req,
                          const std::function<void(const CubeSweepPoint&)>& on_point = {});

}  // namespace cmnet

// Figure 12 of the CM-1 router paper (section 4.1) on the reference model: petit cycles to
// route random permutations as a function of the virtual-processor ratio v, against the
// lower bound, plus wire utilization, the one-message-ejector slowdown and the model's speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_params.h"

namespace cmnet {

struct Cm1Fig12Row {
  int v = 1;                 // VP ratio: messages per processor (per_proc)
  int vp_bits = 0;           // VP-ADDRESS bits used for this row (ceil(log2 v), at least params.vp_bits)
  uint64_t messages = 0;     // processors * v
  uint64_t petit_or = 0;     // petit cycles, OR-combining ejector
  bool completed_or = false;
  double lower_bound = 0;    // P*v/2 petit cycles (the paper's 2^15 v / 2^12 = 8v for P = 16)
  double ratio = 0;          // petit_or / lower_bound
  uint64_t bit_times = 0;    // delivery_bit_times(petit_or)
  uint64_t crossings = 0;    // OR mode
  uint64_t desperation = 0;  // OR mode
  double utilization = 0;    // sum(dim_busy) / (chips * c * bit_times), OR mode
  uint64_t petit_one = 0;    // petit cycles, one-message ejector (0 if not run)
  bool completed_one = false;
  double slowdown = 0;       // petit_one / petit_or
  double seconds = 0;        // model run time of both runs (not the pattern generation)
};

struct Cm1Fig12 {
  Cm1Params params;
  uint64_t seed = 0;
  std::vector<Cm1Fig12Row> rows;
  // Model speed over all runs: messages delivered and cube-wire hops per second of model time.
  double seconds = 0;
  uint64_t messages = 0;
  uint64_t hops = 0;
  double messages_per_second = 0;
  double hops_per_second = 0;
};

// The paper's machine: c = 12, P = 16, b = 7, d = 32, v = 0.
Cm1Params cm1_figure12_params();

// Runs random permutation traffic (make_pattern("permutation", ..., seed, v)) for
// v = 1..v_max on the model, in OR mode and (if one_message) in one-message mode.
Cm1Fig12 cm1_figure12(const Cm1Params& params = cm1_figure12_params(), int v_max = 8, uint64_t seed = 1989,
                      bool one_message = true);

// A text table of the result (one line per v, then the model speed).
std::string format_cm1_figure12(const Cm1Fig12& f);

}  // namespace cmnet

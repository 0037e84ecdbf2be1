// Cycle-level reference model of the CM-1 message router network, written from the paper
// (Kahle, Kuszmaul, Hillis 1989, section 3), independently of the RTL. It steps whole petit
// cycles: injector, c heart columns (one dimension cycle each, all chips in lockstep), ejector.
#pragma once

#include <cstdint>
#include <vector>

#include "gen/cm1_params.h"
#include "sim/traffic.h"

namespace cmnet {

// One message as it reached its processor.
struct Cm1Delivery {
  size_t msg = 0;          // index into Traffic::messages
  uint64_t petit = 0;      // petit cycle (0-based) whose ejector delivered it
  uint32_t rx_vp = 0;      // what the processor received: OR over all messages ejected
  uint64_t rx_data = 0;    //   to the same processor in the same petit cycle (OR mode)
  int combined = 1;        // how many messages were OR-ed into that reception
};

struct Cm1ChipCounters {
  uint64_t injected = 0;      // processor messages accepted by the injector
  uint64_t delivered = 0;     // messages ejected to a processor (each combined message counts)
  uint64_t desperation = 0;   // desperation-routed messages (case 3 of Figure 9)
  uint64_t petit_cycles = 0;  // petit cycles run
  uint64_t parity_errors = 0;
  std::vector<uint64_t> dim_busy;  // per dimension: bit-times the outgoing cube wire carried a message
};

struct Cm1RunResult {
  std::vector<Cm1Delivery> deliveries;  // in order of (petit, chip, row)
  std::vector<Cm1ChipCounters> chips;
  uint64_t petit_cycles = 0;  // petit cycles until every message was delivered
  uint64_t bit_times = 0;     // Cm1Params::delivery_bit_times(petit_cycles)
  uint64_t crossings = 0;     // cube-wire crossings, all chips and dimensions
  uint64_t desperation = 0;
  bool completed = false;     // false when max_petit was reached first
};

struct Cm1ModelOptions {
  uint64_t max_petit = 100000;  // stop (completed = false) after this many petit cycles
};

Cm1RunResult run_cm1_model(const Cm1Params& p, const Traffic& t, EjectMode mode,
                           const Cm1ModelOptions& opt = {});

}  // namespace cmnet

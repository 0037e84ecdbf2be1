// Cycle-level reference model of the CM-1 message router network, written from the paper
// (Kahle, Kuszmaul, Hillis 1989, section 3), independently of the RTL. It steps whole petit
// cycles: injector, c heart columns (one dimension cycle each, all chips in lockstep), ejector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <vector>

#include "gen/cm1/cm1_params.h"
#include "sim/cm1/cm1_traffic.h"

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

// Readable forms for test failures (gtest prints with them), e.g. "{msg 3, petit 4, rx vp 0,
// rx data 0xfffe, combined 2}".
std::ostream& operator<<(std::ostream& os, const Cm1Delivery& d);
std::ostream& operator<<(std::ostream& os, const Cm1ChipCounters& c);

struct Cm1RunResult {
  std::vector<Cm1Delivery> deliveries;  // in order of (petit, chip, row)
  std::vector<Cm1ChipCounters> chips;
  uint64_t petit_cycles = 0;  // petit cycles until every message was delivered
  uint64_t bit_times = 0;     // Cm1Params::delivery_bit_times(petit_cycles)
  uint64_t crossings = 0;     // cube-wire crossings, all chips and dimensions
  uint64_t desperation = 0;
  bool completed = false;     // false when max_petit was reached first
};

// One chip's occupied rows at one point of a petit cycle, for tracing and tests.
enum class Cm1Stage {
  kInjected,  // after the injector: buffered messages then newly injected ones
  kColumn,    // after heart column `column` (crossings and arrivals of dimension `column` done)
  kBuffered,  // after the ejector: the messages kept for the next petit cycle
};

struct Cm1TraceRow {
  size_t msg = 0;     // index into Traffic::messages
  uint32_t addr = 0;  // relative CUBE-ADDRESS at this point
};

struct Cm1TraceEvent {
  uint64_t petit = 0;
  Cm1Stage stage = Cm1Stage::kInjected;
  int column = -1;  // heart column for kColumn, else -1
  int chip = 0;
  std::vector<Cm1TraceRow> rows;  // rows 0..n-1 (always packed)
};

struct Cm1ModelOptions {
  uint64_t max_petit = 100000;  // stop (completed = false) after this many petit cycles
  // When set, called for every chip at every stage of every petit cycle (slow; for debugging
  // RTL/model mismatches and for tests). Chips in increasing order within a stage.
  std::function<void(const Cm1TraceEvent&)> trace;
};

// The heart's routing decision at one chip for one column (Figure 9). `addrs` holds the
// relative CUBE-ADDRESSes of the messages in rows 0..count-1 (count <= rows). Returns the row
// whose message crosses dimension `dim`, or -1 when nobody crosses; *desperation is set when
// that message does not want the dimension (all `rows` rows full and nobody wants it).
int cm1_column_choice(const uint32_t* addrs, int count, int rows, int dim, bool* desperation);

Cm1RunResult run_cm1_model(const Cm1Params& p, const Traffic& t, EjectMode mode,
                           const Cm1ModelOptions& opt = {});

}  // namespace cmnet

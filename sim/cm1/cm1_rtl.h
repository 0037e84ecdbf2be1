// Runs a routing pattern on the generated CM-1 network RTL (Verilator) and reads back what
// every processor received and every router's counters.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "gen/cm1/cm1_config.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

// One reception at a processor: what arrived on its ejector wire in one petit cycle.
struct Cm1Reception {
  uint32_t group = 0;     // which run of a grouped pattern (run_cm1_rtl_groups)
  uint64_t petit = 0;
  uint64_t bit_time = 0;  // bit-time (from the start of petit cycle 0) rx completed
  uint32_t dst = 0;       // global processor
  uint32_t vp = 0;
  uint64_t data = 0;
  bool operator<(const Cm1Reception& o) const;
  bool operator==(const Cm1Reception& o) const;  // ignores bit_time
};
// "{dst 17, petit 4, vp 0, data 0xfffe}" (the compared fields; gtest prints with it).
std::ostream& operator<<(std::ostream& os, const Cm1Reception& r);

struct Cm1Fault {
  uint64_t bit_time = 0;  // from the start of petit cycle 0
  uint32_t chip = 0;      // the receiving chip
  uint32_t dim = 0;
};

// Clocks with the chips' ce low before a bit-time of the first group (inputs carry noise).
struct Cm1Freeze {
  uint64_t bit_time = 0;  // from the start of petit cycle 0
  uint32_t clocks = 0;
};

struct Cm1RtlOptions {
  uint64_t max_petit = 10000;
  std::vector<Cm1Fault> faults;
  double timeout_s = 600;
  // false: 2^c verilated cm1_chip models wired in C++ (scales to c = 8 and beyond);
  // true: the whole emitted cm1_network top in one model (its Verilog wiring; small c only).
  bool whole_network = false;
  // The chips' clock enable (chip-composed harness only; cm1_network ties it to 1): high every
  // ce_period-th clock, and a nonzero ce_seed drops half of those at random; freezes add
  // clocks with ce low. In those clocks the harness feeds the chips noise and checks that
  // their outputs hold. Results count ce cycles, so they are those of ce tied to 1.
  uint32_t ce_period = 1;
  uint64_t ce_seed = 0;
  std::vector<Cm1Freeze> freezes;
  bool ce_gated() const { return ce_period != 1 || ce_seed != 0 || !freezes.empty(); }
  // An FST waveform of the run (GTKWave opens it), bit-times trace_from..trace_to. Traced runs
  // use the whole emitted network top (one model: its hierarchy is the emitted one).
  std::string trace_file;
  uint64_t trace_from = 0, trace_to = UINT64_MAX;
};

struct Cm1RtlRun {
  std::vector<Cm1Reception> receptions;      // sorted
  std::vector<Cm1ChipCounters> chips;        // read from the routers' counter banks
  uint64_t petit_cycles = 0;  // of the last group
  uint64_t bit_times = 0;
  bool completed = false;     // every group completed
  std::vector<uint64_t> group_petit_cycles;
  uint64_t sim_cycles = 0;    // bit-times simulated while routing (not loading), all groups
  double sim_seconds = 0;     // wall time of those bit-times inside the harness
  uint64_t idle_clocks = 0;   // clocks run with ce low after reset (Cm1RtlOptions::ce_*, freezes)
  uint64_t idle_changes = 0;  // of those, the clocks in which some chip's output changed
};

// Runs each traffic as a separate group in one simulation: group k starts when group k-1
// has been delivered (counters accumulate; petit cycles count from each group's start).
Cm1RtlRun run_cm1_rtl_groups(const Cm1Config& cfg, const std::vector<Traffic>& groups,
                             EjectMode mode, const Cm1RtlOptions& opt = {});
Cm1RtlRun run_cm1_rtl(const Cm1Config& cfg, const Traffic& t, EjectMode mode,
                      const Cm1RtlOptions& opt = {});

// The receptions the model's deliveries imply (one per OR-combined group), sorted.
std::vector<Cm1Reception> receptions_from_model(const Cm1Params& p, const Traffic& t,
                                                const Cm1RunResult& r);

struct Cm1CreditOptions {
  // kOnePerPetit: each reception is exactly one message; kOrCombine: the OR of one or more.
  EjectMode mode = EjectMode::kOrCombine;
  // Search nodes per destination processor, for finding an assignment and again for proving
  // which receptions are ambiguous (few are needed unless many messages meet at a hot spot).
  uint64_t max_steps = 100000;
};

// How receptions were credited to messages (credit_receptions).
struct Cm1Crediting {
  std::vector<Cm1Delivery> deliveries;  // in reception order; messages never credited are absent
  // Receptions that another exact assignment credits to other messages (OR-combined data may
  // not tell who sent what), and the messages that assignment credits elsewhere. Where the
  // search bound stopped a proof, a reception counts as ambiguous.
  std::vector<Cm1Reception> ambiguous;
  std::vector<size_t> ambiguous_messages;  // increasing
  // Receptions whose data is not the OR of the messages credited to them (none fits, e.g. a
  // bit flipped on a wire, or the greedy fallback below got it wrong).
  std::vector<Cm1Reception> unexplained;
  // Destination processors for which no exact assignment was found (none exists, or the search
  // hit max_steps): credited greedily, each reception taking the earliest waiting messages it
  // covers, as before issue 15. Their ambiguity is not reported.
  std::vector<uint32_t> greedy_dsts;
  bool bounded = false;  // some search hit max_steps (greedy_dsts, or ambiguity not proved)
  bool exact() const { return unexplained.empty() && greedy_dsts.empty(); }
};

// Credits RTL receptions (of one group: the run of `t`) to messages: the message format has no source
// address, so the senders are inferred from the data. Every reception is explained exactly
// where possible: its VP and DATA are the OR of the messages credited to it (one message in
// kOnePerPetit), all to its processor, each message credited at most once, and a source's
// k-th message no earlier than petit cycle k (a processor injects one message per petit
// cycle). In OR mode every message that fits some reception is credited (a completed run
// delivered them all). Among several exact assignments one is picked (the receptions covered
// by the messages with fewest choices, the rest added to their earliest fitting reception)
// and the receptions and messages they differ on are reported as ambiguous.
Cm1Crediting credit_receptions(const Cm1Params& p, const Traffic& t,
                               const std::vector<Cm1Reception>& rx,
                               const Cm1CreditOptions& opt = {});

// credit_receptions(p, t, rx).deliveries (OR mode): the deliveries in the model's format.
std::vector<Cm1Delivery> deliveries_from_receptions(const Cm1Params& p, const Traffic& t,
                                                    const std::vector<Cm1Reception>& rx);

}  // namespace cmnet

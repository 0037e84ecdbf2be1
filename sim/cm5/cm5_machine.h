// The CM-5 machine on two engines: the data network (left and right, an NI per leaf and side)
// and the control network over the same leaves, router-done fed by each leaf's interface
// counter, its processors running sim/cm5/cm5_proc.h's program on the NIs' buses.
//  - the model: the cm5data model (Cm5DataNetwork x 2, Cm5DataNi per leaf through its register
//    adapter) and the cm5ctl model (Cm5ctlStepper) in lockstep, cycle by cycle, the counters
//    taken from the data model's interfaces by the paper's contract (section 5: "the network
//    interfaces keep track of the number of messages that enter and leave the data network"):
//    + a message accepted into an NI's send FIFO, - a message whole in an NI's receive FIFO,
//    both sides; the events of cycle t count from cycle t + 1;
//  - the RTL: cm5_machine (gen/cm5/cm5_emitter.h) under Verilator (sim/cm5/cm5_machine_main.cpp).
// Both return every message the processors read, every change of every leaf's counter, every
// push and result of the control network, with cycles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm5/cm5_config.h"
#include "sim/cm5/cm5_proc.h"
#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

struct Cm5MachineMessage {
  uint32_t src = 0, dst = 0;
  int side = 0;  // 0: left network (requests), 1: right (replies)
  int tag = 0;
  std::vector<uint32_t> data;
  uint64_t release = 0;  // its processor offers it from this cycle on (after the ones before it)
};

// A fault on a leaf's counter: in `cycle` the hook arms it (lose_next / dup_next high); the next
// message whole at that leaf's interface, either side, from the cycle after on, is not counted
// (lost) or counted twice (duplicated).
struct Cm5MachineFault {
  uint64_t cycle = 0;
  uint32_t leaf = 0;
  bool duplicate = false;
};

struct Cm5MachineWorkload {
  std::vector<Cm5MachineMessage> messages;  // each processor's in this order
  Cm5Workload ctl;                          // control network operations (its counters: none)
  std::vector<Cm5MachineFault> faults;
};

struct Cm5MachineReceived {
  uint32_t leaf = 0;
  int side = 0;
  cm5mach::Incoming msg;
  bool operator==(const Cm5MachineReceived&) const = default;
};

struct Cm5CounterChange {
  uint32_t leaf = 0;
  uint64_t cycle = 0;  // rd_count has this value from this cycle on
  int64_t value = 0;   // signed, word_bits bits
  bool operator==(const Cm5CounterChange&) const = default;
};

struct Cm5MachineRun {
  std::vector<Cm5MachineReceived> received;  // in order of cycle, side, leaf
  std::vector<Cm5CounterChange> counters;    // in order of cycle, leaf
  std::vector<Cm5Result> results;            // the control network's, cycle then leaf
  std::vector<std::vector<uint64_t>> injected;  // [leaf]: the cycle each push was accepted
  uint64_t cycles = 0;
  uint64_t last_send = 0;     // the cycle of the last SEND write (0: none)
  // Model only: the cycle the last message was whole in a receive FIFO (0: none).
  uint64_t last_arrival = 0;
  bool fault = false;  // the control network's design fault or a broadcast drop (never, if all is well)
};

struct Cm5MachineOptions {
  uint64_t max_cycles = 20000;
  uint64_t drain_cycles = 0;  // after everything is done (0: 4 control packet times)
  TraceWindow trace;          // RTL: an FST waveform
};

// Throws InputError on a bad workload (leaf or side out of range, empty or too long data, a
// counter event in ctl).
void check_machine_workload(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w);
// Runs until every message is read by its receiver and every control result is presented, then
// drain cycles, or max_cycles.
Cm5MachineRun run_cm5_machine_model(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w,
                                    const Cm5MachineOptions& opt = {});
// Runs exactly `cycles` cycles (the model's count, to compare).
Cm5MachineRun run_cm5_machine_rtl(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w, uint64_t cycles,
                                  const Cm5MachineOptions& opt = {});
// "" when the runs agree (every message read, counter change, push and result, cycles
// included), else the first difference.
std::string compare_machine_runs(const Cm5MachineRun& model, const Cm5MachineRun& rtl);

// The router-done operation every leaf pushes (kind reduce, comb 7), released at `release`.
Cm5Op router_done_op(uint64_t release);
// A traffic pattern: every leaf sends `per_leaf` messages on each network (left and right) to
// pseudorandom leaves, 1..max_words words (the first the source, as the NI's convention), all
// released at cycle 0; router-done pushed by every leaf at `rd_release` (at once).
Cm5MachineWorkload cm5_machine_traffic(const Cm5MachineConfig& cfg, int per_leaf, uint64_t seed, uint64_t rd_release);

// The scenarios of `cmnet sim` and the tests, by name: "router-done" (cm5_machine_traffic with
// router-done pushed by every leaf in the same cycle, the one after the last processor's last
// SEND: the paper's processor pushes it once it has sent all its messages; the data traffic does
// not depend on the control network, so one model run finds that cycle), "lost" and "duplicated"
// (the same with a hook aimed at the last arrival: armed in a cycle from which the next message
// whole at that leaf is exactly the last one).
std::vector<std::string> cm5_machine_patterns();
Cm5MachineWorkload cm5_machine_scenario(const Cm5MachineConfig& cfg, const std::string& pattern, int per_leaf, uint64_t seed);
// The hook aimed at a run's last arrival: that leaf's counter changes last at last_arrival + 1;
// its change before came at p, so nothing happened there in cycles p .. last_arrival - 1, and a
// hook armed in p - 1 counts from p.
Cm5MachineFault cm5_aim_at_last_arrival(const Cm5MachineRun& r, bool duplicate);

}  // namespace cmnet

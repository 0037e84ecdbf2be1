// The cycle-level reference model of the CM-5 control network, written from the paper
// (section 5, "Organization of the control network"; section 2 for the interface):
//
// - every leaf is a network interface with an outgoing FIFO per function (broadcast,
//   combine); it sends one packet per up frame: a broadcast first (single-source packets have
//   priority, limited end to end to broadcast_window unreturned ones), else the next combining
//   operation unless its parent told it to stop, else an idle packet; it puts aside its segment
//   bit for the way down and presents each result one cycle after the packet brings it;
// - every node, each up frame: a single-source packet from a child goes straight up, no
//   buffering (two at once: an error, the left one survives); otherwise, when both children
//   have a multiple-source (or abstain) packet, waiting in their queues or arriving now, the
//   node combines them, puts the left (forward scan) or right (backward scan) value aside and
//   sends the combination up; else it sends an idle packet and queues what arrived. A node
//   that would overflow its put-aside buffer, or whose parent said stop, does not combine;
// - the root turns packets around: broadcasts and combined results wait in two queues
//   (broadcasts first) and go down one per down frame;
// - every node, each down frame: a broadcast is replicated to both children; a combining
//   result takes the oldest value put aside: reductions are replicated, a forward scan sends the
//   parent's prefix p left and p (op) left value right (the value alone past a segment bit), a
//   backward scan the mirror image; every down packet carries the stop bit of the child's queue.
// - flush (paper: "the control network can be flushed in a manner similar to a broadcast
//   operation, aborting any user-level control-network operations in progress. The network
//   interfaces retain the values that the user has pushed ... until the corresponding operation
//   has completed"): a broadcast that, going down, empties every node's queues and put-aside
//   values and the root's results not yet sent; each leaf keeps every operation it pushed until
//   its result arrives, and after a flush waits for a restart to send the unfinished ones again.
//   A flush epoch per node and leaf (toggled by the flush going down, carried up in bit 0)
//   tells a node which arriving packets were sent before the sender saw the flush (dropped);
//   every node keeps the carry of its last completed addition and takes it back;
// - partitions: each a subtree with its own root; mapped-out subtrees: their parent treats
//   them as a child that always abstains, and sends them idle packets;
// - the alignment packet (with `alignment` 1): sent down from each partition's root in cycle 0,
//   passed on by every node in the first cycle after it came that is a multiple of lcm(Tu, Td);
//   an end processes frames from the first whole one after its packet came; the interfaces
//   send nothing but idle packets without global bits before init_cycles();
// - global bits in every packet: the two asynchronous ORs and the hard-error OR, up as the OR
//   of the subtree, turned around at the root, down to every leaf.
//
// The timing contract is in gen/cm5ctl/cm5ctl_params.h; the RTL follows it cycle for cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gen/cm5ctl/cm5ctl_params.h"
#include "sim/cm5ctl/cm5ctl_ops.h"

namespace cmnet {

struct Cm5ModelOptions {
  uint64_t max_cycles = 2'000'000;
  // Cycles to keep running after the last expected result (so that extra results show).
  uint64_t drain_cycles = 0;  // 0 = 4 packet times
  uint64_t min_cycles = 0;    // run at least this long (global bits: no results to wait for)
};

struct Cm5Faults {
  uint64_t queue_overflows = 0;   // a node's child queue overflowed (flow control failed)
  uint64_t aside_underflows = 0;  // a result came down with nothing put aside (order lost)
  uint64_t aside_overflows = 0;
  uint64_t leaf_overflows = 0;
  uint64_t bcast_drops = 0;       // the root's broadcast queue was full (window exceeded)
  uint64_t link_errors = 0;       // packets received with a wrong CRC (taken as idle)
  bool any_design_fault() const {
    return queue_overflows || aside_underflows || aside_overflows || leaf_overflows;
  }
};

struct Cm5RunResult {
  std::vector<Cm5Result> results;       // in order of cycle, then leaf
  std::vector<std::vector<uint64_t>> injected;  // [leaf][op]: the cycle its push was accepted
  uint64_t cycles = 0;                  // cycles simulated
  uint64_t last_result_cycle = 0;
  bool completed = false;               // every expected result arrived
  Cm5Faults faults;
  uint64_t root_fires = 0;              // combining operations the root completed
  uint64_t max_queue = 0;               // deepest child queue seen
  uint64_t flushed_ops = 0;             // operations a flush sent back to their leaf's queue
  std::vector<Cm5GlobalOut> globals;    // every change of a leaf's global outputs
  std::vector<int64_t> aligned;         // per leaf: the first cycle it is aligned (-1: never)
};

// The number of results a workload produces: every leaf gets every combining result and every
// broadcast.
uint64_t expected_result_count(const Cm5Workload& w);
// With partitions and mapped-out leaves: every leaf in use gets its partition's results.
uint64_t expected_result_count(const Cm5Workload& w, const Cm5Topology& t);

Cm5RunResult run_cm5ctl_model(const Cm5ctlParams& p, const Cm5Workload& w, const Cm5ModelOptions& opt = {});

// Cycles after a global input changes by when every leaf has seen it, with margin: twice the
// bound (height + 1)(Tu + Td) + 2 (cm5ctl_params.h), and 4 packet times.
uint64_t cm5ctl_global_settle(const Cm5ctlParams& p);

// The same model one cycle at a time, for a driver that computes router-done's counter inputs
// as it goes (the CM-5 machine: each leaf's data network counter from the data network's model
// in lockstep). The workload's own counter events come first; set_counter adds one.
class Cm5ctlStepper {
 public:
  Cm5ctlStepper(const Cm5ctlParams& p, const Cm5Workload& w);
  ~Cm5ctlStepper();
  Cm5ctlStepper(Cm5ctlStepper&&) noexcept;
  // Leaf `leaf`'s data network counter from the next step() on.
  void set_counter(uint32_t leaf, int64_t value);
  void step();
  uint64_t cycle() const { return t_; }  // cycles stepped
  // Everything so far; a result is stamped with the cycle its leaf presents it (the one after
  // the step that made it, so it may be cycle()).
  const Cm5RunResult& so_far() const;
  // What a run stopped now would return (results presented before cycle()).
  Cm5RunResult finish() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_;
  uint64_t t_ = 0;
};

}  // namespace cmnet

// Runs the tree-shaped packet network in RTL (clos_tree_top, Verilator) and checks every message
// against the tree model (ClosTree::route): where it arrives (the destination leaf, or for a
// control message the source's hnode), its hops inside trees and over the hypercube, and its
// source and payload intact.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_emitter.h"

namespace cmnet {

struct ClosTreeMessage {
  int src = 0;
  int dst = -1;  // -1: a control message for the source's hnode
};

// A message as it came out: at a leaf, or kept by an hnode (control), its header and hop counts.
struct ClosTreeArrival {
  uint64_t cycle = 0;
  bool control = false;
  int where = 0;  // the leaf, or the hnode
  int src = 0, dst = 0, payload = 0, tree_hops = 0, cube_hops = 0;
};

struct ClosTreeRtlRun {
  uint64_t cycles = 0, arrived = 0, control = 0, mismatches = 0;
  std::vector<ClosTreeArrival> arrivals;  // every message that came out, in the RTL's order
  uint64_t max_latency = 0;  // cycles from the first possible injection (the run's start) to arrival
  std::vector<std::string> first_mismatches;
};

ClosTreeRtlRun run_clos_tree_rtl(const ClosTreeLayout& l, const std::vector<ClosTreeMessage>& msgs,
                                 uint64_t max_cycles = 1000000, double timeout_s = 600);

}  // namespace cmnet

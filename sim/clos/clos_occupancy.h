// Blocking of a Clos network N(m, n, r) against occupancy: how often a new circuit between a free
// input port and a free output port finds no middle switch with both of its s-links free, when
// a given number of circuits are up. Independent of the set-up protocol's timing (no stale
// InputVectors, no races: what the hnodes would find with exact vectors), so the curve says
// what the network itself allows at each occupancy; the protocol's own blocking is measured
// by the set-up model (clos_setup_model.h) at the loads it reaches.
//
// The chain: `circuits` circuits among the active ports (active_per_switch per switch, the
// paper's 30 of 32); each step tears down one circuit chosen at random and asks for one from a
// random free input port to a random free output port (uniform, as the paper's "random
// connections"). The search for a middle switch starts where h_d's does (ClosSelectStart:
// kDest at h_d's first middle switch, output switch mod 2^M; kPair at (input + output switch)
// mod m; kRandom anywhere) and takes the first with both s-links free. A blocked request is
// lost and another is drawn, so the occupancy stays put. Warm-up steps first, then `requests`
// requests are counted.
#pragma once

#include <cstdint>

#include "gen/clos/clos_params.h"
#include "sim/clos/clos_setup_model.h"  // ClosSelectStart

namespace cmnet {

struct ClosOccupancyOptions {
  int circuits = 0;            // held up (occupancy = circuits / active ports)
  int active_per_switch = 0;   // 0 = all n
  uint64_t warmup = 0;         // steps before counting (default: 4 x circuits)
  uint64_t requests = 10000;   // requests counted
  ClosSelectStart select = ClosSelectStart::kDest;
  uint64_t seed = 1;
};

struct ClosOccupancyResult {
  int active_ports = 0;
  double occupancy = 0;        // circuits / active ports
  uint64_t requests = 0, blocked = 0;
  double blocking() const { return requests ? static_cast<double>(blocked) / static_cast<double>(requests) : 0.0; }
};

// InputError when circuits is out of 0..active ports or active_per_switch out of 0..n.
ClosOccupancyResult run_clos_occupancy(const ClosParams& p, const ClosOccupancyOptions& o);

}  // namespace cmnet

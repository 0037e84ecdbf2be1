// The paper's performance model (section 3, after [17]): the load of messages through each arm
// of the fat tree divided by the arm's bandwidth; the worst ratio over all arms estimates the
// time to route a message set, and so the throughput a pattern can reach.
#pragma once

#include <string>

#include "gen/cm5data/cm5data_params.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

struct Cm5DataArmBound {
  double cycles = 0;          // max over arms of flits / links: the routing time bound
  std::string worst_arm;      // e.g. "level 2 node 3 up (4 links)" or "leaf 7 in"
  double rate_per_leaf = 0;   // flits per cycle per leaf the pattern can reach: (flits / N) / cycles
};

// Arms: every leaf link (up and down, 1 link each) and every node's link bundle to its parent
// (up and down, c_l * p_l links). A message crosses its source's and destination's leaf links
// and the arms of the nodes below its least common ancestor on both sides.
Cm5DataArmBound cm5_arm_bound(const Cm5DataParams& p, const Cm5DataTraffic& t);

// The same for a pattern's expected loads: `rounds` destinations per leaf from the pattern's rule
// (messages of `len` words), averaged, so the bound is the steady-state rate the arms allow
// rather than one sample's worst arm.
Cm5DataArmBound cm5_pattern_bound(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, uint64_t rounds, int len);

}  // namespace cmnet

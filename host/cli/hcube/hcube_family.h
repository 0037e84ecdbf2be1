// The hypercube packet / wormhole family (the seed-004 paper: a quasi-adaptive packet transport
// against wormhole routing on a binary n-cube). HcubeFamily implements the family interface with
// the hcube generator (gen/hcube), reference models and RTL runner (sim/hcube).
#pragma once

#include <string>

#include "host/cli/family.h"
#include "gen/hcube/hcube_config.h"
#include "sim/hcube/hcube_traffic.h"

namespace cmnet {

class HcubeFamily final : public Family {
 public:
  std::string name() const override { return "hcube"; }
  CMNET_FAMILY_MEMBERS
  std::vector<std::string> bench_sections() const override { return {"ratios"}; }
};


// `cmnet sim --pattern NAME`: the paper's workload shape at light load, `per_node` messages per
// node (mean length 64 bytes, mean inter-generation 512 ticks).
HcubeTraffic hcube_sim_pattern(const HcubeParams& p, const std::string& pattern, uint64_t seed, int per_node);

// `cmnet sim --out F.jsonl`: the per-port counters go to F.ports.csv beside it (node, dim,
// packets, messages, bytes, blocked_ticks); the summary line names it and keeps totals, the
// counters per dimension and their spread over ports.
std::string hcube_ports_path(const std::string& jsonl);

int hcube_bench(const BenchArgs& a);  // hcube_bench.cpp
// One node of p's cube (node 1's parameters: the packet chip or the wormhole router) as a module
// placed alone on the iCE40 (hcube_bench.cpp; cmnet bench, bench-fpga).
PlaceableModule hcube_node_placeable(const HcubeParams& p);

}  // namespace cmnet

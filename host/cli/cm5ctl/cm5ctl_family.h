// The CM-5 control network family (Leiserson et al. 1992, sections 2 and 5): a binary
// combining tree doing broadcasts, reductions, scans and barriers. Cm5ctlFamily implements the
// family interface by calling the cm5ctl generator, reference model and RTL harness; the
// functions below are its commands. The board is the shared stream board (build --mode host,
// run, sweep).
#pragma once

#include <string>

#include "host/cli/family.h"
#include "gen/cm5ctl/cm5ctl_config.h"

namespace cmnet {

class Cm5ctlFamily final : public Family {
 public:
  std::string name() const override { return "cm5ctl"; }
  CMNET_FAMILY_MEMBERS
};

// The commands (host/cli/cm5ctl/).
int cm5ctl_sim(const Cm5ctlConfig& cfg, const SimArgs& a);  // cm5ctl_sim.cpp
int cm5ctl_bench(const BenchArgs& a);                       // cm5ctl_bench.cpp
// A node ("cm5ctl_node", level 1) or a three-node chip ("cm5ctl_chip", levels 2 and 1) of p's
// tree as a module placed alone on the iCE40 (cmnet bench, bench-fpga).
PlaceableModule cm5ctl_placeable(const Cm5ctlParams& p, const std::string& top);  // cm5ctl_bench.cpp

}  // namespace cmnet

// Emits the Verilog of a CM-5 control network of N leaves: the tree top (cm5ctl_tree: the root,
// N-2 nodes and N network-interface leaves, every link an explicit, named pair of wires, the
// leaves' processor ports on flat buses), built from the primitives in hw/cm5ctl/, plus a
// filelist, the config and a JSON manifest with the parameters and the derived figures.
#pragma once

#include <string>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/core/design.h"

namespace cmnet {

GeneratedDesign emit_cm5ctl(const Cm5ctlConfig& cfg);
std::string cm5ctl_manifest_json(const Cm5ctlConfig& cfg);
// The hand-written primitives, in compile order.
const std::vector<std::string>& cm5ctl_primitives();

}  // namespace cmnet

// Emits the Verilog of a CM-5 control network of N leaves: the tree top (cm5ctl_tree: the root,
// N-2 nodes and N network-interface leaves, every link an explicit, named pair of wires, the
// leaves' processor ports on flat buses), built from the primitives in hw/cm5ctl/, plus a
// filelist, the config and a JSON manifest with the parameters and the derived figures.
#pragma once

#include <string>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/core/design.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

GeneratedDesign emit_cm5ctl(const Cm5ctlConfig& cfg);
// The leaves' processor ports of cm5ctl_tree, inj_valid .. halted (leaf j at bit / field j of each
// bus, W-bit words), each line ending in a comma; `rd_count`: with the router-done counter input
// (a top that feeds the counters itself, the cm5 machine, leaves it out).
void cm5ctl_processor_ports(VerilogWriter& v, int N, int W, bool rd_count);
std::string cm5ctl_manifest_json(const Cm5ctlConfig& cfg);
// The hand-written primitives, in compile order.
const std::vector<std::string>& cm5ctl_primitives();

}  // namespace cmnet

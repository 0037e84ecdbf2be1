// The Clos network RTL: clos_network.v (r input switches n x m, m middle switches r x r, r output
// switches m x n, each a hw/clos/clos_crossbar.v; every s-link an explicit, named assignment;
// one configuration port addressed as ClosParams::cfg_* describes), filelist, manifest.
#pragma once

#include <string>

#include "gen/clos/clos_config.h"
#include "gen/core/design.h"

namespace cmnet {

GeneratedDesign emit_clos(const ClosConfig& cfg);
// manifest.json: parameters, the case (strictly non-blocking / rearrangeable / blocking), the
// derived figures (N, crossbar sizes, crosspoints) and the configuration port's layout.
std::string clos_manifest_json(const ClosConfig& cfg);

// The switch status of one hnode (hw/clos/clos_hnode.v: InputVectors, OutputVectors,
// RelayTables and the free-middle-switch search) under a top clos_hnode_top with this
// network's sizes: 2^hnode_dims hnodes, each controlling ceil(r / 2^M) input/output switch
// pairs and ceil(m / 2^M) middle switches.
GeneratedDesign emit_clos_hnode(const ClosConfig& cfg);
// The leaf status of one hnode (hw/clos/clos_leaf_status.v: busy bits, holders, WaitingQueues
// of 2^queue_bits requests) under a top clos_leaf_status_top: n * ceil(r / 2^M) leaves,
// request numbers of req_bits bits.
GeneratedDesign emit_clos_leaf_status(const ClosConfig& cfg, int req_bits, int queue_bits);

}  // namespace cmnet

// The Clos network RTL: clos_network.v (r input switches n x m, m middle switches r x r, r output
// switches m x n, each a hw/clos/clos_crossbar.v; every s-link an explicit, named assignment;
// one configuration port addressed as ClosParams::cfg_* describes), filelist, manifest.
#pragma once

#include <string>
#include <vector>

#include "gen/clos/clos_config.h"
#include "gen/core/design.h"
#include "gen/core/stream_board.h"

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
// request numbers of req_bits bits. The leaf's status is read a clock ahead: op_leaf and op_req
// must be set at the clock before the operation (op_valid low then).
GeneratedDesign emit_clos_leaf_status(const ClosConfig& cfg, int req_bits, int queue_bits);

// The hnodes' message engines on their control hypercube: 2^hnode_dims hw/clos/clos_hnode_engine.v
// (each with its switch and leaf status) and hw/clos/clos_cube_router.v, wired link by link from
// gen/core/hypercube_topology.h, under a top clos_ctrl_top whose per-hnode ports are the leaves'
// CSR / ODCR in, READY out, and a trace of the messages handled and sent. hnode_dims >= 1.
struct ClosCtrlLayout {
  int D = 1, M = 0, KW = 1, RW = 1, NW = 1, MW = 0;  // message: iv[M] blocked ms[KW] dest[NW] orig[NW] type[4] to[D]
  int queue_bits = 3, fifo_bits = 4;
};
ClosCtrlLayout clos_ctrl_layout(const ClosConfig& cfg);
GeneratedDesign emit_clos_ctrl(const ClosConfig& cfg);

// The switch with its controllers: clos_network (emit_clos) configured by clos_ctrl_top
// (emit_clos_ctrl) through its configuration port, under a top clos_switched: the leaves' CSR /
// ODCR in and READY out per hnode, the circuits' data in and out, busy and overflow. What the
// iCE40 figures (`cmnet bench`) place; the trace ports stay inside. hnode_dims >= 1.
GeneratedDesign emit_clos_switched(const ClosConfig& cfg);

// The tree-shaped packet network (hw/clos/clos_tree_node.v): 2^hnode_dims hnodes on a hypercube,
// each the root of a tree whose level-l nodes have degrees[l] subtrees (the leaves below the
// last level), leaves numbered consecutively tree by tree, under a top clos_tree_top with per-leaf
// injection and delivery ports and per-hnode control-message outputs. hnode_dims >= 1.
struct ClosTreeLayout {
  int hnode_dims = 1;
  std::vector<int> degrees;
  int AW = 1, PW = 16, HC = 5, MW = 0;  // message: payload[PW] src[AW] dst[AW] ctrl tree_hops[HC] cube_hops[HC]
  int leaves_per_tree = 0, leaves = 0;
};
ClosTreeLayout clos_tree_layout(int hnode_dims, const std::vector<int>& degrees);
GeneratedDesign emit_clos_tree(const ClosTreeLayout& l);

// CONNECT on the stream board (hw/common/STREAM_BOARD.md, hw/clos/clos_stream_core.v): the switch
// with 34-bit circuits ({valid, last, word}), the hnodes' message engines setting it up, and a
// leaf unit per data processor: a unit to leaf L is {destination, data words...}; the
// destination delivers {L, data words...}. Units carry at most clos_stream_max_words() data
// words. stream_module "clos_stream"; counters: leafI.sent (In), leafI.received (Out),
// network.held (Held), circuits.ready, circuits.cancels, words.dropped (Other).
StreamBoardSpec clos_stream_spec(const ClosConfig& cfg);
int clos_stream_max_words();

}  // namespace cmnet

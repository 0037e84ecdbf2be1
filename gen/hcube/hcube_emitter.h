// Emits the Verilog of a hypercube network of packet-scheme chips or wormhole routers: the node
// (hw/hcube/hcube_pkt_node.v or hcube_worm_node.v on the shared channel sender hw/hcube/hcube_link_tx.v and the
// counter bank hw/common/cmnet_counter_bank.v) and the whole n-cube (hcube_network: every node an
// explicit, named instance, every channel's signals explicit assignments, the sources, feeders,
// ejection ports and a counter read mux as ports), a filelist and a JSON manifest.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gen/core/design.h"
#include "gen/hcube/hcube_config.h"

namespace cmnet {

// Widths of the node's and the network's ports, shared with the harnesses.
struct HcubeWidths {
  int db = 0;   // a dimension or n ("ends here")
  int sb = 0;   // a buffer index
  int qb = 0;   // a count 0..buffers
  int wl = 0;   // a byte count 0..packet_bytes
  int tw = 16;  // a message tag
  int kw = 16;  // a packet index within a message
  int csw = 0;  // a node's counter select (4 per port)
  int cw = 16;  // a channel's cycle counter
  int nodew = 0;  // a node number (cnt_node)
  int worm_kw = 25;  // wormhole: a byte index within a worm
};
HcubeWidths hcube_widths(const HcubeParams& p);

// The largest cube whose whole-network Verilog is emitted.
constexpr int kHcubeMaxEmitDims = 6;

// The node alone (for synthesis): the files of module hcube_node_module(p) (hcube_pkt_node or
// hcube_worm_node), whose parameters for node `node` are hcube_node_params (yosys: chparam).
std::string hcube_node_module(const HcubeParams& p);
GeneratedDesign emit_hcube_node(const HcubeParams& p);
std::vector<std::pair<std::string, std::string>> hcube_node_params(const HcubeParams& p, int node);
// The whole network of either scheme. ConfigError for dims above the limit.
GeneratedDesign emit_hcube(const HcubeConfig& cfg);
std::string hcube_manifest_json(const HcubeConfig& cfg);
// The same with other widths than hcube_widths(cfg.hc): a self-test top whose traffic is known
// narrows the tags and the worms' byte index to what it sends (gen/hcube/hcube_selftest.h).
GeneratedDesign emit_hcube(const HcubeConfig& cfg, const HcubeWidths& w);
std::string hcube_manifest_json(const HcubeConfig& cfg, const HcubeWidths& w);

}  // namespace cmnet

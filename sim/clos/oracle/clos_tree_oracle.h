// A functional oracle for CONNECT's tree-shaped packet network (Li and Rishe 1991, "Routing in the
// packet-switching network"), from the paper alone: 2^M hnodes on a hypercube, each the root of a
// tree whose leaves (the data processors) have consecutive numbers, tree t holding leaves
// t * L .. t * L + L - 1. A message goes up its tree only as far as the lowest node whose subtrees
// hold its destination, or to the hnode and over the hypercube by fixed routing (a shortest path:
// the Hamming distance) and down the destination's tree; a control message (no destination) goes
// up to its source's hnode and stops there. Shares nothing with the tree model or the emitter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet::clos_oracle {

struct TreeShape {
  int hnode_dims = 0;
  std::vector<int> degrees;  // children per node, level by level from the hnode
};

struct Packet {
  int src = 0, dst = -1;  // dst -1: a control message for the source's hnode
  uint64_t payload = 0;   // what the packet carries; unique per packet
};

// What came out: at a leaf (a data message) or kept by an hnode (a control message), with the
// header as it arrived and the hops it counted (-1: not counted).
struct PacketArrival {
  bool at_hnode = false;
  int where = 0;
  int src = 0, dst = -1;
  uint64_t payload = 0;
  int tree_hops = -1, cube_hops = -1;
};

// Every packet arrives once, where the paper's routing ends (its destination leaf, or its source's
// hnode), header and payload unchanged, in the fewest hops the shape allows (inside trees: up to
// the lowest common ancestor and down; between hnodes: the Hamming distance). Nothing else arrives.
std::vector<std::string> check_packets(const TreeShape& shape, const std::vector<Packet>& sent,
                                       const std::vector<PacketArrival>& arrived);

}  // namespace cmnet::clos_oracle

// Reference model of CONNECT's tree-shaped packet-switching network (Li and Rishe 1991,
// "Routing in the packet-switching network"): a hypercube of 2^M hnodes, each the root of a
// tree of tnodes whose leaves are the data processors. Leaves of a tree have consecutive
// numbers; every hnode holds the static map tree -> leaf range; every tnode a range table of
// its d subtrees. A tnode sends a message down to the subtree whose range holds the
// destination, and anything else (a destination outside its ranges, or a negative one: a
// control message) to its parent; an hnode sends a data message down its own tree or over the
// hypercube by fixed (e-cube, lowest dimension first) routing to the destination's tree, and
// keeps a control message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet {

struct ClosTreeShape {
  int hnode_dims = 5;            // M: 2^M hnodes (paper: 5)
  // Children per node, level by level from the hnode. The paper's machine (Figure 10, 256
  // communication processors: 2 x 32 hnodes, 32 subtree roots, 160 second-level tnodes): each
  // hnode has one subtree root, which has 5 tnodes of 6 leaves each, 30 leaves per tree.
  std::vector<int> degrees = {1, 5, 6};
  int leaves_per_tree() const;
  int leaves() const { return leaves_per_tree() << hnode_dims; }
};

// One node of the network: an hnode (level 0) or a tnode, or a leaf (level = depth).
struct ClosTreeNode {
  int tree = 0;        // the hnode whose tree it is in
  int level = 0;       // 0: the hnode
  int lo = 0, hi = 0;  // leaf range below it [lo, hi)
  bool operator==(const ClosTreeNode& o) const = default;
};

struct ClosTreeRoute {
  std::vector<ClosTreeNode> path;  // from the source leaf to where the message stops
  int tree_hops = 0;               // hops inside trees (up and down)
  int cube_hops = 0;               // hops between hnodes
};

class ClosTree {
 public:
  explicit ClosTree(const ClosTreeShape& s);  // InputError for a bad shape
  const ClosTreeShape& shape() const { return s_; }
  int depth() const { return static_cast<int>(s_.degrees.size()); }  // the leaves' level: hops leaf -> hnode
  ClosTreeNode leaf(int x) const;
  // Routes a message from leaf `src` to leaf `dst`, or to the source's hnode when dst < 0 (a
  // control message), each step decided from the node's own tables only.
  ClosTreeRoute route(int src, int dst) const;

 private:
  ClosTreeShape s_;
  int per_tree_;
  // The range table of a node: the [lo, hi) of each child (the static map at an hnode is the
  // trees' ranges, one per hnode).
  std::vector<std::pair<int, int>> children(const ClosTreeNode& n) const;
};

}  // namespace cmnet

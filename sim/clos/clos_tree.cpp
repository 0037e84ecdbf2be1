#include "sim/clos/clos_tree.h"

#include <bit>

#include "gen/core/errors.h"
#include "gen/core/hypercube_topology.h"

namespace cmnet {

int ClosTreeShape::leaves_per_tree() const {
  int x = 1;
  for (int d : degrees) x *= d;
  return x;
}

ClosTree::ClosTree(const ClosTreeShape& s) : s_(s) {
  if (s.hnode_dims < 0 || s.hnode_dims > 10)
    throw InputError("tree network: hnode_dims = " + std::to_string(s.hnode_dims) + " out of range 0..10");
  if (s.degrees.empty()) throw InputError("tree network: no levels below the hnode (degrees is empty)");
  for (int d : s.degrees)
    if (d < 1 || d > 64) throw InputError("tree network: degree " + std::to_string(d) + " out of range 1..64");
  per_tree_ = s.leaves_per_tree();
  if (per_tree_ > 65536) throw InputError("tree network: more than 65,536 leaves per tree");
}

ClosTreeNode ClosTree::leaf(int x) const {
  if (x < 0 || x >= s_.leaves()) throw InputError("tree network: leaf " + std::to_string(x) + " out of range");
  return ClosTreeNode{x / per_tree_, depth(), x, x + 1};
}

std::vector<std::pair<int, int>> ClosTree::children(const ClosTreeNode& n) const {
  std::vector<std::pair<int, int>> out;
  if (n.level >= depth()) return out;
  const int d = s_.degrees[static_cast<size_t>(n.level)];
  const int span = (n.hi - n.lo) / d;
  for (int i = 0; i < d; ++i) out.emplace_back(n.lo + i * span, n.lo + (i + 1) * span);
  return out;
}

ClosTreeRoute ClosTree::route(int src, int dst) const {
  if (dst >= s_.leaves()) throw InputError("tree network: destination " + std::to_string(dst) + " out of range");
  ClosTreeRoute r;
  ClosTreeNode at = leaf(src);
  r.path.push_back(at);
  const HypercubeTopology cube(s_.hnode_dims);
  // A node's parent: the node one level up whose range holds this one.
  auto parent = [&](const ClosTreeNode& n) {
    ClosTreeNode p{n.tree, 0, n.tree * per_tree_, (n.tree + 1) * per_tree_};
    while (p.level + 1 < n.level)
      for (const auto& [lo, hi] : children(p))
        if (lo <= n.lo && n.lo < hi) {
          p = ClosTreeNode{n.tree, p.level + 1, lo, hi};
          break;
        }
    return p;
  };
  for (int steps = 0; steps < 4 * depth() + s_.hnode_dims + 4; ++steps) {
    if (at.level == depth()) {  // a leaf: its message goes up, or it has arrived
      if (at.lo == dst) return r;
      at = parent(at);
      ++r.tree_hops;
    } else if (at.level > 0) {  // a tnode: down by its range table, else to the parent
      bool down = false;
      if (dst >= 0)
        for (const auto& [lo, hi] : children(at))
          if (lo <= dst && dst < hi) {
            at = ClosTreeNode{at.tree, at.level + 1, lo, hi};
            down = true;
            break;
          }
      if (!down) at = parent(at);
      ++r.tree_hops;
    } else {  // an hnode
      if (dst < 0) return r;  // a control message: interpreted here
      const int t = dst / per_tree_;
      if (t == at.tree) {
        for (const auto& [lo, hi] : children(at))
          if (lo <= dst && dst < hi) {
            at = ClosTreeNode{at.tree, 1, lo, hi};
            break;
          }
        ++r.tree_hops;
      } else {
        const int next = cube.neighbor(at.tree, std::countr_zero(static_cast<unsigned>(at.tree ^ t)));
        at = ClosTreeNode{next, 0, next * per_tree_, (next + 1) * per_tree_};
        ++r.cube_hops;
      }
    }
    r.path.push_back(at);
  }
  throw std::logic_error("tree network: a route did not end");
}

}  // namespace cmnet

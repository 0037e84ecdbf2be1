// The tree-shaped packet network: every message reaches its destination by local decisions
// (range tables in the tnodes, the tree map and e-cube routing in the hnodes), in exactly the
// hops the structure implies; control messages stop at the source's hnode.
#include "sim/clos/clos_tree.h"

#include <gtest/gtest.h>

#include <bit>

#include "gen/core/errors.h"

namespace cmnet {
namespace {

TEST(ClosTree, ThePapersMachine) {
  const ClosTree t(ClosTreeShape{});
  EXPECT_EQ(t.shape().leaves_per_tree(), 30);
  EXPECT_EQ(t.shape().leaves(), 960);
  EXPECT_EQ(t.depth(), 3);
  // A control message (negative destination) climbs to the hnode: 3 hops.
  const ClosTreeRoute c = t.route(417, -1);
  EXPECT_EQ(c.tree_hops, 3);
  EXPECT_EQ(c.cube_hops, 0);
  EXPECT_EQ(c.path.back(), (ClosTreeNode{417 / 30, 0, 390, 420}));
}

TEST(ClosTree, EveryPairArrivesInTheHopsTheStructureImplies) {
  for (const ClosTreeShape& s : {ClosTreeShape{2, {1, 2, 3}}, ClosTreeShape{3, {4}}, ClosTreeShape{1, {2, 2, 2}}}) {
    const ClosTree t(s);
    const int L = s.leaves(), per = s.leaves_per_tree();
    for (int a = 0; a < L; ++a)
      for (int b = 0; b < L; ++b) {
        if (a == b) continue;
        const ClosTreeRoute r = t.route(a, b);
        ASSERT_EQ(r.path.back(), t.leaf(b)) << a << " -> " << b;
        const int ta = a / per, tb = b / per;
        EXPECT_EQ(r.cube_hops, std::popcount(static_cast<unsigned>(ta ^ tb))) << a << " -> " << b;
        if (ta != tb) {
          EXPECT_EQ(r.tree_hops, 2 * t.depth()) << a << " -> " << b;  // up to the hnode and down again
        } else {
          // Up to the lowest common ancestor only.
          int up = 0, lo = a, hi = b, span = 1;
          for (int l = t.depth() - 1; l >= 0 && lo / span != hi / span; --l) {
            span *= s.degrees[static_cast<size_t>(l)];
            ++up;
          }
          EXPECT_EQ(r.tree_hops, 2 * up) << a << " -> " << b;
        }
      }
  }
}

TEST(ClosTree, BadShapesAndAddresses) {
  EXPECT_THROW(ClosTree(ClosTreeShape{2, {}}), InputError);
  EXPECT_THROW(ClosTree(ClosTreeShape{2, {0}}), InputError);
  const ClosTree t(ClosTreeShape{1, {2}});
  EXPECT_THROW(t.route(0, 4), InputError);
  EXPECT_THROW(t.route(4, 0), InputError);
}

}  // namespace
}  // namespace cmnet

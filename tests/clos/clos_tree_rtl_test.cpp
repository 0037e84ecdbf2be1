// The tree-shaped packet network in RTL (hw/clos/clos_tree_node.v: tnodes with range tables,
// hnodes with the tree map on a hypercube) against the tree model: every message arrives where
// the model's route ends, in the model's tree and hypercube hops, header and payload intact;
// control messages stop at the source's hnode; lint, yosys.
#include "sim/clos/clos_tree_rtl.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "gen/core/errors.h"
#include "tests/clos/clos_oracle_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

TEST(ClosTreeRtl, EveryMessageTakesTheModelsRoute) {
  // Four trees of 1 x 2 x 3 leaves: the paper's shape in small (a single subtree root under each
  // hnode, then tnodes of leaves), a two-dimensional hypercube.
  for (const ClosTreeLayout& l : {clos_tree_layout(2, {1, 2, 3})}) {
    std::vector<ClosTreeMessage> msgs;
    // Every ordered pair and a control message from every leaf, then random traffic.
    for (int a = 0; a < l.leaves; ++a) {
      msgs.push_back({a, -1});
      for (int b = 0; b < l.leaves; ++b)
        if (a != b) msgs.push_back({a, b});
    }
    std::mt19937_64 rng(9);
    std::uniform_int_distribution<int> leaf(0, l.leaves - 1);
    for (int k = 0; k < 2000; ++k) {
      const int a = leaf(rng);
      int b = leaf(rng);
      if (b == a) b = -1;
      msgs.push_back({a, b});
    }
    const ClosTreeRtlRun r = run_clos_tree_rtl(l, msgs);
    EXPECT_EQ(r.mismatches, 0u) << l.leaves << " leaves";
    for (const auto& s : r.first_mismatches) ADD_FAILURE() << s;
    EXPECT_EQ(r.arrived, msgs.size());
    EXPECT_GT(r.control, static_cast<uint64_t>(l.leaves));
    const auto oracle = clos_test::oracle_tree(l, msgs, r.arrivals);
    EXPECT_TRUE(oracle.empty()) << clos_test::oracle_report(oracle);
    auto lost = r.arrivals;  // a message lost and one delivered twice: the oracle sees both
    lost[3] = lost[4];
    const std::string rep = clos_test::oracle_report(clos_test::oracle_tree(l, msgs, lost));
    EXPECT_NE(rep.find("arrived again"), std::string::npos) << rep;
    EXPECT_NE(rep.find("never arrived"), std::string::npos) << rep;
  }
}

TEST(ClosTreeRtl, LintsCleanAndSynthesizes) {
  for (const ClosTreeLayout& l : {clos_tree_layout(2, {1, 2, 3}), clos_tree_layout(1, {2, 2})}) {
    const GeneratedDesign d = emit_clos_tree(l);
    const fs::path dir = testing_checks::temp_dir("clos-tree");
    EXPECT_EQ(testing_checks::lint_problems(d, d.top, dir), "");
    if (l.leaves <= 8) {  // synthesis of the small one only (test time)
      bool ok = false;
      const std::string log = testing_checks::synth_ice40(d, d.top, dir, &ok);
      EXPECT_TRUE(ok) << log;
    }
    fs::remove_all(dir);
  }
}

TEST(ClosTreeRtl, BadShapesAreRefused) {
  EXPECT_THROW(clos_tree_layout(0, {2}), ConfigError);
  EXPECT_THROW(clos_tree_layout(1, {}), ConfigError);
  try {
    clos_tree_layout(1, {2, 0});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("degrees[1] = 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cmnet

// The emitted Verilog of every Clos example config (`cmnet gen`, and its stream board) and of the
// controllers the RTL tests simulate (hnode status, leaf status, the message engines, the switch
// with its controllers, the tree network, the self-test top), pinned by SHA-256 digest (tests/clos/golden_digests.txt):
// a refactor that changes one byte of the RTL fails here. After an intended change of the RTL,
// regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include "gen/clos/clos_config.h"
#include "gen/clos/clos_emitter.h"
#include "gen/clos/clos_selftest.h"
#include "gen/core/config.h"

namespace cmnet {
namespace {

std::map<std::string, std::string> current_digests() {
  GoldenDigests g;
  for (const auto& path : golden_examples("clos_")) {
    const ClosConfig cfg = clos_config(load_config_file(path.string()));
    const std::string stem = path.stem().string();
    g.add(stem + "/gen", emit_clos(cfg));
    if (cfg.clos.ports() <= 256) g.add_stream(stem + "/board", clos_stream_spec(cfg));  // the stream board holds 256 leaves at most
  }
  // The controllers on the small switch the RTL tests use, with a 2-cube of hnodes.
  ClosConfig c = clos_config(load_config_file(std::string(CMNET_SOURCE_DIR) + "/gen/examples/clos_n224.json"));
  c.clos.hnode_dims = 1;
  c.clos.cancel_limit = 2;
  g.add("hnodes/hnode", emit_clos_hnode(c));
  g.add("hnodes/leaf-status", emit_clos_leaf_status(c, 12, 4));
  g.add("hnodes/ctrl", emit_clos_ctrl(c));
  g.add("hnodes/switched", emit_clos_switched(c));
  g.add("tree/d2-123", emit_clos_tree(clos_tree_layout(2, {1, 2, 3})));
  // The self-test top (`cmnet build --mode network`) on the same switch: a permutation of 2-word
  // circuits written here (the digests pin the bytes, not the expectations, which a run's
  // reference computes: tests/clos/clos_selftest_test.cpp).
  ClosSelfTest t;
  t.workload = "golden";
  t.leaves.resize(static_cast<size_t>(c.clos.ports()));
  for (int g = 0; g < c.clos.ports(); ++g) {
    const int dest = (g + 3) % c.clos.ports();
    const std::vector<uint32_t> words = {static_cast<uint32_t>(g), static_cast<uint32_t>(g ^ 0x5a)};
    t.leaves[static_cast<size_t>(g)].circuits.push_back({dest, words});
    ClosSelfTestLeaf& at = t.leaves[static_cast<size_t>(dest)];
    at.rx_circuits = 1;
    at.rx_words = 2;
    at.rx_xor = words[0] ^ words[1];
  }
  t.counts = {8, 56, 0, 0, 48};
  t.end_cycle = 300;
  g.add("selftest/n224", emit_clos_selftest(c, t, board_parts::SelfTestPins{}));
  return g.files;
}

TEST(ClosGolden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(golden_file("clos"), current_digests());
}

}  // namespace
}  // namespace cmnet

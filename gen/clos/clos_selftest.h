// The Clos network's self-test board top (`cmnet build --mode network`): the switch with its
// controllers (clos_network configured by clos_ctrl_top, every hnode) in the FPGA with no host,
// its leaves played by the top itself from a ROM. Each leaf plays its circuits in order
// (hw/clos/clos_selftest_leaf.v): CSR, READY, its data words into its circuit one a cycle, ODCR,
// the next circuit once the DDCR is handled. The top counts per output leaf the circuits and
// words received and XORs their data; it counts what the engines did (READYs, messages handled,
// CANCELs, RESENDs, configuration writes) and keeps the cycle in which the last leaf finished.
// When every leaf is done and the engines are idle it compares all of them with the expected
// values and lights pass or fail (fail also at the cycle limit). The expectations are data
// (ClosSelfTest): the caller runs the reference (sim/clos/clos_selftest_model.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_config.h"
#include "gen/core/design.h"
#include "gen/core/selftest_top.h"

namespace cmnet {

// What a leaf's ROM holds at most: circuits and data words (its address widths).
constexpr int kClosSelfTestMaxCircuits = 64;
constexpr int kClosSelfTestMaxWords = 256;

struct ClosSelfTestCircuit {
  int dest = 0;
  std::vector<uint32_t> words;  // the data words it carries (width bits each)
};

struct ClosSelfTestLeaf {
  std::vector<ClosSelfTestCircuit> circuits;  // what the leaf sends, in order
  uint32_t rx_circuits = 0;  // expected at this leaf: circuits received (those with a word or more)
  uint32_t rx_words = 0;     // words received
  uint32_t rx_xor = 0;       // XOR of their data
};

// The engines' counts the top checks (every hnode's, summed).
struct ClosSelfTestCounts {
  uint32_t readies = 0;      // READYs sent to leaves: circuits set up
  uint32_t handled = 0;      // messages the hnodes handled
  uint32_t cancels = 0;      // CANCELs handled (a race at a middle switch)
  uint32_t resends = 0;      // RESENDs handled (CANCEL limit, blocked selection, after a wait)
  uint32_t cfg_writes = 0;   // writes to the switches' configuration port
};

struct ClosSelfTest {
  std::string workload;      // what the traffic is (header, selftest.json)
  uint64_t seed = 1;
  std::vector<ClosSelfTestLeaf> leaves;  // one per leaf
  ClosSelfTestCounts counts;
  uint64_t end_cycle = 0;    // the first cycle in which every leaf is done (cycle 0: the first after reset)
};

// The cycle at which a self-test run gives up (fail): twice the expected end and 256 more.
uint64_t clos_selftest_limit(const ClosSelfTest& t);

// The switch (emit_clos, circuits width + 2 bits wide: {valid, last, data}), the engines
// (emit_clos_ctrl), the leaves and ports (hw/clos/clos_selftest_*.v), clos_selftest_top.v and
// selftest.json; top clos_selftest_top. ConfigError for a traffic the top cannot hold (a leaf
// count that is not the network's, a destination out of range or the leaf itself, more than a
// leaf's ROM holds, a word wider than the circuits), hnode_dims 0, width over 30, 1 or 4+ LEDs.
GeneratedDesign emit_clos_selftest(const ClosConfig& cfg, const ClosSelfTest& t, const board_parts::SelfTestPins& pins);

}  // namespace cmnet

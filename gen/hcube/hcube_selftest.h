// The hypercube's self-test board top (`cmnet build --mode network`): the wormhole network alone
// in the FPGA with no host, every node's host played by the top itself from a ROM, on the board's
// clock (every cycle a tick). Each node offers its messages in order, each from the tick after its
// generation (the model's sources), tagged with its age rank; a feeder's worm bytes come from a
// block-RAM copy of its node's ROM (read the cycle after the feeder's index moves: on time at 2 or
// more ticks per byte). Per node the top counts the worms that end there, XORs and sums every byte
// ejected (the source field onwards) and keeps the cycle of the last arrival; once every node has
// its count it reads every port counter (worms, headers, bytes, blocked cycles) through the
// network's counter port; then (or at the cycle limit) it lights pass or fail. The expectations
// are data (HcubeSelfTest): the caller runs the reference model (sim/hcube/hcube_selftest_model.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/core/design.h"
#include "gen/core/selftest_top.h"
#include "gen/hcube/hcube_config.h"

namespace cmnet {

// What a self-test top holds: cubes up to n = 3 (n = 4 would need 64 feeder block RAMs, the HX8K
// has 32), per node at most 32 messages and 512 worm bytes (one 512 x 8 block RAM per feeder).
constexpr int kHcubeSelfTestMaxDims = 3;
constexpr int kHcubeSelfTestMaxMessages = 32;
constexpr int kHcubeSelfTestRomBytes = 512;

struct HcubeSelfTestMessage {
  uint32_t dst = 0;
  uint64_t gen = 0;            // offered from the cycle after
  uint32_t tag = 0;            // its age rank (the routers' priority: smaller is older)
  std::vector<uint8_t> worm;   // its bytes as sent, destination first (sim/hcube/hcube_rtl.h)
};

struct HcubeSelfTestNode {
  std::vector<HcubeSelfTestMessage> messages;  // what the node sends, in order
  uint32_t rx_count = 0;   // expected: worms ending here
  uint32_t rx_xor = 0;     // expected: XOR of every byte ejected here (8 bits)
  uint32_t rx_sum = 0;     // expected: their sum (mod 2^24)
  uint64_t rx_last = 0;    // expected: cycle of the last arrival (0: none)
};

// One port counter (the network's counter port: cnt_node, cnt_sel = dim * 4 + kind) and its value.
struct HcubeSelfTestCounter {
  uint32_t node = 0;
  int sel = 0;
  uint32_t value = 0;
};

struct HcubeSelfTest {
  std::string pattern;  // what the traffic is (for the header and selftest.json)
  uint64_t seed = 1;
  int per_node = 1;
  std::vector<HcubeSelfTestNode> nodes;          // one per node
  std::vector<HcubeSelfTestCounter> counters;    // every port's, by node, then select
  uint64_t model_cycles = 0;                     // the model's last arrival
};

constexpr uint32_t kHcubeSelfTestSumMask = 0xFFFFFFu;

// ConfigError unless `p` is a network the self-test top is for (wormhole, n = 2..3, 2 or more
// ticks per byte) and a node's messages and bytes fit its ROM (`where` starts the message).
void check_hcube_selftest_shape(const HcubeParams& p);
void check_hcube_selftest_rom(const HcubeParams& p, uint32_t node, size_t messages, uint64_t bytes,
                              const std::string& where);

// The cycle after which a run gives up (fail): twice the model's cycles, the counter scan and 64.
uint64_t hcube_selftest_limit(const HcubeSelfTest& t);

// The network (emit_hcube) plus a ROM module per node, hcube_selftest_top.v and selftest.json; top
// hcube_selftest_top. ConfigError for a network or traffic the top cannot hold.
GeneratedDesign emit_hcube_selftest(const HcubeConfig& cfg, const HcubeSelfTest& t, const board_parts::SelfTestPins& pins);

}  // namespace cmnet

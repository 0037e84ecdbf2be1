// The emitted wormhole network (Verilator) against the wormhole reference model, message by
// message: the tick each message's first 16 data bytes and its last byte arrived, its bytes
// reassembled bit-exact from the ejected bytes, its first-hop dimension, and every port's
// counters (worms, headers, bytes, blocked cycles), on 3-cubes.
#include <gtest/gtest.h>

#include "tests/hcube/hcube_rtl_check.h"

namespace cmnet {
namespace {

// Hand-picked: a lone worm across the cube, two worms wanting the same channel at once (the
// older wins, the other waits holding its first channel), a short one behind a long one on a
// shared channel (the paper's Fig. 5), and a source whose second message goes while its first
// still streams.
TEST(HcubeWormRtl, HandPickedWormsMatchTheModel) {
  HcubeTraffic t;
  t.messages.push_back({0, 7, 0, 100, 0});
  t.messages.push_back({1, 3, 0, 40, 0});
  t.messages.push_back({5, 3, 0, 20, 0});
  t.messages.push_back({2, 3, 3, 1, 0});
  t.messages.push_back({0, 6, 2, 30, 1});
  t.messages.push_back({4, 2, 40, 300, 0});
  t.messages.push_back({6, 0, 41, 5, 0});
  hcube_expect_rtl_equals_model(hcube_worm_cfg(3), t, "hand-picked worms");
}

// One design per timing: the paper's (2 ticks per byte, 4 of arbitration) on uniform and
// bit-complement traffic at light and saturating loads, then 1 tick per byte without arbitration
// (the tightest flit pipeline).
TEST(HcubeWormRtl, LoadedCubesMatchTheModel) {
  for (const char* pattern : {"uniform", "bit-complement"})
    for (double gap : {400.0, 40.0}) {
      const HcubeTraffic t = make_hcube_workload(3, pattern, 48, gap, 8, 3);
      hcube_expect_rtl_equals_model(hcube_worm_cfg(3), t, std::string(pattern) + " gap " + std::to_string(static_cast<int>(gap)));
    }
  const HcubeTraffic t = make_hcube_workload(3, "uniform", 32, 30, 8, 5);
  hcube_expect_rtl_equals_model(hcube_worm_cfg(3, 1, 0), t, "T 1 A 0 uniform gap 30");
}

}  // namespace
}  // namespace cmnet

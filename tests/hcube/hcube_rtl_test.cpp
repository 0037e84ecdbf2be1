// The emitted packet network (Verilator) against the reference model, message by message: the
// tick each message's first packet and last byte arrived, reassembled bit-exact from the ejected
// bytes, and every port's counters, on 3-cubes with fixed and quasi-adaptive routing.
#include <gtest/gtest.h>

#include "tests/hcube/hcube_rtl_check.h"

namespace cmnet {
namespace {

TEST(HcubeRtl, SingleMessagesMatchTheModel) {
  HcubeTraffic t;
  t.messages.push_back({0, 7, 0, 100, 0});
  t.messages.push_back({3, 4, 5, 10, 0});
  t.messages.push_back({6, 1, 7, 1, 0});
  hcube_expect_rtl_equals_model(hcube_rtl_cfg(3, "fixed", 2), t, "three messages");
}

// Two designs (each a Verilator build): fixed routing with 2 buffers per port, quasi-adaptive
// with 3 (the contrary-packet limit then 2); light and saturating loads, uniform and bit-complement.
TEST(HcubeRtl, LoadedCubesMatchTheModel) {
  for (const auto& [routing, b] : {std::pair<const char*, int>{"fixed", 2}, {"quasi", 3}})
    for (const char* pattern : {"uniform", "bit-complement"})
      for (double gap : {400.0, 40.0}) {
        const HcubeTraffic t = make_hcube_workload(3, pattern, 48, gap, 8, 3);
        hcube_expect_rtl_equals_model(hcube_rtl_cfg(3, routing, b), t, std::string(routing) + " buffers " + std::to_string(b) + " " + pattern +
                                            " gap " + std::to_string(static_cast<int>(gap)));
      }
}

}  // namespace
}  // namespace cmnet

// The emitted packet network and wormhole network against the models on 4-cubes (16 nodes; a Verilator build of a
// few minutes, label scale): fixed and quasi-adaptive routing, uniform and transpose traffic,
// light and saturating loads.
#include "tests/hcube/hcube_rtl_check.h"

namespace cmnet {
namespace {

TEST(HcubeRtl4, LoadedCubesMatchTheModel) {
  for (const auto& [routing, b] : {std::pair<const char*, int>{"fixed", 3}, {"quasi", 4}})
    for (const char* pattern : {"uniform", "transpose"})
      for (double gap : {500.0, 50.0}) {
        const HcubeTraffic t = make_hcube_workload(4, pattern, 64, gap, 6, 11);
        hcube_expect_rtl_equals_model(hcube_rtl_cfg(4, routing, b), t,
                                      std::string(routing) + " " + pattern + " gap " + std::to_string(static_cast<int>(gap)));
      }
}

}  // namespace
}  // namespace cmnet

namespace cmnet {
namespace {

// The wormhole routers on a 4-cube: uniform and transpose traffic, light and saturating loads.
TEST(HcubeWormRtl4, LoadedCubesMatchTheModel) {
  for (const char* pattern : {"uniform", "transpose"})
    for (double gap : {500.0, 50.0}) {
      const HcubeTraffic t = make_hcube_workload(4, pattern, 64, gap, 6, 11);
      hcube_expect_rtl_equals_model(hcube_worm_cfg(4), t, std::string("wormhole ") + pattern + " gap " +
                                                              std::to_string(static_cast<int>(gap)));
    }
}

}  // namespace
}  // namespace cmnet

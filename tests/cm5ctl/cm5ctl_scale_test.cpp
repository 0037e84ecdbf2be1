// The CM-5 control network RTL against the model at 32 and 64 leaves (heights 5 and 6): every
// operator pushed alone, one after the other, and a random pipelined mix. Verilator builds of
// minutes: label scale (scripts/test.sh -L scale); the suite's RTL tests stop at 16 leaves, and
// `cmnet bench --family cm5ctl` compares RTL and model up to 256 leaves.
#include <gtest/gtest.h>

#include "tests/cm5ctl/cm5ctl_rtl_check.h"

namespace cmnet {
namespace {

using cm5ctl_view::agree;
using cm5ctl_view::cfg;

// SixtyFourLeaves shares the 64-leaf model's build.
TEST(Cm5ctlRtl, EveryOperationAndOperatorAt32And64Leaves) {
  for (int n : {32, 64})
    for (const std::string name : {"reduce-or", "reduce-xor", "reduce-max", "reduce-add", "reduce-uadd", "scan-fwd",
                                   "scan-bwd", "scan-seg", "barrier", "broadcast"})
      agree(cfg(n), make_cm5ctl_workload(name, n, 32, static_cast<uint64_t>(n) + 5, 6));
}

TEST(Cm5ctlRtl, SixtyFourLeaves) {
  Cm5MixOptions o;
  o.ops = 60;
  o.abstain = 0.2;
  o.broadcasts = 6;
  o.broadcaster = 37;
  agree(cfg(64), random_cm5ctl_mix(64, 32, 64, o));
}

}  // namespace
}  // namespace cmnet

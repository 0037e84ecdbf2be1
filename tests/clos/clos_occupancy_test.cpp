// Blocking against occupancy (sim/clos/clos_occupancy.h): the chain holds its circuits, is
// deterministic for a seed, never blocks when empty or full, blocks where a network with fewer
// middle switches than ports per switch must, and refuses what it cannot hold.
#include <gtest/gtest.h>

#include "gen/core/errors.h"
#include "sim/clos/clos_occupancy.h"
#include "tests/clos/clos_test_net.h"

namespace cmnet {
namespace {

using clos_test::net;

TEST(ClosOccupancy, DeterministicAndCounted) {
  const ClosParams p = net(8, 8, 8, 2);
  ClosOccupancyOptions o;
  o.circuits = 48;
  o.requests = 3000;
  o.seed = 3;
  const ClosOccupancyResult a = run_clos_occupancy(p, o), b = run_clos_occupancy(p, o);
  EXPECT_EQ(a.requests, 3000u);
  EXPECT_EQ(a.blocked, b.blocked);
  EXPECT_EQ(a.active_ports, 64);
  EXPECT_DOUBLE_EQ(a.occupancy, 0.75);
  o.active_per_switch = 6;
  o.circuits = 24;
  const ClosOccupancyResult c = run_clos_occupancy(p, o);
  EXPECT_EQ(c.active_ports, 48);
  EXPECT_DOUBLE_EQ(c.occupancy, 0.5);
}

TEST(ClosOccupancy, EmptyAndFullNeverBlock) {
  const ClosParams p = net(4, 4, 4, 2);
  ClosOccupancyOptions o;
  o.requests = 2000;
  o.circuits = 0;
  EXPECT_EQ(run_clos_occupancy(p, o).blocked, 0u);
  o.circuits = 1;  // one circuit: a new one always finds a middle switch (m >= 2)
  EXPECT_EQ(run_clos_occupancy(p, o).blocked, 0u);
  o.circuits = 16;  // full: the only free pair is the one just torn down, and its middle switch is free
  const ClosOccupancyResult r = run_clos_occupancy(p, o);
  EXPECT_EQ(r.blocked, 0u);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
}

TEST(ClosOccupancy, BlocksWhenMiddleSwitchesAreFew) {
  // m = 2 < n = 4: at three quarters occupancy requests must block often; every search order.
  const ClosParams p = net(2, 4, 4, 2);
  for (ClosSelectStart s : {ClosSelectStart::kDest, ClosSelectStart::kPair, ClosSelectStart::kRandom}) {
    ClosOccupancyOptions o;
    o.circuits = 6;
    o.requests = 2000;
    o.select = s;
    const ClosOccupancyResult r = run_clos_occupancy(p, o);
    EXPECT_GT(r.blocking(), 0.05) << static_cast<int>(s);
    EXPECT_LT(r.blocking(), 1.0);
  }
  // Strictly non-blocking (m >= 2n - 1): never.
  ClosOccupancyOptions o;
  o.circuits = 14;
  o.requests = 5000;
  EXPECT_EQ(run_clos_occupancy(net(7, 4, 4, 2), o).blocked, 0u);
}

TEST(ClosOccupancy, Refusals) {
  const ClosParams p = net(4, 4, 4, 2);
  ClosOccupancyOptions o;
  o.circuits = 17;
  EXPECT_THROW(run_clos_occupancy(p, o), InputError);
  o.circuits = -1;
  EXPECT_THROW(run_clos_occupancy(p, o), InputError);
  o.circuits = 4;
  o.active_per_switch = 5;
  EXPECT_THROW(run_clos_occupancy(p, o), InputError);
}

}  // namespace
}  // namespace cmnet

// The off-line router: every permutation of N = 8 through the rearrangeable N(2, 2, 4)
// (exhaustive, 40,320), random permutations at N = 1,024 through N(32, 32, 32), partial ones and
// wider networks; each checked by tracing every input through the settings (trace(), which
// knows nothing of the router) to its destination with no s-link used twice.
#include "gen/clos/clos_router.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "gen/core/errors.h"
#include "tests/clos/clos_test_net.h"

namespace cmnet {
namespace {

using clos_test::net;

// Routes `dest` and checks the settings deliver it; returns false (with a message) otherwise.
::testing::AssertionResult routes(const ClosParams& p, const std::vector<int>& dest) {
  const auto circuits = route_permutation(p, dest);
  ClosSettings s;
  try {
    s = settings_of(p, circuits);
  } catch (const InputError& e) {
    return ::testing::AssertionFailure() << "settings: " << e.what();
  }
  const ClosTrace t = trace(p, s);
  if (!t.error.empty()) return ::testing::AssertionFailure() << t.error;
  if (t.reached != dest) {
    for (size_t i = 0; i < dest.size(); ++i)
      if (t.reached[i] != dest[i])
        return ::testing::AssertionFailure() << "input " << i << " reaches " << t.reached[i] << ", wanted " << dest[i];
  }
  for (const ClosCircuit& c : circuits)
    if (c.middle >= p.n) return ::testing::AssertionFailure() << "middle switch " << c.middle << " >= n";
  return ::testing::AssertionSuccess();
}

TEST(ClosRouter, EveryPermutationOfEightThroughN224) {
  const ClosParams p = net(2, 2, 4);
  ASSERT_EQ(p.kind(), ClosKind::kRearrangeable);
  std::vector<int> dest(8);
  std::iota(dest.begin(), dest.end(), 0);
  int count = 0;
  do {
    ASSERT_TRUE(routes(p, dest)) << "permutation #" << count;
    ++count;
  } while (std::next_permutation(dest.begin(), dest.end()));
  EXPECT_EQ(count, 40320);
}

TEST(ClosRouter, RandomPermutationsOf1024ThroughN32_32_32) {
  const ClosParams p = net(32, 32, 32);
  ASSERT_EQ(p.ports(), 1024);
  std::mt19937_64 rng(12);
  std::vector<int> dest(1024);
  std::iota(dest.begin(), dest.end(), 0);
  for (int k = 0; k < 24; ++k) {
    std::shuffle(dest.begin(), dest.end(), rng);
    ASSERT_TRUE(routes(p, dest)) << "permutation " << k;
  }
  // The hard cases for a greedy router: identity, reversal, every switch to one switch's ports.
  std::iota(dest.begin(), dest.end(), 0);
  EXPECT_TRUE(routes(p, dest));
  std::reverse(dest.begin(), dest.end());
  EXPECT_TRUE(routes(p, dest));
  for (int i = 0; i < 1024; ++i) dest[static_cast<size_t>(i)] = (i % 32) * 32 + i / 32;  // transpose
  EXPECT_TRUE(routes(p, dest));
}

TEST(ClosRouter, PartialPermutationsAndOtherShapes) {
  std::mt19937_64 rng(7);
  for (const ClosParams& p : {net(3, 2, 4), net(4, 4, 4), net(5, 4, 8), net(8, 8, 16), net(1, 1, 5), net(6, 6, 1)}) {
    std::vector<int> dest(static_cast<size_t>(p.ports()));
    for (int k = 0; k < 50; ++k) {
      std::iota(dest.begin(), dest.end(), 0);
      std::shuffle(dest.begin(), dest.end(), rng);
      for (auto& d : dest)
        if (rng() % 4 == 0) d = -1;  // idle input
      ASSERT_TRUE(routes(p, dest)) << clos_name(p) << " permutation " << k;
    }
  }
}

TEST(BenesRouter, EveryPermutationOfEightAndRandomOnesOf1024) {
  std::vector<int> dest(8);
  std::iota(dest.begin(), dest.end(), 0);
  int count = 0;
  do {
    const BenesSettings s = route_benes(dest);
    ASSERT_EQ(s.cross.size(), 5u);  // 2k - 1 stages
    ASSERT_EQ(trace_benes(s), dest) << "permutation #" << count;
    ++count;
  } while (std::next_permutation(dest.begin(), dest.end()));
  EXPECT_EQ(count, 40320);
  std::mt19937_64 rng(3);
  dest.resize(1024);
  for (int k = 0; k < 20; ++k) {
    std::iota(dest.begin(), dest.end(), 0);
    std::shuffle(dest.begin(), dest.end(), rng);
    const BenesSettings s = route_benes(dest);
    ASSERT_EQ(s.cross.size(), 19u);
    ASSERT_EQ(trace_benes(s), dest) << k;
  }
  EXPECT_EQ(trace_benes(route_benes({1, 0})), (std::vector<int>{1, 0}));
  EXPECT_THROW(route_benes({0, 1, 2}), InputError);
  EXPECT_THROW(route_benes({0, 0, 1, 2}), InputError);
}

TEST(ClosRouter, RefusesBlockingNetworksAndBadPermutations) {
  EXPECT_THROW(route_permutation(net(1, 2, 4), std::vector<int>(8, -1)), InputError);
  EXPECT_THROW(route_permutation(net(2, 2, 4), {0, 0, 1, 2, 3, 4, 5, 6}), InputError);  // two to 0
  EXPECT_THROW(route_permutation(net(2, 2, 4), {0, 1, 2}), InputError);
  EXPECT_THROW(route_permutation(net(2, 2, 4), {0, 1, 2, 3, 4, 5, 6, 8}), InputError);
}

TEST(ClosRouter, TracerCatchesBrokenSettings) {
  const ClosParams p = net(2, 2, 4);
  std::vector<int> dest = {7, 6, 5, 4, 3, 2, 1, 0};
  ClosSettings s = settings_of(p, route_permutation(p, dest));
  ClosSettings fan = s;
  // Output switch 0 port 1 also copies the middle switch that feeds its port 0: fan-out.
  fan.out_sel[0][1] = fan.out_sel[0][0];
  EXPECT_NE(trace(p, fan).error, "");
  ClosSettings wrong = s;
  std::swap(wrong.out_sel[3][0], wrong.out_sel[3][1]);
  EXPECT_EQ(trace(p, wrong).error, "");
  EXPECT_NE(trace(p, wrong).reached, dest);
  // Two circuits on one s-link are refused when the settings are made.
  EXPECT_THROW(settings_of(p, {{0, 0, 0}, {1, 2, 0}}), InputError);
}

TEST(ClosRouter, ConfigurationWritesCoverEveryCrossbarOutput) {
  const ClosParams p = net(3, 2, 4);
  const ClosSettings s = settings_of(p, {{1, 6, 2}});
  const auto w = cfg_writes(p, s);
  ASSERT_EQ(static_cast<int>(w.size()), p.cfg_entries());
  const uint32_t valid = 1u << p.cfg_sel_bits();
  EXPECT_EQ(w[static_cast<size_t>(p.in_cfg_base() + 0 * p.m + 2)].second, valid | 1u);   // input switch 0 port 1 -> middle 2
  EXPECT_EQ(w[static_cast<size_t>(p.mid_cfg_base() + 2 * p.r + 3)].second, valid | 0u);  // middle 2 -> output switch 3
  EXPECT_EQ(w[static_cast<size_t>(p.out_cfg_base() + 3 * p.n + 0)].second, valid | 2u);  // port 6 = switch 3 port 0
  int valid_writes = 0;
  for (const auto& [a, d] : w) valid_writes += (d & valid) ? 1 : 0;
  EXPECT_EQ(valid_writes, 3);
}

}  // namespace
}  // namespace cmnet

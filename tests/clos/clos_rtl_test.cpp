// Data over circuits on the emitted Clos RTL (Verilator): the off-line router's settings load
// through the configuration port and random words sent at every input arrive bit-exact at the
// outputs the permutation names (every other output reads 0). Exhaustive for N = 8 through
// N(2, 2, 4); random (and partial) permutations through bigger networks.
#include "sim/clos/clos_rtl.h"

#include "sim/clos/clos_setup_model.h"
#include "tests/clos/clos_oracle_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace cmnet {
namespace {

ClosConfig cfg(int m, int n, int r, int w) {
  ClosConfig c;
  c.clos.m = m;
  c.clos.n = n;
  c.clos.r = r;
  c.clos.width = w;
  c.clos.hnode_dims = 0;
  return c;
}

// The run against the oracle: every case's circuits routed through its settings (`offline`: by
// the off-line router), and the verbose cases' words at every output.
void expect_oracle_agrees(const ClosParams& p, const std::vector<ClosRtlCase>& cases, const ClosRtlRun& run, bool offline) {
  std::vector<std::string> bad;
  for (size_t c = 0; c < cases.size(); ++c)
    for (const std::string& x : clos_test::oracle_case(p, cases[c], offline)) bad.push_back("case " + std::to_string(c) + ": " + x);
  for (std::string& x : clos_test::oracle_words(p, cases, run)) bad.push_back(std::move(x));
  EXPECT_TRUE(bad.empty()) << clos_name(p) << clos_test::oracle_report(bad);
}

ClosRtlCase routed(const ClosParams& p, const std::vector<int>& dest, uint64_t words) {
  ClosRtlCase k;
  k.dest = dest;
  k.settings = settings_of(p, route_permutation(p, dest));
  k.words = words;
  return k;
}

TEST(ClosRtl, EveryPermutationOfEightArrivesBitExactThroughN224) {
  const ClosConfig c = cfg(2, 2, 4, 8);
  std::vector<int> dest(8);
  std::iota(dest.begin(), dest.end(), 0);
  std::vector<ClosRtlCase> cases;
  do cases.push_back(routed(c.clos, dest, 2));
  while (std::next_permutation(dest.begin(), dest.end()));
  for (size_t k = 0; k < cases.size(); k += 4999) cases[k].verbose = true;  // every output's words, for the oracle
  ASSERT_EQ(cases.size(), 40320u);
  const ClosRtlRun run = run_clos_rtl(c, cases, 3);
  EXPECT_EQ(run.cases, 40320u);
  EXPECT_EQ(run.words, 2u * 40320u);
  EXPECT_EQ(run.mismatches, 0u) << (run.first_mismatches.empty() ? "" : run.first_mismatches[0]);
  EXPECT_GT(run.cfg_writes, 40320u);  // settings change from case to case
  expect_oracle_agrees(c.clos, cases, run, true);
}

TEST(ClosRtl, RandomPermutationsThroughBiggerNetworks) {
  std::mt19937_64 rng(5);
  for (const ClosConfig& c : {cfg(8, 8, 8, 32), cfg(5, 3, 4, 5)}) {
    const int N = c.clos.ports();
    std::vector<int> dest(static_cast<size_t>(N));
    std::vector<ClosRtlCase> cases;
    for (int k = 0; k < 200; ++k) {
      std::iota(dest.begin(), dest.end(), 0);
      std::shuffle(dest.begin(), dest.end(), rng);
      if (k % 2)
        for (auto& d : dest)
          if (rng() % 3 == 0) d = -1;  // idle inputs: their old circuits are torn down
      cases.push_back(routed(c.clos, dest, 3));
      cases.back().verbose = k % 40 == 1;
    }
    const ClosRtlRun run = run_clos_rtl(c, cases, 9);
    EXPECT_EQ(run.cases, 200u) << clos_name(c.clos);
    EXPECT_EQ(run.mismatches, 0u) << clos_name(c.clos) << ": "
                                  << (run.first_mismatches.empty() ? "" : run.first_mismatches[0]);
    expect_oracle_agrees(c.clos, cases, run, true);
  }
}

TEST(ClosRtl, TheSetUpModelsSettingsCarryItsCircuits) {
  // The hnodes' settings (the controller's, not the off-line router's) load into the same
  // switches: snapshots of the set-up model in mid-run, set-ups in progress included, carry
  // exactly the circuits established at that moment and nothing else.
  const ClosConfig c = cfg(5, 3, 4, 5);
  ClosParams p = c.clos;
  p.hnode_dims = 2;
  ClosSetupOptions o;
  o.requests = 4000;
  o.think_us = 100;
  o.hold_us = 1500;
  o.snapshot_every = 97;
  o.max_snapshots = 40;
  const ClosSetupStats s = run_clos_setup(p, o);
  ASSERT_EQ(s.error, "");
  ASSERT_EQ(s.snapshots.size(), 40u);
  std::vector<ClosRtlCase> cases;
  size_t circuits = 0;
  for (const ClosSnapshot& snap : s.snapshots) {
    ClosRtlCase k;
    k.dest = snap.dest;
    k.settings = snap.settings;
    k.words = 3;
    k.verbose = cases.size() % 8 == 0;
    for (int d : snap.dest) circuits += d >= 0 ? 1 : 0;
    cases.push_back(k);
  }
  EXPECT_GT(circuits, 40u * 2);
  const ClosRtlRun run = run_clos_rtl(c, cases, 2);
  EXPECT_EQ(run.cases, 40u);
  EXPECT_EQ(run.mismatches, 0u) << (run.first_mismatches.empty() ? "" : run.first_mismatches[0]);
  expect_oracle_agrees(c.clos, cases, run, false);  // the hnodes set up one circuit at a time
}

TEST(ClosRtl, WrongSettingsAreCaught) {
  // The harness checks against the circuits meant, not the settings loaded: swap two output
  // selections and the data goes astray.
  const ClosConfig c = cfg(2, 2, 4, 8);
  ClosRtlCase k = routed(c.clos, {7, 6, 5, 4, 3, 2, 1, 0}, 2);
  std::swap(k.settings.out_sel[3][0], k.settings.out_sel[3][1]);
  const ClosRtlRun run = run_clos_rtl(c, {k}, 1);
  EXPECT_EQ(run.mismatches, 4u);  // outputs 6 and 7, two words each
  // The oracle sees it in the settings alone: 1 reaches 7 and 0 reaches 6.
  const auto bad = clos_test::oracle_case(c.clos, k, true);
  EXPECT_FALSE(bad.empty());
  EXPECT_NE(clos_test::oracle_report(bad).find("circuit 0 -> 7: the settings carry its source to 6"), std::string::npos)
      << clos_test::oracle_report(bad);
}

TEST(ClosRtl, VerboseCasesReportEveryWord) {
  const ClosConfig c = cfg(2, 2, 4, 8);
  ClosRtlCase k = routed(c.clos, {3, -1, 0, 7, 6, 5, 4, 1}, 2);
  k.verbose = true;
  const ClosRtlRun run = run_clos_rtl(c, {k}, 1);
  ASSERT_EQ(run.rx.size(), 14u);  // 7 circuits x 2 words
  for (const ClosRx& r : run.rx) {
    EXPECT_EQ(r.sent, r.got);
    EXPECT_EQ(r.dst, k.dest[static_cast<size_t>(r.src)]);
  }
  EXPECT_EQ(run.outputs.size(), 16u);  // 8 outputs x 2 words, the idle one (2) included
  expect_oracle_agrees(c.clos, {k}, run, true);
}

}  // namespace
}  // namespace cmnet

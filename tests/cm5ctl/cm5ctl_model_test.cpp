// The CM-5 control network reference model against the functional oracle (sim/cm5ctl/oracle:
// every result from the paper's definitions, sharing no code with the model): the paper's example, every operator at 2..64 leaves with
// random values, segmented scans, abstain masks, broadcasts, barriers and random pipelined
// mixes; and the figures that follow from the timing contract (latency, throughput).
#include "sim/cm5ctl/cm5ctl_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "sim/cm5ctl/cm5ctl_workloads.h"
#include "sim/cm5ctl/cm5ctl_oracle_view.h"

namespace cmnet {
namespace {

Cm5ctlParams params(int leaves, int w = 32, int up = 6, int down = 5) {
  Cm5ctlParams p;
  p.leaves = leaves;
  p.word_bits = w;
  p.up_width = up;
  p.down_width = down;
  validate(p, "test");
  return p;
}

// Runs the model and checks it against the oracle; returns the run.
Cm5RunResult check(const Cm5ctlParams& p, const Cm5Workload& w) {
  const Cm5RunResult r = run_cm5ctl_model(p, w);
  EXPECT_TRUE(r.completed) << w.name << " N=" << p.leaves << ": " << r.results.size() << " of "
                           << expected_result_count(w) << " results";
  EXPECT_FALSE(r.faults.any_design_fault()) << w.name;
  EXPECT_EQ(r.faults.bcast_drops, 0u) << w.name;
  EXPECT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(p, w, r.results)), "") << w.name << " N=" << p.leaves;
  return r;
}

TEST(Cm5ctlModel, ThePapersForwardScan) {
  const Cm5ctlParams p = params(8);
  const Cm5Workload w = make_cm5ctl_workload("paper", 8, 32, 1, 1);
  const Cm5RunResult r = check(p, w);
  const uint64_t want[] = {0, 3, 5, 5, 9, 11, 17, 22};
  ASSERT_EQ(r.results.size(), 8u);
  for (const Cm5Result& x : r.results) EXPECT_EQ(x.data, want[x.leaf]) << x.str();
}

TEST(Cm5ctlModel, SoftwareResultsOfThePapersExample) {
  const Cm5Expected e = expected_results(make_cm5ctl_workload("paper", 8, 32, 1, 1), 32);
  const uint64_t want[] = {0, 3, 5, 5, 9, 11, 17, 22};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(e.multi[static_cast<size_t>(i)].at(0).data, want[i]);
}

TEST(Cm5ctlModel, EveryOperatorAtEverySize) {
  for (int n : {2, 4, 8, 16, 32, 64})
    for (const std::string name : {"reduce-or", "reduce-xor", "reduce-max", "reduce-add", "reduce-uadd", "scan-fwd",
                                   "scan-bwd", "scan-seg", "barrier", "broadcast"})
      check(params(n), make_cm5ctl_workload(name, n, 32, static_cast<uint64_t>(n) * 7 + 1, 10));
}

TEST(Cm5ctlModel, AbstainMasksAndRandomMixes) {
  for (int n : {2, 4, 8, 16, 64})
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Cm5MixOptions o;
      o.ops = 30;
      o.abstain = 0.1 * static_cast<double>(seed);
      o.broadcasts = static_cast<int>(seed) * 2;
      o.broadcaster = static_cast<int>(seed) % n;
      o.small_values = seed % 2;
      o.release_spread = seed == 3 ? 200 : 0;
      check(params(n), random_cm5ctl_mix(n, 32, seed * 100 + static_cast<uint64_t>(n), o));
    }
}

TEST(Cm5ctlModel, OtherWidthsAndWords) {
  for (auto [w, up, down] : std::vector<std::tuple<int, int, int>>{{8, 1, 1}, {16, 20, 3}, {32, 44, 44}, {4, 2, 7}})
    for (int n : {2, 8, 32}) {
      Cm5MixOptions o;
      o.ops = 25;
      o.broadcasts = 3;
      o.abstain = 0.2;
      o.small_values = true;
      check(params(n, w, up, down), random_cm5ctl_mix(n, w, 77 + static_cast<uint64_t>(n), o));
    }
}

TEST(Cm5ctlModel, UnsignedOverflowIsTheTrueSumNotFitting) {
  Cm5Workload w = make_cm5ctl_workload("reduce-uadd", 8, 8, 3, 1);
  for (auto& l : w.leaf) l[0].data = 40;  // 320 > 255
  Cm5RunResult r = check(params(8, 8), w);
  for (const auto& x : r.results) EXPECT_TRUE(x.ovf);
  for (auto& l : w.leaf) l[0].data = 31;  // 248 fits
  r = check(params(8, 8), w);
  for (const auto& x : r.results) EXPECT_FALSE(x.ovf);
}

// Multi-word additions: the words of every result put together are the 128-bit sums and
// prefixes, computed here directly with 128-bit arithmetic.
TEST(Cm5ctlModel, MultiWordAdditionsAgainst128BitArithmetic) {
  using u128 = unsigned __int128;
  for (int n : {2, 8, 64})
    for (uint8_t kind : {cm5::kReduce, cm5::kScanFwd, cm5::kScanBwd})
      for (uint8_t comb : {cm5::kAdd, cm5::kUadd}) {
        std::mt19937_64 rng(static_cast<uint64_t>(n * 100 + kind * 10 + comb));
        Cm5Workload w;
        w.name = "add128";
        w.leaf.resize(static_cast<size_t>(n));
        std::vector<u128> x(static_cast<size_t>(n));
        for (int rep = 0; rep < 3; ++rep) {
          for (int i = 0; i < n; ++i) {
            x[static_cast<size_t>(i)] = (static_cast<u128>(rng()) << 64) | rng();
            if (rep == 1) x[static_cast<size_t>(i)] = ~static_cast<u128>(rng() % 3);  // carries all the way up
            for (int j = 0; j < 4; ++j) {
              Cm5Op o;
              o.kind = kind;
              o.comb = j == 0 ? comb : (comb == cm5::kAdd ? cm5::kAddc : cm5::kUaddc);
              o.data = static_cast<uint64_t>(x[static_cast<size_t>(i)] >> (32 * j)) & 0xffffffffu;
              w.leaf[static_cast<size_t>(i)].push_back(o);
            }
          }
          std::vector<u128> want(static_cast<size_t>(n));
          u128 acc = 0;
          for (int k = 0; k < n; ++k) {
            const int i = kind == cm5::kScanBwd ? n - 1 - k : k;
            want[static_cast<size_t>(i)] = acc;
            acc += x[static_cast<size_t>(i)];
          }
          if (kind == cm5::kReduce) want.assign(static_cast<size_t>(n), acc);
          const Cm5RunResult r = check(params(n), w);
          std::vector<std::vector<uint64_t>> words(static_cast<size_t>(n));
          for (const auto& res : r.results) words[res.leaf].push_back(res.data);
          for (int i = 0; i < n; ++i) {
            const auto& v = words[static_cast<size_t>(i)];
            ASSERT_EQ(v.size() % 4, 0u);
            const size_t b = v.size() - 4;  // this repetition's four words
            u128 got = 0;
            for (int j = 0; j < 4; ++j) got |= static_cast<u128>(v[b + static_cast<size_t>(j)]) << (32 * j);
            EXPECT_TRUE(got == want[static_cast<size_t>(i)]) << "n=" << n << " kind " << int(kind) << " comb "
                                                             << int(comb) << " leaf " << i << " rep " << rep;
          }
        }
      }
}

TEST(Cm5ctlModel, MultiWordPatternAndChainsInMixes) {
  for (int n : {2, 16}) {
    check(params(n), make_cm5ctl_workload("multiword", n, 32, 3, 12));
    check(params(n, 12, 4, 4), make_cm5ctl_workload("multiword", n, 12, 4, 12));
    Cm5MixOptions o;
    o.ops = 40;
    o.chains = 0.8;
    o.abstain = 0.2;
    o.small_values = true;
    check(params(n, 8, 3, 2), random_cm5ctl_mix(n, 8, 11, o));
  }
}

TEST(Cm5ctlModel, RouterDoneWaitsForTheLastMessage) {
  for (int n : {2, 8, 64})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const Cm5RouterDone rd = router_done_workload(n, seed, 4 * n);
      const Cm5RunResult r = check(params(n), rd.w);
      int done = 0;
      for (const auto& x : r.results)
        if (x.comb == cm5::kRouterDone) {
          ++done;
          EXPECT_GT(x.cycle, rd.last_arrival) << x.str();
          EXPECT_EQ(x.data, 0u);
        }
      EXPECT_EQ(done, n);
    }
}

TEST(Cm5ctlModel, RouterDoneDetectsALostAndADuplicatedMessage) {
  for (int n : {4, 16}) {
    Cm5ModelOptions o;
    o.max_cycles = 5000;
    // Lost: the counters never balance; router-done never ends (and nothing after it goes).
    const Cm5RunResult lost = run_cm5ctl_model(params(n), router_done_workload(n, 5, 3 * n, "lost").w, o);
    EXPECT_TRUE(lost.results.empty());
    EXPECT_FALSE(lost.faults.any_design_fault());
    // Duplicated: the sum goes below zero; router-done ends with the error bit and the sum -1.
    const Cm5RunResult dup = run_cm5ctl_model(params(n), router_done_workload(n, 5, 3 * n, "duplicated").w, o);
    ASSERT_EQ(dup.results.size(), static_cast<size_t>(2 * n));
    for (const auto& x : dup.results)
      if (x.comb == cm5::kRouterDone) {
        EXPECT_TRUE(x.err) << x.str();
        EXPECT_EQ(x.data, 0xffffffffu) << x.str();
      }
  }
}

TEST(Cm5ctlModel, WithACrcEveryOperationStillWorks) {
  for (int n : {2, 16}) {
    Cm5ctlParams p = params(n);
    p.crc_bits = 8;
    validate(p, "test");
    EXPECT_EQ(p.packet_bits(), 55);  // 15 header bits, 32 data, 8 CRC
    Cm5MixOptions o;
    o.ops = 30;
    o.broadcasts = 3;
    o.abstain = 0.2;
    const Cm5RunResult r = check(p, random_cm5ctl_mix(n, 32, 21, o));
    EXPECT_EQ(r.faults.link_errors, 0u);
  }
}

// A bit flipped on a link: with the CRC the receiver sees it (and drops the packet); without,
// a result is silently wrong.
TEST(Cm5ctlModel, ACrcErrorOnALinkIsDetected) {
  for (int crc : {0, 8}) {
    Cm5ctlParams p = params(8);
    p.crc_bits = crc;
    Cm5Workload w = make_cm5ctl_workload("reduce-add", 8, 32, 4, 3);
    // Leaf 3 (link 11) sends its first packet in the second up frame; flip its chunk 3 (data).
    w.flips.push_back({static_cast<uint64_t>(p.up_frame() + 3), 11, true});
    Cm5ModelOptions o;
    o.max_cycles = 3000;
    const Cm5RunResult r = run_cm5ctl_model(p, w, o);
    EXPECT_FALSE(cm5ctl_view::oracle_disagreements(p, w, r.results).empty()) << "crc " << crc;  // the results are wrong or missing either way
    EXPECT_EQ(r.faults.link_errors, crc ? 1u : 0u) << "crc " << crc;
  }
}

TEST(Cm5ctlModel, DifferentOperationsSignalAnError) {
  Cm5Workload w = make_cm5ctl_workload("reduce-add", 8, 32, 3, 2);
  w.leaf[5][0].comb = cm5::kXor;
  const Cm5RunResult r = check(params(8), w);
  for (const auto& x : r.results) EXPECT_EQ(x.err, x.cycle == r.results.front().cycle) << x.str();
}

TEST(Cm5ctlModel, CollidingBroadcastsSignalAnError) {
  Cm5Workload w = make_cm5ctl_workload("broadcast", 8, 32, 3, 1);
  Cm5Op o = w.leaf[0][0];
  w.leaf[7].push_back(o);  // leaves 0 and 7 broadcast in the same frame: they meet at the root
  Cm5ModelOptions mo;
  mo.max_cycles = 3000;  // it never completes: one of the two is lost
  const Cm5RunResult r = run_cm5ctl_model(params(8), w, mo);
  ASSERT_FALSE(r.results.empty());
  for (const auto& x : r.results) EXPECT_TRUE(x.err) << x.str();
  EXPECT_EQ(r.results.size(), 8u);  // one survives
}

TEST(Cm5ctlModel, ReductionLatencyIsTwoTreeTraversals) {
  for (int n : {2, 16, 1024, 16384}) {
    const Cm5ctlParams p = params(n);
    const Cm5RunResult r = check(p, make_cm5ctl_workload("reduce-add", n, 32, 1, 1));
    // Pushed at cycle 0; the leaves send in the frame after their first up tick; H up hops of
    // Tu, a wait for a down frame, H down hops of Td, one cycle to present.
    const int64_t H = p.height(), Tu = p.up_frame(), Td = p.down_frame();
    const int64_t lat = static_cast<int64_t>(r.last_result_cycle);
    EXPECT_GE(lat, (H + 1) * Tu + H * Td + 1) << n;
    EXPECT_LE(lat, (H + 1) * Tu + (H + 1) * Td + 1) << n;
  }
}

TEST(Cm5ctlModel, PipelinedThroughputIsOneOperationPerPacketTime) {
  for (auto [n, up, down] : std::vector<std::tuple<int, int, int>>{
           {8, 6, 5}, {64, 6, 5}, {1024, 6, 5}, {64, 5, 6}, {64, 44, 5}, {64, 11, 4}, {16, 1, 1}}) {
    const Cm5ctlParams p = params(n, 32, up, down);
    const Cm5RunResult r = check(p, make_cm5ctl_workload("scan-fwd", n, 32, 1, 200));
    // Steady state: results of operation k and k+100 at leaf 0.
    std::vector<uint64_t> at;
    for (const auto& x : r.results)
      if (x.leaf == 0) at.push_back(x.cycle);
    ASSERT_EQ(at.size(), 200u);
    const double per = static_cast<double>(at[150] - at[50]) / 100.0;
    EXPECT_NEAR(per, p.packet_time(), 0.1) << n << " " << up << "/" << down;
  }
}

}  // namespace
}  // namespace cmnet

namespace cmnet {
namespace {

// Flush and restart: every operation completes once, with the results it would have had
// without the flush; the flush aborted operations in progress; no combining result reaches a
// leaf between the flush and its restart.
TEST(Cm5ctlModel, FlushAndRestartGiveTheSameResults) {
  for (int n : {2, 8, 64})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      Cm5MixOptions o;
      o.ops = 30;
      o.broadcasts = 2;
      o.abstain = 0.2;
      o.chains = 0.5;
      o.release_spread = 250;  // stragglers: operations wait at the nodes when the flush comes
      const uint64_t restart = 900 + 100 * seed;
      const Cm5Workload w = with_flush(random_cm5ctl_mix(n, 32, seed * 7 + static_cast<uint64_t>(n), o), 0, 12,
                                       100 + 40 * seed, restart);
      const Cm5RunResult r = check(params(n), w);
      EXPECT_GT(r.flushed_ops, 0u) << "n=" << n << " seed " << seed;
      for (uint32_t leaf = 0; leaf < static_cast<uint32_t>(n); ++leaf) {
        uint64_t flushed_at = 0;
        for (const auto& x : r.results)
          if (x.leaf == leaf && x.broadcast && x.comb == cm5::kFlushComb) flushed_at = x.cycle;
        ASSERT_GT(flushed_at, 0u);
        ASSERT_LT(flushed_at, restart);
        for (const auto& x : r.results)
          if (x.leaf == leaf && !x.broadcast) {
            EXPECT_FALSE(x.cycle > flushed_at && x.cycle <= restart) << x.str();
          }
      }
    }
}

// Two flushes, one after the other, and router-done interrupted by one.
TEST(Cm5ctlModel, TwoFlushesAndAFlushedRouterDone) {
  Cm5MixOptions o;
  o.ops = 40;
  o.release_spread = 400;
  Cm5Workload w = with_flush(random_cm5ctl_mix(16, 32, 5, o), 3, 10, 120, 700);
  w = with_flush(w, 3, 30, 900, 1500);
  std::sort(w.restarts.begin(), w.restarts.end());
  const Cm5RunResult r = check(params(16), w);
  EXPECT_GT(r.flushed_ops, 0u);
  Cm5RouterDone rd = router_done_workload(8, 2, 32);
  const Cm5RunResult r2 = check(params(8), with_flush(rd.w, 0, 0, 60, 800));
  for (const auto& x : r2.results)
    if (x.comb == cm5::kRouterDone && !x.broadcast) {
      EXPECT_GT(x.cycle, 800u);
    }
}

// Partitions operate independently (each its own root and its own operations); mapped-out
// leaves and subtrees are ignored (their junk never reaches anyone), the others get the
// results over the leaves in use.
TEST(Cm5ctlModel, PartitionsAndMappedOutSubtrees) {
  struct Shape {
    int n;
    std::vector<int> parts, outs;
  };
  for (const Shape& s : std::vector<Shape>{{16, {2, 3}, {}},
                                           {16, {4, 5, 3}, {17, 11, 26}},
                                           {16, {}, {17, 11, 26, 14}},
                                           {64, {2, 6, 7}, {65, 33, 18, 120}},
                                           {8, {2}, {9}}}) {
    Cm5ctlParams p = params(s.n);
    p.partitions = s.parts;
    p.mapped_out = s.outs;
    validate(p, "test");
    const Cm5Topology t = cm5_topology(p);
    Cm5MixOptions o;
    o.ops = 25;
    o.broadcasts = 2;
    o.abstain = 0.15;
    o.release_spread = 60;
    const Cm5Workload w = partitioned_mix(p, 11 + static_cast<uint64_t>(s.n), o);
    const Cm5RunResult r = run_cm5ctl_model(p, w);
    EXPECT_TRUE(r.completed) << s.n;
    EXPECT_FALSE(r.faults.any_design_fault());
    EXPECT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(p, w, r.results)), "") << s.n;
    for (const auto& x : r.results) EXPECT_GE(t.part[x.leaf], 0) << x.str();
  }
}

// The two asynchronous ORs and the hard-error OR: every leaf of the partition sees the OR of
// its partition's inputs, a few frames after a change, whatever else the network does; the
// other partition does not. A CRC error anywhere raises the hard-error OR everywhere.
TEST(Cm5ctlModel, AsynchronousOrsAndTheHardErrorOr) {
  Cm5ctlParams p = params(16);
  p.partitions = {2, 3};
  validate(p, "test");
  Cm5MixOptions o;
  o.ops = 20;
  Cm5Workload w = partitioned_mix(p, 3, o);
  w.globals = {{50, 3, 1}, {120, 5, 2}, {300, 3, 0}, {320, 12, 3}, {500, 5, 0}, {600, 9, 4}};
  Cm5ModelOptions mo;
  mo.min_cycles = 1000;
  const Cm5RunResult r = run_cm5ctl_model(p, w, mo);
  EXPECT_TRUE(r.completed);
  std::vector<uint8_t> last(16, 0);
  std::vector<std::vector<uint64_t>> changes(16);
  for (const auto& g : r.globals) {
    last[g.leaf] = g.value;
    changes[g.leaf].push_back(g.cycle);
  }
  const int64_t bound = (p.height() + 1) * (p.up_frame() + p.down_frame()) + 2;
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(last[static_cast<size_t>(i)], 0) << i;  // leaves 0..7: set, then cleared
    ASSERT_EQ(changes[static_cast<size_t>(i)].size(), 4u) << i;  // 0->1->3->2->0
    EXPECT_LE(static_cast<int64_t>(changes[static_cast<size_t>(i)][0]), 50 + bound);
  }
  for (int i = 8; i < 16; ++i) EXPECT_EQ(last[static_cast<size_t>(i)], 7) << i;  // 3 from leaf 12, 4 from leaf 9
  // A bit flipped with the CRC on: a link error, the hard-error OR at every leaf.
  p = params(8);
  p.crc_bits = 8;
  Cm5Workload f = make_cm5ctl_workload("reduce-add", 8, 32, 4, 3);
  f.flips.push_back({static_cast<uint64_t>(p.up_frame() + 3), 11, true});
  mo.max_cycles = mo.min_cycles = 1000;
  const Cm5RunResult rf = run_cm5ctl_model(p, f, mo);
  EXPECT_EQ(rf.faults.link_errors, 1u);
  std::vector<uint8_t> fin(8, 0);
  for (const auto& g : rf.globals) fin[g.leaf] = g.value;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(fin[static_cast<size_t>(i)], 4) << i;
}

// The CM-5 frame's layout as the README's table gives it, checked field by field (not through
// to_frame's own code): the major stream's description, data, global bits and CRC, the minor
// stream's control bits; from_frame inverts it and every single-bit error fails the CRC.
TEST(Cm5ctlModel, TheCm5FrameLayout) {
  cm5::Packet x;
  x.type = cm5::kMulti;
  x.kind = cm5::kScanFwd;
  x.comb = cm5::kUadd;
  x.segd = true;
  x.seg = true;
  x.ovf = false;
  x.err = true;
  x.fc = true;
  x.g = 5;
  x.data = 0xDEADBEEF;
  const cm5::Frame f = cm5::to_frame(x);
  EXPECT_EQ(f.major & 3, 2u);
  EXPECT_EQ((f.major >> 2) & 3, 1u);
  EXPECT_EQ((f.major >> 4) & 7, 4u);
  EXPECT_EQ((f.major >> 7) & 1, 1u);
  EXPECT_EQ((f.major >> 8) & 0xFFFFFFFFull, 0xDEADBEEFull);
  EXPECT_EQ((f.major >> 40) & 15, 5u);
  EXPECT_EQ(f.major >> 52, 0u);
  EXPECT_EQ(f.minor, 0b1011u);  // fc, seg, err; overflow clear; 12:4 reserved
  const uint64_t info = (f.major & ((1ull << 44) - 1)) | static_cast<uint64_t>(f.minor) << 44;
  EXPECT_EQ((f.major >> 44) & 0xFF, cm5::crc8(info, 57));
  bool ok = false;
  EXPECT_EQ(cm5::from_frame(f, &ok).pack(), x.pack());
  EXPECT_TRUE(ok);
  for (int b = 0; b < 65; ++b) {
    cm5::Frame g = f;
    if (b < 52) g.major ^= 1ull << b;
    else g.minor ^= 1u << (b - 52);
    (void)cm5::from_frame(g, &ok);
    EXPECT_FALSE(ok) << "bit " << b;
  }
}

}  // namespace
}  // namespace cmnet

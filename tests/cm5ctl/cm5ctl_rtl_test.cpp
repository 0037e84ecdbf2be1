// The generated CM-5 control network RTL (Verilator) against the reference model, result by
// result and cycle by cycle (the cycle each leaf presents each result, the cycle each push is
// accepted), and the RTL's results against the functional oracle's: the paper's example, every operation and
// every operator, segmented scans, abstain masks, broadcasts, barriers, random pipelined mixes,
// the error cases, at 2, 8 and 16 leaves and several link widths (32 and 64 leaves:
// cm5ctl_scale_test, label scale).
#include "sim/cm5ctl/cm5ctl_rtl.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/cm5ctl/cm5ctl_workloads.h"
#include "tests/cm5ctl/cm5ctl_rtl_check.h"

namespace cmnet {
namespace {

using cm5ctl_view::agree;
using cm5ctl_view::cfg;
using cm5ctl_view::joined;
using cm5ctl_view::oracle_disagreements_under_faults;

TEST(Cm5ctlRtl, ThePapersForwardScan) {
  const Cm5RtlRun r = agree(cfg(8), make_cm5ctl_workload("paper", 8, 32, 1, 1));
  const uint64_t want[] = {0, 3, 5, 5, 9, 11, 17, 22};
  ASSERT_EQ(r.results.size(), 8u);
  for (const Cm5Result& x : r.results) EXPECT_EQ(x.data, want[x.leaf]) << x.str();
}

TEST(Cm5ctlRtl, EveryOperationAndOperator) {
  for (int n : {2, 8, 16})
    for (const std::string name : {"reduce-or", "reduce-xor", "reduce-max", "reduce-add", "reduce-uadd", "scan-fwd",
                                   "scan-bwd", "scan-seg", "barrier", "broadcast"})
      agree(cfg(n), make_cm5ctl_workload(name, n, 32, static_cast<uint64_t>(n) + 5, 10));
}

TEST(Cm5ctlRtl, AbstainMasksAndPipelinedMixes) {
  for (int n : {2, 8, 16})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      Cm5MixOptions o;
      o.ops = 40;
      o.abstain = 0.15 * static_cast<double>(seed);
      o.broadcasts = 4;
      o.broadcaster = static_cast<int>(seed) % n;
      o.small_values = seed != 2;
      o.release_spread = seed == 3 ? 300 : 0;
      agree(cfg(n), random_cm5ctl_mix(n, 32, seed * 31 + static_cast<uint64_t>(n), o));
    }
}

TEST(Cm5ctlRtl, OtherLinkWidthsAndWords) {
  for (auto [n, w, up, down] : std::vector<std::tuple<int, int, int, int>>{
           {8, 8, 1, 1}, {16, 16, 28, 3}, {4, 32, 44, 44}, {8, 4, 2, 7}, {2, 12, 24, 24}}) {
    Cm5MixOptions o;
    o.ops = 30;
    o.abstain = 0.2;
    o.broadcasts = 3;
    o.small_values = true;
    agree(cfg(n, w, up, down), random_cm5ctl_mix(n, w, 5 + static_cast<uint64_t>(up), o));
  }
}

TEST(Cm5ctlRtl, MultiWordAdditions) {
  agree(cfg(8), make_cm5ctl_workload("multiword", 8, 32, 7, 12));
  agree(cfg(16, 16, 28, 3), make_cm5ctl_workload("multiword", 16, 16, 8, 8));
  Cm5MixOptions o;
  o.ops = 30;
  o.chains = 0.8;
  o.abstain = 0.2;
  o.small_values = true;
  agree(cfg(8, 4, 2, 7), random_cm5ctl_mix(8, 4, 12, o));
}

TEST(Cm5ctlRtl, RouterDoneAndItsFaults) {
  for (int n : {2, 8, 16}) {
    const Cm5RouterDone rd = router_done_workload(n, static_cast<uint64_t>(n), 4 * n);
    const Cm5RtlRun r = agree(cfg(n), rd.w);
    for (const auto& x : r.results) {
      if (x.comb == cm5::kRouterDone) {
        EXPECT_GT(x.cycle, rd.last_arrival) << x.str();
      }
    }
  }
  // A lost message: router-done never ends; a duplicated one: it ends with the error bit.
  // The oracle says so too (never done: nothing after it either; messages created: the error).
  const Cm5RouterDone lost_w = router_done_workload(8, 3, 24, "lost");
  const Cm5RtlRun lost = agree(cfg(8), lost_w.w, false);
  EXPECT_TRUE(lost.results.empty());
  EXPECT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(cfg(8).p, lost_w.w, lost.results)), "");
  const Cm5RouterDone dup_w = router_done_workload(8, 3, 24, "duplicated");
  const Cm5RtlRun dup = agree(cfg(8), dup_w.w, false);
  EXPECT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(cfg(8).p, dup_w.w, dup.results)), "");
  ASSERT_EQ(dup.results.size(), 16u);
  for (const auto& x : dup.results) {
    if (x.comb == cm5::kRouterDone) {
      EXPECT_TRUE(x.err) << x.str();
    }
  }
}

TEST(Cm5ctlRtl, CrcOnTheLinksAndAFlippedBit) {
  Cm5ctlConfig c = cfg(8);
  c.p.crc_bits = 8;
  Cm5MixOptions o;
  o.ops = 30;
  o.broadcasts = 3;
  o.abstain = 0.2;
  const Cm5RtlRun ok = agree(c, random_cm5ctl_mix(8, 32, 21, o));
  EXPECT_FALSE(ok.link_error);
  for (int crc : {0, 8}) {
    c.p.crc_bits = crc;
    Cm5Workload w = make_cm5ctl_workload("reduce-add", 8, 32, 4, 3);
    w.flips.push_back({static_cast<uint64_t>(c.p.up_frame() + 3), 11, true});     // leaf 3's first packet
    w.flips.push_back({static_cast<uint64_t>(6 * c.p.down_frame() + 1), 5, false});  // a result on its way down
    const Cm5RtlRun r = agree(c, w, false);
    EXPECT_EQ(r.link_error, crc == 8);
    // The flipped bits corrupt results: with the CRC the link error says so (a hard error); without
    // it they arrive unmarked and unflagged: the hardware cannot tell, the oracle can.
    EXPECT_NE(joined(oracle_disagreements_under_faults(c.p, w, r.results)), "") << crc;
  }
}

TEST(Cm5ctlRtl, ErrorsAreSignalledAlike) {
  // Different operations meeting.
  Cm5Workload w = make_cm5ctl_workload("reduce-add", 8, 32, 3, 3);
  w.leaf[6][1].kind = cm5::kScanFwd;
  Cm5RtlRun r = agree(cfg(8), w);
  int errs = 0;
  for (const auto& x : r.results) errs += x.err;
  EXPECT_EQ(errs, 8);
  // Two broadcasts colliding at the root: one survives, marked.
  w = make_cm5ctl_workload("broadcast", 8, 32, 3, 1);
  w.leaf[7].push_back(w.leaf[0][0]);
  r = agree(cfg(8), w, false);
  ASSERT_EQ(r.results.size(), 8u);
  for (const auto& x : r.results) EXPECT_TRUE(x.err) << x.str();
}

TEST(Cm5ctlRtl, ATooSmallWindowDropsBroadcastsAtTheRoot) {
  // Two leaves broadcast back to back in different frames: the root's queue (window 1) cannot
  // hold the second while the first waits for a down frame. Both engines drop alike.
  Cm5ctlConfig c = cfg(4, 32, 44, 5);
  c.p.broadcast_window = 1;
  Cm5Workload w = make_cm5ctl_workload("broadcast", 4, 32, 9, 1);
  Cm5Op o = w.leaf[0][0];
  o.release = 1;
  w.leaf[3].push_back(o);
  const Cm5RunResult m = run_cm5ctl_model(c.p, w);
  EXPECT_GT(m.faults.bcast_drops, 0u);
  const Cm5RtlRun r = run_cm5ctl_rtl(c, w);
  EXPECT_TRUE(r.bcast_drop);
  EXPECT_EQ(compare_runs(m, r), "");
  // What arrives is the oracle's broadcasts, in order, the dropped one missing.
  EXPECT_EQ(joined(oracle_disagreements_under_faults(c.p, w, r.results)), "");
}

// Flush and restart, on the RTL as on the model: the same results, cycle for cycle, and the
// results of the operations as without the flush; router-done interrupted by a flush.
TEST(Cm5ctlRtl, FlushAndRestart) {
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    Cm5MixOptions o;
    o.ops = 30;
    o.broadcasts = 2;
    o.abstain = 0.2;
    o.chains = 0.5;
    o.release_spread = 250;
    agree(cfg(8), with_flush(random_cm5ctl_mix(8, 32, seed + 40, o), 0, 12, 100 + 40 * seed, 1000));
  }
  Cm5MixOptions o;
  o.ops = 40;
  o.release_spread = 400;
  Cm5Workload w = with_flush(random_cm5ctl_mix(8, 32, 5, o), 3, 10, 120, 700);
  w = with_flush(w, 3, 30, 900, 1500);
  std::sort(w.restarts.begin(), w.restarts.end());
  agree(cfg(8), w);
  agree(cfg(8), with_flush(router_done_workload(8, 2, 32).w, 0, 0, 60, 800));
}

// Priority of single-source packets (paper, section 5): a reduction waits at the nodes for leaf
// 7's part, which comes late; a broadcast leaf 0 pushes meanwhile passes the multiple-source
// packets waiting in the nodes' queues and reaches every leaf long before the reduction
// completes. RTL == model, the RTL == the oracle.
TEST(Cm5ctlRtl, ABroadcastPassesWaitingMultipleSourcePackets) {
  const int n = 8;
  const uint64_t late = 600;
  Cm5Workload w;
  w.name = "broadcast-passes";
  w.leaf.assign(n, {});
  for (int j = 0; j < n; ++j) {
    Cm5Op o;
    o.kind = cm5::kReduce;
    o.comb = cm5::kAdd;
    o.data = static_cast<uint64_t>(10 + j);
    o.release = j == 7 ? late : 0;
    w.leaf[static_cast<size_t>(j)].push_back(o);
  }
  Cm5Op b;
  b.broadcast = true;
  b.kind = cm5::kUser;
  b.comb = 0;
  b.data = 0xB0B;
  b.release = 60;  // after leaf 0's part of the reduction is up the tree and waiting
  w.leaf[0].push_back(b);
  const Cm5RtlRun r = agree(cfg(n), w);
  uint64_t bcast_last = 0, reduce_first = ~0ull;
  int bcasts = 0, reductions = 0;
  for (const Cm5Result& x : r.results) {
    if (x.broadcast) {
      ++bcasts;
      EXPECT_EQ(x.data, 0xB0Bu) << x.str();
      bcast_last = std::max(bcast_last, x.cycle);
    } else {
      ++reductions;
      EXPECT_EQ(x.data, static_cast<uint64_t>(8 * 10 + 28)) << x.str();
      reduce_first = std::min(reduce_first, x.cycle);
    }
  }
  EXPECT_EQ(bcasts, n);
  EXPECT_EQ(reductions, n);
  EXPECT_LT(bcast_last, late);  // it did not wait for leaf 7's part
  EXPECT_GT(reduce_first, late);
}

// queue_ram 1 (the 2-leaf board's setting): the nodes' child queues in block RAM (a registered
// read address) behave as the flip-flop ones: RTL == model for a pipelined mix and a flush.
TEST(Cm5ctlRtl, ChildQueuesInBlockRam) {
  for (int n : {2, 8}) {
    Cm5ctlConfig c = cfg(n);
    c.p.queue_ram = 1;
    Cm5MixOptions o;
    o.ops = 40;
    o.abstain = 0.2;
    o.broadcasts = 4;
    o.chains = 0.5;
    agree(c, random_cm5ctl_mix(n, 32, 90 + static_cast<uint64_t>(n), o));
    o.release_spread = 250;
    agree(c, with_flush(random_cm5ctl_mix(n, 32, 95 + static_cast<uint64_t>(n), o), 0, 12, 140, 1000));
  }
}

// Partitions operating independently (a flush in one of them, broadcasts in each), mapped-out
// leaves and subtrees pushing junk nobody hears, the asynchronous ORs and the hard-error OR
// going on meanwhile: RTL == model and the oracle's results per partition.
TEST(Cm5ctlRtl, PartitionsMapOutAndGlobalOrs) {
  Cm5ctlConfig c = cfg(16);
  c.p.partitions = {4, 5, 3};
  c.p.mapped_out = {17, 11, 26};
  validate(c.p, "test");
  Cm5MixOptions o;
  o.ops = 25;
  o.broadcasts = 2;
  o.abstain = 0.15;
  o.release_spread = 150;
  o.chains = 0.4;
  Cm5Workload w = with_flush(partitioned_mix(c.p, 21, o), 8, 10, 200, 900);
  w.globals = {{40, 0, 1}, {90, 4, 2}, {150, 9, 1}, {260, 0, 0}, {300, 12, 4}, {420, 4, 0}, {500, 1, 7}};
  const Cm5RtlRun r = agree(c, w, true, 1200);
  EXPECT_FALSE(r.globals.empty());
}

// The three-node chip: a network of cm5ctl_chip behaves exactly as the model (and so as a
// network of nodes), with partitions whose roots are a chip's lower nodes, a mapped-out node
// and leaf, a flush; and at 8 leaves (an odd height: the root alone, chips below it).
TEST(Cm5ctlRtl, ThreeNodeChips) {
  Cm5ctlConfig c = cfg(16);
  c.p.chip_nodes = 3;
  c.p.partitions = {2, 3};
  c.p.mapped_out = {5, 19};
  validate(c.p, "test");
  Cm5MixOptions o;
  o.ops = 25;
  o.broadcasts = 2;
  o.abstain = 0.15;
  o.release_spread = 100;
  Cm5Workload w = with_flush(partitioned_mix(c.p, 8, o), 0, 8, 150, 800);
  w.globals = {{30, 2, 1}, {200, 13, 2}};
  agree(c, w, true, 1000);
  Cm5ctlConfig c8 = cfg(8);
  c8.p.chip_nodes = 3;
  o.release_spread = 200;
  agree(c8, with_flush(random_cm5ctl_mix(8, 32, 77, o), 0, 10, 120, 900));
  agree(c8, make_cm5ctl_workload("paper", 8, 32, 1, 1));
}

// The alignment packet at initialization: every leaf in use is aligned when the wave reaches
// it ((depth - 1) hops of L x ceil(5 / L) cycles, then 5), the others never; then everything
// works as with frames aligned by reset, cycle for cycle like the model (and a chip network,
// partitions and a mapped-out leaf, with the CM-5's links; links of a whole packet: L = 1).
TEST(Cm5ctlRtl, AlignmentPacketAtInitialization) {
  Cm5ctlConfig c = cfg(8);
  c.p.alignment = 1;
  c.p.chip_nodes = 3;
  c.p.mapped_out = {13};
  validate(c.p, "test");
  EXPECT_EQ(c.p.frame_lcm(), 40);
  EXPECT_EQ(c.p.init_cycles(), 3 * 40 + 5);
  Cm5MixOptions o;
  o.ops = 20;
  o.broadcasts = 2;
  o.abstain = 0.1;
  Cm5Workload w = with_flush(random_cm5ctl_mix(8, 32, 3, o), 0, 8, 200, 900);
  for (auto& op : w.leaf[5]) op.abstain = true;  // leaf 5 is mapped out: its values would not count
  w.globals = {{20, 2, 1}, {300, 6, 2}};
  const Cm5RtlRun r = agree(c, w, true, 1000);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(r.aligned[static_cast<size_t>(j)], j == 5 ? -1 : 2 * 40 + 5) << j;
  for (const auto& g : r.globals) EXPECT_GE(g.cycle, static_cast<uint64_t>(c.p.init_cycles())) << g.leaf;
  Cm5ctlConfig c4 = cfg(4, 32, 47, 47);
  c4.p.alignment = 1;
  c4.p.partitions = {2, 3};
  validate(c4.p, "test");
  EXPECT_EQ(c4.p.frame_lcm(), 1);
  const Cm5RtlRun r4 = agree(c4, partitioned_mix(c4.p, 4, o));
  for (int j = 0; j < 4; ++j) EXPECT_EQ(r4.aligned[static_cast<size_t>(j)], 5) << j;
}

// The hard-error OR: a CRC error on a link reaches every leaf's hard_error_out; the
// asynchronous ORs at once, alike on both engines.
TEST(Cm5ctlRtl, HardErrorOrFromALinkError) {
  Cm5ctlConfig c = cfg(8);
  c.p.crc_bits = 8;
  Cm5Workload w = make_cm5ctl_workload("reduce-add", 8, 32, 4, 3);
  w.flips.push_back({static_cast<uint64_t>(c.p.up_frame() + 3), 11, true});
  w.globals = {{10, 6, 2}, {400, 6, 0}};
  const Cm5RtlRun r = agree(c, w, false, 1000);
  std::vector<int> fin(8, 0);
  for (const auto& g : r.globals) fin[g.leaf] = g.value;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(fin[static_cast<size_t>(i)], 4) << i;
}

}  // namespace
}  // namespace cmnet

namespace cmnet {
namespace {

Cm5ctlConfig cm5_packet_cfg(int leaves) {
  Cm5ctlConfig c;
  c.p.leaves = leaves;
  c.p.crc_bits = 8;
  c.p.packet = "cm5";
  validate(c.p, "test");
  return c;
}

// The CM-5's 65-bit packet on one link, up (6 wires) and down (5): the RTL's wires cycle by
// cycle are the shared description's major stream on wires 0..3 and minor stream on wire 4
// (gen/cm5ctl/cm5ctl_packet.h), nothing on wire 5, and the receiver takes the packet back; any
// single wire inverted in any cycle is caught by the CRC.
TEST(Cm5ctlRtl, TheCm5PacketOnTheWiresBitForBit) {
  const Cm5ctlParams p = cm5_packet_cfg(4).p;
  ASSERT_EQ(p.up_frame(), 13);
  ASSERT_EQ(p.down_frame(), 13);
  ASSERT_EQ(p.packet_bits(), 65);
  uint64_t s = 12345;
  auto rnd = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 17;
  };
  std::vector<cm5::Packet> pkts;
  for (int i = 0; i < 40; ++i) {
    cm5::Packet x;
    x.type = rnd() & 3;
    x.kind = rnd() & 3;
    x.comb = rnd() & 7;
    x.segd = rnd() & 1;
    x.seg = rnd() & 1;
    x.ovf = rnd() & 1;
    x.err = rnd() & 1;
    x.fc = rnd() & 1;
    x.g = rnd() & 7;
    x.data = rnd() & 0xFFFFFFFFull;
    pkts.push_back(x);
  }
  for (bool up : {true, false}) {
    const int width = up ? p.up_width : p.down_width;
    std::vector<Cm5LinkCase> cases;
    for (const cm5::Packet& x : pkts) cases.push_back({x.pack(), -1, 0});
    for (int t = 0; t < 13; ++t)
      for (int wire = 0; wire < 5; ++wire) cases.push_back({pkts[static_cast<size_t>(t)].pack(), t, 1u << wire});
    const std::vector<Cm5LinkFrame> got = run_cm5ctl_link(p, up, cases);
    ASSERT_EQ(got.size(), cases.size());
    for (size_t i = 0; i < pkts.size(); ++i) {
      const cm5::Frame want = cm5::to_frame(pkts[i]);
      cm5::Frame seen;
      bool spare_wires_zero = true;
      for (int t = 0; t < 13; ++t) {
        seen.major |= static_cast<uint64_t>(got[i].wires[static_cast<size_t>(t)] & 0xF) << (4 * t);
        seen.minor |= ((got[i].wires[static_cast<size_t>(t)] >> 4) & 1u) << t;
        spare_wires_zero = spare_wires_zero && (got[i].wires[static_cast<size_t>(t)] >> 5) == 0;
      }
      EXPECT_EQ(seen.major, want.major) << (up ? "up" : "down") << " case " << i;
      EXPECT_EQ(seen.minor, want.minor) << (up ? "up" : "down") << " case " << i;
      EXPECT_TRUE(spare_wires_zero) << width;
      EXPECT_EQ(got[i].got, pkts[i].pack()) << i;
      EXPECT_FALSE(got[i].crc_err) << i;
    }
    for (size_t i = pkts.size(); i < cases.size(); ++i) {
      EXPECT_TRUE(got[i].crc_err) << "cycle " << cases[i].flip_cycle << " wires " << cases[i].flip_wires;
      EXPECT_EQ(got[i].got, 0u) << "a bad packet is taken as idle";
    }
  }
}

// The whole tree with the CM-5's packet: RTL == model cycle by cycle (13-cycle frames both
// ways), the oracle's results, and link faults in several cycles of the frame detected alike.
TEST(Cm5ctlRtl, TheCm5PacketInTheTree) {
  const Cm5ctlConfig c = cm5_packet_cfg(8);
  Cm5MixOptions o;
  o.ops = 24;
  o.broadcasts = 3;
  o.abstain = 0.2;
  const Cm5RtlRun ok = agree(c, random_cm5ctl_mix(8, 32, 31, o));
  EXPECT_FALSE(ok.link_error);
  (void)agree(c, make_cm5ctl_workload("paper", 8, 32, 1, 1));
  for (uint64_t phase : {0u, 5u, 10u, 12u}) {
    Cm5Workload w = make_cm5ctl_workload("reduce-add", 8, 32, 4, 3);
    w.flips.push_back({13 + phase, 11, true});
    w.flips.push_back({6 * 13 + phase, 5, false});
    const Cm5RtlRun r = agree(c, w, false);
    EXPECT_TRUE(r.link_error) << phase;
  }
}

}  // namespace
}  // namespace cmnet

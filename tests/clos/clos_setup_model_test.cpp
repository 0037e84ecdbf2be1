// The parallel circuit set-up model: strictly non-blocking networks never block under long random
// set-up and tear-down sequences; the race (a CR with an out-of-date InputVector) is caught by
// the RelayTable and resolved by CANCEL / RESEND; nothing deadlocks; every circuit is checked
// against the switch settings the hnodes wrote (by the model, at every READY) and everything is
// idle again at the end.
#include "sim/clos/clos_setup_model.h"

#include <gtest/gtest.h>

#include "tests/clos/clos_test_net.h"

namespace cmnet {
namespace {

using clos_test::net;

uint64_t msgs(const ClosSetupStats& s, ClosMsgType t) { return s.messages[static_cast<int>(t)]; }

void expect_clean(const ClosSetupStats& s, const ClosSetupOptions& o, const std::string& what) {
  EXPECT_EQ(s.error, "") << what;
  EXPECT_FALSE(s.deadlock) << what;
  EXPECT_EQ(s.issued, o.requests) << what;
  EXPECT_EQ(s.ready, o.requests) << what;
  EXPECT_EQ(s.torn_down, o.requests) << what;
  // Every message of the paper, accounted for.
  EXPECT_EQ(msgs(s, ClosMsgType::kCSR), o.requests) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kACK), o.requests) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kREADY), o.requests) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kODCR), o.requests) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kIDCR), o.requests) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kDDCR), o.requests) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kCO), s.cos) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kCANCEL), s.cancels) << what;
  EXPECT_EQ(s.cos, o.requests + s.cancels) << what;  // each CO is ACKed or CANCELed
  EXPECT_EQ(msgs(s, ClosMsgType::kRESEND), s.resends + s.blocked + s.wait_resends) << what;
  EXPECT_EQ(msgs(s, ClosMsgType::kCR), o.requests + s.resends + s.blocked + s.wait_resends) << what;
}

TEST(ClosSetupModel, StrictlyNonBlockingNetworksNeverBlock) {
  struct Case {
    ClosParams p;
    double think, hold;
  };
  for (const Case& c : {Case{net(5, 3, 8, 2), 300, 2000}, Case{net(7, 4, 4, 2), 100, 1500},
                        Case{net(3, 2, 8, 3), 0, 800}, Case{net(15, 8, 8, 3), 200, 3000}}) {
    ClosSetupOptions o;
    o.requests = 20000;
    o.think_us = c.think;
    o.hold_us = c.hold;
    o.seed = 3;
    const ClosSetupStats s = run_clos_setup(c.p, o);
    const std::string what = clos_name(c.p);
    ASSERT_EQ(c.p.kind(), ClosKind::kStrictlyNonBlocking);
    expect_clean(s, o, what);
    EXPECT_EQ(s.truly_blocked, 0u) << what;
    EXPECT_GT(s.max_circuits, static_cast<uint64_t>(c.p.ports() / 4)) << what;  // a loaded network
    EXPECT_GT(s.waited, 0u) << what;  // leaves were busy: the WaitingQueues were used
  }
}

TEST(ClosSetupModel, RaceIsCancelledAndResentNeverDeadlocks) {
  // Many leaves per hnode and slow hops: CRs from one h_o overtake each other's ACKs.
  for (int limit : {1, 3}) {
    ClosParams p = net(4, 4, 4, 1);
    p.cancel_limit = limit;
    ClosSetupOptions o;
    o.requests = 30000;
    o.think_us = 0;
    o.hold_us = 300;
    o.hop_us = 200;
    o.seed = 11;
    const ClosSetupStats s = run_clos_setup(p, o);
    expect_clean(s, o, "cancel_limit " + std::to_string(limit));
    EXPECT_GT(s.cancels, 0u);
    EXPECT_GT(s.requests_raced, 0u);
    if (limit == 1) {
      EXPECT_GT(s.resends, 0u);
    }
  }
}

TEST(ClosSetupModel, BlockingAndRearrangeableNetworksRetryAndComplete) {
  for (const ClosParams& p : {net(2, 2, 4, 2), net(4, 4, 8, 3), net(2, 4, 4, 1)}) {
    ClosSetupOptions o;
    o.requests = 10000;
    o.think_us = 0;
    o.hold_us = 1000;
    o.seed = 5;
    const ClosSetupStats s = run_clos_setup(p, o);
    expect_clean(s, o, clos_name(p));
    if (p.kind() == ClosKind::kBlocking) {
      EXPECT_GT(s.truly_blocked, 0u) << clos_name(p);
    }
  }
}

TEST(ClosSetupModel, EveryLeafAtOnceLowerNumberedLeafFirst) {
  // Every leaf asks at time 0 (think 0, one hnode per switch): crossing requests (a -> b while
  // b -> a) are the hold-and-wait cycle of the paper's Figure 6; the lower-first rule must break it.
  ClosParams p = net(3, 2, 4, 2);
  ClosSetupOptions o;
  o.requests = 8;
  o.think_us = 1e9;  // no second round
  o.hold_us = 100;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    o.seed = seed;
    const ClosSetupStats s = run_clos_setup(p, o);
    ASSERT_EQ(s.error, "") << seed;
    ASSERT_FALSE(s.deadlock) << seed;
    ASSERT_EQ(s.ready, 8u) << seed;
  }
}

TEST(ClosSetupModel, UncontendedLatencyIsHopsAndFourHandlings) {
  ClosParams p = net(3, 2, 8, 3);
  ClosSetupOptions o;
  o.requests = 1;
  o.hop_us = 50;
  o.handle_us = 30;
  o.tree_hops = 2;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    o.seed = seed;
    const ClosSetupStats s = run_clos_setup(p, o);
    ASSERT_EQ(s.direct_latency_us.size(), 1u);
    // CSR, CR, CO, ACK handled once each; tree up and down, CR + CO + ACK over the cube.
    EXPECT_DOUBLE_EQ(s.direct_latency_us[0], s.direct_hops[0] * 50.0 + 4 * 30.0) << seed;
    EXPECT_GE(s.direct_hops[0], 4);
    EXPECT_LE(s.direct_hops[0], 4 + 3 * 3);  // three messages, each at most 3 cube hops apart... the hops of a triangle
  }
}

TEST(ClosSetupModel, SameSeedSameRun) {
  ClosSetupOptions o;
  o.requests = 2000;
  const ClosSetupStats a = run_clos_setup(net(5, 3, 4, 2), o), b = run_clos_setup(net(5, 3, 4, 2), o);
  EXPECT_EQ(a.latency_us, b.latency_us);
  EXPECT_EQ(a.cube_hops, b.cube_hops);
}

TEST(ClosSetupModel, OpenLoopResendAfterWaitAndTheRaceClasses) {
  // The paper's arrivals (Poisson per leaf, one circuit at a time), with and without RESEND for a
  // CR that waited, from both search starts: clean, every CANCEL in exactly one class, and with
  // the RESEND no CANCEL of a CR whose InputVector aged in a WaitingQueue.
  for (bool resend : {false, true}) {
    for (ClosSelectStart start : {ClosSelectStart::kDest, ClosSelectStart::kPair}) {
      ClosParams p = net(4, 4, 4, 1);
      ClosSetupOptions o;
      o.requests = 8000;
      o.open_loop = true;
      o.interarrival_us = 1500;
      o.hold_us = 300;
      o.hop_us = 200;
      o.resend_after_wait = resend;
      o.select = start;
      o.seed = 5;
      const ClosSetupStats s = run_clos_setup(p, o);
      const std::string what = std::string(resend ? "resend" : "as read") + (start == ClosSelectStart::kPair ? " pair" : " dest");
      expect_clean(s, o, what);
      EXPECT_GT(s.waited, 0u) << what;
      EXPECT_EQ(s.delivery_us.size(), o.requests) << what;
      EXPECT_LE(s.cancels_after_wait + s.cancels_retry, s.cancels) << what;
      EXPECT_LE(s.requests_raced_fresh, s.requests_raced) << what;
      EXPECT_LE(s.crs_sent_while_outstanding, s.crs_sent) << what;
      if (resend) {
        EXPECT_EQ(s.cancels_after_wait, 0u) << what;
        EXPECT_GT(s.wait_resends, 0u) << what;
      } else {
        EXPECT_EQ(s.wait_resends, 0u) << what;
        EXPECT_GT(s.cancels_after_wait, 0u) << what;
      }
    }
  }
}

// Duplex leaves (a busy bit per c-link, for measuring the knee): a leaf sends over one circuit
// while it receives over another, so more circuits than half the leaves are up at once; the
// protocol stays clean and deadlock-free (the lower-numbered leaf's side first).
TEST(ClosSetupModel, DuplexLeavesCarryMoreThanHalfTheLeavesInCircuits) {
  const ClosParams p = net(7, 4, 4, 2);  // strictly non-blocking: only the leaves limit
  ClosSetupOptions o;
  o.requests = 20000;
  o.think_us = 0;
  o.hold_us = 2000;
  o.seed = 9;
  const ClosSetupStats one = run_clos_setup(p, o);
  expect_clean(one, o, "one busy bit");
  EXPECT_LE(one.max_circuits, static_cast<uint64_t>(p.ports() / 2));
  o.duplex_leaves = true;
  const ClosSetupStats two = run_clos_setup(p, o);
  expect_clean(two, o, "duplex");
  EXPECT_GT(two.max_circuits, static_cast<uint64_t>(p.ports() / 2));
  EXPECT_GT(two.mean_circuits, one.mean_circuits);
  EXPECT_GT(one.leaf_busy_us, 0);
  EXPECT_GT(two.leaf_busy_us, 0);
}

// One shared hypercube: the hnodes' CPUs also take background jobs; they are busier, the
// protocol still completes.
TEST(ClosSetupModel, BackgroundJobsAtTheHnodes) {
  const ClosParams p = net(4, 4, 8, 3);
  ClosSetupOptions o;
  o.requests = 5000;
  o.think_us = 500;
  o.hold_us = 1000;
  o.seed = 4;
  const ClosSetupStats quiet = run_clos_setup(p, o);
  expect_clean(quiet, o, "no background");
  EXPECT_EQ(quiet.background_jobs, 0u);
  o.background_gap_us = 100;
  const ClosSetupStats busy = run_clos_setup(p, o);
  expect_clean(busy, o, "background every 100 us");
  EXPECT_GT(busy.background_jobs, 0u);
  EXPECT_GT(busy.hnode_busy_us, quiet.hnode_busy_us);
  EXPECT_GE(busy.hnode_busy_max_us * p.hnodes(), busy.hnode_busy_us);
}

// The distance-minimising selection (h_m on a short h_d -> h_m -> h_o path): clean, and fewer
// hypercube hops per connection than the reference order from h_d's own switch.
TEST(ClosSetupModel, NearestMiddleSwitchShortensTheControlPaths) {
  const ClosParams p = net(16, 4, 16, 4);  // 16 hnodes, one middle switch each
  ClosSetupOptions o;
  o.requests = 8000;
  o.think_us = 3000;
  o.hold_us = 1000;
  o.seed = 12;
  const ClosSetupStats ref = run_clos_setup(p, o);
  expect_clean(ref, o, "from h_d");
  o.select = ClosSelectStart::kNearest;
  const ClosSetupStats near = run_clos_setup(p, o);
  expect_clean(near, o, "nearest");
  EXPECT_LT(static_cast<double>(near.cube_hops) / static_cast<double>(near.ready),
            0.95 * static_cast<double>(ref.cube_hops) / static_cast<double>(ref.ready));
}

}  // namespace
}  // namespace cmnet

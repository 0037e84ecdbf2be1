// The network interface (send and receive FIFOs, the tag mask register and its interrupt, the
// message counters) and the left and right networks: a saturating request/reply load completes
// with requests on the left and replies on the right, and can deadlock on one network.
#include <gtest/gtest.h>

#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_ni.h"

namespace cmnet {
namespace {

Cm5DataParams params(int h, const std::string& profile) {
  Cm5DataParams p;
  p.height = h;
  p.profile = profile;
  p.link_bits = 8;
  p.buffer_words = 2;
  p.seed = 3;
  return p;
}

TEST(Cm5Ni, SendReceiveTagMaskAndCounters) {
  const Cm5DataParams p = params(2, "cm5");
  Cm5DataNetwork left(p), right(p);
  std::vector<Cm5DataNi> nis;
  for (uint32_t x = 0; x < p.leaves(); ++x) nis.emplace_back(p, x, Cm5DataNiConfig{});
  nis[9].tag_mask = 1u << 5;
  // The send FIFO holds 8 words: one 5-word message (7 words with head and CRC), not two.
  EXPECT_TRUE(nis[2].send(0, 9, 5, {2, 1, 1, 1, 1}));
  EXPECT_FALSE(nis[2].send(0, 9, 3, {2, 2, 2, 2, 2}));
  EXPECT_TRUE(nis[2].send(1, 9, 3, {2, 3}));
  EXPECT_EQ(nis[2].counters(0).refused, 1u);
  for (int c = 0; c < 400; ++c) {
    for (int side = 0; side < 2; ++side) {
      Cm5DataNetwork& net = side == 0 ? left : right;
      for (auto& ni : nis) ni.cycle(side, net);
      net.step();
    }
  }
  EXPECT_EQ(nis[2].counters(0).sent, 1u);
  EXPECT_EQ(nis[2].counters(1).sent, 1u);
  EXPECT_EQ(nis[9].counters(0).received, 1u);
  EXPECT_EQ(nis[9].counters(1).received, 1u);
  EXPECT_TRUE(nis[9].interrupt);  // tag 5 on the left, bit 5 set
  EXPECT_EQ(nis[9].counters(0).interrupts, 1u);
  EXPECT_EQ(nis[9].counters(1).interrupts, 0u);  // tag 3: bit clear
  ASSERT_TRUE(nis[9].can_receive(0));
  const Cm5DataNiMessage m = nis[9].receive(0);
  EXPECT_EQ(m.tag, 5);
  EXPECT_EQ(m.data, (std::vector<uint32_t>{2, 1, 1, 1, 1}));
  EXPECT_EQ(m.crc, Cm5Crc::ok);
  EXPECT_FALSE(nis[9].can_receive(0));
  EXPECT_TRUE(nis[9].can_receive(1));
  EXPECT_EQ(nis[9].receive(1).data, (std::vector<uint32_t>{2, 3}));
  EXPECT_TRUE(nis[9].idle());
}

// A leaf mapped out of the address space: the sender's interface refuses a message to it, and
// it sends nothing itself; each refusal is an address error, not a full FIFO; a request/reply
// load among the others completes on two networks.
TEST(Cm5Ni, MappedOutLeavesAreRefusedAtTheSendersInterface) {
  Cm5DataParams p = params(2, "cm5");
  p.mapped_out_leaves = {9};
  Cm5DataNetwork left(p);
  std::vector<Cm5DataNi> nis;
  for (uint32_t x = 0; x < p.leaves(); ++x) nis.emplace_back(p, x, Cm5DataNiConfig{});
  EXPECT_FALSE(nis[2].reachable(9));
  EXPECT_TRUE(nis[2].reachable(8));
  EXPECT_FALSE(nis[9].reachable(8));
  EXPECT_FALSE(nis[2].send(0, 9, 0, {1}));
  EXPECT_FALSE(nis[9].send(0, 8, 0, {2}));
  EXPECT_TRUE(nis[2].send(0, 8, 0, {3}));
  EXPECT_EQ(nis[2].counters(0).address_errors, 1u);
  EXPECT_EQ(nis[2].counters(0).refused, 0u);
  EXPECT_EQ(nis[9].counters(0).address_errors, 1u);
  for (int c = 0; c < 300; ++c) {
    for (auto& ni : nis) ni.cycle(0, left);
    left.step();
  }
  EXPECT_EQ(nis[2].counters(0).sent, 1u);
  EXPECT_EQ(nis[8].counters(0).received, 1u);
  EXPECT_EQ(nis[9].counters(0).received, 0u);
  EXPECT_EQ(nis[9].counters(0).sent, 0u);
  const auto chips = left.counters();
  EXPECT_EQ(chips[cm5_chip_id(p, 1, 2, 0)].in.at(1), 0u);  // leaf 9's link
  EXPECT_EQ(chips[cm5_chip_id(p, 1, 2, 0)].out.at(1), 0u);
  Cm5DataParams p64 = params(3, "cm5");
  p64.mapped_out_leaves = {0, 17, 63};
  Cm5DataRoundTripOptions o;
  o.requests = 6;
  const Cm5DataRoundTripResult r = run_cm5data_roundtrip(p64, o);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.replies_received, 61u * 6u);
  for (uint32_t x : {0u, 17u, 63u}) {
    EXPECT_EQ(r.left[x].sent + r.left[x].received + r.right[x].sent + r.right[x].received, 0u) << x;
    EXPECT_EQ(r.left[x].address_errors, 0u) << x;  // the processors know the address space
  }
}

TEST(Cm5Ni, AFullReceiveFifoHoldsTheNetworkBackWithoutLoss) {
  // Leaf 0 takes nothing for a while: the network holds what does not fit, then all arrives.
  const Cm5DataParams p = params(2, "full");
  Cm5DataNetwork net(p);
  std::vector<Cm5DataNi> nis;
  for (uint32_t x = 0; x < p.leaves(); ++x) nis.emplace_back(p, x, Cm5DataNiConfig{});
  int sent = 0, got = 0;
  for (int c = 0; c < 6000; ++c) {
    for (uint32_t x = 1; x < p.leaves(); ++x)
      if (c < 2000 && nis[x].send(0, 0, 0, {x, 0, static_cast<uint32_t>(c), 4, 5})) ++sent;
    if (c >= 3000)
      while (nis[0].can_receive(0)) {
        EXPECT_EQ(nis[0].receive(0).crc, Cm5Crc::ok);
        ++got;
      }
    for (auto& ni : nis) ni.cycle(0, net);
    net.step();
  }
  EXPECT_GT(sent, 10);
  EXPECT_GT(nis[5].counters(0).refused, 0u);  // the senders were held back, nothing was lost
  EXPECT_EQ(got, sent);
  EXPECT_EQ(nis[0].counters(0).received, static_cast<uint64_t>(sent));
}

TEST(Cm5LeftRight, SaturatingRequestReplyNeverDeadlocksOnTwoNetworks) {
  for (const char* prof : {"cm5", "full"}) {
    const Cm5DataParams p = params(3, prof);
    Cm5DataRoundTripOptions o;
    o.requests = 12;
    o.reply_slots = 1;
    o.ni.recv_flits = p.buffer_flits() + p.message_flits(p.max_words);  // one message beyond the link's
    const Cm5DataRoundTripResult r = run_cm5data_roundtrip(p, o);
    EXPECT_TRUE(r.completed) << prof << " after " << r.cycles << " cycles, replies " << r.replies_received;
    EXPECT_FALSE(r.deadlocked) << prof;
    EXPECT_EQ(r.requests_sent, 64u * 12u);
    // Requests only on the left, replies only on the right; every NI counted its share.
    uint64_t ls = 0, lr = 0, rs = 0, rr = 0;
    for (uint32_t x = 0; x < p.leaves(); ++x) {
      ls += r.left[x].sent;
      lr += r.left[x].received;
      rs += r.right[x].sent;
      rr += r.right[x].received;
      EXPECT_EQ(r.left[x].sent, 12u);
      EXPECT_EQ(r.right[x].received, 12u);
    }
    EXPECT_EQ(ls, lr);
    EXPECT_EQ(rs, rr);
    EXPECT_EQ(ls, rs);
  }
}

TEST(Cm5LeftRight, OneNetworkForBothCanDeadlock) {
  // The same load with requests and replies sharing the left network: a processor whose reply
  // slot is full stops taking messages, replies queue behind requests, and the network fills.
  const Cm5DataParams p = params(3, "cm5");
  Cm5DataRoundTripOptions o;
  o.requests = 12;
  o.reply_slots = 1;
  o.two_networks = false;
  o.stall_cycles = 3000;
  o.ni.recv_flits = p.buffer_flits() + p.message_flits(p.max_words);
  const Cm5DataRoundTripResult r = run_cm5data_roundtrip(p, o);
  EXPECT_TRUE(r.deadlocked) << "completed " << r.completed << " in " << r.cycles;
  EXPECT_FALSE(r.completed);
}

}  // namespace
}  // namespace cmnet

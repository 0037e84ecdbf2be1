// The CM-5 data network's NIs on the simulated stream board, reached from the host: the host
// driver (host/cm5data/cm5data_ni_driver.h) reads and writes every NI's registers by name on both
// sides of every leaf, and cmnet sweep's offered load is a rate set by the board's pacer, each
// point equal to the model's. (Apart from cm5data_board_test to keep each binary short: each
// starts its own simulated boards.)
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "gen/core/errors.h"
#include "host/cm5data/cm5data_runner.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/cm5data/cm5data_oracle_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

Cm5DataConfig sim_board_config() { return cm5data_test_config(1, "cm5", 8, 2, 4, "cm5data-board-4-lr"); }

// The steps of TheHostDriverReachesEveryNisRegistersOnBothSides, in its order.

// After reset both sides are drained; DRAIN goes off, and the tag masks and interrupts are set.
void set_up_registers(Cm5NiDriver& ni, uint32_t N) {
  std::vector<Cm5NiAccess> setup;
  for (uint32_t x = 0; x < N; ++x) {
    EXPECT_EQ(ni.read_bridge(x, "DRAIN"), 3u) << "both sides drained after reset";
    setup.push_back(cm5_bridge_write(x, "DRAIN", 0));
    for (int side = 0; side < 2; ++side) {
      setup.push_back(cm5_ni_write(x, side, "TAG_MASK", side ? 0x00F0u : 0x000Fu));
      setup.push_back(cm5_ni_write(x, side, "INTERRUPT", 0));
    }
  }
  ni.access(setup);
}

// Read back in one exchange (each leaf's accesses in order).
void check_registers_read_back(Cm5NiDriver& ni, uint32_t N, uint32_t SW) {
  std::vector<Cm5NiAccess> back;
  for (uint32_t x = 0; x < N; ++x) {
    back.push_back(cm5_bridge_read(x, "DRAIN"));
    for (int side = 0; side < 2; ++side)
      for (const char* r : {"TAG_MASK", "STATUS", "RECV_HEAD"}) back.push_back(cm5_ni_read(x, side, r));
  }
  const std::vector<uint32_t> bv = ni.access(back);
  ASSERT_EQ(bv.size(), 7 * N);
  for (uint32_t x = 0; x < N; ++x) {
    EXPECT_EQ(bv[7 * x], 0u);
    for (int side = 0; side < 2; ++side) {
      const size_t i = 7 * x + 1 + 3 * static_cast<size_t>(side);
      EXPECT_EQ(bv[i], side ? 0x00F0u : 0x000Fu);
      EXPECT_EQ(bv[i + 1], SW << 8) << "an idle NI: the send FIFO's words all free";
      EXPECT_EQ(bv[i + 2], 0u);
    }
  }
}

// Leaf x sends to x + 1 on the left (tag x: leaf x + 1's left mask catches tags 0..3) and to
// x + 2 on the right (tag 8 + x: not in the right masks 4..7).
Cm5DataTraffic send_one_message_per_side(Cm5NiDriver& ni, const Cm5DataConfig& cfg) {
  const uint32_t N = cfg.cm5.leaves();
  Cm5DataTraffic t;
  for (uint32_t x = 0; x < N; ++x)
    for (int side = 0; side < 2; ++side) {
      Cm5DataMessage m;
      m.src = x;
      m.dst = (x + 1 + static_cast<uint32_t>(side)) % N;
      m.side = side;
      m.tag = side ? 8 + static_cast<int>(x) : static_cast<int>(x);
      m.len = 1 + static_cast<int>(x + 2 * static_cast<uint32_t>(side)) % cfg.cm5.max_words;
      for (int i = 0; i < m.len; ++i) m.data.push_back((x << 12) | (static_cast<uint32_t>(side) << 8) | static_cast<uint32_t>(i));
      t.messages.push_back(m);
      EXPECT_TRUE(ni.send(x, side, m.dst, m.tag, m.data));
    }
  return t;
}

// Messages as received: leaf, side, tag, data words.
using Received = std::multiset<std::tuple<uint32_t, int, int, std::vector<uint32_t>>>;

// What the model's networks (left, right) deliver of `t`.
void model_receives(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, Received& want) {
  for (int side = 0; side < 2; ++side) {
    Cm5DataTraffic ts;
    for (const auto& m : t.messages)
      if (m.side == side) ts.messages.push_back(m);
    Cm5DataParams ps = cfg.cm5;
    if (side) ps.seed = (ps.seed + 1) & 0xFFFFu;
    for (const Cm5DataDelivery& d : run_cm5data_model(ps, ts).deliveries) {
      ASSERT_TRUE(d.delivered && d.crc_ok);
      want.insert({d.at_leaf, side, static_cast<int>((d.words[0] >> 8) & 15u),
                   std::vector<uint32_t>(d.words.begin() + 1, d.words.end() - 1)});
    }
  }
}

// Three exchanges for all eight NIs: RECV_LEVEL, INTERRUPT and RECV_HEAD; the data words
// (RECV_DATA, each taken); then RECV_HEAD and RECV_LEVEL (empty), INTERRUPT cleared and read.
void board_receives(Cm5NiDriver& ni, uint32_t N, Received& got) {
  std::vector<Cm5NiAccess> r1, r2, r3;
  for (uint32_t x = 0; x < N; ++x)
    for (int side = 0; side < 2; ++side)
      for (const char* r : {"RECV_LEVEL", "INTERRUPT", "RECV_HEAD"}) r1.push_back(cm5_ni_read(x, side, r));
  const std::vector<uint32_t> v1 = ni.access(r1);
  for (uint32_t x = 0; x < N; ++x)
    for (int side = 0; side < 2; ++side) {
      const size_t i = 3 * (2 * x + static_cast<size_t>(side));
      EXPECT_EQ(v1[i] >> 16, 1u) << "one whole message at leaf " << x << " side " << side;
      EXPECT_EQ(v1[i + 1], side ? 0u : 1u) << "the interrupt at leaf " << x << " side " << side;
      EXPECT_EQ(v1[i + 2] >> 30, 3u) << "valid, CRC ok";
      for (uint32_t k = 0; k < ((v1[i + 2] >> 16) & 7u); ++k) r2.push_back(cm5_ni_read(x, side, "RECV_DATA"));
      r3.push_back(cm5_ni_read(x, side, "RECV_HEAD"));
      r3.push_back(cm5_ni_read(x, side, "RECV_LEVEL"));
      r3.push_back(cm5_ni_write(x, side, "INTERRUPT", 0));
      r3.push_back(cm5_ni_read(x, side, "INTERRUPT"));
    }
  const std::vector<uint32_t> v2 = ni.access(r2);
  size_t at = 0;
  for (uint32_t x = 0; x < N; ++x)
    for (int side = 0; side < 2; ++side) {
      const uint32_t head = v1[3 * (2 * x + static_cast<size_t>(side)) + 2];
      const size_t len = (head >> 16) & 7u;
      got.insert({x, side, static_cast<int>((head >> 20) & 15u),
                  std::vector<uint32_t>(v2.begin() + static_cast<long>(at), v2.begin() + static_cast<long>(at + len))});
      at += len;
    }
  const std::vector<uint32_t> v3 = ni.access(r3);
  ASSERT_EQ(v3.size(), 3 * 2 * N);
  for (size_t i = 0; i < v3.size(); ++i)
    EXPECT_EQ(v3[i], 0u) << "the message left with its last data word; the interrupt cleared by a write (" << i << ")";
}

// Every NI sent one message and received one; only the left ones raised the interrupt.
void check_counters(const std::vector<Cm5NiCounterSet>& before, const std::vector<Cm5NiCounterSet>& after, uint32_t N) {
  for (uint32_t x = 0; x < N; ++x)
    for (int side = 0; side < 2; ++side) {
      const Cm5NiCounterSet& b = before[x * 2 + side];
      const Cm5NiCounterSet& c = after[x * 2 + side];
      EXPECT_EQ(c.sent - b.sent, 1u);
      EXPECT_EQ(c.received - b.received, 1u);
      EXPECT_EQ(c.interrupts - b.interrupts, side ? 0u : 1u);
      EXPECT_EQ(c.refused - b.refused + c.crc_errors - b.crc_errors + c.address_errors - b.address_errors, 0u);
    }
}

// Three 5-word messages (7 words each) to leaf 0's right NI, whose receive FIFO holds 16
// words: two arrive whole, the third waits in the network (the board stays busy) until the
// host reads one.
void check_full_receive_fifo_holds_back(Cm5NiDriver& ni, StreamConnection& conn) {
  for (uint32_t x = 1; x <= 3; ++x) EXPECT_TRUE(ni.send(x, 1, 0, 5, {x, 2, 3, 4, 5}));
  ni.run_until([&] { return (ni.read(0, 1, "RECV_LEVEL") >> 16) == 2; });
  EXPECT_TRUE(conn.board->busy()) << "the third message is held in the network";
  EXPECT_EQ(ni.read(0, 1, "RECV_LEVEL") >> 16, 2u);
  std::multiset<uint32_t> firsts;
  firsts.insert(ni.receive(0, 1).value().data.at(0));
  ni.run_until();
  for (int i = 0; i < 2; ++i) firsts.insert(ni.receive(0, 1).value().data.at(0));
  EXPECT_EQ(firsts, (std::multiset<uint32_t>{1, 2, 3}));
}

// A full send FIFO refuses: leaf 3's left NI sends 5-word messages to leaf 2, whose left
// receive FIFO nobody reads: once the network and the FIFOs fill, SENDs are refused.
// (One exchange: the board is busy while messages wait in the network, and a busy simulated
// board answers only between batches of cycles.)
void check_full_send_fifo_refuses(Cm5NiDriver& ni, const std::vector<Cm5NiCounterSet>& before, uint32_t SW) {
  std::vector<Cm5NiAccess> burst;
  const int tries = 16;
  for (int i = 0; i < tries; ++i) {
    burst.push_back(cm5_ni_write(3, 0, "STATUS", 0));
    for (uint32_t w : {9u, 9u, 9u, 9u, static_cast<uint32_t>(i)}) burst.push_back(cm5_ni_write(3, 0, "SEND_DATA", w));
    burst.push_back(cm5_ni_write(3, 0, "SEND", (1u << 20) | 2u));
    burst.push_back(cm5_ni_read(3, 0, "STATUS"));
  }
  int refused = 0, accepted = 0;
  for (uint32_t st : ni.access(burst)) {
    EXPECT_EQ((st >> 29) & 3u, 0u) << "no address error, no overflow";
    ((st >> 31) ? refused : accepted)++;
  }
  EXPECT_GE(refused, 1);
  EXPECT_EQ(refused + accepted, tries);
  EXPECT_GE(accepted, static_cast<int>(SW / 7));
  EXPECT_EQ(ni.read(3, 0, "CNT_REFUSED") - before[3 * 2].refused, static_cast<uint32_t>(refused));
  int drained = 0;
  while (drained < accepted) {
    ni.run_until([&] { return (ni.read(2, 0, "RECV_LEVEL") >> 16) != 0; });
    while (ni.receive(2, 0)) ++drained;
  }
  EXPECT_EQ(drained, accepted);
  ni.run_until();
  EXPECT_EQ(ni.read(3, 0, "CNT_SENT") - before[3 * 2].sent, 1u + static_cast<uint32_t>(accepted));
}

// The host driver reaches every NI's registers by name, on both sides of every leaf: DRAIN off,
// messages written through SEND_DATA and SEND on the left and the right networks, read back out
// of the receive FIFOs through RECV_LEVEL, RECV_HEAD and RECV_DATA; tag masks and the interrupt
// (raised, cleared by a write); STATUS; every counter; an address error; a receive FIFO too
// small for three messages holds the third in the network until the host reads; a full send
// FIFO refuses a SEND (counted); the model's network delivers the same messages.
TEST(Cm5Board, TheHostDriverReachesEveryNisRegistersOnBothSides) {
  const Cm5DataConfig cfg = sim_board_config();
  const uint32_t N = cfg.cm5.leaves();
  const uint32_t SW = static_cast<uint32_t>(cm5_stream_send_words(cfg.cm5));
  StreamRunArgs a;
  a.timeout_s = 120;
  a.sim.phy = HostLinkPhy::Fifo;
  StreamConnection conn(cm5data_stream_spec(cfg), a);
  Cm5NiDriver ni(*conn.board, 120);
  set_up_registers(ni, N);
  const std::vector<Cm5NiCounterSet> before = ni.all_counters(N);
  ASSERT_NO_FATAL_FAILURE(check_registers_read_back(ni, N, SW));
  const Cm5DataTraffic t = send_one_message_per_side(ni, cfg);
  // Every message whole in its receiver's FIFO: the board is idle (nothing it can do alone).
  ni.run_until();
  EXPECT_TRUE(ni.take_messages().empty()) << "DRAIN is off: nothing comes up by itself";
  Received want, got;
  ASSERT_NO_FATAL_FAILURE(model_receives(cfg, t, want));
  ASSERT_NO_FATAL_FAILURE(board_receives(ni, N, got));
  EXPECT_EQ(want, got);
  // The paper's view of what the NIs handed over, untimed: each message once at its leaf with its data.
  std::vector<Cm5UntimedDelivery> took;
  for (const auto& [leaf, side, tag, data] : got) took.push_back({leaf, data});
  expect_cm5_oracle_agrees_untimed(cfg.cm5, t, took, "the host driver's messages");
  check_counters(before, ni.all_counters(N), N);
  // An address error: a SEND to leaf 9 of 4.
  EXPECT_FALSE(ni.send(2, 1, 9, 0, {1}));
  EXPECT_EQ(ni.read(2, 1, "STATUS") >> 28, 0x4u) << "STATUS.address_error";
  EXPECT_EQ(ni.read(2, 1, "CNT_ADDR_ERRORS") - before[2 * 2 + 1].address_errors, 1u);
  check_full_receive_fifo_holds_back(ni, conn);
  check_full_send_fifo_refuses(ni, before, SW);
}

// cmnet sweep on the simulated board: offered load a rate (messages per cycle per leaf) set by the
// stream module's pacer, each point's messages waiting in the NIs' send FIFOs; each point agrees
// with the model message by message and in the leaf counters; accepted throughput (messages per
// cycle per leaf to the last arrival) of board and model equal (the same cycle), close to the
// offered load below saturation, in sweep.csv / sweep.json / sweep.svg.
TEST(Cm5Board, SweepOfPacedRatesOnTheSimulatedBoardAgreesWithTheModelAtEveryPoint) {
  const Cm5DataConfig cfg = sim_board_config();
  EXPECT_EQ(cm5data_sweep_per_leaf(cfg.cm5, 64), 9);  // 64-word send FIFOs, 7-word messages
  EXPECT_EQ(cm5data_sweep_per_leaf(cfg.cm5, 4), 4);
  EXPECT_EQ(cm5data_sweep_rates(cfg.cm5).size(), 6u);
  EXPECT_THROW(cm5_pace_rate(1.0), InputError);
  EXPECT_THROW(cm5_pace_rate(0.0), InputError);
  // The model's traffic at a rate: leaf x's k-th message ready at the pacer's k-th token.
  const Cm5DataTraffic t = cm5data_sweep_traffic(cfg.cm5, "random", 7, 3, 2000);
  std::vector<int> k(4, 0);
  for (const auto& m : t.messages)
    EXPECT_EQ(m.inject_at, cm5_pace_start(2000, cm5_pace_phase(m.src), static_cast<uint64_t>(k[m.src]++)));
  StreamRunArgs a;
  a.out_dir = temp_dir("cm5-board-sweep").string();
  a.timeout_s = 120;
  a.sim.phy = HostLinkPhy::Fifo;
  const std::vector<double> rates = {0.004, 0.02, 0.06};  // about 0.1, 0.5, 1.4 of a leaf link at the mean length
  std::FILE* null = std::fopen("/dev/null", "w");
  const bool ok = run_cm5data_sweep(cfg, "random", 7, 8, a, null, rates);
  std::fclose(null);
  EXPECT_TRUE(ok);
  std::ifstream in(fs::path(a.out_dir) / "sweep.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j["points"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const auto& pt = j["points"][i];
    EXPECT_TRUE(pt["agrees"].get<bool>()) << i;
    EXPECT_TRUE(pt["conserved"].get<bool>()) << i;
    EXPECT_EQ(pt["units"].get<size_t>(), 8 * cfg.cm5.leaves()) << i;
    EXPECT_NEAR(pt["offered"].get<double>(), rates[i], 1.0 / 65536) << i;
    const double acc = pt["accepted"].get<double>(), model = pt["model_accepted"].get<double>();
    EXPECT_GT(acc, 0) << i;
    // The board's NIs start each message when the model's leaves do (the pacer's token), so the
    // last arrival is the same cycle: the same figure.
    EXPECT_DOUBLE_EQ(acc, model) << i << ": the board's network against the model's at the same rate";
    // Below saturation a leaf gets what it offers (less the tail: the last message's latency).
    if (i == 0) {
      EXPECT_NEAR(acc, rates[0], 0.1 * rates[0]);
    }
    EXPECT_LE(acc, pt["offered"].get<double>() * 1.001) << i;
  }
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "sweep.svg"));
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "sweep.csv"));
  fs::remove_all(a.out_dir);
}

}  // namespace
}  // namespace cmnet

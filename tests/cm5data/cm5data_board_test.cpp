// The CM-5 data network on the shared stream board: the stream module and the board top lint
// clean; on the simulated board (left and right networks of 4 leaves behind the host link)
// requests, replies and a hot spot go in as units through the shared host driver (cmnet run's
// path), every message comes back on its side as the model delivers it, and the per-leaf
// counters (accepted, delivered, interrupts under the tag masks) agree with the traffic.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <nlohmann/json.hpp>

#include "gen/core/errors.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "host/cm5data/cm5data_runner.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

// 16 leaves for the lint; the simulated board runs 4 leaves per network: the shared driver waits
// 1 s of wall time for each reply, and two 16-leaf networks simulate too slowly for that on a
// loaded machine.
Cm5DataConfig board_config() { return cm5data_test_config(2, "cm5", 8, 2, 4, "cm5data-board-16-lr"); }
Cm5DataConfig sim_board_config() { return cm5data_test_config(1, "cm5", 8, 2, 4, "cm5data-board-4-lr"); }

TEST(Cm5Board, StreamModuleAndBoardTopLintClean) {
  const Cm5DataConfig cfg = board_config();
  const fs::path dir = temp_dir("cm5-stream-lint");
  EXPECT_EQ(lint_problems(emit_cm5data_stream(cfg), "cm5data_stream", dir), "");
  Cm5DataConfig mapped = cm5data_test_config(2, "cm5", 8, 2, 2, "s3");
  mapped.cm5.mapped_out_leaves = {3, 12};
  for (const auto& other :
       {cm5data_test_config(1, "cm5", 32, 1, 1, "s1"), cm5data_test_config(2, "full", 4, 3, 1, "s2"), mapped})
    EXPECT_EQ(lint_problems(emit_cm5data_stream(other), "cm5data_stream", dir / other.name), "") << other.name;
  const GeneratedDesign b = emit_stream_board(cm5data_stream_spec(cfg), HostBoardOptions{});
  EXPECT_EQ(b.top, "cm5data_host_board");
  EXPECT_EQ(lint_problems(b, "cm5data_host_board", dir / "board"), "");
  fs::remove_all(dir);
}

// The network head word is built in one place in the RTL: the NI's SEND (cm5_head_word_verilog);
// the stream module builds none of its own (no climb, no CRC): its messages go through the NIs.
TEST(Cm5Board, TheHeadWordIsBuiltOnlyByTheNi) {
  const Cm5DataConfig cfg = board_config();
  const GeneratedDesign d = emit_cm5data_stream(cfg);
  const std::string sv = file_of(d, "cm5data_stream.v"), nv = file_of(d, "cm5data_ni.v");
  EXPECT_EQ(sv.find("climb("), std::string::npos);
  EXPECT_EQ(sv.find("crc32w("), std::string::npos);
  EXPECT_NE(sv.find("cm5data_ni #("), std::string::npos);
  EXPECT_NE(nv.find("wire [31:0] nethead = " +
                    cm5_head_word_verilog(cfg.cm5.height, "ME", "dst", "wdata[23:20]", "wdata[24]", "scnt[2:0]") + ";"),
            std::string::npos);
  EXPECT_EQ(cm5_head_word_verilog(2, "ME", "d", "t", "m", "l"), "{16'd0, d, t, climb(ME, d), m, l}");
}

TEST(Cm5Board, UnitHeadWord) {
  EXPECT_EQ(cm5_stream_unit_head(9, 5, 3), 0x00350009u);
  EXPECT_EQ(cm5_stream_unit_head(0xFFFF, 1, 15, true), 0x01F1FFFFu);
  EXPECT_EQ(cm5_stream_unit_head(2, 1, 0, false, 1), 0x02010002u);
  // Register accesses: {1, write, bridge, side[25], addr}; a write's data after it.
  EXPECT_EQ(cm5_stream_access_unit(6, 1, true, 0x8001), (std::vector<uint32_t>{0xC2000006u, 0x8001u}));
  EXPECT_EQ(cm5_stream_access_unit(3, 0, false), (std::vector<uint32_t>{0x80000003u}));
  EXPECT_EQ(cm5_stream_access_unit(1, 0, true, 5, true), (std::vector<uint32_t>{0xE0000001u, 5u}));
  EXPECT_EQ(cm5_ni_unit(cm5_ni_read(2, 1, "CNT_SENT")), (StreamUnit{2, {0x82000008u}}));
  EXPECT_EQ(cm5_stream_recv_head(true, false, 9, 5, 1), 0xE0950000u);
  EXPECT_TRUE(cm5_stream_is_reply(0x20000004u));
  EXPECT_FALSE(cm5_stream_is_reply(0xC0950000u));
  // The pacer's schedule: message k starts once phase + rate * c reaches (k + 1) * 2^16.
  EXPECT_EQ(cm5_pace_start(32768, 0, 0), 2u);
  EXPECT_EQ(cm5_pace_start(32768, 0, 1), 4u);
  EXPECT_EQ(cm5_pace_start(65535, 65535, 0), 1u);
  EXPECT_EQ(cm5_pace_start(1000, cm5_pace_phase(1), 0), (65536u - 40503u + 999u) / 1000u);
  EXPECT_EQ(cm5_stream_send_words(sim_board_config().cm5), 64);
}

TEST(Cm5Board, ATrafficOnTheSimulatedBoardAgreesWithTheModel) {
  const Cm5DataConfig cfg = sim_board_config();
  // Requests on the left, replies on the right (a reply for each request, from its destination),
  // an all-to-one load on both; tags 0..15, masks on some leaves.
  Cm5DataTraffic t = make_cm5_pattern("random", cfg.cm5, 3, 6);
  const size_t requests = t.messages.size();
  for (size_t i = 0; i < requests; ++i) {
    t.messages[i].tag = static_cast<int>(i % 16);
    Cm5DataMessage rep = t.messages[i];
    std::swap(rep.src, rep.dst);
    rep.side = 1;
    rep.data[0] ^= 0x80000000u;
    t.messages.push_back(rep);
  }
  Cm5DataTraffic hot = make_cm5_pattern("all-to-one", cfg.cm5, 4, 6, 5);
  for (size_t i = 0; i < hot.messages.size(); ++i) hot.messages[i].side = static_cast<int>(i % 2);
  t.messages.insert(t.messages.end(), hot.messages.begin(), hot.messages.end());
  std::vector<uint16_t> masks(cfg.cm5.leaves(), 0);
  masks[0] = 0x0001;  // the hot spot's tag 0
  masks[1] = 0xAAAA;
  masks[3] = 0xFFFF;
  StreamRunArgs a;
  a.out_dir = temp_dir("cm5-board-run").string();
  a.timeout_s = 120;
  // The FIFO PHY: a byte a clock, so a burst of replies takes the simulated board (two 16-leaf
  // networks, slow to simulate) far less wall time than over the UART (the driver waits 1 s).
  a.sim.phy = HostLinkPhy::Fifo;
  const fs::path rep = fs::path(a.out_dir) / "report.txt";
  fs::create_directories(a.out_dir);
  std::FILE* rf = std::fopen(rep.c_str(), "w");
  const StreamRunOutcome o = run_cm5data_board(cfg, t, "requests left, replies right, all-to-one", a, rf, masks);
  std::fclose(rf);
  const std::string report = slurp_log(rep);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  EXPECT_TRUE(o.verdict.agree);
  ASSERT_EQ(o.result.delivered.size(), t.messages.size());
  // Every message back at its destination, on its side, as the NI's RECV_HEAD (CRC ok, tag,
  // length, the side) and its data words, read out of the receive FIFO.
  std::multiset<std::pair<uint32_t, std::vector<uint32_t>>> want, got;
  for (const auto& m : t.messages) {
    std::vector<uint32_t> w{cm5_stream_recv_head(true, false, m.tag, m.len, m.side)};
    w.insert(w.end(), m.data.begin(), m.data.end());
    want.insert({m.dst, w});
  }
  for (const auto& u : o.result.delivered) got.insert({u.leaf, u.words});
  EXPECT_EQ(want, got);
  // The interrupts: leaf 0 for its tag-0 messages, leaf 3 for every message.
  uint32_t int9 = 0, int0 = 0;
  for (const auto& c : o.result.counters) {
    if (c.counter.name == "leaf3.interrupts") int9 = c.value;
    if (c.counter.name == "leaf0.interrupts") int0 = c.value;
  }
  uint32_t to9 = 0, tag0_to0 = 0;
  for (const auto& m : t.messages) {
    to9 += m.dst == 3;
    tag0_to0 += m.dst == 0 && m.tag == 0;
  }
  EXPECT_EQ(int9, to9);
  EXPECT_EQ(int0, tag0_to0);
  EXPECT_GT(int0, 0u);
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "run.json"));
  fs::remove_all(a.out_dir);
  // Every chip's counters of both networks on the bus, a region per chip: both ends of every
  // link agree, per node and port as the model's, the CRC counters as the model's (none).
  const uint32_t NC = cfg.cm5.total_chips();
  EXPECT_EQ(o.result.counters.size(), 4 * cfg.cm5.leaves() + 2 + 2 * NC * 10);  // 4 leaves: one chip, 4 ports
  uint64_t chip_in = 0;
  for (const auto& c : o.result.counters)
    if (c.counter.name.rfind("left.c", 0) == 0 || c.counter.name.rfind("right.c", 0) == 0) {
      EXPECT_EQ(c.counter.region, c.counter.name.rfind("left", 0) == 0 ? 1u : 1u + NC) << c.counter.name;
      if (c.counter.kind == CounterKind::In) chip_in += c.value;
    }
  EXPECT_EQ(chip_in, t.messages.size());  // each message enters its one chip once
  const Cm5BoardCheck chk = cm5data_check_board(cfg.cm5, t, masks, o.result);
  EXPECT_TRUE(chk.agrees);
  int chip_rows = 0;
  for (const ReportRow& r : chk.rows)
    if (r.name.rfind("chip", 0) == 0) {
      ++chip_rows;
      EXPECT_EQ(r.board, r.model) << r.name;
      EXPECT_NE(r.model, "0") << r.name;
    }
  EXPECT_EQ(chip_rows, 3);
  // The NIs' counters, read through their registers after the run, as the model's: 4 leaves x 2
  // sides x 6 counters, and the INTERRUPT flags (raised where a mask caught a message): rows of
  // the report, compared (the verdict above agrees only when they are equal).
  for (const char* row : {"NI counters (sent, received, refused, interrupts, CRC, address errors) as the model's",
                          "NI INTERRUPT flags as the tag masks say", "SENDs refused for want of room"})
    EXPECT_NE(report.find(row), std::string::npos) << row << "\n" << report;
  const std::string ni_row = report.substr(report.find("NI counters"), 200);
  EXPECT_NE(ni_row.find(" 48 "), std::string::npos) << ni_row;
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
  const std::vector<Cm5NiCounterSet> before = ni.all_counters(N);
  // Read back in one exchange (each leaf's accesses in order).
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
  // Leaf x sends to x + 1 on the left (tag x: leaf x + 1's left mask catches tags 0..3) and to
  // x + 2 on the right (tag 8 + x: not in the right masks 4..7).
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
  // Every message whole in its receiver's FIFO: the board is idle (nothing it can do alone).
  ni.run_until();
  EXPECT_TRUE(ni.take_messages().empty()) << "DRAIN is off: nothing comes up by itself";
  std::multiset<std::tuple<uint32_t, int, int, std::vector<uint32_t>>> want, got;
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
  // Three exchanges for all eight NIs: RECV_LEVEL, INTERRUPT and RECV_HEAD; the data words
  // (RECV_DATA, each taken); then RECV_HEAD and RECV_LEVEL (empty), INTERRUPT cleared and read.
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
  EXPECT_EQ(want, got);
  const std::vector<Cm5NiCounterSet> after = ni.all_counters(N);
  for (uint32_t x = 0; x < N; ++x)
    for (int side = 0; side < 2; ++side) {
      const Cm5NiCounterSet& b = before[x * 2 + side];
      const Cm5NiCounterSet& c = after[x * 2 + side];
      EXPECT_EQ(c.sent - b.sent, 1u);
      EXPECT_EQ(c.received - b.received, 1u);
      EXPECT_EQ(c.interrupts - b.interrupts, side ? 0u : 1u);
      EXPECT_EQ(c.refused - b.refused + c.crc_errors - b.crc_errors + c.address_errors - b.address_errors, 0u);
    }
  // An address error: a SEND to leaf 9 of 4.
  EXPECT_FALSE(ni.send(2, 1, 9, 0, {1}));
  EXPECT_EQ(ni.read(2, 1, "STATUS") >> 28, 0x4u) << "STATUS.address_error";
  EXPECT_EQ(ni.read(2, 1, "CNT_ADDR_ERRORS") - before[2 * 2 + 1].address_errors, 1u);
  // Three 5-word messages (7 words each) to leaf 0's right NI, whose receive FIFO holds 16
  // words: two arrive whole, the third waits in the network (the board stays busy) until the
  // host reads one.
  for (uint32_t x = 1; x <= 3; ++x) EXPECT_TRUE(ni.send(x, 1, 0, 5, {x, 2, 3, 4, 5}));
  ni.run_until([&] { return (ni.read(0, 1, "RECV_LEVEL") >> 16) == 2; });
  EXPECT_TRUE(conn.board->busy()) << "the third message is held in the network";
  EXPECT_EQ(ni.read(0, 1, "RECV_LEVEL") >> 16, 2u);
  std::multiset<uint32_t> firsts;
  firsts.insert(ni.receive(0, 1).value().data.at(0));
  ni.run_until();
  for (int i = 0; i < 2; ++i) firsts.insert(ni.receive(0, 1).value().data.at(0));
  EXPECT_EQ(firsts, (std::multiset<uint32_t>{1, 2, 3}));
  // A full send FIFO refuses: leaf 3's left NI sends 5-word messages to leaf 2, whose left
  // receive FIFO nobody reads: once the network and the FIFOs fill, SENDs are refused.
  // (One exchange: the board is busy while messages wait in the network, and a busy simulated
  // board answers only between batches of cycles.)
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

// A leaf mapped out of the address space on the board: the stream module's interface refuses a
// message unit to it, and any message unit at it, taking and dropping its words and counting it
// (leafX.refused); everything else as the model; the leaf's link carries nothing.
TEST(Cm5Board, MappedOutLeafRefusedAtTheSendersInterface) {
  Cm5DataConfig cfg = sim_board_config();
  cfg.name = "cm5data-board-4-mapped-out";
  cfg.cm5.mapped_out_leaves = {2};
  validate(cfg.cm5, "test");
  Cm5DataTraffic t = make_cm5_pattern("random", cfg.cm5, 5, 8);
  for (size_t i = 0; i < t.messages.size(); ++i) t.messages[i].side = static_cast<int>(i % 2);
  size_t refused = 0, from2 = 0;
  for (const auto& m : t.messages) {
    refused += m.src == 2 || m.dst == 2;
    from2 += m.src == 2;
  }
  ASSERT_GT(refused, from2);  // some to leaf 2 as well
  StreamRunArgs a;
  a.out_dir = temp_dir("cm5-board-mapout").string();
  a.timeout_s = 120;
  a.sim.phy = HostLinkPhy::Fifo;
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome o = run_cm5data_board(cfg, t, "random, leaf 2 mapped out", a, null);
  std::fclose(null);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  EXPECT_TRUE(o.verdict.agree);
  EXPECT_EQ(o.result.delivered.size(), t.messages.size() - refused);
  std::map<std::string, uint32_t> c;
  for (const auto& r : o.result.counters) c[r.counter.name] = r.value;
  uint32_t board_refused = 0;
  for (uint32_t x = 0; x < 4; ++x) board_refused += c.at("leaf" + std::to_string(x) + ".address_errors");
  EXPECT_EQ(board_refused, refused);
  EXPECT_EQ(c.at("leaf2.address_errors"), from2 + 0u) << "every message unit at leaf 2 is refused there";
  EXPECT_EQ(c.at("leaf2.accepted") + c.at("leaf2.delivered"), 0u);
  for (const char* k : {"left.c0.in_c2", "left.c0.out_c2", "right.c0.in_c2", "right.c0.out_c2"}) EXPECT_EQ(c.at(k), 0u) << k;
  fs::remove_all(a.out_dir);
}

// The chips' counters on a 16-leaf board's bus: named per network, chip and port, a region per chip.
TEST(Cm5Board, ChipCountersNamedPerChipAndPort) {
  const Cm5DataConfig cfg = board_config();
  const StreamBoardSpec s = cm5data_stream_spec(cfg);
  const Cm5DataParams& p = cfg.cm5;
  ASSERT_EQ(s.info.regions.size(), 1 + 2 * p.total_chips());
  EXPECT_EQ(s.info.regions[1], "left.c0");
  EXPECT_EQ(s.info.regions[1 + p.total_chips()], "right.c0");
  size_t chips = 0;
  for (const auto& c : s.info.counters) chips += c.region > 0;
  // Level 1: 4 chips of 4 children and 2 parents (12 link ends, 2 CRC); level 2: 2 of 4 (8, 2).
  EXPECT_EQ(chips, 2u * (4 * 14 + 2 * 10));
  const auto& first = s.info.counters[4 * p.leaves() + 2];
  EXPECT_EQ(first.name, "left.c0.in_c0");
  EXPECT_EQ(first.kind, CounterKind::In);
  EXPECT_EQ(s.info.counters.back().name, "right.c" + std::to_string(p.total_chips() - 1) + ".crc_secondary");
  EXPECT_EQ(s.info.counters.back().kind, CounterKind::Other);
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
    if (i == 0) EXPECT_NEAR(acc, rates[0], 0.1 * rates[0]);
    EXPECT_LE(acc, pt["offered"].get<double>() * 1.001) << i;
  }
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "sweep.svg"));
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "sweep.csv"));
  fs::remove_all(a.out_dir);
}

}  // namespace
}  // namespace cmnet

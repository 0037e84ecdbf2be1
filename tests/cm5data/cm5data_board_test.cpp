// The CM-5 data network on the shared stream board: the stream module (with its NIs) and the
// board top lint clean; on the simulated board (left and right networks of 4 leaves behind the
// host link) requests, replies and a hot spot go in as units through the shared host driver
// (cmnet run's path), every message comes back on its side as the model delivers it, read out of
// its NI, and the per-leaf, per-NI and per-chip counters agree with the traffic and the model.
// (The NI registers by name and the paced sweep: cm5data_board_ni_test.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <nlohmann/json.hpp>

#include "gen/core/errors.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "host/cm5data/cm5data_runner.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/cm5data/cm5data_oracle_check.h"
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
  // Registers by name: an unknown name is refused, naming it.
  try {
    (void)cm5_ni_read(0, 0, "SEND_FIFO");
    ADD_FAILURE() << "an unknown register accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no cm5data NI register SEND_FIFO"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)cm5_bridge_write(0, "STATUS", 1), std::invalid_argument);
  EXPECT_THROW((void)emit_cm5data_ni_module(sim_board_config().cm5, 12), ConfigError);  // not a power of 2
}

// The board's deliveries (the NI's RECV_HEAD, then the data words) against the paper's view,
// untimed: every message once at its destination with its data, refusals where the oracle says.
template <typename Units>
void expect_board_oracle_agrees(const Cm5DataParams& p, const Cm5DataTraffic& t, const Units& delivered) {
  std::vector<Cm5UntimedDelivery> got;
  for (const auto& u : delivered)
    got.push_back({u.leaf, u.words.empty() ? std::vector<uint32_t>{} : std::vector<uint32_t>(u.words.begin() + 1, u.words.end())});
  expect_cm5_oracle_agrees_untimed(p, t, got, "the board's deliveries");
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
  expect_board_oracle_agrees(cfg.cm5, t, o.result.delivered);
  // The run report's own row of the paper's view (host/cm5data: cmnet run and sweep); a data word
  // changed on its way back disagrees with it.
  auto oracle_says = [&](const StreamRunResult& r) {
    for (const ReportRow& row : cm5data_check_board(cfg.cm5, t, masks, r).rows)
      if (row.name.rfind("messages by the paper's view", 0) == 0) return row.board;
    return std::string("no such row");
  };
  EXPECT_EQ(oracle_says(o.result), "agree");
  StreamRunResult bad = o.result;
  bad.delivered[0].words.back() ^= 1u;
  const std::string said = oracle_says(bad);
  EXPECT_NE(said, "agree");
  EXPECT_NE(said.find("message "), std::string::npos) << said;
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
  // The printed table wraps a long row name at spaces, its values after the first line: look for
  // each row's first 40 characters, with whitespace runs as one space.
  const auto flat = [](const std::string& s) {
    std::string o;
    for (char ch : s)
      if (!std::isspace(static_cast<unsigned char>(ch))) o += ch;
      else if (!o.empty() && o.back() != ' ') o += ' ';
    return o;
  };
  const std::string text = flat(report);
  for (const char* row : {"NI counters (sent, received, refused, interrupts, CRC, address errors) as the model's",
                          "NI INTERRUPT flags as the tag masks say", "SENDs refused for want of room"})
    EXPECT_NE(text.find(std::string(row).substr(0, 40)), std::string::npos) << row << "\n" << report;
  const std::string ni_row = text.substr(text.find("NI counters"), 200);
  EXPECT_NE(ni_row.find(" 48 "), std::string::npos) << ni_row;
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
  expect_board_oracle_agrees(cfg.cm5, t, o.result.delivered);
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

}  // namespace
}  // namespace cmnet

// The CM-5 data network on the shared stream board: the stream module and the board top lint
// clean; on the simulated board (left and right networks of 4 leaves behind the host link)
// requests, replies and a hot spot go in as units through the shared host driver (cmnet run's
// path), every message comes back on its side as the model delivers it, and the per-leaf
// counters (accepted, delivered, interrupts under the tag masks) agree with the traffic.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

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

TEST(Cm5Board, UnitHeadWord) {
  EXPECT_EQ(cm5_stream_unit_head(9, 5, 3), 0x00350009u);
  EXPECT_EQ(cm5_stream_unit_head(0xFFFF, 1, 15, true), 0x01F1FFFFu);
  EXPECT_EQ(cm5_stream_unit_head(2, 1, 0, false, 1), 0x02010002u);
  EXPECT_EQ(cm5_stream_mask_unit(0x8001), 0x80008001u);
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
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome o = run_cm5data_board(cfg, t, "requests left, replies right, all-to-one", a, null, masks);
  std::fclose(null);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  EXPECT_TRUE(o.verdict.agree);
  ASSERT_EQ(o.result.delivered.size(), t.messages.size());
  // Every unit back at its destination, on its side, with the words the network delivers.
  std::multiset<std::pair<uint32_t, std::vector<uint32_t>>> want, got;
  for (const auto& m : t.messages) {
    auto w = cm5_expected_words(cfg.cm5, m);
    if (m.side) w[0] |= 0x80000000u;
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
  EXPECT_EQ(o.result.counters.size(), 4 * cfg.cm5.leaves() + 1 + 2 * NC * 10);  // 4 leaves: one chip, 4 ports
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
  for (uint32_t x = 0; x < 4; ++x) board_refused += c.at("leaf" + std::to_string(x) + ".refused");
  EXPECT_EQ(board_refused, refused);
  EXPECT_EQ(c.at("leaf2.refused"), from2 + 0u) << "every message unit at leaf 2 is refused there";
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
  const auto& first = s.info.counters[4 * p.leaves() + 1];
  EXPECT_EQ(first.name, "left.c0.in_c0");
  EXPECT_EQ(first.kind, CounterKind::In);
  EXPECT_EQ(s.info.counters.back().name, "right.c" + std::to_string(p.total_chips() - 1) + ".crc_secondary");
  EXPECT_EQ(s.info.counters.back().kind, CounterKind::Other);
}

// cmnet sweep on the simulated board: a point per offered load (1, 2, 4 messages per leaf), each
// agreeing with the model message by message and in the leaf counters, the accepted throughput
// of board and model in sweep.csv / sweep.json / sweep.svg.
TEST(Cm5Board, SweepOnTheSimulatedBoardAgreesWithTheModelAtEveryPoint) {
  const Cm5DataConfig cfg = sim_board_config();
  EXPECT_EQ(cm5data_sweep_points(4), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(cm5data_sweep_points(5), (std::vector<int>{1, 2, 4, 5}));
  StreamRunArgs a;
  a.out_dir = temp_dir("cm5-board-sweep").string();
  a.timeout_s = 120;
  a.sim.phy = HostLinkPhy::Fifo;
  std::FILE* null = std::fopen("/dev/null", "w");
  const bool ok = run_cm5data_sweep(cfg, "random", 7, 4, a, null);
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
    EXPECT_EQ(pt["units"].get<size_t>(), (size_t{1} << i) * cfg.cm5.leaves()) << i;
    // Accepted throughput is a fraction of a leaf link's flit per cycle, on the board and in the model.
    for (const char* k : {"accepted", "model_accepted"}) {
      EXPECT_GT(pt[k].get<double>(), 0) << i << k;
      EXPECT_LE(pt[k].get<double>(), 1.0) << i << k;
    }
    // The board's figure is the traffic's flits over its cycles.
    double flits = 0;
    for (const auto& m : cm5data_sweep_traffic(cfg.cm5, "random", 7, 1 << i).messages)
      flits += (m.len + 2) * 32.0 / cfg.cm5.link_bits;
    EXPECT_NEAR(pt["accepted"].get<double>() * pt["cycles"].get<double>() * cfg.cm5.leaves(), flits, 1e-6 * flits) << i;
  }
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "sweep.svg"));
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "sweep.csv"));
  fs::remove_all(a.out_dir);
}

}  // namespace
}  // namespace cmnet

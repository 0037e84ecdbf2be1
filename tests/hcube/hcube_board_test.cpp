// The hypercube network on the shared stream board: the stream module and the board top lint
// clean (both schemes); on the simulated board (a 2-cube behind the host link) a few messages go
// in as units through the shared host driver (cmnet run's path) and every message comes back
// bit-exact at the model's first and last ticks with every port counter equal to the model's,
// for the packet scheme (fixed and quasi) and the wormhole; workloads the board cannot hold are
// refused before anything is sent.
#include <gtest/gtest.h>

#include "gen/core/errors.h"
#include "gen/hcube/hcube_stream.h"
#include "sim/hcube/hcube_model.h"
#include "host/hcube/hcube_board.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

HcubeConfig board_config(const std::string& scheme, const std::string& routing, int dims = 2) {
  HcubeConfig c;
  c.name = "hcube-board-" + scheme + "-" + routing;
  c.hc.dims = dims;
  c.hc.scheme = scheme;
  c.hc.routing = routing;
  c.hc.buffers = routing == "quasi" ? 3 : 2;
  return c;
}

TEST(HcubeBoard, StreamModuleAndBoardTopLintClean) {
  const fs::path dir = temp_dir("hcube-stream-lint");
  for (const auto& [scheme, routing] : {std::pair{"packet", "fixed"}, {"packet", "quasi"}, {"wormhole", "fixed"}}) {
    const HcubeConfig cfg = board_config(scheme, routing);
    EXPECT_EQ(lint_problems(emit_hcube_stream(cfg), "hcube_stream", dir / (cfg.name + "-s")), "") << cfg.name;
  }
  HcubeConfig three = board_config("wormhole", "fixed", 3);
  EXPECT_EQ(lint_problems(emit_hcube_stream(three), "hcube_stream", dir / "w3"), "");
  const GeneratedDesign b = emit_stream_board(hcube_stream_spec(board_config("packet", "fixed")), HostBoardOptions{});
  EXPECT_EQ(b.top, "hcube_host_board");
  EXPECT_EQ(lint_problems(b, "hcube_host_board", dir / "board"), "");
  fs::remove_all(dir);
}

// A few messages on a 2-cube: to every other node, one long enough for several packets (and a
// worm of several segments), two sources sending at once, a message queued behind another.
HcubeTraffic few_messages() {
  HcubeTraffic t;
  auto add = [&](uint32_t src, uint32_t dst, uint64_t gen, uint32_t len) {
    uint32_t seq = 0;
    for (const HcubeMessage& m : t.messages) seq += m.src == src;
    t.messages.push_back({src, dst, gen, len, seq});
  };
  add(0, 3, 0, 40);
  add(0, 1, 2, 5);
  add(1, 2, 0, 17);
  add(2, 1, 0, 30);
  add(3, 0, 10, 60);
  add(3, 0, 11, 3);
  return t;
}

void run_on_board(const HcubeConfig& cfg) {
  const HcubeTraffic t = few_messages();
  StreamRunArgs a;
  a.out_dir = temp_dir("hcube-board-run-" + cfg.hc.scheme + cfg.hc.routing).string();
  a.timeout_s = 120;
  a.sim.phy = HostLinkPhy::Fifo;
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome o = run_hcube_board(cfg, t, "a few messages", a, null);
  std::fclose(null);
  EXPECT_TRUE(o.verdict.conservation.ok) << o.verdict.conservation.summary();
  EXPECT_TRUE(o.verdict.agree);
  const HcubeBoardCheck c = hcube_check_board(cfg.hc, t, o.result);
  for (const ReportRow& r : c.rows) EXPECT_EQ(r.board, r.model) << r.name;
  const HcubeRunResult b = hcube_board_result(cfg.hc, t, o.result);
  const HcubeRunResult m = run_hcube_model(cfg.hc, t);
  ASSERT_TRUE(m.completed);
  ASSERT_EQ(b.deliveries.size(), t.messages.size());
  for (size_t i = 0; i < t.messages.size(); ++i) {
    EXPECT_TRUE(b.deliveries[i].data_ok) << i;
    EXPECT_EQ(b.deliveries[i].first, m.deliveries[i].first) << i;
    EXPECT_EQ(b.deliveries[i].last, m.deliveries[i].last) << i;
  }
  for (size_t i = 0; i < m.ports.size(); ++i) {
    EXPECT_EQ(b.ports[i].packets, m.ports[i].packets) << i;
    EXPECT_EQ(b.ports[i].bytes, m.ports[i].bytes) << i;
    EXPECT_EQ(b.ports[i].blocked_ticks, m.ports[i].blocked_ticks) << i;
  }
  fs::remove_all(a.out_dir);
}

TEST(HcubeBoard, PacketFixedOnTheSimulatedBoardAgreesWithTheModel) { run_on_board(board_config("packet", "fixed")); }
TEST(HcubeBoard, PacketQuasiOnTheSimulatedBoardAgreesWithTheModel) { run_on_board(board_config("packet", "quasi")); }
TEST(HcubeBoard, WormholeOnTheSimulatedBoardAgreesWithTheModel) { run_on_board(board_config("wormhole", "fixed")); }

TEST(HcubeBoard, UnitsOfAMessage) {
  const HcubeConfig cfg = board_config("packet", "fixed");
  HcubeTraffic t;
  t.messages.push_back({2, 1, 7, 12, 0});
  const std::vector<StreamUnit> u = hcube_units(cfg.hc, t);
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[0].leaf, 2u);
  // gen, {tag, dst}, 2 packets (10 + 2 data bytes), 20 + 6 bytes ejected, 2 x (1 + 5) words.
  ASSERT_EQ(u[0].words.size(), 4u + 12u);
  EXPECT_EQ(u[0].words[0], 7u);
  EXPECT_EQ(u[0].words[1], 1u);
  EXPECT_EQ(u[0].words[2], 2u);
  EXPECT_EQ(u[0].words[3], 26u);
  EXPECT_EQ(u[0].words[4], 20u);
  EXPECT_EQ(u[0].words[5] & 0xFFFFu, 1u);          // destination bytes
  EXPECT_EQ(u[0].words[5] >> 16, 2u);              // source bytes
  EXPECT_EQ(u[0].words[10], 6u);
  EXPECT_EQ(u[1], (StreamUnit{0, {0}}));           // the start
}

TEST(HcubeBoard, WorkloadsTheBoardCannotHoldAreRefused) {
  const HcubeConfig cfg = board_config("packet", "fixed");
  auto refusal = [&](const HcubeTraffic& t) {
    try {
      (void)hcube_units(cfg.hc, t);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  HcubeTraffic many;
  for (uint32_t i = 0; i < 17; ++i) many.messages.push_back({0, 1, i, 1, i});
  EXPECT_NE(refusal(many).find("node 0 sends 17 messages, its store holds 16"), std::string::npos) << refusal(many);
  HcubeTraffic long_one;
  long_one.messages.push_back({1, 0, 0, 3000, 0});
  EXPECT_NE(refusal(long_one).find("store words"), std::string::npos) << refusal(long_one);
  HcubeTraffic flood;  // three sources each send 200 bytes to node 0 over dimension 0 or 1
  for (uint32_t s = 1; s < 4; ++s)
    for (uint32_t i = 0; i < 2; ++i) flood.messages.push_back({s, 0, i, 200, i});
  const std::string e = refusal(flood);
  EXPECT_NE(e.find("node 0 may receive"), std::string::npos) << e;
  EXPECT_NE(e.find("receive FIFO holds 512"), std::string::npos) << e;
  HcubeTraffic bad;
  bad.messages.push_back({0, 0, 0, 1, 0});
  EXPECT_NE(refusal(bad).find("hcube board traffic"), std::string::npos) << refusal(bad);
}

}  // namespace
}  // namespace cmnet

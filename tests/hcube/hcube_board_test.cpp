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
#include "host/hcube/hcube_runner.h"
#include "tests/core/emitter_checks.h"
#include "tests/hcube/hcube_oracle_check.h"

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

// More messages than the stores hold (24 per node against 8 slots, 4 for the wormhole), at a
// load that queues them at their sources: they stream through, the network held back while a
// node's next message is not yet in or a receive FIFO is full. Lengths are capped so that every
// message fits a slot.
HcubeTraffic streaming_workload(const HcubeParams& p) {
  HcubeTraffic t = make_hcube_workload(p.dims, "uniform", 24, 40, 24, 7);
  for (HcubeMessage& m : t.messages) m.len = std::min<uint32_t>(m.len, 100);
  return t;
}

uint32_t counter(const StreamRunResult& r, const std::string& name) {
  for (const CounterReading& c : r.counters)
    if (c.counter.name == name) return c.value;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

StreamRunResult check_run(StreamConnection& conn, const HcubeConfig& cfg, const HcubeTraffic& t, const std::string& what) {
  const std::string out_dir = temp_dir("hcube-board-run-" + cfg.hc.scheme + cfg.hc.routing).string();
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome o = run_stream_workload(conn, hcube_workload(cfg, t, what), out_dir, 120, null);
  std::fclose(null);
  fs::remove_all(out_dir);
  EXPECT_TRUE(o.verdict.conservation.ok) << o.verdict.conservation.summary();
  EXPECT_TRUE(o.verdict.agree) << what;
  const HcubeBoardCheck c = hcube_check_board(cfg.hc, t, o.result);
  for (const ReportRow& r : c.rows) EXPECT_EQ(r.board, r.model) << what << ": " << r.name;
  const HcubeRunResult b = hcube_board_result(cfg.hc, t, o.result, true);
  const HcubeRunResult m = run_hcube_model(cfg.hc, t);
  for (const std::string& s : hcube_oracle_check(cfg.hc, t, b)) ADD_FAILURE() << what << ": the board against the oracle: " << s;
  EXPECT_TRUE(m.completed);
  EXPECT_EQ(b.deliveries.size(), t.messages.size());
  for (size_t i = 0; i < std::min(b.deliveries.size(), m.deliveries.size()); ++i) {
    EXPECT_TRUE(b.deliveries[i].data_ok) << what << " " << i;
    EXPECT_EQ(b.deliveries[i].first, m.deliveries[i].first) << what << " " << i;
    EXPECT_EQ(b.deliveries[i].last, m.deliveries[i].last) << what << " " << i;
  }
  for (size_t i = 0; i < m.ports.size(); ++i) {
    EXPECT_EQ(b.ports[i].packets, m.ports[i].packets) << i;
    EXPECT_EQ(b.ports[i].bytes, m.ports[i].bytes) << i;
    EXPECT_EQ(b.ports[i].blocked_ticks, m.ports[i].blocked_ticks) << i;
  }
  return o.result;
}

// Receive FIFOs of 32 bytes and 4 segments fill while the output is busy with credits and other
// FIFOs' segments, so the network also waits for their room.
void run_on_board(const HcubeConfig& cfg) {
  StreamRunArgs a;
  a.sim.phy = HostLinkPhy::Fifo;
  StreamBoardSpec spec = hcube_stream_spec(cfg, HcubeStreamSizes{5, 2});
  StreamConnection conn(spec, a);
  check_run(conn, cfg, few_messages(), "a few messages");
  const HcubeTraffic big = streaming_workload(cfg.hc);
  ASSERT_EQ(big.messages.size(), 96u);
  const StreamRunResult r = check_run(conn, cfg, big, "96 messages");
  // It streamed: the network waited for the host's next messages (every node sends 24, its
  // store holds 8) and for room in a receive FIFO, and every message's slot was reported free.
  EXPECT_GT(counter(r, "network.wait_host_cycles"), 0u);
  EXPECT_GT(counter(r, "network.wait_rx_cycles"), 0u);
  size_t credits = 0;
  for (const StreamUnit& u : r.delivered) credits += hcube_credit(u);
  EXPECT_EQ(credits, big.messages.size());
  std::printf("[ %s ] 96 messages: %llu active cycles, %u cycles waiting for the host, %u for a receive FIFO\n",
              cfg.name.c_str(), static_cast<unsigned long long>(r.cycles), counter(r, "network.wait_host_cycles"),
              counter(r, "network.wait_rx_cycles"));
}

TEST(HcubeBoard, PacketFixedOnTheSimulatedBoardAgreesWithTheModel) { run_on_board(board_config("packet", "fixed")); }
TEST(HcubeBoard, PacketQuasiOnTheSimulatedBoardAgreesWithTheModel) { run_on_board(board_config("packet", "quasi")); }
TEST(HcubeBoard, WormholeOnTheSimulatedBoardAgreesWithTheModel) { run_on_board(board_config("wormhole", "fixed")); }

TEST(HcubeBoard, UnitsOfAMessage) {
  const HcubeConfig cfg = board_config("packet", "fixed");
  HcubeTraffic t;
  t.messages.push_back({2, 1, 7, 12, 0});
  const std::vector<StreamUnit> u = hcube_units(cfg.hc, t);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].leaf, 2u);
  // {tag, dst}, gen, 2 packets (10 + 2 data bytes), 20 + 6 bytes ejected, 2 x (1 + 5) words.
  ASSERT_EQ(u[0].words.size(), 4u + 12u);
  EXPECT_EQ(u[0].words[0], 1u);
  EXPECT_EQ(u[0].words[1], 7u);
  EXPECT_EQ(u[0].words[2], 2u);
  EXPECT_EQ(u[0].words[3], 26u);
  EXPECT_EQ(u[0].words[4], 20u);
  EXPECT_EQ(u[0].words[5] & 0xFFFFu, 1u);          // destination bytes
  EXPECT_EQ(u[0].words[5] >> 16, 2u);              // source bytes
  EXPECT_EQ(u[0].words[10], 6u);
  // The pacing: the start, the ends of the nodes that send nothing, the message into the lowest
  // free slot, its node's end, then nothing.
  auto pull = hcube_pull(cfg.hc, t);
  std::vector<StreamUnit> got;
  StreamUnit next;
  ASSERT_EQ(pull(got, next), 1);
  EXPECT_EQ(next, (StreamUnit{0, {0}}));
  for (uint32_t x : {0u, 1u, 3u}) {
    ASSERT_EQ(pull(got, next), 1);
    EXPECT_EQ(next, (StreamUnit{x, {1}}));
  }
  ASSERT_EQ(pull(got, next), 1);
  EXPECT_EQ(next, u[0]);
  ASSERT_EQ(pull(got, next), 1);
  EXPECT_EQ(next, (StreamUnit{2, {1}}));
  EXPECT_EQ(pull(got, next), -1);
}

// A node's messages go only into slots the board reported free: with all 8 slots of node 1 in
// use the 9th waits for a credit, then takes the slot it names.
TEST(HcubeBoard, TheHostWaitsForACreditWhenASlotIsNeeded) {
  const HcubeConfig cfg = board_config("packet", "fixed");
  HcubeTraffic t;
  for (uint32_t i = 0; i < 9; ++i) t.messages.push_back({1, 0, i, 1, i});
  auto pull = hcube_pull(cfg.hc, t);
  std::vector<StreamUnit> got;
  StreamUnit next;
  ASSERT_EQ(pull(got, next), 1);  // the start
  for (uint32_t x : {0u, 2u, 3u}) {  // the ends of the nodes that send nothing
    ASSERT_EQ(pull(got, next), 1);
    EXPECT_EQ(next, (StreamUnit{x, {1}}));
  }
  for (uint32_t i = 0; i < 8; ++i) {
    ASSERT_EQ(pull(got, next), 1);
    EXPECT_EQ((next.words[0] >> 16) & 7u, i);
  }
  EXPECT_EQ(pull(got, next), 0);
  got.push_back(StreamUnit{1, {0x40000000u | 5u}});
  ASSERT_EQ(pull(got, next), 1);
  EXPECT_EQ(next.words[0] >> 16, (8u << 3) | 5u);  // age rank 8, slot 5
  ASSERT_EQ(pull(got, next), 1);
  EXPECT_EQ(next, (StreamUnit{1, {1}}));
}

// The wormhole board's store is block RAM read the cycle after a feeder's index moves: on time
// only when a byte takes at least 2 ticks.
TEST(HcubeBoard, AWormholeBoardAtOneTickPerByteIsRefused) {
  HcubeConfig cfg = board_config("wormhole", "fixed");
  cfg.hc.ticks_per_byte = 1;
  try {
    (void)emit_hcube_stream(cfg);
    ADD_FAILURE() << "a wormhole board at 1 tick per byte was emitted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("ticks_per_byte >= 2"), std::string::npos) << e.what();
  }
  cfg.hc.scheme = "packet";  // the packet scheme's store is flip-flops: any rate
  EXPECT_NO_THROW((void)emit_hcube_stream(cfg));
}

TEST(HcubeBoard, MessagesASlotCannotHoldAreRefused) {
  const HcubeConfig cfg = board_config("packet", "fixed");
  auto refusal = [&](const HcubeTraffic& t) {
    try {
      (void)hcube_units(cfg.hc, t);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  HcubeTraffic many;  // any number of messages streams
  for (uint32_t i = 0; i < 40; ++i) many.messages.push_back({0, 1, i, 1, i});
  EXPECT_EQ(refusal(many), "");
  HcubeTraffic long_one;
  long_one.messages.push_back({1, 0, 0, 3000, 0});
  EXPECT_NE(refusal(long_one).find("message 0 (node 1, 3000 bytes) needs"), std::string::npos) << refusal(long_one);
  EXPECT_NE(refusal(long_one).find("a slot holds 256"), std::string::npos) << refusal(long_one);
  HcubeTraffic bad;
  bad.messages.push_back({0, 0, 0, 1, 0});
  EXPECT_NE(refusal(bad).find("hcube board traffic"), std::string::npos) << refusal(bad);
}

}  // namespace
}  // namespace cmnet

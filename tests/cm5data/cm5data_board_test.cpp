// The CM-5 data network on the shared stream board: the stream module and the board top lint
// clean; on the simulated board (a 16-leaf network behind the host link) a traffic goes in as
// units through the shared host driver, every message comes back as the model delivers it,
// and the per-leaf counters conserve and agree with the traffic.
#include <gtest/gtest.h>

#include "host/cm5data/cm5data_runner.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

Cm5DataConfig board_config() { return cm5data_test_config(2, "cm5", 8, 2, 4, "cm5data-board-16"); }

TEST(Cm5Board, StreamModuleAndBoardTopLintClean) {
  const Cm5DataConfig cfg = board_config();
  const fs::path dir = temp_dir("cm5-stream-lint");
  EXPECT_EQ(lint_problems(emit_cm5data_stream(cfg), "cm5data_stream", dir), "");
  for (const auto& other : {cm5data_test_config(1, "cm5", 32, 1, 1, "s1"), cm5data_test_config(2, "full", 4, 3, 1, "s2")})
    EXPECT_EQ(lint_problems(emit_cm5data_stream(other), "cm5data_stream", dir / other.name), "") << other.name;
  const GeneratedDesign b = emit_stream_board(cm5data_stream_spec(cfg), HostBoardOptions{});
  EXPECT_EQ(b.top, "cm5data_host_board");
  EXPECT_EQ(lint_problems(b, "cm5data_host_board", dir / "board"), "");
  fs::remove_all(dir);
}

TEST(Cm5Board, UnitHeadWord) {
  EXPECT_EQ(cm5_stream_unit_head(9, 5, 3), 0x00350009u);
  EXPECT_EQ(cm5_stream_unit_head(0xFFFF, 1, 15, true), 0x01F1FFFFu);
}

TEST(Cm5Board, ATrafficOnTheSimulatedBoardAgreesWithTheModel) {
  const Cm5DataConfig cfg = board_config();
  Cm5DataTraffic t = make_cm5_pattern("random", cfg.cm5, 3, 3);
  const Cm5DataTraffic hot = make_cm5_pattern("all-to-one", cfg.cm5, 4, 2, 5);
  t.messages.insert(t.messages.end(), hot.messages.begin(), hot.messages.end());
  StreamRunArgs a;
  a.out_dir = temp_dir("cm5-board-run").string();
  a.timeout_s = 120;
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome o = run_cm5data_board(cfg, t, "random + all-to-one", a, null);
  std::fclose(null);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  EXPECT_TRUE(o.verdict.agree);
  ASSERT_EQ(o.result.delivered.size(), t.messages.size());
  // Every unit back at its destination with the words the network delivers.
  std::multiset<std::pair<uint32_t, std::vector<uint32_t>>> want, got;
  for (const auto& m : t.messages) want.insert({m.dst, cm5_expected_words(cfg.cm5, m)});
  for (const auto& u : o.result.delivered) got.insert({u.leaf, u.words});
  EXPECT_EQ(want, got);
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "run.json"));
  fs::remove_all(a.out_dir);
}

}  // namespace
}  // namespace cmnet

// The CM-5 control network on the shared stream board (gen/cm5ctl/cm5ctl_stream.h,
// host/cm5ctl/cm5ctl_runner.h): the board top lints clean, and `cmnet run`'s path on the
// simulated board (the real host driver over TCP) does a reduction and a scan, and a random mix
// with broadcasts, in two partitions with a mapped-out leaf: every result as the software
// computes it, every counter as the reference model counts, conservation per partition.
#include <gtest/gtest.h>

#include "gen/cm5ctl/cm5ctl_stream.h"
#include "gen/core/errors.h"
#include "host/cm5ctl/cm5ctl_runner.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

Cm5ctlConfig board_cfg() {
  Cm5ctlConfig c;
  c.name = "cm5ctl-board-8";
  c.p.leaves = 8;
  c.p.partitions = {2, 3};
  c.p.mapped_out = {13};
  validate(c.p, "test");
  return c;
}

TEST(Cm5ctlBoard, StreamModuleAndBoardTopLintClean) {
  const Cm5ctlConfig c = board_cfg();
  fs::path dir = temp_dir("cm5stream-lint");
  EXPECT_EQ(lint_problems(emit_cm5ctl_stream(c), "cm5ctl_stream", dir), "");
  fs::remove_all(dir);
  dir = temp_dir("cm5board-lint");
  EXPECT_EQ(lint_problems(emit_stream_board(cm5ctl_stream_spec(c), HostBoardOptions{}), "cm5ctl_host_board", dir), "");
  fs::remove_all(dir);
  const StreamBoardSpec s = cm5ctl_stream_spec(c);
  EXPECT_EQ(s.info.regions, (std::vector<std::string>{"partition2", "partition3", "not-in-use"}));
  EXPECT_EQ(s.info.counters.size(), 32u);
  EXPECT_EQ(s.info.counters[4 * 5].region, 2u);  // leaf 5 (heap 13) is mapped out
}

TEST(Cm5ctlBoard, AReductionAndAScanAndAMixOnTheSimulatedBoard) {
  const Cm5ctlConfig c = board_cfg();
  for (const std::string pattern : {"reduce-scan", "mixed"}) {
    Cm5RunArgs a;
    a.pattern = pattern;
    a.count = 8;
    a.seed = 3;
    a.stream.out_dir = temp_dir("cm5run-" + pattern).string();
    a.stream.timeout_s = 120;
    a.stream.sim.phy = HostLinkPhy::Fifo;
    std::FILE* null = std::fopen("/dev/null", "w");
    const StreamRunOutcome o = cm5ctl_run(c, a, null);
    std::fclose(null);
    EXPECT_TRUE(o.verdict.ok()) << pattern << ": " << o.verdict.conservation.summary();
    // 6 leaves in use, 8 operations each, broadcasts of the mix to every leaf of their partition.
    EXPECT_GE(o.result.delivered.size(), 48u) << pattern;
    EXPECT_TRUE(fs::exists(fs::path(a.stream.out_dir) / "run.json"));
    fs::remove_all(a.stream.out_dir);
  }
}

// `cmnet sweep` on the simulated board at 2 leaves: every point's results and counters as the
// model's, its cycles within the staging register's allowance of the model's, and the files.
TEST(Cm5ctlBoard, SweepOnTheSimulatedBoardAgreesWithTheModel) {
  Cm5ctlConfig c;
  c.name = "cm5ctl-sweep-2";
  c.p.leaves = 2;
  validate(c.p, "test");
  Cm5SweepArgs a;
  a.in_flight = {1, 4, 12};
  a.stream.out_dir = temp_dir("cm5sweep").string();
  a.stream.timeout_s = 120;
  a.stream.sim.phy = HostLinkPhy::Fifo;
  std::vector<Cm5SweepPoint> pts;
  std::FILE* null = std::fopen("/dev/null", "w");
  const bool ok = cm5ctl_sweep(c, a, &pts, null);
  std::fclose(null);
  EXPECT_TRUE(ok);
  ASSERT_EQ(pts.size(), 3u);
  for (const Cm5SweepPoint& q : pts) {
    EXPECT_TRUE(q.results_ok && q.counters_ok && q.timing_ok)
        << "K = " << q.in_flight << ": board " << q.board_cycles << " cycles, model " << q.model_cycles;
    EXPECT_GT(q.accepted, 0.0);
  }
  // More operations in flight complete more per packet time (the pipeline fills), on both.
  EXPECT_GT(pts[2].model_accepted, pts[0].model_accepted);
  EXPECT_GT(pts[2].accepted, pts[0].accepted);
  const std::string csv = slurp_log(fs::path(a.stream.out_dir) / "sweep.csv");
  EXPECT_NE(csv.find("\n12,"), std::string::npos) << csv;
  EXPECT_TRUE(fs::exists(fs::path(a.stream.out_dir) / "sweep.svg"));
  EXPECT_TRUE(fs::exists(fs::path(a.stream.out_dir) / "sweep.json"));
  fs::remove_all(a.stream.out_dir);
}

TEST(Cm5ctlBoard, WhatTheUnitFormatCannotSayIsRefused) {
  const Cm5ctlConfig c = board_cfg();
  EXPECT_THROW(cm5ctl_stream_workload(c, make_cm5ctl_workload("flush", 8, 32, 1, 4)), InputError);
  Cm5Workload w = make_cm5ctl_workload("reduce-add", 8, 32, 1, 2);
  w.globals.push_back({10, 1, 1});
  EXPECT_THROW(cm5ctl_stream_workload(c, w), InputError);
}

}  // namespace
}  // namespace cmnet

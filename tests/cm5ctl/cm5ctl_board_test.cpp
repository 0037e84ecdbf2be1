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
  EXPECT_EQ(s.info.counters.size(), 64u);
  EXPECT_EQ(s.info.counters[8 * 5].region, 2u);  // leaf 5 (heap 13) is mapped out
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
  c.p.queue_ram = 1;  // as gen/examples/cm5ctl_2.json, the board that fits the HX8K
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

// Control units on the simulated board, 4 leaves with the CRC: the global ORs, router-done fed
// by the counter input (balanced, a duplicated message, a lost one that arrives late), flush and
// restart, a CRC error on a link; each run's results as the software computes them, counters
// as the model counts, every leaf's final status as the model's final state.
class Cm5ctlBoardControl : public testing::Test {
 protected:
  static Cm5ctlConfig cfg() {
    Cm5ctlConfig c;
    c.name = "cm5ctl-board-ctl-4";
    c.p.leaves = 4;
    c.p.crc_bits = 8;
    validate(c.p, "test");
    return c;
  }
  static StreamRunOutcome run(const StreamWorkload& w, const std::string& tag) {
    StreamRunArgs a;
    a.out_dir = temp_dir("cm5ctl-" + tag).string();
    a.timeout_s = 60;
    a.sim.phy = HostLinkPhy::Fifo;
    // The report goes to a file, shown when the run disagrees with the model.
    const fs::path log = fs::path(a.out_dir).concat(".txt");
    std::FILE* f = std::fopen(log.c_str(), "w");
    StreamRunOutcome o = run_stream_workload(cm5ctl_stream_spec(cfg()), w, a, f);
    std::fclose(f);
    if (!o.verdict.ok()) ADD_FAILURE() << tag << ":\n" << slurp_log(log);
    fs::remove_all(a.out_dir);
    fs::remove(log);
    return o;
  }
  static std::vector<cm5unit::Status> statuses(const StreamRunOutcome& o, uint32_t leaf) {
    std::vector<cm5unit::Status> v;
    for (const StreamUnit& u : o.result.delivered)
      if (u.leaf == leaf && u.words.size() == 2 && cm5unit::is_status(u.words[0]))
        v.push_back(cm5unit::decode_status(u.words[0], u.words[1]));
    return v;
  }
};

TEST_F(Cm5ctlBoardControl, GlobalOrsAndHardErrorReachEveryLeaf) {
  Cm5Workload w = make_cm5ctl_workload("reduce-add", 4, 32, 2, 2);
  w.globals = {{10, 1, 1}, {20, 2, 2}, {30, 3, 4}, {40, 1, 0}};  // async 1 and hard error stay set
  const StreamRunOutcome o = run(cm5ctl_stream_workload(cfg(), w), "globals");
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  for (uint32_t j = 0; j < 4; ++j) {
    const auto st = statuses(o, j);
    ASSERT_EQ(st.size(), 1u) << j;
    EXPECT_EQ(st[0].globals, 6) << j;
    EXPECT_FALSE(st[0].link_error);
    EXPECT_TRUE(st[0].aligned);
  }
}

TEST_F(Cm5ctlBoardControl, RouterDoneFromTheCounterInputsDetectsDuplicatedAndLostMessages) {
  const StreamRunOutcome ok = run(cm5ctl_stream_workload(cfg(), router_done_workload(4, 3, 12, "none").w), "rd");
  EXPECT_TRUE(ok.verdict.ok());
  const StreamRunOutcome dup =
      run(cm5ctl_stream_workload(cfg(), router_done_workload(4, 3, 12, "duplicated").w), "rd-dup");
  EXPECT_TRUE(dup.verdict.ok());
  bool err = false;
  for (const StreamUnit& u : dup.result.delivered)
    if (!cm5unit::is_status(u.words[0]) && cm5unit::decode_result(u.words[0], u.words[1]).comb == 7)
      err = err || cm5unit::decode_result(u.words[0], u.words[1]).err;
  EXPECT_TRUE(err) << "a duplicated message ends router-done with the error bit";
  // Lost: router-done does not end (leaf 0 still owes its result long after every push), until
  // the message arrives after all (leaf 0's counter corrected); then it ends with 0.
  Cm5RouterDone lost = router_done_workload(4, 3, 12, "lost");
  int64_t sum = 0, last0 = 0;
  for (size_t i = 0; i < lost.w.counters.size(); ++i)
    if (!lost.w.counters[i].empty()) {
      sum += lost.w.counters[i].back().second;
      if (i == 0) last0 = lost.w.counters[i].back().second;
    }
  ASSERT_EQ(sum, 1);
  const uint64_t late = lost.last_arrival + 3000;
  lost.w.counters[0].emplace_back(late, last0 - 1);
  const StreamRunOutcome o = run(cm5ctl_stream_workload(cfg(), lost.w, true, {{late - 1, 0}}), "rd-lost");
  EXPECT_TRUE(o.verdict.ok());
  const auto st = statuses(o, 0);
  ASSERT_EQ(st.size(), 2u);
  EXPECT_GE(st[0].owed, 1u) << "router-done still under way before the message arrives";
  EXPECT_TRUE(st[0].router_done);
  EXPECT_EQ(st[1].owed, 0u);
  EXPECT_FALSE(st[1].router_done);
}

// `cmnet run --pattern control`: router-done from the counters, reductions and scans, the global
// inputs and a CRC fault in one run, compared with the model.
TEST_F(Cm5ctlBoardControl, TheControlPatternOfCmnetRun) {
  Cm5RunArgs a;
  a.pattern = "control";
  a.count = 4;
  a.stream.out_dir = temp_dir("cm5ctl-control").string();
  a.stream.timeout_s = 60;
  a.stream.sim.phy = HostLinkPhy::Fifo;
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome o = cm5ctl_run(cfg(), a, null);
  std::fclose(null);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  for (uint32_t j = 0; j < 4; ++j) {
    const auto st = statuses(o, j);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_TRUE(st[0].link_error);
    EXPECT_EQ(st[0].globals, 6) << j;  // async OR 1 and the hard-error OR (input and the CRC error)
  }
  fs::remove_all(a.stream.out_dir);
}

TEST_F(Cm5ctlBoardControl, FlushAndRestartGiveTheSameResults) {
  const StreamRunOutcome o = run(cm5ctl_stream_workload(cfg(), make_cm5ctl_workload("flush", 4, 32, 5, 6)), "flush");
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  for (uint32_t j = 0; j < 4; ++j) EXPECT_FALSE(statuses(o, j).at(0).halted);
}

TEST_F(Cm5ctlBoardControl, ACrcErrorOnALinkIsDetected) {
  Cm5Workload w = make_cm5ctl_workload("reduce-scan", 4, 32, 1, 2);
  w.flips = {{4000, 5, true}, {4100, 2, false}};  // idle packets, after the operations
  const StreamRunOutcome o = run(cm5ctl_stream_workload(cfg(), w), "crc");
  EXPECT_TRUE(o.verdict.ok());
  for (uint32_t j = 0; j < 4; ++j) {
    const auto st = statuses(o, j);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_TRUE(st[0].link_error);
    EXPECT_EQ(st[0].globals & 4, 4) << "the sticky link error is a hard error, ORed to every leaf";
  }
}

// A link fault while results are owed: leaves 0..2 push their parts of a reduction, which wait
// at the nodes for leaf 3's (it comes at cycle 400); meanwhile the down link of leaf 0 and the
// up link of leaf 3 are hit (the board takes the faults at once, in order with the operations).
// Every result as the software computes it, every leaf's final status as the model's: the
// sticky CRC link error and the hard-error OR everywhere.
TEST_F(Cm5ctlBoardControl, ALinkFaultWhileResultsAreOwed) {
  Cm5Workload w = make_cm5ctl_workload("reduce-add", 4, 32, 5, 2);
  w.leaf[3][0].release = 400;
  w.flips = {{150, 4, false}, {160, 7, true}};
  const StreamWorkload sw = cm5ctl_stream_workload(cfg(), w);
  // The faults go in among the reduction's operations: after leaf 2's part, before leaf 3's.
  size_t flip_at = 0, leaf3_at = 0;
  for (size_t u = 0; u < sw.units.size(); ++u) {
    if (sw.units[u].words[0] >> 28 == cm5unit::kFlip && flip_at == 0) flip_at = u;
    if (sw.units[u].leaf == 3 && leaf3_at == 0) leaf3_at = u;
  }
  EXPECT_EQ(flip_at, 3u);
  EXPECT_EQ(leaf3_at, 5u);
  const StreamRunOutcome o = run(sw, "owed");
  EXPECT_TRUE(o.verdict.ok());
  for (uint32_t j = 0; j < 4; ++j) {
    const auto st = statuses(o, j);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_TRUE(st[0].link_error);
    EXPECT_EQ(st[0].globals & 4, 4);
    EXPECT_EQ(st[0].owed, 0u);
  }
}

TEST(Cm5ctlBoard, WhatTheBoardCannotDoIsRefused) {
  const Cm5ctlConfig c = board_cfg();
  Cm5Workload w = make_cm5ctl_workload("flush", 8, 32, 1, 4);
  w.restarts.clear();
  EXPECT_THROW(cm5ctl_stream_workload(c, w), InputError);
  w = make_cm5ctl_workload("reduce-add", 8, 32, 1, 2);
  w.flips.push_back({10, 3, true});
  EXPECT_THROW(cm5ctl_stream_workload(c, w), InputError);  // no CRC in this config
  EXPECT_THROW(cm5ctl_stream_workload(c, make_cm5ctl_workload("reduce-add", 8, 32, 1, 2), true, {{5, 5}}),
               InputError);  // leaf 5 is mapped out
}

}  // namespace
}  // namespace cmnet

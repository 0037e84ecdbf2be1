// The CM-5 control network on the shared stream board (gen/cm5ctl/cm5ctl_stream.h,
// host/cm5ctl/cm5ctl_runner.h): the board top lints clean, and `cmnet run`'s path on the
// simulated board (the real host driver over TCP) does a reduction and a scan, and a random mix
// with broadcasts, in two partitions with a mapped-out leaf: every result as the software
// computes it, every counter as the reference model counts, conservation per partition.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "gen/cm5ctl/cm5ctl_stream.h"
#include "gen/core/errors.h"
#include "gen/core/design.h"
#include "gen/core/stream_board.h"
#include "host/cm5ctl/cm5ctl_runner.h"
#include "sim/cm5ctl/cm5ctl_ops.h"
#include "sim/core/sim_board.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

// As gen/examples/cm5ctl_2.json, the board that fits the HX8K: one cached model for the tests
// that use it.
Cm5ctlConfig two_leaves() {
  Cm5ctlConfig c;
  c.name = "cm5ctl-sweep-2";
  c.p.leaves = 2;
  c.p.queue_ram = 1;
  c.p.counter_bits = 16;
  validate(c.p, "test");
  return c;
}

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
    std::FILE* text = std::tmpfile();
    ASSERT_NE(text, nullptr);
    const StreamRunOutcome o = cm5ctl_run(c, a, text);
    EXPECT_TRUE(o.verdict.ok()) << pattern << ": " << o.verdict.conservation.summary();
    // The printed report fits its width; each leaf's status, equal to the model's, prints once.
    std::rewind(text);
    size_t rows = 0, once = 0;
    for (char line[1024]; std::fgets(line, sizeof line, text);) {
      const std::string l = line;
      EXPECT_LE(l.size(), kReportWidth + 1) << l;  // + 1: the newline
      rows += l.rfind("   leaf", 0) == 0 && l.find(" status\n") != std::string::npos;
      once += l.find("board = model: globals") != std::string::npos;
    }
    std::fclose(text);
    EXPECT_GT(rows, 0u) << pattern;
    EXPECT_EQ(once, rows) << pattern;
    // 6 leaves in use, 8 operations each, broadcasts of the mix to every leaf of their partition.
    EXPECT_GE(o.result.delivered.size(), 48u) << pattern;
    EXPECT_TRUE(fs::exists(fs::path(a.stream.out_dir) / "run.json"));
    fs::remove_all(a.stream.out_dir);
  }
}

// `cmnet run --traffic F` on the simulated board: a user's workload file (the 2-leaf board of
// the sweep below: one cached model) pushed by the host, every result the software's.
TEST(Cm5ctlBoard, AWorkloadFileOnTheSimulatedBoard) {
  const Cm5ctlConfig c = two_leaves();
  Cm5RunArgs a;
  a.stream.out_dir = temp_dir("cm5run-file").string();
  a.traffic = (fs::path(a.stream.out_dir) / "mine.workload").string();
  std::ofstream(a.traffic) << "reduce add 40 2\nscan-fwd uadd 7 9\nsegscan-bwd or 1 |2\nbroadcast 1 77\n"
                              "reduce uadd 0xffffffff 1\nreduce uaddc 0 0\nbarrier 1 -\nglobal 3 0 2\n";
  a.stream.timeout_s = 120;
  a.stream.sim.phy = HostLinkPhy::Fifo;
  std::FILE* text = std::tmpfile();
  ASSERT_NE(text, nullptr);
  const StreamRunOutcome o = cm5ctl_run(c, a, text);
  std::fclose(text);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  EXPECT_GE(o.result.delivered.size(), 2u * 7u);  // 6 combining results and a broadcast per leaf
  fs::remove_all(a.stream.out_dir);
}

// `cmnet run --rtl DIR` (host/board_connection.h): the board top a `cmnet build --mode host`
// directory holds, simulated with its board file's clock and button, runs the same workload; a
// directory built for another top is refused, naming it. (The directory is written here as the
// flow writes it, rtl/ and report.json, without running the flow.)
TEST(Cm5ctlBoard, ABuildDirectoryIsSimulatedAsTheBoard) {
  const Cm5ctlConfig c = two_leaves();
  const fs::path dir = temp_dir("cm5run-rtl");
  HostBoardOptions h;  // icebreaker: 12 MHz, an active-low button, the UART
  write_design(emit_stream_board(cm5ctl_stream_spec(c), h), (dir / "rtl").string());
  const std::string board_file = std::string(CMNET_SOURCE_DIR) + "/constraints/boards/icebreaker.json";
  auto report = [&](const std::string& top) {
    std::ofstream(dir / "report.json") << R"({"mode": "host", "top": ")" << top << R"(", "board_file": ")"
                                       << board_file << "\"}";
  };
  Cm5RunArgs a;
  a.stream.out_dir = (dir / "out").string();
  a.stream.rtl = dir.string();
  a.stream.timeout_s = 120;
  a.pattern = "reduce-scan";
  report("cm5ctl_host_board");
  std::FILE* text = std::tmpfile();
  ASSERT_NE(text, nullptr);
  const StreamRunOutcome o = cm5ctl_run(c, a, text);
  std::fclose(text);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  report("hcube_host_board");
  std::FILE* refused = std::tmpfile();
  ASSERT_NE(refused, nullptr);
  try {
    cm5ctl_run(c, a, refused);
    ADD_FAILURE() << "a build of another top was run";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--rtl " + dir.string() + ": built with --mode host (top hcube_host_board)"),
              std::string::npos) << e.what();
  }
  std::fclose(refused);
  fs::remove_all(dir);
}

// `cmnet sweep` on the simulated board at 2 leaves: every point's results and counters as the
// model's, its cycles within the staging register's allowance of the model's, and the files.
TEST(Cm5ctlBoard, SweepOnTheSimulatedBoardAgreesWithTheModel) {
  const Cm5ctlConfig c = two_leaves();
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
        v.push_back(cm5unit::decode_status(u.words));
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

// The send side per function (send_fifo_depth > 0): gen/examples/cm5ctl_2_send.json (2 leaves,
// queue_ram 1, send FIFOs of 2 units per function, the tree leaves' own FIFOs at 1, 16-bit counters).
Cm5ctlConfig send_cfg() {
  Cm5ctlConfig c;
  c.name = "cm5ctl-2-send";
  c.p.leaves = 2;
  c.p.queue_ram = 1;
  c.p.send_fifo_depth = 2;
  c.p.leaf_fifo_depth = 1;
  c.p.counter_bits = 16;
  validate(c.p, "test");
  return c;
}

TEST(Cm5ctlBoard, SendFifoStreamModuleLintsAndSynthesizesInBothModes) {
  for (int depth : {0, 2}) {
    Cm5ctlConfig c = send_cfg();
    c.p.send_fifo_depth = depth;
    const std::string tag = "cm5send-" + std::to_string(depth);
    fs::path dir = temp_dir(tag + "-lint");
    EXPECT_EQ(lint_problems(emit_cm5ctl_stream(c), "cm5ctl_stream", dir), "") << depth;
    fs::remove_all(dir);
    dir = temp_dir(tag + "-yosys");
    bool ok = false;
    const std::string log = synth_ice40(emit_cm5ctl_stream(c), "cm5ctl_stream", dir, &ok);
    EXPECT_TRUE(ok) << depth << ": " << log.substr(log.size() > 3000 ? log.size() - 3000 : 0);
    // The send FIFOs' memory in block RAM (the HX8K board is short of logic cells, not of this).
    if (depth > 0) {
      EXPECT_NE(log.find("g_on.smem via $__ICE40_RAM4K_"), std::string::npos) << depth;
    }
    fs::remove_all(dir);
  }
  // Send FIFOs in two partitions with a mapped-out leaf, a depth not a power of two.
  Cm5ctlConfig big = board_cfg();
  big.p.send_fifo_depth = 3;
  fs::path dir = temp_dir("cm5send-8-lint");
  EXPECT_EQ(lint_problems(emit_cm5ctl_stream(big), "cm5ctl_stream", dir), "");
  fs::remove_all(dir);
  // Depth 0 is the staging register as before: no send FIFO, no third status word, the config
  // without the field.
  Cm5ctlConfig c = send_cfg();
  c.p.send_fifo_depth = 0;
  EXPECT_EQ(file_of(emit_cm5ctl_stream(c), "cm5ctl_stream.v").find("g_send"), std::string::npos);
  EXPECT_EQ(config_to_json(c).find("send_fifo_depth"), std::string::npos);
  EXPECT_NE(file_of(emit_cm5ctl_stream(send_cfg()), "cm5ctl_stream.v").find("g_send"), std::string::npos);
}

std::vector<StreamUnit> op_unit(uint32_t leaf, const Cm5Op& o) {
  return {StreamUnit{leaf, cm5unit::encode_op(o.broadcast, o.abstain, o.kind, o.comb, o.segmented, o.seg,
                                              static_cast<uint32_t>(o.data))}};
}

// Takes what the board delivers until `n` units came in all (or 60 s pass).
void wait_for(StreamBoard& b, std::vector<StreamUnit>& got, size_t n) {
  const auto t0 = std::chrono::steady_clock::now();
  while (got.size() < n && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60)) {
    for (StreamUnit& u : b.receive()) got.push_back(std::move(u));
    if (got.size() < n) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// Through the real host driver on the simulated board: with the board stopped (nothing is
// injected), leaf 0's combine FIFO filled; then units for its other functions and for leaf 1,
// interleaved, and a status of leaf 0: every one taken at once (the transmit FIFO empties) and
// the status back at once, its space per function as pushed. Running: the reductions complete,
// leaf 0's sync OR waits in the tree for leaf 1's; a status read meanwhile comes back (owed: the
// sync OR); leaf 1's sync OR, then a final status. The results as the software computes them,
// function by function, the counters as the model's (the runner's own comparison).
TEST(Cm5ctlBoard, SendFifosPerFunctionDoNotBlockEachOtherAndStatusIsReadApart) {
  const Cm5ctlConfig c = send_cfg();
  Cm5Op add, scan, bc, sync, intr;
  add.kind = cm5::kReduce;
  add.comb = cm5::kAdd;
  scan.kind = cm5::kScanFwd;
  scan.comb = cm5::kOr;
  bc.broadcast = true;
  bc.kind = 0;  // user broadcast
  bc.data = 0xB0;
  intr.broadcast = true;
  intr.kind = 2;  // interrupt
  intr.data = 0x1F;
  sync.kind = cm5::kSync;
  sync.comb = cm5::kOr;
  Cm5Workload w;
  w.name = "send-fifos";
  w.leaf.resize(2);
  Cm5Op a0 = add, a1 = add, s0 = scan, s1 = scan, y0 = sync, y1 = sync;
  a0.data = 5;
  a1.data = 7;
  s0.data = 0x30;
  s1.data = 0x0C;
  y0.data = 1;
  y1.data = 0;
  w.leaf[0] = {a0, s0, bc, y0, intr};
  w.leaf[1] = {a1, s1, y1};
  // Three statuses of leaf 0 (the last compared with the model's final state).
  const StreamWorkload sw = cm5ctl_stream_workload(c, w, false, {{0, 0}, {0, 0}, {0, 0}});

  StreamRunArgs a;
  a.sim.phy = HostLinkPhy::Fifo;
  StreamConnection conn(cm5ctl_stream_spec(c), a);
  StreamBoard& b = *conn.board;
  b.set_run(false);
  b.clear();
  std::vector<StreamUnit> units = op_unit(0, a0);
  for (const auto& u : op_unit(0, s0)) units.push_back(u);  // leaf 0's combine FIFO is full
  for (const auto& [leaf, o] : std::vector<std::pair<uint32_t, Cm5Op>>{{0, bc}, {1, a1}, {0, y0}, {0, intr}, {1, s1}})
    for (const auto& u : op_unit(leaf, o)) units.push_back(u);
  b.send(units);
  std::vector<StreamUnit> got;
  // The status (the host driver's read, cm5ctl_read_status) comes back with the board stopped.
  cm5unit::Status st = cm5ctl_read_status(b, 0, got, 0, 60);
  ASSERT_EQ(got.size(), 1u) << "nothing but the status";
  ASSERT_TRUE(st.has_space);
  EXPECT_EQ(st.space[cm5unit::kFnCombine], 0u) << "leaf 0's combine FIFO full";
  EXPECT_EQ(st.space[cm5unit::kFnBroadcast], 1u);
  EXPECT_EQ(st.space[cm5unit::kFnInterrupt], 1u);
  EXPECT_EQ(st.space[cm5unit::kFnSync], 1u);
  EXPECT_EQ(st.owed, 0u);
  EXPECT_TRUE(b.status() & 8u) << "every unit taken: the transmit FIFO is empty";
  uint64_t pushed0 = 0, pushed1 = 0;
  for (const CounterReading& r : b.counters()) {
    if (r.counter.name == "leaf0.pushed") pushed0 = r.value;
    if (r.counter.name == "leaf1.pushed") pushed1 = r.value;
  }
  EXPECT_EQ(pushed0, 6u);
  EXPECT_EQ(pushed1, 2u);
  // Running: the two reductions' results at both leaves, the broadcast's and the interrupt's;
  // leaf 0's sync OR waits for leaf 1's.
  b.set_run(true);
  wait_for(b, got, 1 + 8);
  ASSERT_EQ(got.size(), 9u);
  st = cm5ctl_read_status(b, 0, got, 0, 60);
  ASSERT_EQ(got.size(), 10u) << "a status while the sync OR waits";
  EXPECT_EQ(st.owed, 1u) << "the sync OR's result owed";
  for (int f = 0; f < 4; ++f) EXPECT_EQ(st.space[f], 2u) << f;
  b.send(op_unit(1, y1));
  wait_for(b, got, 12);
  ASSERT_EQ(got.size(), 12u);
  st = cm5ctl_read_status(b, 0, got, 0, 60);
  EXPECT_EQ(st.owed, 0u);
  StreamRunResult r;
  r.delivered = got;
  r.counters = b.counters();
  b.set_run(false);
  RunReport rep;
  sw.compare(r, rep);
  std::string rows;
  for (const ReportRow& row : rep.rows) {
    rows += row.name + ": " + row.board + " | " + row.model + "\n";
    if (row.compared) {
      EXPECT_EQ(row.board, row.model) << row.name;
    }
  }
  EXPECT_EQ(rep.mismatches, 0u) << rows;
  // The paper's view is a row of its own, and a result changed on its way back (leaf 1's
  // reduction: 5 + 7 read as 13) disagrees with it.
  const std::string oracle_row = "results by the paper's view (sim/cm5ctl/oracle)";
  auto board_value = [&](const RunReport& rp) {
    for (const ReportRow& row : rp.rows)
      if (row.name == oracle_row) return row.board;
    return std::string("no such row");
  };
  EXPECT_EQ(board_value(rep), "all equal") << rows;
  StreamRunResult bad = r;
  for (StreamUnit& u : bad.delivered)
    if (u.leaf == 1 && !cm5unit::is_status(u.words[0]) && u.words[1] == 12) {
      u.words[1] = 13;
      break;
    }
  RunReport wrong;
  sw.compare(bad, wrong);
  EXPECT_NE(board_value(wrong).find("leaf 1, combining operation 0 (reduce/add, word 1 of 1): the oracle says "
                                    "combine/0 data 0xc comb add, got combine/0 data 0xd"),
            std::string::npos)
      << board_value(wrong);
  if (conn.sim) conn.sim->stop();
}

// `cmnet run` and `cmnet sweep` with send FIFOs: results, counters and final statuses (space
// per function included) as the model's; the sweep's points within its allowance.
TEST(Cm5ctlBoard, RunAndSweepWithSendFifos) {
  const Cm5ctlConfig c = send_cfg();
  for (const std::string pattern : {"reduce-scan", "mixed", "flush", "control"}) {
    Cm5RunArgs a;
    a.pattern = pattern;
    a.count = 6;
    a.seed = 4;
    a.stream.out_dir = temp_dir("cm5send-run-" + pattern).string();
    a.stream.timeout_s = 120;
    a.stream.sim.phy = HostLinkPhy::Fifo;
    const fs::path log = fs::path(a.stream.out_dir).concat(".txt");
    std::FILE* f = std::fopen(log.c_str(), "w");
    const StreamRunOutcome o = cm5ctl_run(c, a, f);
    std::fclose(f);
    EXPECT_TRUE(o.verdict.ok()) << pattern << ":\n" << slurp_log(log);
    fs::remove_all(a.stream.out_dir);
    fs::remove(log);
  }
  Cm5SweepArgs a;
  a.in_flight = {1, 4, 12};
  a.stream.out_dir = temp_dir("cm5send-sweep").string();
  a.stream.timeout_s = 120;
  a.stream.sim.phy = HostLinkPhy::Fifo;
  std::vector<Cm5SweepPoint> pts;
  std::FILE* null = std::fopen("/dev/null", "w");
  const bool ok = cm5ctl_sweep(c, a, &pts, null);
  std::fclose(null);
  EXPECT_TRUE(ok);
  ASSERT_EQ(pts.size(), 3u);
  for (const Cm5SweepPoint& q : pts)
    EXPECT_TRUE(q.results_ok && q.counters_ok && q.timing_ok)
        << "K = " << q.in_flight << ": board " << q.board_cycles << " cycles, model " << q.model_cycles;
  fs::remove_all(a.stream.out_dir);
}

}  // namespace
}  // namespace cmnet

// The multi-board top (gen/cm1_cube_board_emitter.*, hw/cm1/cm1_cube_sync.v): lint and
// determinism; 2^c boards simulated together on oscillators a few tens of ppm apart, powered
// on at different times, cabled with delays (sim/cm1/cm1_cube_sim.h), each board checking its own
// chip against the reference model; faults that must fail (crossed wires, a missing sync
// cable, a cable longer than a bit-time); and the bitstream's own rtl/ simulated as a cube.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bitstreams/board.h"
#include "bitstreams/flow.h"
#include "sim/cm1/cm1_selftest.h"
#include "gen/cm1/cm1_config.h"
#include "gen/core/errors.h"
#include "sim/cm1/cm1_cube_sim.h"
#include "sim/core/rtl_build.h"
#include "tests/cm1/cm1_flow_support.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;
using namespace flow_support;

// What the simulation harness expects: no button, 3 active-high LEDs; a short go delay.
CubeTopOptions sim_options() {
  CubeTopOptions o;
  o.board.reset_port = false;
  o.board.led_active_low = {false, false, false};
  o.board.blink_log2 = 4;
  o.go_delay_petit = 16;
  return o;
}

std::string describe(const CubeSimResult& r) {
  std::string s;
  for (const auto& b : r.boards) s += "board " + std::to_string(b.chip) + " " + b.state + " " + std::to_string(b.cycles) + " " + b.why + "\n";
  return s + "end " + std::to_string(r.end_us) + " us\n";
}

TEST(CubeTop, LintCleanDeterministicAndChecked) {
  CubeTopOptions two = sim_options();  // iCEBreaker-like: button, two active-low LEDs
  two.board.reset_port = true;
  two.board.led_active_low = {true, true};
  Cm1Config vp = cfg(3, 4, 4, 5);
  vp.cm1.vp_bits = 2;
  vp.cm1.eject_mode = EjectMode::kOnePerPetit;
  CubeTopOptions wide = sim_options();
  wide.bit_clocks = 13;
  wide.board.per_proc = 2;
  const std::vector<std::pair<Cm1Config, CubeTopOptions>> ks = {
      {cfg(2, 4, 3), sim_options()}, {vp, two}, {cfg(1, 1, 2), wide}, {cfg(2, 2, 3), wide}};
  for (size_t i = 0; i < ks.size(); ++i) {
    const GeneratedDesign d = cm1_cube_board_top(ks[i].first, ks[i].second);
    EXPECT_EQ(lint(d, std::to_string(i)), "") << "case " << i;
  }
  // Same inputs, same bytes; the expectations file names every chip.
  CubeSelfTestExpect e;
  const GeneratedDesign a = cm1_cube_board_top(cfg(2, 4, 3), sim_options(), &e);
  const GeneratedDesign b = cm1_cube_board_top(cfg(2, 4, 3), sim_options());
  ASSERT_EQ(a.files, b.files);
  EXPECT_EQ(a.top, "cm1_cube_board_top");
  EXPECT_EQ(e.messages, 16u);
  ASSERT_EQ(e.counters.size(), 4u);
  uint64_t rx = 0;
  for (size_t n = 0; n < 4; ++n) {
    rx += e.receptions[n];
    EXPECT_EQ(e.counters[n][3], e.run_petit) << "every chip runs the same petit cycles";
  }
  EXPECT_EQ(rx, 16u);
  std::string json;
  for (const auto& [name, text] : a.files) {
    if (name == "cube_selftest.json") json = text;
    EXPECT_NE(name, "cm1_network.v");
  }
  const auto j = nlohmann::json::parse(json);
  EXPECT_EQ(j["boards"], 4);
  EXPECT_EQ(j["chips"].size(), 4u);
  // Bad options name the option.
  CubeTopOptions k4 = sim_options();
  k4.bit_clocks = 4;
  EXPECT_NE(expect_error([&] { cm1_cube_board_top(cfg(2, 4, 3), k4); }).find("bit_clocks = 4"), std::string::npos);
  CubeTopOptions pp = sim_options();
  pp.board.per_proc = 9;
  EXPECT_NE(expect_error([&] { cm1_cube_board_top(cfg(2, 4, 3), pp); }).find("per_proc = 9"), std::string::npos);
  EXPECT_NE(expect_error([&] { cm1_cube_board_top(cfg(9, 1, 3), sim_options()); }).find("cube_dims = 9"),
            std::string::npos);
  EXPECT_EQ(cube_top_dims(a), 2);
  CubeSimOptions three_ppm;
  three_ppm.ppm = {1, 2, 3};
  EXPECT_NE(expect_error([&] { run_cube_boards(a, three_ppm); }).find("ppm has 3 entries for 4 boards"), std::string::npos);
}

// Oscillators up to 100 ppm apart, boards powered on at different times, 10 ns cables:
// every board's chip agrees with the model's figures for it.
CubeSimOptions skewed(int boards) {
  CubeSimOptions s;
  const double ppm[] = {-100, 37, 100, -58, 12, -91, 76, 3};
  const double start[] = {0, 41.3, 7.9, 120.5, 63.1, 2.2, 95.0, 30.7};
  for (int n = 0; n < boards; ++n) {
    s.ppm.push_back(ppm[n % 8]);
    s.start_us.push_back(start[n % 8]);
  }
  s.cable_ns = 10;
  s.sync_ns = 10;
  return s;
}

TEST(CubeSim, FourBoardsOnSkewedClocksAllPass) {
  const GeneratedDesign d = cm1_cube_board_top(cfg(2, 4, 3), sim_options());
  const CubeSimResult r = run_cube_boards(d, skewed(4));
  EXPECT_TRUE(r.all_pass()) << describe(r);
}

// `cmnet cube --trace`: one board's waveform, in the cube's time base, and the same verdict.
TEST(CubeSim, TracedBoardWritesItsWaveformAndStillPasses) {
  const GeneratedDesign d = cm1_cube_board_top(cfg(2, 4, 3), sim_options());
  CubeSimOptions s = skewed(4);
  const fs::path fst = fs::temp_directory_path() / ("cmnet-cube-" + std::to_string(::getpid()) + ".fst");
  s.trace_file = fst.string();
  s.trace_board = 2;
  s.trace_to = 4000;
  const CubeSimResult r = run_cube_boards(d, s);
  EXPECT_TRUE(r.all_pass()) << describe(r);
  ASSERT_TRUE(fs::exists(fst));
  std::ifstream in(fst, std::ios::binary);
  EXPECT_EQ(in.get(), 0) << "an FST file opens with its header block (type 0)";
  fs::remove(fst);
  s.trace_board = 4;
  EXPECT_NE(expect_error([&] { run_cube_boards(d, s); }).find("trace board 4 out of range 0..3"), std::string::npos);
}

TEST(CubeSim, EightBoardsOneMessageModeWithVpAllPass) {
  Cm1Config c = cfg(3, 2, 3, 6);
  c.cm1.vp_bits = 1;
  c.cm1.eject_mode = EjectMode::kOnePerPetit;
  CubeTopOptions o = sim_options();
  o.board.pattern = "many-to-one";
  o.board.per_proc = 2;
  o.bit_clocks = 10;
  const GeneratedDesign d = cm1_cube_board_top(c, o);
  const CubeSimResult r = run_cube_boards(d, skewed(8));
  EXPECT_TRUE(r.all_pass()) << describe(r);
}

// Oscillators 20 times worse than a crystal: a marker arrives a clock early or late every
// few petit cycles, and the schedule absorbs it (shorter or longer bit-time 0, the sample
// point always before the ce). Short cables make the sampled edges land near clock edges.
TEST(CubeSim, DriftCorrectionsAtHighPpm) {
  const GeneratedDesign d = cm1_cube_board_top(cfg(2, 4, 3), sim_options());
  for (double cable : {0.5, 3.0, 40.0})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      CubeSimOptions s = skewed(4);
      s.ppm = {2000, -2000, 900, -1500};
      s.cable_ns = s.sync_ns = cable;
      s.seed = seed;
      const CubeSimResult r = run_cube_boards(d, s);
      EXPECT_TRUE(r.all_pass()) << "cable " << cable << " ns, seed " << seed << "\n" << describe(r);
    }
}

TEST(CubeSim, FaultsFail) {
  const GeneratedDesign d = cm1_cube_board_top(cfg(2, 4, 3), sim_options());
  auto count = [](const CubeSimResult& r, const std::string& state) {
    int n = 0;
    for (const auto& b : r.boards) n += b.state == state;
    return n;
  };
  {
    SCOPED_TRACE("board 3's dimension 0 and 1 inputs crossed");
    CubeSimOptions s = skewed(4);
    s.swaps.push_back({3, 0, 1});
    const CubeSimResult r = run_cube_boards(d, s);
    EXPECT_GE(count(r, "fail"), 1) << describe(r);
    EXPECT_EQ(count(r, "running"), 0) << describe(r);
  }
  {
    SCOPED_TRACE("board 2 without its sync cable");
    CubeSimOptions s = skewed(4);
    s.no_sync.push_back(2);
    s.max_us = 3000;
    const CubeSimResult r = run_cube_boards(d, s);
    EXPECT_EQ(r.boards[2].state, "running") << describe(r);  // never locks, never runs
    EXPECT_GE(count(r, "fail"), 1) << describe(r);
  }
  {
    SCOPED_TRACE("cables a whole bit-time long (8 clocks at 12 MHz)");
    CubeSimOptions s = skewed(4);
    s.cable_ns = 8 * 1000.0 / 12;
    const CubeSimResult r = run_cube_boards(d, s);
    EXPECT_GE(count(r, "fail"), 1) << describe(r);
  }
}

// The sampling window: cable delays from 0 to beyond a bit-time, on the same boards. The
// cube inputs are latched 2 clocks before the ce and a bit needs 3 clocks (pin register, two
// synchronizer flip-flops) plus the cable: with K = 8, cables up to K - 5 = 3 clocks pass.
TEST(CubeSim, CableDelayWindow) {
  const GeneratedDesign d = cm1_cube_board_top(cfg(2, 4, 3), sim_options());
  std::string table;
  std::vector<int> pass;
  for (int clocks = 0; clocks <= 8; ++clocks) {
    CubeSimOptions s = skewed(4);
    s.cable_ns = 0.5 + clocks * 1000.0 / 12;
    const CubeSimResult r = run_cube_boards(d, s);
    pass.push_back(r.all_pass() ? 1 : 0);
    table += std::to_string(clocks) + " clocks: " + (r.all_pass() ? "pass" : "fail") + "\n";
  }
  for (int clocks = 0; clocks <= 8; ++clocks)
    EXPECT_EQ(pass[static_cast<size_t>(clocks)], clocks <= 3 ? 1 : 0) << table;
}

// The same top that is flashed is the one simulated: the cube top built for the HX8K
// breakout (no button, active-high LEDs), its rtl/ read back and run as four boards.
TEST(CubeFlow, BitstreamRtlRunsAsACube) {
  const Board board = load_board("ice40hx8k_breakout");
  CubeTopOptions o = sim_options();
  ASSERT_FALSE(board.reset.has_value());
  for (size_t i = 0; i < 3; ++i) ASSERT_FALSE(board.leds[i].active_low);
  const Cm1Config c = cfg(2, 2, 3);
  FlowOptions fo;
  fo.out_dir = temp_dir("cube-build").string();
  fo.mode = "cube";
  const FlowResult f = run_flow(cm1_cube_board_top(c, o), board, fo);
  EXPECT_TRUE(f.fits);
  EXPECT_TRUE(f.timing_met) << f.fmax_nextpnr;
  EXPECT_FALSE(f.bitstream.empty());
  const std::string pcf = read_file(fo.out_dir + "/cm1_cube_board_top.pcf");
  for (const char* port : {"set_io cube_out[1]", "set_io cube_in[1]", "set_io sync_out", "set_io sync_in",
                           "set_io -pullup yes chip_id[0]", "set_io -pullup yes chip_id[1]"})
    EXPECT_NE(pcf.find(port), std::string::npos) << port << "\n" << pcf;
  const GeneratedDesign flashed = read_design(fo.out_dir + "/rtl", "cm1_cube_board_top");
  const CubeSimResult r = run_cube_boards(flashed, skewed(4));
  EXPECT_TRUE(r.all_pass()) << describe(r);
  // The same from the command line.
  const fs::path dir = temp_dir("cube-cli");
  std::ofstream(dir / "net.json") << config_to_json(c);
  const std::string log = (dir / "cli.log").string();
  EXPECT_EQ(run_child({CMNET_CLI, "cube", (dir / "net.json").string(), "--rtl", fo.out_dir}, 1800, log), 0) << read_file(log);
  EXPECT_NE(read_file(log).find("every board's chip agrees with the reference model: YES"), std::string::npos) << read_file(log);
  // A config that does not match the build is refused, naming both.
  std::ofstream(dir / "c3.json") << config_to_json(cfg(3, 2, 3));
  EXPECT_EQ(run_child({CMNET_CLI, "cube", (dir / "c3.json").string(), "--rtl", fo.out_dir}, 1800, log), 2) << read_file(log);
  EXPECT_NE(read_file(log).find("its top has c = 2, the config c = 3"), std::string::npos) << read_file(log);
  fs::remove_all(dir);
  fs::remove_all(fo.out_dir);
}

}  // namespace
}  // namespace cmnet

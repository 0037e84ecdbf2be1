// The CM-5 data network split over boards (gen/cm5data/cm5data_cabled.h): the network board and
// each leaf board (with its NIs and from a ROM) lint and synthesize, and the boards, each on its
// own oscillator and powered on at its own time, cabled with delays (sim/core/multiboard_main.cpp),
// all light pass; a wrong expectation lights fail on the boards that check it; bad options are
// refused by name.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "gen/cm5data/cm5data_cabled.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_cabled_sim.h"
#include "sim/cm5data/cm5data_selftest_model.h"
#include "sim/cm5data/cm5data_traffic.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/core/emitter_checks.h"
#include "tests/core/fst_check.h"

namespace cmnet {
namespace {

using namespace testing_checks;

std::string states(const Cm5CabledResult& r) {
  std::string s;
  for (const auto& b : r.boards) s += b.role + ": " + b.state + " after " + std::to_string(b.cycles) + "; ";
  return s;
}

TEST(Cm5Cabled, BoardTopsLintAndSynthesize) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  const Cm5CabledTraffic t = cm5_cabled_traffic(cfg.cm5, "random", 5, 3);
  const fs::path dir = temp_dir("cm5cabled-lint");
  for (bool ni : {true, false})
    for (Cm5CabledTop top : {Cm5CabledTop::kNetwork, Cm5CabledTop::kLeaf}) {
      if (!ni && top == Cm5CabledTop::kNetwork) continue;  // the same network board
      Cm5CabledOptions o;
      o.interfaces = ni;
      o.board = 1;
      const GeneratedDesign d = emit_cm5data_cabled(cfg, t, sim_pins(), top, o);
      const std::string what = d.top + (ni ? "" : " (ROM leaf)");
      EXPECT_EQ(lint_problems(d, d.top, dir / ("lint-" + d.top)), "") << what;
      bool ok = false;
      const std::string log = synth_ice40(d, d.top, dir / ("synth-" + d.top), &ok);
      EXPECT_TRUE(ok) << what << log;
      EXPECT_NE(file_of(d, "cabling.json").find("\"left network cube_out[0]\""), std::string::npos);
    }
  fs::remove_all(dir);
}

Cm5CabledSimOptions spread() {
  Cm5CabledSimOptions o;
  o.ppm = {-100, 60, 80, 0, 35, -60};
  o.start_us = {0, 25, 40, 3, 77, 12};  // leaf boards on before and after the network boards
  o.cable_ns = 30;
  return o;
}

TEST(Cm5Cabled, BoardsWithInterfacesOnTheirOwnClocksPassAndAWrongExpectationFails) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  Cm5CabledTraffic t = cm5_cabled_traffic(cfg.cm5, "random", 5, 3);
  const Cm5CabledResult r = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), spread());
  EXPECT_TRUE(r.all_pass()) << states(r);
  ASSERT_EQ(r.boards.size(), 6u);
  EXPECT_EQ(r.boards[0].role, "left");
  EXPECT_EQ(r.boards[2].role, "leaf 0");
  // Leaf 0 expects one message too many on the left: its board and the left network board (which
  // checks every leaf port) fail; the right network and the other leaves still pass.
  ++t.sides[0].net.leaves[0].rx_count;
  const Cm5CabledResult bad = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), spread());
  EXPECT_EQ(bad.boards[0].state, "fail") << states(bad);
  EXPECT_EQ(bad.boards[1].state, "pass") << states(bad);
  EXPECT_EQ(bad.boards[2].state, "fail") << states(bad);
  EXPECT_EQ(bad.boards[3].state, "pass") << states(bad);
}

TEST(Cm5Cabled, RomLeavesPassAndAWrongDataWordFails) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  Cm5CabledTraffic t = cm5_cabled_traffic(cfg.cm5, "hot-spot", 2, 2);
  Cm5CabledOptions o;
  o.interfaces = false;
  o.bit_clocks = 4;
  // With a waveform of every board, in picoseconds of the boards' common time.
  const fs::path dir = temp_dir("cm5cabled-trace");
  Cm5CabledSimOptions traced = spread();
  traced.trace_file = (dir / "cabled.fst").string();
  const Cm5CabledResult r = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, o), traced);
  EXPECT_TRUE(r.all_pass()) << states(r);
  const test::FstSummary f = test::read_fst(traced.trace_file);
  EXPECT_GT(f.vars, 500u);  // six boards' signals
  EXPECT_GT(f.steps, 10000u);
  EXPECT_GE(static_cast<double>(f.end), r.end_us * 1e6 - 1e5);  // to the last board's verdict
  fs::remove_all(dir);
  // A leaf on the right expects another XOR: it fails, and so does nothing else.
  t.sides[1].net.leaves[3].rx_xor ^= 1;
  const Cm5CabledResult bad = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, o), spread());
  EXPECT_EQ(bad.boards[1].state, "fail") << states(bad);
  EXPECT_EQ(bad.boards[5].state, "fail") << states(bad);
  EXPECT_EQ(bad.boards[0].state, "pass") << states(bad);
  EXPECT_EQ(bad.boards[2].state, "pass") << states(bad);
}

TEST(Cm5Cabled, ACutCableFailsItsBoardsByTheLimitAndHangsNothing) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  const Cm5CabledTraffic t = cm5_cabled_traffic(cfg.cm5, "random", 5, 2);
  Cm5CabledOptions o;
  o.interfaces = false;
  o.bit_clocks = 4;
  Cm5CabledSimOptions s = spread();
  // Leaf 0's D wire to the left network (cabling: leaf 0's cube_out[0]).
  for (const Cm5CableWire& w : cm5_cabled_wiring(4))
    if (w.from_pin == "leaf 0 cube_out[0]") s.cut.push_back(w.bit);
  ASSERT_EQ(s.cut.size(), 1u);
  const Cm5CabledResult r = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, o), s);
  for (const auto& b : r.boards) EXPECT_NE(b.state, "running") << states(r);  // every board gave its verdict
  EXPECT_EQ(r.boards[0].state, "fail") << states(r);  // the left network never hears leaf 0
  EXPECT_EQ(r.boards[1].state, "pass") << states(r);  // the right network is not touched
  EXPECT_EQ(r.boards[2].state, "fail") << states(r);  // leaf 0's left link never comes up
}

TEST(Cm5Cabled, AUsersTrafficFilePassesOnTheBoards) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  const fs::path dir = temp_dir("cm5cabled-traffic");
  const std::string file = (dir / "mine.txt").string();
  {
    std::ofstream f(file);
    f << "# src dst data...\n0 3 11 12\n1 2 aa\n2 0 5 6 7\n3 1 9\n0 2 4\n3 3 1 2 3 4 5\n";
  }
  const Cm5CabledTraffic t = cm5_cabled_traffic_of(cfg.cm5, read_cm5_traffic_file(file, cfg.cm5), file);
  // Leaf 0's and leaf 3's second messages go on the right network.
  EXPECT_EQ(t.sides[0].sends[0].size(), 1u);
  EXPECT_EQ(t.sides[1].sends[0].size(), 1u);
  EXPECT_EQ(t.sides[1].sends[3].at(0).data.size(), 5u);
  EXPECT_EQ(t.sides[0].data_xor[3], 0x11u ^ 0x12u);
  const Cm5CabledResult r = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), spread());
  EXPECT_TRUE(r.all_pass()) << states(r);
  // More messages from one leaf than a ROM holds: refused, naming the file.
  {
    std::ofstream f(file);
    for (int i = 0; i < 65; ++i) f << "1 2 " << i << "\n";
  }
  try {
    cm5_cabled_traffic_of(cfg.cm5, read_cm5_traffic_file(file, cfg.cm5), file);
    ADD_FAILURE() << "65 messages from one leaf accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mine.txt: leaf 1 sends more than 64"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

TEST(Cm5Cabled, BadOptionsAreRefusedByName) {
  const Cm5DataConfig tall = cm5data_test_config(2, "cm5", 4, 2, 3, "cabled-16");
  const Cm5CabledTraffic t16 = cm5_cabled_traffic(tall.cm5, "random", 5, 1);
  try {
    emit_cm5data_cabled(tall, t16, sim_pins(), Cm5CabledTop::kNetwork, {});
    ADD_FAILURE() << "height 2 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("height = 2"), std::string::npos) << e.what();
  }
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  const Cm5CabledTraffic t = cm5_cabled_traffic(cfg.cm5, "random", 5, 1);
  Cm5CabledOptions o;
  o.bit_clocks = 2;
  EXPECT_THROW(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kLeaf, o), ConfigError);
  o.bit_clocks = 8;
  o.board = 9;
  EXPECT_THROW(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kLeaf, o), ConfigError);
  Cm5CabledSimOptions s;
  s.cut = {32};  // 4 leaves: wires 0..31
  EXPECT_THROW(run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), s),
               std::invalid_argument);
  s.cut.clear();
  s.ppm = {1, 2};
  EXPECT_THROW(run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), s),
               std::invalid_argument);
}

}  // namespace
}  // namespace cmnet

// The CM-5 data network split over boards (gen/cm5data/cm5data_cabled.h): the network board and
// each leaf board lint and synthesize, and the boards, each on its own oscillator and powered on
// at its own time, cabled with delays (sim/core/multiboard_main.cpp), all light pass; a wrong
// expectation lights fail on the boards that check it; bad options are refused by name.
#include <gtest/gtest.h>

#include <string>

#include "gen/cm5data/cm5data_cabled.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_cabled_sim.h"
#include "sim/cm5data/cm5data_selftest_model.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

board_parts::SelfTestPins sim_pins() {
  board_parts::SelfTestPins p;
  p.reset_port = false;
  p.led_active_low = {false, false, false};
  p.blink_log2 = 4;
  return p;
}

std::string states(const Cm5CabledResult& r) {
  std::string s;
  for (const auto& b : r.boards) s += b.role + ": " + b.state + " after " + std::to_string(b.cycles) + "; ";
  return s;
}

TEST(Cm5Cabled, BoardTopsLintAndSynthesize) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  const Cm5SelfTest t = cm5_selftest_traffic(cfg.cm5, "random", 5, 3);
  const fs::path dir = temp_dir("cm5cabled-lint");
  for (Cm5CabledTop top : {Cm5CabledTop::kNetwork, Cm5CabledTop::kLeaf}) {
    const GeneratedDesign d = emit_cm5data_cabled(cfg, t, sim_pins(), top, {});
    EXPECT_EQ(lint_problems(d, d.top, dir / ("lint-" + d.top)), "") << d.top;
    bool ok = false;
    const std::string log = synth_ice40(d, d.top, dir / ("synth-" + d.top), &ok);
    EXPECT_TRUE(ok) << log;
    EXPECT_NE(file_of(d, "cabling.json").find("\"network cube_out[0]\""), std::string::npos);
  }
  fs::remove_all(dir);
}

TEST(Cm5Cabled, BoardsOnTheirOwnClocksPassAndAWrongExpectationFails) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  Cm5SelfTest t = cm5_selftest_traffic(cfg.cm5, "random", 5, 3);
  Cm5CabledSimOptions o;
  o.ppm = {-100, 80, 0, 35, -60};
  o.start_us = {0, 40, 3, 77, 12};  // leaf boards on before and after the network board
  o.cable_ns = 30;
  const Cm5CabledResult r = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), o);
  EXPECT_TRUE(r.all_pass()) << states(r);
  ASSERT_EQ(r.boards.size(), 5u);
  EXPECT_EQ(r.boards[0].role, "network");
  // Leaf 0 expects one message too many: its board and the network board (which checks every
  // leaf port) fail; the other leaves still pass.
  t.expect_offset = 1;
  const Cm5CabledResult bad = run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), o);
  EXPECT_EQ(bad.boards[0].state, "fail") << states(bad);
  EXPECT_EQ(bad.boards[1].state, "fail") << states(bad);
  EXPECT_EQ(bad.boards[2].state, "pass") << states(bad);
}

TEST(Cm5Cabled, BadOptionsAreRefusedByName) {
  const Cm5DataConfig tall = cm5data_test_config(2, "cm5", 4, 2, 3, "cabled-16");
  const Cm5SelfTest t16 = cm5_selftest_traffic(tall.cm5, "random", 5, 1);
  try {
    emit_cm5data_cabled(tall, t16, sim_pins(), Cm5CabledTop::kNetwork, {});
    ADD_FAILURE() << "height 2 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("height = 2"), std::string::npos) << e.what();
  }
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "cabled-4");
  const Cm5SelfTest t = cm5_selftest_traffic(cfg.cm5, "random", 5, 1);
  Cm5CabledOptions o;
  o.bit_clocks = 2;
  EXPECT_THROW(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kLeaf, o), ConfigError);
  Cm5CabledSimOptions s;
  s.ppm = {1, 2};
  EXPECT_THROW(run_cm5_cabled(emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}), s),
               std::invalid_argument);
}

}  // namespace
}  // namespace cmnet

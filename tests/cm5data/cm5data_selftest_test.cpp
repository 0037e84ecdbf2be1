// The cm5data self-test board top (gen/cm5data/cm5data_selftest.h, `cmnet build --mode
// network`): lint and yosys, and in Verilator it lights pass when its network delivers what the
// reference model delivers (per leaf: count, XOR of the words, cycle of the last arrival; every
// chip counter) and fail when one expectation is off.
#include <gtest/gtest.h>

#include <string>

#include "gen/cm5data/cm5data_selftest.h"
#include "gen/core/errors.h"
#include "sim/core/rtl_build.h"
#include "sim/cm5data/cm5data_selftest_model.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/core/emitter_checks.h"
#include "tests/core/selftest_run.h"

namespace cmnet {
namespace {

using namespace testing_checks;

TEST(Cm5SelfTest, FourLeavesPassOnTheRtlAndEachCheckBites) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "selftest-4");
  const Cm5SelfTest t = cm5_selftest_traffic(cfg.cm5, "random", 5, 4);
  ASSERT_EQ(t.leaves.size(), 4u);
  uint32_t received = 0;
  for (const auto& l : t.leaves) {
    EXPECT_EQ(l.messages.size(), 4u);
    received += l.rx_count;
  }
  EXPECT_EQ(received, 16u);
  EXPECT_EQ(t.counters.size(), 10u);  // one chip: in and out of 4 ports, 2 CRC counters
  const GeneratedDesign d = emit_cm5data_selftest(cfg, t, sim_pins());
  EXPECT_EQ(d.top, "cm5data_selftest_top");
  const std::string top = file_of(d, "cm5data_selftest_top.v");
  EXPECT_NE(top.find("SELF-TEST"), std::string::npos);
  EXPECT_NE(file_of(d, "selftest.json").find("\"chip_counters_checked\": 10"), std::string::npos);
  const fs::path dir = temp_dir("cm5selftest-lint");
  EXPECT_EQ(lint_problems(d, d.top, dir / "lint"), "");
  bool ok = false;
  const std::string log = synth_ice40(d, d.top, dir / "synth", &ok);
  EXPECT_TRUE(ok) << log;
  fs::remove_all(dir);

  expect_verdict(d, "pass");
  Cm5SelfTest bad = t;
  bad.counters[5].value += 1;
  expect_verdict(emit_cm5data_selftest(cfg, bad, sim_pins()), "fail", "one chip counter off by one");
  bad = t;
  bad.leaves[2].rx_last += 1;
  expect_verdict(emit_cm5data_selftest(cfg, bad, sim_pins()), "fail", "one leaf's last arrival a cycle off");
}

// Input slots (credits per message) and 8-bit links on a 16-leaf tree (parent links, two levels)
// with all traffic to leaf 0.
TEST(Cm5SelfTest, SlotsAndWideLinksPass) {
  Cm5DataConfig cfg = cm5data_test_config(2, "cm5", 8, 2, 7, "selftest-slots");
  cfg.cm5.slots = 2;
  const Cm5SelfTest t = cm5_selftest_traffic(cfg.cm5, "all-to-one", 2, 3);
  EXPECT_EQ(t.leaves[0].rx_count, 48u);
  const GeneratedDesign d = emit_cm5data_selftest(cfg, t, sim_pins());
  const fs::path dir = temp_dir("cm5selftest-slots");
  EXPECT_EQ(lint_problems(d, d.top, dir), "");
  fs::remove_all(dir);
  expect_verdict(d, "pass");
}

TEST(Cm5SelfTest, BadTrafficAndPinsAreRefusedNamingWhat) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "selftest-bad");
  const Cm5SelfTest t = cm5_selftest_traffic(cfg.cm5, "permutation", 1, 1);
  Cm5SelfTest few = t;
  few.leaves.pop_back();
  EXPECT_NE(thrown_message([&] { emit_cm5data_selftest(cfg, few, sim_pins()); }).find("traffic for 3 leaves"),
            std::string::npos);
  Cm5SelfTest shortmsg = t;
  shortmsg.leaves[1].messages[0].pop_back();
  EXPECT_NE(thrown_message([&] { emit_cm5data_selftest(cfg, shortmsg, sim_pins()); }).find("leaf 1, message 0"),
            std::string::npos);
  Cm5SelfTest badcnt = t;
  badcnt.counters[0].chip = 9;
  EXPECT_NE(thrown_message([&] { emit_cm5data_selftest(cfg, badcnt, sim_pins()); }).find("chip 9"), std::string::npos);
  board_parts::SelfTestPins one = sim_pins();
  one.led_active_low = {false};
  EXPECT_NE(thrown_message([&] { emit_cm5data_selftest(cfg, t, one); }).find("1 LEDs"), std::string::npos);
  EXPECT_NE(thrown_message([&] { cm5_selftest_traffic(cfg.cm5, "permutation", 1, 0); }).find("0 messages per leaf"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] { cm5_selftest_traffic(cfg.cm5, "no-such", 1, 1); }).find("no-such"), std::string::npos);
}

TEST(Cm5SelfTest, SameInputsSameBytes) {
  const Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 4, 2, 3, "selftest-det");
  const GeneratedDesign a = emit_cm5data_selftest(cfg, cm5_selftest_traffic(cfg.cm5, "random", 9, 2), sim_pins());
  const GeneratedDesign b = emit_cm5data_selftest(cfg, cm5_selftest_traffic(cfg.cm5, "random", 9, 2), sim_pins());
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t k = 0; k < a.files.size(); ++k) EXPECT_EQ(a.files[k], b.files[k]) << a.files[k].first;
}

}  // namespace
}  // namespace cmnet

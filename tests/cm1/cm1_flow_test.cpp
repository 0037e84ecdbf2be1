// FPGA flow tests: board files and pin files, the self-test board tops (lint, determinism,
// Verilator simulation until the pass LED), the flow on every iCE40 board (bitstream and
// report figures), chip mode on the HX8K, the Arty yosys estimate, clear errors for a bad
// board file / unknown board / a design that does not fit, the Vivado .tcl syntax, the
// report parsers, `cmnet flash` without a board.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "bitstreams/board.h"
#include "bitstreams/flow.h"
#include "sim/cm1/cm1_selftest.h"
#include "gen/cm1/cm1_host_board_emitter.h"
#include "host/board_connection.h"
#include "host/cm1/cm1_board.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_sim_board.h"
#include "sim/cm1/cm1_traffic.h"
#include "tests/cm1/cm1_run_check.h"
#include "tests/cm1/cm1_flow_support.h"
#include "gen/cm1/cm1_config.h"
#include "gen/core/errors.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;
using namespace flow_support;

// The self-test options a simulation harness expects: no button, 3 active-high LEDs.
BoardTopOptions sim_options() {
  BoardTopOptions o;
  o.reset_port = false;
  o.led_active_low = {false, false, false};
  o.blink_log2 = 4;
  return o;
}

// ------------------------------------------------------------------------------------
// Boards

TEST(FlowBoards, KnownBoardsLoad) {
  const auto names = known_boards();
  for (const char* n : {"arty_a7_35t", "ice40hx8k_breakout", "icebreaker"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  const Board ib = load_board("icebreaker");
  EXPECT_EQ(ib.family, "ice40");
  EXPECT_EQ(ib.device, "up5k");
  EXPECT_EQ(ib.package, "sg48");
  EXPECT_EQ(ib.clock.pin, "35");
  EXPECT_EQ(ib.clock_mhz, 12);
  ASSERT_TRUE(ib.uart_rx && ib.uart_tx);
  EXPECT_EQ(ib.uart_rx->pin, "6");
  EXPECT_EQ(ib.uart_tx->pin, "9");
  EXPECT_EQ(ib.openfpgaloader_board, "ice40_generic");
  EXPECT_GE(ib.cube_pins().size(), 16u);
  const Board hx = load_board("ice40hx8k_breakout");
  EXPECT_EQ(hx.clock.pin, "J3");
  EXPECT_FALSE(hx.reset.has_value());
  ASSERT_EQ(hx.leds.size(), 8u);
  const char* leds[] = {"B5", "B4", "A2", "A1", "C5", "C4", "B3", "C3"};
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(hx.leds[i].pin, leds[i]);
  EXPECT_EQ(hx.uart_rx->pin, "B10");
  EXPECT_EQ(hx.uart_tx->pin, "B12");
  const Board ar = load_board("arty_a7_35t");
  EXPECT_EQ(ar.family, "xc7");
  EXPECT_EQ(ar.clock.pin, "E3");
  EXPECT_EQ(ar.clock_mhz, 100);
  EXPECT_EQ(ar.reset->pin, "C2");
  EXPECT_EQ(ar.uart_tx->pin, "D10");
  EXPECT_EQ(ar.uart_rx->pin, "A9");
  EXPECT_EQ(ar.leds[0].pin, "H5");
  EXPECT_EQ(ar.leds[3].pin, "T10");
  EXPECT_EQ(ar.openfpgaloader_board, "arty_a7_35t");
}

// Every pin a board .json names must be in the board's full pin file, under the same name.
TEST(FlowBoards, JsonAgreesWithPinFiles) {
  for (const auto& name : known_boards()) {
    const Board b = load_board(name);
    const std::string text = read_file(constraints_dir() + "/" + b.pin_file);
    ASSERT_FALSE(text.empty()) << b.pin_file;
    std::map<std::string, std::string> pins;  // signal -> pin
    std::istringstream in(text);
    std::string line;
    const std::regex pcf(R"(^\s*set_io\s+(?:-nowarn\s+)?(\S+)\s+(\S+))");
    const std::regex xdc(R"(^\s*set_property\s+-dict\s+\{\s*PACKAGE_PIN\s+(\S+).*get_ports\s+\{\s*(\S+)\s*\})");
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, pcf)) pins[m[1].str()] = m[2].str();
      else if (std::regex_search(line, m, xdc)) pins[m[2].str()] = m[1].str();
    }
    std::vector<BoardPin> all = {b.clock};
    if (b.reset) all.push_back(*b.reset);
    all.insert(all.end(), b.leds.begin(), b.leds.end());
    if (b.uart_rx) all.push_back(*b.uart_rx);
    if (b.uart_tx) all.push_back(*b.uart_tx);
    for (const auto& [h, hp] : b.headers) all.insert(all.end(), hp.begin(), hp.end());
    for (const BoardPin& p : all) {
      ASSERT_TRUE(pins.count(p.name)) << name << ": " << p.name << " not in " << b.pin_file;
      EXPECT_EQ(pins[p.name], p.pin) << name << ": " << p.name;
    }
  }
}

TEST(FlowBoards, UnknownBoardListsKnownOnes) {
  const std::string e = expect_error([] { load_board("icestick9000"); });
  EXPECT_NE(e.find("unknown board 'icestick9000'"), std::string::npos) << e;
  EXPECT_NE(e.find("icebreaker"), std::string::npos) << e;
  EXPECT_NE(e.find("ice40hx8k_breakout"), std::string::npos) << e;
  EXPECT_NE(e.find("arty_a7_35t"), std::string::npos) << e;
}

TEST(FlowBoards, BadBoardFilesNameFieldAndValue) {
  std::string good = read_file(boards_dir() + "/icebreaker.json");
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  struct Case {
    std::string text, must1, must2;
  } cases[] = {
      {with("\"mhz\": 12", "\"mhz\": -5"), "clock.mhz", "-5"},
      {with("\"family\": \"ice40\"", "\"family\": \"ecp5\""), "family", "ecp5"},
      {with("\"device\": \"up5k\"", "\"device\": \"up9k\""), "device", "up9k"},
      {with("\"package\": \"sg48\"", "\"package\": \"qn99\""), "package", "qn99"},
      {with("\"clock\":", "\"clok\":"), "clok", "unknown field"},
      {with("\"pin\": \"37\"", "\"pin\": \"35\""), "pin '35'", "already used"},
      {with("\"cube_headers\": [\"PMOD1A\"", "\"cube_headers\": [\"PMOD9\""), "cube_headers", "PMOD9"},
      {with("\"active_low\": true, \"color\": \"green\"", "\"active_low\": \"yes\", \"color\": \"green\""),
       "leds[0].active_low", "\"yes\""},
      {"{\"name\": ", "not valid JSON", "bad.json"},
  };
  for (const Case& c : cases) {
    const std::string e = expect_error([&] { parse_board(c.text, "bad.json"); });
    EXPECT_NE(e.find("bad.json"), std::string::npos) << e;
    EXPECT_NE(e.find(c.must1), std::string::npos) << e;
    EXPECT_NE(e.find(c.must2), std::string::npos) << e;
  }
  // A bad board file given by path goes through the same checks.
  const fs::path dir = temp_dir("badboard");
  std::ofstream(dir / "mine.json") << cases[0].text;
  const std::string e = expect_error([&] { load_board((dir / "mine.json").string()); });
  EXPECT_NE(e.find("mine.json: field 'clock.mhz'"), std::string::npos) << e;
  fs::remove_all(dir);
}

TEST(FlowBoards, GeneratedConstraintsHaveOnlyTopPorts) {
  const Board ib = load_board("icebreaker");
  TopPorts t;
  t.reset = true;
  t.leds = 2;
  t.uart_tx = true;
  const std::string pcf = make_pcf(ib, t);
  EXPECT_NE(pcf.find("set_io clk 35"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("set_io rst_btn 10"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("set_io led[0] 37"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("set_io led[1] 11"), std::string::npos) << pcf;
  EXPECT_NE(pcf.find("set_io uart_tx 9"), std::string::npos) << pcf;
  EXPECT_EQ(pcf.find("cube"), std::string::npos) << pcf;
  t.cube_dims = 3;
  const std::string pcf2 = make_pcf(ib, t);
  EXPECT_NE(pcf2.find("set_io cube_out[0] 4"), std::string::npos) << pcf2;
  EXPECT_NE(pcf2.find("set_io cube_in[0] 2"), std::string::npos) << pcf2;
  EXPECT_NE(pcf2.find("set_io cube_in[2] 48"), std::string::npos) << pcf2;
  t.cube_dims = 20;
  EXPECT_NE(expect_error([&] { make_pcf(ib, t); }).find("cube-wire pins"), std::string::npos);
  // The cube top: sync pins and chip_id straps (with pull-ups) after the cube wires, 3c + 2 pins.
  t.cube_dims = 4;
  t.sync = true;
  t.chip_id = 4;
  const std::string pcf3 = make_pcf(ib, t);
  EXPECT_NE(pcf3.find("set_io sync_out "), std::string::npos) << pcf3;
  EXPECT_NE(pcf3.find("set_io -pullup yes chip_id[3] "), std::string::npos) << pcf3;
  t.cube_dims = t.chip_id = 5;
  EXPECT_NE(expect_error([&] { make_pcf(ib, t); }).find("needs 17 header pins (10 cube-wire pins, sync_out, sync_in, 5 chip_id straps)"),
            std::string::npos);
  t.sync = false;
  t.chip_id = 0;
  const Board hx = load_board("ice40hx8k_breakout");
  TopPorts r;
  r.reset = true;
  EXPECT_NE(expect_error([&] { make_pcf(hx, r); }).find("no reset button"), std::string::npos);
  // The host-link top's ports: an active-low btn_n, 4 LEDs, both UART pins.
  TopPorts host;
  host.reset_n = true;
  host.leds = 4;
  host.uart_tx = host.uart_rx = true;
  const std::string hp = make_pcf(ib, host);
  EXPECT_NE(hp.find("set_io btn_n 10"), std::string::npos) << hp;
  EXPECT_NE(hp.find("set_io led[3] 27"), std::string::npos) << hp;  // snap-off LED2
  EXPECT_NE(hp.find("set_io uart_rx 6"), std::string::npos) << hp;
  EXPECT_NE(expect_error([&] { make_pcf(hx, host); }).find("btn_n"), std::string::npos);
  const Board ar = load_board("arty_a7_35t");
  TopPorts a;
  a.leds = 3;
  const std::string xdc = make_xdc(ar, a);
  EXPECT_NE(xdc.find("PACKAGE_PIN E3 IOSTANDARD LVCMOS33 } [get_ports { clk }]"), std::string::npos) << xdc;
  EXPECT_NE(xdc.find("-period 10.000"), std::string::npos) << xdc;
  EXPECT_NE(xdc.find("PACKAGE_PIN T9 IOSTANDARD LVCMOS33 } [get_ports { led[2] }]"), std::string::npos) << xdc;
}

// ------------------------------------------------------------------------------------
// Board tops

TEST(FlowTops, LintClean) {
  struct K {
    Cm1Config c;
    bool chip;
    BoardTopOptions o;
  };
  BoardTopOptions two;  // two active-low LEDs and an active-low button (iCEBreaker-like)
  two.led_active_low = {true, true};
  BoardTopOptions three = sim_options();
  Cm1Config vp = cfg(3, 4, 4, 5);
  vp.cm1.vp_bits = 2;
  vp.cm1.eject_mode = EjectMode::kOnePerPetit;
  BoardTopOptions pp = three;
  pp.per_proc = 2;
  Cm1Config p1 = cfg(1, 1, 2, 8);
  std::vector<K> ks = {{cfg(2, 2, 3), false, two}, {cfg(2, 4, 7), false, three}, {vp, false, pp},
                       {p1, false, three},          {cfg(3, 4, 7), true, two},    {vp, true, three},
                       {p1, true, two}};
  for (size_t i = 0; i < ks.size(); ++i) {
    const K& k = ks[i];
    const GeneratedDesign d = k.chip ? cm1_chip_board_top(k.c, k.o) : cm1_board_top(k.c, k.o);
    EXPECT_EQ(lint(d, std::to_string(i)), "") << d.top << " case " << i;
  }
}

TEST(FlowTops, DeterministicAndSelfDescribing) {
  const BoardTopOptions o = sim_options();
  const GeneratedDesign a = cm1_board_top(cfg(2, 4, 7), o);
  const GeneratedDesign b = cm1_board_top(cfg(2, 4, 7), o);
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].first, b.files[i].first);
    EXPECT_TRUE(a.files[i].second == b.files[i].second) << a.files[i].first;
  }
  EXPECT_EQ(a.top, "cm1_board_top");
  std::string top_text, filelist, selftest;
  for (const auto& [n, t] : a.files) {
    if (n == "cm1_board_top.v") top_text = t;
    if (n == "filelist.f") filelist = t;
    if (n == "selftest.json") selftest = t;
  }
  EXPECT_NE(top_text.find("SELF-TEST top"), std::string::npos);
  EXPECT_NE(filelist.find("cm1_board_top.v"), std::string::npos);
  const auto j = nlohmann::json::parse(selftest);
  EXPECT_EQ(j["messages"], 16);
  EXPECT_EQ(j["expected_receptions"], 16);  // a permutation: no OR-combining
  // Chip mode leaves the network top out.
  const GeneratedDesign c = cm1_chip_board_top(cfg(3, 4, 7), o);
  EXPECT_EQ(c.top, "cm1_chip_board_top");
  for (const auto& f : c.verilog_files()) EXPECT_NE(f, "cm1_network.v");
  // Options are checked.
  BoardTopOptions bad = o;
  bad.per_proc = 5;  // queue_depth 4
  EXPECT_NE(expect_error([&] { cm1_board_top(cfg(2, 4, 7), bad); }).find("per_proc = 5"), std::string::npos);
  BoardTopOptions one = o;
  one.led_active_low = {false};
  EXPECT_NE(expect_error([&] { cm1_board_top(cfg(2, 4, 7), one); }).find("LEDs"), std::string::npos);
  BoardTopOptions chip9 = o;
  chip9.chip_id = 9;
  EXPECT_NE(expect_error([&] { cm1_chip_board_top(cfg(3, 4, 7), chip9); }).find("chip_id = 9"),
            std::string::npos);
}

// Runs a self-test top in Verilator until its pass or fail LED lights.
std::string simulate(const GeneratedDesign& d, bool chip, long max_cycles, int* rc) {
  const std::string harness = std::string(CMNET_SOURCE_DIR) + "/sim/core/selftest_top_main.cpp";
  std::vector<std::string> flags = {"-DCMNET_TOP=V" + d.top};
  if (chip) flags.push_back("-DCMNET_ZERO_INPUT=cube_in");
  const std::string exe = build_verilated_model(d, d.top, harness, flags);
  const fs::path dir = temp_dir("sim");
  const std::string log = (dir / "sim.log").string();
  *rc = run_child({exe, std::to_string(max_cycles)}, 1800, log);
  const std::string out = read_file(log);
  fs::remove_all(dir);
  return out;
}

TEST(FlowTops, NetworkSelfTestPassesInSimulation) {
  int rc = -1;
  // OR-combining pattern with several messages per processor and VP bits.
  Cm1Config c = cfg(2, 2, 3, 6);
  c.cm1.vp_bits = 1;
  BoardTopOptions o = sim_options();
  o.pattern = "many-to-one";
  o.per_proc = 2;
  SelfTestExpect e;
  const GeneratedDesign d = cm1_board_top(c, o, &e);
  EXPECT_LT(e.receptions, e.messages) << "many-to-one should combine some messages";
  std::string out = simulate(d, false, 200000, &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out.rfind("pass", 0), 0u) << out;
  // The same network with a wrong expectation must light the fail LED.
  o.expect_offset = 1;
  out = simulate(cm1_board_top(c, o), false, 200000, &rc);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_EQ(out.rfind("fail", 0), 0u) << out;
}

TEST(FlowTops, ChipSelfTestPassesInSimulation) {
  int rc = -1;
  const std::string out = simulate(cm1_chip_board_top(cfg(3, 4, 7), sim_options()), true, 100000, &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out.rfind("pass", 0), 0u) << out;
}

// ------------------------------------------------------------------------------------
// Report parsers

TEST(FlowParsers, NextpnrYosysIcetime) {
  const std::string log =
      "Info: Device utilisation:\n"
      "Info: \t         ICESTORM_LC:  4368/ 5280    82%\n"
      "Info: \t        ICESTORM_RAM:     2/   30     6%\n"
      "Info: \t               SB_IO:     5/   96     5%\n"
      "\n"
      "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 15.20 MHz (FAIL at 12.00 MHz)\n"
      "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 16.16 MHz (PASS at 12.00 MHz)\n";
  const auto u = parse_nextpnr_utilisation(log);
  ASSERT_EQ(u.count("ICESTORM_LC"), 1u);
  EXPECT_EQ(u.at("ICESTORM_LC").used, 4368);
  EXPECT_EQ(u.at("ICESTORM_LC").available, 5280);
  EXPECT_EQ(u.at("ICESTORM_RAM").used, 2);
  EXPECT_EQ(u.at("SB_IO").available, 96);
  bool pass = false;
  EXPECT_DOUBLE_EQ(parse_nextpnr_fmax(log, &pass), 16.16);
  EXPECT_TRUE(pass);
  EXPECT_DOUBLE_EQ(parse_icetime_fmax("Resolving...\nTotal number of logic levels: 12\n"
                                      "Total path delay: 62.74 ns (15.94 MHz)\n"),
                   15.94);
  EXPECT_EQ(parse_icetime_fmax("nothing"), 0);
  const std::string stat = R"({"modules": {"\\top": {"num_cells_by_type": {"SB_LUT4": 10, "SB_DFF": 3}}}})";
  const auto cells = parse_yosys_stat_json(stat, "top");
  EXPECT_EQ(cells.at("SB_LUT4"), 10);
  EXPECT_EQ(parse_yosys_ff_bits("=== a ===\n     $dff_4     3\n=== top ===\n     $dff_32    2\n"
                                "     $adff_1    5\n     $add_8    9\n"),
            69);
}

// ------------------------------------------------------------------------------------
// The flow on the boards

FlowResult build(const GeneratedDesign& d, const std::string& board, const std::string& tag,
                 double freq = 0) {
  FlowOptions fo;
  fo.out_dir = temp_dir("build-" + tag).string();
  fo.freq_mhz = freq;
  fo.mode = tag;
  return run_flow(d, load_board(board), fo);
}

BoardTopOptions options_for(const std::string& board) {
  const Board b = load_board(board);
  BoardTopOptions o;
  o.reset_port = b.reset.has_value();
  o.reset_active_low = b.reset ? b.reset->active_low : true;
  o.led_active_low.clear();
  for (size_t i = 0; i < b.leds.size() && i < 3; ++i) o.led_active_low.push_back(b.leds[i].active_low);
  return o;
}

void check_ice40(const FlowResult& r, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_TRUE(r.fits);
  EXPECT_FALSE(r.estimate_only);
  EXPECT_GT(r.luts, 0);
  EXPECT_GT(r.ffs, 0);
  EXPECT_GT(r.fmax_nextpnr, 0);
  EXPECT_GT(r.fmax_icetime, 0);
  ASSERT_EQ(r.utilisation.count("ICESTORM_LC"), 1u);
  const Resource lc = r.utilisation.at("ICESTORM_LC");
  EXPECT_GT(lc.used, 0);
  EXPECT_LE(lc.used, lc.available);
  EXPECT_GE(lc.used, std::max(r.luts, r.ffs));  // every LUT and every FF sits in a logic cell
  ASSERT_EQ(r.utilisation.count("SB_IO"), 1u);
  EXPECT_GT(r.utilisation.at("SB_IO").used, 0);
  ASSERT_FALSE(r.bitstream.empty());
  EXPECT_GT(fs::file_size(r.bitstream), 10000u);
  // Fmax from nextpnr and icetime come from different timing models; they agree roughly.
  EXPECT_GT(r.fmax_icetime, 0.5 * r.fmax_nextpnr);
  EXPECT_LT(r.fmax_icetime, 2.0 * r.fmax_nextpnr);
  // report.json carries the same figures.
  const auto j = nlohmann::json::parse(read_file(r.out_dir + "/report.json"));
  EXPECT_EQ(j["fits"], true);
  EXPECT_EQ(j["cells"]["luts"], r.luts);
  EXPECT_EQ(j["utilisation"]["ICESTORM_LC"]["used"], lc.used);
  EXPECT_DOUBLE_EQ(j["timing"]["fmax_nextpnr_mhz"].get<double>(), r.fmax_nextpnr);
  EXPECT_EQ(j["timing"]["met"], r.timing_met);
  const std::string txt = read_file(r.out_dir + "/report.txt");
  EXPECT_NE(txt.find("Fmax"), std::string::npos) << txt;
}

// Every iCE40 board builds a self-test network bitstream; chip mode builds for the HX8K at a
// 100 MHz target (reported honestly: met or not); the Arty gets the yosys estimate. The
// four builds run side by side.
TEST(FlowBuild, EveryBoard) {
  const Cm1Config small = cfg(2, 2, 3);  // 4 chips x 2 processors: fits the UP5K
  auto up5k = std::async(std::launch::async, [&] {
    return build(cm1_board_top(small, options_for("icebreaker")), "icebreaker", "up5k");
  });
  auto hx8k = std::async(std::launch::async, [&] {
    return build(cm1_board_top(small, options_for("ice40hx8k_breakout")), "ice40hx8k_breakout", "hx8k");
  });
  auto chip = std::async(std::launch::async, [&] {
    return build(cm1_chip_board_top(cfg(2, 4, 3), options_for("ice40hx8k_breakout")), "ice40hx8k_breakout",
                 "chip", 100);
  });
  auto arty = std::async(std::launch::async, [&] {
    return build(cm1_board_top(small, options_for("arty_a7_35t")), "arty_a7_35t", "arty");
  });
  const FlowResult u = up5k.get();
  check_ice40(u, "UP5K network");
  EXPECT_TRUE(u.timing_met) << "the self-test must run at the board's 12 MHz: Fmax " << u.fmax_nextpnr;
  EXPECT_EQ(u.utilisation.at("ICESTORM_LC").available, 5280);
  const FlowResult h = hx8k.get();
  check_ice40(h, "HX8K network");
  EXPECT_TRUE(h.timing_met) << h.fmax_nextpnr;
  EXPECT_EQ(h.utilisation.at("ICESTORM_LC").available, 7680);
  const FlowResult c = chip.get();
  check_ice40(c, "HX8K chip");
  EXPECT_EQ(c.target_mhz, 100);
  EXPECT_EQ(c.timing_met, c.fmax_nextpnr >= 100) << c.fmax_nextpnr;
  EXPECT_NE(read_file(c.out_dir + "/cm1_chip_board_top.pcf").find("set_io cube_out[1]"), std::string::npos);
  const FlowResult a = arty.get();
  EXPECT_TRUE(a.estimate_only);
  EXPECT_TRUE(a.fits);
  EXPECT_GT(a.luts, 0);
  EXPECT_GT(a.ffs, 0);
  EXPECT_TRUE(a.bitstream.empty());
  EXPECT_NE(read_file(a.out_dir + "/report.txt").find("ESTIMATE ONLY"), std::string::npos);
  EXPECT_NE(read_file(a.out_dir + "/cm1_board_top.xdc").find("get_ports { clk }"), std::string::npos);
  for (const FlowResult* r : {&u, &h, &c, &a}) fs::remove_all(r->out_dir);
}

// The host-link top that `cmnet build --mode host` synthesizes is the top the simulated board
// runs: the simulator is compiled from the very files in the build's rtl/ directory, and the
// host driver's run on it agrees with the reference model.
TEST(FlowBuild, HostTopFlashedIsTheOneSimulated) {
  Cm1Config c = cfg(1, 2, 3);  // 2 chips x 2 processors: fits the UP5K beside the host link
  c.cm1.queue_depth = 2;
  const Board board = load_board("icebreaker");
  HostBoardOptions h;
  h.clock_hz = static_cast<uint32_t>(board.clock_mhz * 1e6 + 0.5);
  h.reset_button = board.reset.has_value() && board.reset->active_low;
  const FlowResult r = build(emit_cm1_host_board(c, h), "icebreaker", "host");
  check_ice40(r, "UP5K host top");
  EXPECT_TRUE(r.timing_met) << "the host top must run at the board's 12 MHz: Fmax " << r.fmax_nextpnr;
  EXPECT_NE(read_file(r.out_dir + "/cm1_host_board.pcf").find("set_io uart_rx"), std::string::npos);

  const std::unique_ptr<SimBoard> sim = sim_board_of_build(r.out_dir, "cm1_host_board", {});
  BoardClient client = BoardClient::open(sim->uri());
  Cm1Board b(client);
  EXPECT_EQ(b.info().config_id, config_id(c));
  EXPECT_EQ(b.info().clock_hz, h.clock_hz);
  load_run_and_check(b, c.cm1, make_pattern("permutation", c.cm1, 5, 2), EjectMode::kOrCombine,
                     "the flashed host top, simulated");
  // The same from the command line: `cmnet run --rtl DIR` simulates the build directory.
  const fs::path dir = temp_dir("run-rtl");
  std::ofstream(dir / "net.json") << config_to_json(c);
  const std::string log = (dir / "cli.log").string();
  const int rc = run_child({CMNET_CLI, "run", (dir / "net.json").string(), "--rtl", r.out_dir, "--per-proc", "2",
                            "-o", (dir / "out").string()},
                           600, log);
  EXPECT_EQ(rc, 0) << read_file(log);
  EXPECT_NE(read_file(log).find("board agrees with the reference model: YES (compared: counters of every chip,"),
            std::string::npos)
      << read_file(log);
  // A build of another mode is refused with the reason.
  std::ofstream(dir / "report.json") << R"({"mode": "network", "top": "cm1_board_top", "board": "icebreaker"})";
  EXPECT_NE(run_child({CMNET_CLI, "run", (dir / "net.json").string(), "--rtl", dir.string()}, 120, log), 0);
  EXPECT_NE(read_file(log).find("built with --mode network"), std::string::npos) << read_file(log);
  fs::remove_all(dir);
  fs::remove_all(r.out_dir);
}

// A board without a reset button gets a host top without btn_n (power-on reset only), so its
// constraints have a pin for every port.
TEST(FlowTops, HostTopWithoutButtonHasNoBtnPort) {
  HostBoardOptions h;
  h.reset_button = false;
  const GeneratedDesign d = emit_cm1_host_board(cfg(2, 2, 3), h);
  for (const auto& [name, text] : d.files)
    if (name == "cm1_host_board.v") {
      EXPECT_EQ(text.find("btn_n"), std::string::npos);
    }
  TopPorts t;
  t.leds = 4;
  t.uart_tx = t.uart_rx = true;
  EXPECT_NO_THROW(make_pcf(load_board("ice40hx8k_breakout"), t));
}

TEST(FlowBuild, TooBigNetworkNamesTheResource) {
  // 8 chips x 16 processors on the UP5K.
  const Cm1Config big = cfg(3, 16, 7);
  try {
    build(cm1_board_top(big, options_for("icebreaker")), "icebreaker", "toobig");
    ADD_FAILURE() << "expected DoesNotFit";
  } catch (const DoesNotFit& e) {
    EXPECT_EQ(e.resource, "ICESTORM_LC");
    EXPECT_GT(e.used, e.available);
    EXPECT_EQ(e.available, 5280);
    const std::string m = e.what();
    EXPECT_NE(m.find("does not fit iCE40UP5K-SG48"), std::string::npos) << m;
    EXPECT_NE(m.find("ICESTORM_LC"), std::string::npos) << m;
  }
  fs::remove_all(temp_dir("build-toobig"));
}

TEST(FlowBuild, PortsWithoutPinsAreRejected) {
  // The bare network has hundreds of ports: the flow asks for a board top.
  const std::string e = expect_error([] { build(emit_cm1(cfg(2, 2, 3)), "icebreaker", "bare"); });
  EXPECT_NE(e.find("has no board pin"), std::string::npos) << e;
  fs::remove_all(temp_dir("build-bare"));
}

// ------------------------------------------------------------------------------------
// Vivado script and flash

TEST(FlowVivado, TclScriptRunsUnderStubs) {
  const std::string tclsh = find_tool("tclsh");
  if (tclsh.empty()) GTEST_SKIP() << "tclsh not installed (Debian: tcl)";
  const fs::path dir = temp_dir("tcl");
  fs::create_directories(dir / "build" / "rtl");
  std::ofstream(dir / "build" / "rtl" / "filelist.f") << "a.v\nb.v\n";
  std::ofstream(dir / "build" / "cm1_board_top.xdc") << "# pins\n";
  std::ofstream stub(dir / "stub.tcl");
  stub << "set calls {}\n";
  for (const char* p : {"read_verilog", "read_xdc", "synth_design", "opt_design", "place_design",
                        "phys_opt_design", "route_design", "report_utilization", "report_timing_summary",
                        "write_bitstream"})
    stub << "proc " << p << " {args} { global calls; lappend calls [list " << p << " {*}$args] }\n";
  stub << "set argv [list " << (dir / "build").string() << " cm1_board_top]\nset argc 2\n";
  stub << "source " << CMNET_SOURCE_DIR << "/bitstreams/vivado/build_arty.tcl\n";
  stub << "foreach c $calls { puts $c }\n";
  stub.close();
  const std::string log = (dir / "tcl.log").string();
  const int rc = run_child({tclsh, (dir / "stub.tcl").string()}, 60, log);
  const std::string out = read_file(log);
  EXPECT_EQ(rc, 0) << out;
  for (const char* want : {"read_verilog", "/rtl/a.v", "/rtl/b.v", "read_xdc", "cm1_board_top.xdc",
                           "synth_design -top cm1_board_top -part xc7a35ticsg324-1L", "route_design",
                           "write_bitstream -force", "cm1_board_top.bit", "report_timing_summary"})
    EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
  // Missing inputs give a clear message and exit 1.
  std::ofstream(dir / "stub2.tcl") << "set argv [list " << (dir / "nowhere").string()
                                   << " top]\nset argc 2\nsource " << CMNET_SOURCE_DIR
                                   << "/bitstreams/vivado/build_arty.tcl\n";
  const int rc2 = run_child({tclsh, (dir / "stub2.tcl").string()}, 60, log);
  EXPECT_EQ(rc2, 1);
  EXPECT_NE(read_file(log).find("not found"), std::string::npos) << read_file(log);
  fs::remove_all(dir);
}

TEST(FlowCli, FlashWithoutBoardIsAClearError) {
  const fs::path dir = temp_dir("flash");
  nlohmann::json j = {{"board", "icebreaker"}, {"board_file", ""}, {"family", "ice40"},
                      {"top", "cm1_board_top"}, {"fits", true}, {"estimate_only", false},
                      {"bitstream", "cm1_board_top.bin"}};
  std::ofstream(dir / "report.json") << j.dump();
  std::ofstream(dir / "cm1_board_top.bin") << std::string(1000, '\0');
  const std::string log = (dir / "cli.log").string();
  const int rc = run_child({CMNET_CLI, "flash", dir.string()}, 120, log);
  const std::string out = read_file(log);
  EXPECT_EQ(rc, 5) << out;
  if (find_tool("openFPGALoader").empty())
    EXPECT_NE(out.find("openFPGALoader not found"), std::string::npos) << out;
  else
    EXPECT_NE(out.find("no board attached"), std::string::npos) << out;
  // An xc7 build has no bitstream from this flow: the message says how to make one.
  j["family"] = "xc7";
  j["estimate_only"] = true;
  j["board"] = "arty_a7_35t";
  std::ofstream(dir / "report.json") << j.dump();
  const int rc2 = run_child({CMNET_CLI, "flash", dir.string()}, 120, log);
  EXPECT_EQ(rc2, 2);
  EXPECT_NE(read_file(log).find("build_arty.tcl"), std::string::npos) << read_file(log);
  // No build at all.
  const int rc3 = run_child({CMNET_CLI, "flash", (dir / "none").string()}, 120, log);
  EXPECT_EQ(rc3, 2);
  EXPECT_NE(read_file(log).find("no build report"), std::string::npos) << read_file(log);
  fs::remove_all(dir);
}

TEST(FlowCli, BuildRejectsUnknownBoard) {
  const fs::path dir = temp_dir("cli");
  std::ofstream(dir / "net.json") << R"({"network": "cm1", "cm1": {"cube_dims": 2, "procs_per_chip": 2}})";
  const std::string log = (dir / "cli.log").string();
  const int rc = run_child({CMNET_CLI, "build", (dir / "net.json").string(), "--board", "nosuch", "-o",
                            (dir / "out").string()},
                           120, log);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(read_file(log).find("unknown board 'nosuch' (known: arty_a7_35t, ice40hx8k_breakout, icebreaker"),
            std::string::npos)
      << read_file(log);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cmnet

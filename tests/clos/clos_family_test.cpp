// The clos family behind the family interface: registered, its examples load and emit, `sim`
// writes one JSON line per circuit on both engines, and the commands it cannot do yet refuse
// with a clear InputError.
#include "host/cli/clos/clos_family.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bitstreams/board.h"
#include "gen/core/errors.h"
#include "sim/clos/clos_patterns.h"
#include "tests/clos/clos_oracle_check.h"
#include "tests/clos/clos_test_net.h"
#include "tests/core/fst_check.h"
#include "tests/core/sim_lines_check.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

std::string example(const char* name) { return std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + name; }

std::vector<nlohmann::json> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(ClosFamily, RegisteredAndEveryExampleLoadsAndEmits) {
  const Family& f = find_family("clos", "here");
  EXPECT_EQ(f.name(), "clos");
  EXPECT_EQ(f.patterns(), clos_pattern_names());
  for (const char* ex : {"clos_n224.json", "clos_n534.json", "clos_n32.json"}) {
    const Family* g = nullptr;
    const NetworkConfig cfg = load_network(example(ex), &g);
    ASSERT_EQ(g, &f) << ex;
    const GeneratedDesign d = f.emit(cfg);
    EXPECT_EQ(d.top, "clos_network");
    EXPECT_NE(f.summary(cfg).find("Clos network N("), std::string::npos) << ex;
    const NetworkConfig again = parse_config(f.canonical_json(cfg), "canonical");
    EXPECT_EQ(f.canonical_json(again), f.canonical_json(cfg)) << ex;
  }
  EXPECT_NE(f.summary(load_network(example("clos_n534.json"), nullptr)).find("strictly non-blocking"), std::string::npos);
}

TEST(ClosFamily, SimWritesOneLinePerCircuitOnBothEngines) {
  const Family& f = find_family("clos", "here");
  // The same design as clos_rtl_test's N(2, 2, 4): one cached Verilator model for both.
  const NetworkConfig cfg =
      parse_config(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "width": 8, "hnode_dims": 0}})", "n224.json");
  f.check(cfg);
  const fs::path dir = fs::temp_directory_path() / ("cmnet-clos-family-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::map<std::string, std::vector<nlohmann::json>> by_engine;
  for (const char* engine : {"model", "rtl"}) {
    SimArgs a;
    a.engine = engine;
    a.pattern = "permutation";
    a.per_proc = 3;
    a.seed = 4;
    a.out = (dir / (std::string(engine) + ".jsonl")).string();
    ASSERT_EQ(f.sim(cfg, a), 0) << engine;
    const auto lines = read_lines(a.out);
    ASSERT_EQ(lines.size(), 9u) << engine;  // 8 circuits and the summary
    for (size_t i = 0; i < 8; ++i) {
      EXPECT_TRUE(lines[i]["delivered"].get<bool>()) << engine << " " << lines[i].dump();
      EXPECT_EQ(lines[i]["kind"], "circuit");
      EXPECT_EQ(lines[i]["sent"][0]["at"], i);  // source port
      EXPECT_EQ(lines[i]["arrived"][0]["at"], lines[i]["dst"]);  // destination port
      EXPECT_EQ(lines[i]["sent"][0]["words"], lines[i]["arrived"][0]["words"]) << engine;
      EXPECT_EQ(lines[i]["sent"][0]["words"].size(), 3u);
    }
    test::expect_sim_schema(test::read_sim_lines(a.out), "clos");
    EXPECT_EQ(lines[8]["summary"]["mismatches"], 0) << engine;
    EXPECT_EQ(lines[8]["summary"]["routed"], 8) << engine;
    EXPECT_EQ(lines[8]["summary"]["harness_mismatches"], 0) << engine;
    const auto oracle = clos_test::oracle_sim_lines(clos_test::net(2, 2, 4), lines);
    EXPECT_TRUE(oracle.empty()) << engine << clos_test::oracle_report(oracle);
    auto flipped = lines;  // one word changed on its way: the oracle sees it
    flipped[2]["arrived"][0]["words"][1] = "ff";
    EXPECT_FALSE(clos_test::oracle_sim_lines(clos_test::net(2, 2, 4), flipped).empty()) << engine;
    by_engine[engine] = lines;
  }
  // The same --seed, the same words on both engines: the circuit lines are equal line by line.
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(by_engine["model"][i], by_engine["rtl"][i]) << i;
  test::expect_engines_agree(test::read_sim_lines((dir / "model.jsonl").string()),
                             test::read_sim_lines((dir / "rtl.jsonl").string()));
  // A circuit file: SRC DST [WORDS] per line (sim/clos/clos_circuit_file.h), set up through the
  // hnodes (2 of them; without any it is refused) and its words sent; bad lines name file, line,
  // field and range.
  const NetworkConfig hn =
      parse_config(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "width": 8, "hnode_dims": 1}})", "n224.json");
  const std::string circ = (dir / "c.txt").string();
  std::ofstream(circ) << "# two circuits\n0 7 2\n7 0\n";
  SimArgs a;
  a.traffic = circ;
  a.per_proc = 3;
  a.out = (dir / "c.jsonl").string();
  EXPECT_THROW(f.sim(cfg, a), InputError);
  ASSERT_EQ(f.sim(hn, a), 0);
  const auto lines = read_lines(a.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[0]["extra"]["setup"]["set_up"].get<bool>()) << lines[0].dump();
  EXPECT_EQ(lines[0]["sent"][0]["at"], 0);
  EXPECT_EQ(lines[0]["dst"], 7);
  EXPECT_EQ(lines[0]["sent"][0]["words"].size(), 2u);  // its own WORDS
  EXPECT_EQ(lines[1]["sent"][0]["words"].size(), 3u);  // --per-proc
  EXPECT_EQ(lines[1]["sent"][0]["words"], lines[1]["arrived"][0]["words"]);
  const auto oracle = clos_test::oracle_sim_lines(clos_test::net(2, 2, 4), lines);
  EXPECT_TRUE(oracle.empty()) << clos_test::oracle_report(oracle);
  EXPECT_EQ(lines[2]["summary"]["setup"]["set_up"], 2);
  EXPECT_TRUE(lines[2]["summary"]["setup"]["done"].get<bool>());
  for (const auto& [text, want] : std::vector<std::pair<std::string, std::string>>{
           {"0 7\n1 8\n", ":2: field 2 'DST' value 8 out of range 0..7"},
           {"this is not a message\n", ":1: field 1 'this': not a number (SRC)"},
           {"0 7\n0 6\n", ":2: field 1 'SRC' value 0: already the source of a circuit (line 1)"}}) {
    std::ofstream(circ) << text;
    try {
      f.sim(hn, a);
      ADD_FAILURE() << "bad circuit file accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), circ + want);
    }
  }
  fs::remove_all(dir);
}

// The words are drawn once per seed (clos_case_words), whichever engine runs; the RTL's own
// mismatch count (it also checks outputs no circuit is meant for) fails the run even when every
// circuit's words came through.
TEST(ClosFamily, SimWordsDrawnOnceAndHarnessMismatchesCount) {
  const ClosParams p = clos_config(parse_config(
      R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "width": 8, "hnode_dims": 0}})", "n224.json")).clos;
  const auto drawn = clos_case_words(p, 4, 0, 3);
  EXPECT_EQ(drawn, clos_case_words(p, 4, 0, 3));
  EXPECT_NE(drawn, clos_case_words(p, 5, 0, 3));
  ASSERT_EQ(drawn.size(), 3u);
  ASSERT_EQ(drawn[0].size(), 8u);
  ClosRtlRun r;
  for (uint64_t w = 0; w < 3; ++w)
    for (int s = 0; s < 8; ++s) r.rx.push_back({0, w, s, s ^ 1, drawn[w][static_cast<size_t>(s)], drawn[w][static_cast<size_t>(s)]});
  ClosSimWords sw = clos_rtl_words(r, drawn);
  EXPECT_EQ(sw.data.size(), 8u);
  EXPECT_EQ(clos_sim_exit(0, sw), 0);
  r.mismatches = 2;
  r.first_mismatches = {"0 1 3 5 0"};
  sw = clos_rtl_words(r, drawn);
  EXPECT_EQ(sw.harness_mismatches, 2u);
  EXPECT_EQ(sw.first_mismatches, r.first_mismatches);
  EXPECT_EQ(clos_sim_exit(0, sw), 3);
}

// `cmnet sim --engine rtl --trace`: the waveform holds the cycles asked for (from the first after
// reset: the configuration writes, then the words), on the N(2, 2, 4) above.
TEST(ClosFamily, SimOnTheRtlWritesTheWaveformAskedFor) {
  const Family& f = find_family("clos", "here");
  const NetworkConfig cfg =
      parse_config(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "width": 8, "hnode_dims": 0}})", "n224.json");
  f.check(cfg);
  const fs::path dir = fs::temp_directory_path() / ("cmnet-clos-trace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  SimArgs a;
  a.engine = "rtl";
  a.pattern = "permutation";
  a.per_proc = 3;
  a.out = (dir / "rtl.jsonl").string();
  a.trace = TraceWindow{(dir / "run.fst").string(), 2, 9};
  ASSERT_EQ(f.sim(cfg, a), 0);
  EXPECT_TRUE(test::fst_holds_cycles(a.trace.file, 2, 9));
  fs::remove_all(dir);
}

TEST(ClosFamily, BlockingNetworksReportBlockedCircuits) {
  const Family& f = find_family("clos", "here");
  const NetworkConfig cfg = parse_config(R"({"network": "clos", "clos": {"m": 1, "n": 2, "r": 4, "width": 4}})", "b.json");
  f.check(cfg);
  SimArgs a;
  a.pattern = "identity";
  a.out = (fs::temp_directory_path() / ("cmnet-clos-blocked-" + std::to_string(::getpid()) + ".jsonl")).string();
  ASSERT_EQ(f.sim(cfg, a), 0);
  const auto lines = read_lines(a.out);
  EXPECT_EQ(lines.back()["summary"]["blocked"], 4);  // one middle switch: one circuit per switch pair
  EXPECT_EQ(lines.back()["summary"]["routed"], 4);
  fs::remove(a.out);
}

TEST(ClosFamily, WhatIsNotBuiltRefusesClearly) {
  const Family& f = find_family("clos", "here");
  const NetworkConfig cfg = load_network(example("clos_n224.json"), nullptr);
  RunArgs ra;
  ra.pattern = "transpose";
  try {
    f.run(cfg, ra);
    ADD_FAILURE() << "run accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--pattern transpose"), std::string::npos) << e.what();
  }
  // `run --traffic` reads the connection set before it starts a board (clos_stream_test runs one).
  ra = RunArgs{};
  ra.traffic = (fs::temp_directory_path() / ("cmnet-clos-run-" + std::to_string(::getpid()) + ".circuits")).string();
  std::ofstream(ra.traffic) << "0 7 3\nthis is not a circuit\n";
  try {
    f.run(cfg, ra);
    ADD_FAILURE() << "run accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), ra.traffic + ":2: field 1 'this': not a number (SRC)");
  }
  fs::remove(ra.traffic);
  SweepArgs sa;
  sa.pattern = "transpose";
  try {
    f.sweep(cfg, sa);
    ADD_FAILURE() << "sweep accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--pattern transpose"), std::string::npos) << e.what();
  }
  BuildArgs ba;
  ba.mode = "chip";
  EXPECT_THROW(f.board_top(cfg, Board{}, ba), InputError);
  SimArgs a;
  a.pattern = "permutation";
  a.mode = "or";
  a.out = "/dev/null";
  EXPECT_THROW(f.sim(cfg, a), InputError);
}

// `cmnet build --mode network` (the self-test top): its options refused naming what, before any
// run of the reference (tests/clos/clos_selftest_test.cpp builds and runs the top).
TEST(ClosFamily, SelfTestBuildOptionsRefuseClearly) {
  const Family& f = find_family("clos", "here");
  const NetworkConfig cfg = load_network(example("clos_n444_selftest.json"), nullptr);
  EXPECT_EQ(f.build_modes(), (std::vector<std::string>{"stream", "network"}));
  const Board board = load_board("ice40hx8k_breakout");
  auto refusal = [&](const BuildArgs& ba) -> std::string {
    try {
      f.board_top(cfg, board, ba);
    } catch (const InputError& e) {
      return e.what();
    }
    ADD_FAILURE() << "board_top accepted";
    return "";
  };
  BuildArgs ba;
  ba.mode = "network";
  ba.pattern = "transpose";
  EXPECT_NE(refusal(ba).find("--pattern transpose: the clos self-test plays rounds of permutations"), std::string::npos);
  ba.pattern = "permutation";
  ba.per_proc = 65;
  EXPECT_NE(refusal(ba).find("--per-proc 65: rounds of permutations, 1..64"), std::string::npos);
  ba.per_proc = 1;
  ba.traffic = (fs::temp_directory_path() / ("cmnet-clos-selftest-" + std::to_string(::getpid()) + ".circuits")).string();
  std::ofstream(ba.traffic) << "0 7 3\n1 6 300\n";
  EXPECT_EQ(refusal(ba), ba.traffic + ":2: leaf 1 sends more than a self-test leaf's ROM holds (64 circuits, 256 words)");
  fs::remove(ba.traffic);
  ba.mode = "chip";
  EXPECT_NE(refusal(ba).find("--mode chip: unknown mode (allowed: stream, network)"), std::string::npos);
}

}  // namespace
}  // namespace cmnet

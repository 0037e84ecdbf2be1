// CONNECT on the stream board: the board top lints; `cmnet run`'s path on the simulated board
// sets up a permutation of circuits with the hnodes' engines (in parallel), streams data through
// the switch, reads the counters back (conserved) and agrees with the model: every circuit's
// words at its destination bit-exact, one READY per circuit as the set-up model, nothing dropped;
// so does a user's connection set (`cmnet run --traffic F`), whose bad files are refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gen/clos/clos_emitter.h"
#include "gen/core/errors.h"
#include "host/clos/clos_runner.h"
#include "tests/clos/clos_oracle_check.h"
#include "tests/clos/clos_test_net.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {
using namespace testing_checks;

ClosConfig cfg(int m, int n, int r, int dims) {
  ClosConfig c;
  c.name = "clos-board-test";
  c.clos = clos_test::net(m, n, r, dims);
  return c;
}

// `cmnet run`'s path on the simulated board, its report written to `out_dir`, not printed.
StreamRunOutcome run_quietly(const ClosConfig& c, const ClosRunOptions& o, const std::string& out_dir) {
  StreamRunArgs a;
  a.out_dir = out_dir;
  a.timeout_s = 120;
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome r = run_clos_stream(c, o, a, null);
  std::fclose(null);
  return r;
}

TEST(ClosStream, BoardTopLints) {
  const StreamBoardSpec s = clos_stream_spec(cfg(2, 2, 4, 2));
  EXPECT_EQ(s.info.counters.size(), 2u * 8 + 4);
  const GeneratedDesign d = emit_stream_board(s, HostBoardOptions{});
  const std::string log = lint_problems(d, d.top, temp_dir("clos-stream-lint"));
  EXPECT_EQ(log, "");
}

TEST(ClosStream, APermutationOfCircuitsOnTheSimulatedBoard) {
  const ClosConfig c = cfg(2, 2, 4, 2);  // 8 leaves, 4 hnodes on a 2-cube
  ClosRunOptions o;
  o.words = 6;
  o.seed = 3;
  const std::filesystem::path dir = temp_dir("clos-stream-run");
  const StreamRunOutcome r = run_quietly(c, o, dir.string());
  EXPECT_TRUE(r.verdict.ok()) << r.verdict.conservation.summary();
  EXPECT_EQ(r.result.delivered.size(), 8u);
  for (const StreamUnit& u : r.result.delivered) EXPECT_EQ(u.words.size(), 7u);
  const nlohmann::json j = nlohmann::json::parse(slurp_log(dir / "run.json"));
  const auto oracle = clos_test::oracle_board_circuits(c.clos, j["circuits"]);
  EXPECT_TRUE(oracle.empty()) << clos_test::oracle_report(oracle);
  std::filesystem::remove_all(dir);
}

// `cmnet sweep`'s path: one simulated board, 1, 2 and 3 rounds of permutations of circuits;
// every point's READYs equal the set-up model's for the same requests, every circuit delivered
// bit-exact, nothing dropped, the counters conserved; the table, CSV, JSON and plot written.
TEST(ClosStream, ASweepOfCircuitsPerLeafAgreesWithTheModel) {
  const ClosConfig c = cfg(2, 2, 4, 2);
  StreamRunArgs a;
  a.out_dir = temp_dir("clos-stream-sweep").string();
  a.timeout_s = 120;
  ClosSweepOptions o;
  o.seed = 7;
  o.words = 3;
  o.circuits = {1, 2, 3};
  std::FILE* null = std::fopen("/dev/null", "w");
  const bool ok = run_clos_sweep(c, o, a, null);
  std::fclose(null);
  EXPECT_TRUE(ok);
  const std::string csv = slurp_log(std::filesystem::path(a.out_dir) / "sweep.csv");
  // offered, accepted (circuits per leaf), the model's, units delivered (8 leaves), ...
  EXPECT_NE(csv.find("\n1,1,1,8,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n2,2,2,16,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n3,3,3,24,"), std::string::npos) << csv;
  const std::string rate = slurp_log(std::filesystem::path(a.out_dir) / "sweep_rate.csv");
  EXPECT_NE(rate.find("\n3,"), std::string::npos) << rate;
  const std::string svg = slurp_log(std::filesystem::path(a.out_dir) / "sweep.svg");
  EXPECT_NE(svg.find("circuits requested per leaf"), std::string::npos);
  std::filesystem::remove_all(a.out_dir);
}

std::string write_circuits(const std::filesystem::path& dir, const std::string& text) {
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "set.circuits").string();
  std::ofstream(path) << text;
  return path;
}

// `cmnet run --traffic F`'s path: each line's source leaf sends one unit, the leaves with no
// circuit send nothing; the board agrees with the model and run.json gives every circuit's words
// as sent and as they arrived, in the file's order.
TEST(ClosStream, ACircuitFileOnTheSimulatedBoardAgreesWithTheModel) {
  const ClosConfig c = cfg(2, 2, 4, 2);  // the board of the tests above: one cached model
  const std::filesystem::path dir = temp_dir("clos-stream-file");
  ClosRunOptions o;
  o.traffic = write_circuits(dir, "0 7 3\n# 6 takes --per-proc\n1 6 2\n6 1\n7 0 0   # no words: set up, released\n");
  o.words = 5;
  o.seed = 3;
  const StreamRunOutcome r = run_quietly(c, o, (dir / "run").string());
  EXPECT_TRUE(r.verdict.ok()) << r.verdict.conservation.summary();
  EXPECT_EQ(r.result.delivered.size(), 4u);
  const nlohmann::json j = nlohmann::json::parse(slurp_log(dir / "run" / "run.json"));
  EXPECT_EQ(j["counters"]["circuits.ready"], 4);
  for (const char* quiet : {"leaf2.sent", "leaf3.sent", "leaf4.sent", "leaf5.sent"}) EXPECT_EQ(j["counters"][quiet], 0);
  struct Want {
    int line, src, dst;
    size_t words;
  };
  const std::vector<Want> want = {{1, 0, 7, 3}, {3, 1, 6, 2}, {4, 6, 1, 5}, {5, 7, 0, 0}};
  ASSERT_EQ(j["circuits"].size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const nlohmann::json& x = j["circuits"][i];
    EXPECT_EQ(x["line"], want[i].line);
    EXPECT_EQ(x["src"], want[i].src);
    EXPECT_EQ(x["dst"], want[i].dst);
    EXPECT_EQ(x["sent"].size(), want[i].words);
    EXPECT_EQ(x["arrived"], x["sent"]) << x;
    EXPECT_EQ(x["bit_exact"], true);
  }
  const auto oracle = clos_test::oracle_board_circuits(c.clos, j["circuits"]);
  EXPECT_TRUE(oracle.empty()) << clos_test::oracle_report(oracle);
  EXPECT_NE(slurp_log(dir / "run" / "circuits.csv").find("\n2,4,6,1,"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Refused before the board starts, naming the file and line: a circuit with more words than the
// board's receive buffer takes (from WORDS or from --per-proc), and a line that is not a circuit.
TEST(ClosStream, BadCircuitFilesAreRefusedNamingTheLine) {
  const ClosConfig c = cfg(2, 2, 4, 2);
  const std::filesystem::path dir = temp_dir("clos-stream-bad-file");
  auto error_of = [&](const std::string& text, int words) {
    const std::string path = write_circuits(dir, text);
    try {
      clos_circuit_file_workload(c, path, words, 1);
    } catch (const InputError& e) {
      return std::string(e.what()).substr(path.size());
    }
    return std::string("accepted");
  };
  const std::string most = std::to_string(clos_stream_max_words());
  const std::string too_many = std::to_string(clos_stream_max_words() + 1);
  EXPECT_EQ(error_of("0 7 3\n1 6 " + too_many + "\n", 2).rfind(":2: " + too_many + " data words", 0), 0u);
  EXPECT_NE(error_of("0 7 3\n1 6 " + too_many + "\n", 2).find("at most " + most), std::string::npos);
  EXPECT_EQ(error_of("# WORDS from --per-proc\n0 7\n", clos_stream_max_words() + 1).rfind(":2: ", 0), 0u);
  EXPECT_EQ(error_of("0 7 3\nthis is not a circuit\n", 2), ":2: field 1 'this': not a number (SRC)");
  EXPECT_EQ(error_of("0 7 " + most + "\n", 2), "accepted");
  std::filesystem::remove_all(dir);
}

TEST(ClosStream, BadRunsAreRefused) {
  ClosRunOptions o;
  o.words = clos_stream_max_words() + 1;
  EXPECT_THROW(clos_permutation_workload(cfg(2, 2, 4, 2), o), InputError);
  EXPECT_THROW(clos_rounds_workload(cfg(2, 2, 4, 2), 0, 2, 1), InputError);
  EXPECT_THROW(clos_stream_spec(cfg(2, 2, 4, 0)), ConfigError);
}

}  // namespace
}  // namespace cmnet

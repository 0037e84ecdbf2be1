// CONNECT on the stream board: the board top lints; `cmnet run`'s path on the simulated board
// sets up a permutation of circuits with the hnodes' engines (in parallel), streams data through
// the switch, reads the counters back (conserved) and agrees with the model: every circuit's
// words at its destination bit-exact, one READY per circuit as the set-up model, nothing dropped.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "gen/clos/clos_emitter.h"
#include "gen/core/errors.h"
#include "host/clos/clos_runner.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {
using namespace testing_checks;

ClosConfig cfg(int m, int n, int r, int dims) {
  ClosConfig c;
  c.name = "clos-board-test";
  c.clos.m = m;
  c.clos.n = n;
  c.clos.r = r;
  c.clos.hnode_dims = dims;
  return c;
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
  StreamRunArgs a;
  a.out_dir = temp_dir("clos-stream-run").string();
  a.timeout_s = 120;
  ClosRunOptions o;
  o.words = 6;
  o.seed = 3;
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome r = run_clos_stream(c, o, a, null);
  std::fclose(null);
  EXPECT_TRUE(r.verdict.ok()) << r.verdict.conservation.summary();
  EXPECT_EQ(r.result.delivered.size(), 8u);
  for (const StreamUnit& u : r.result.delivered) EXPECT_EQ(u.words.size(), 7u);
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

TEST(ClosStream, BadRunsAreRefused) {
  ClosRunOptions o;
  o.words = clos_stream_max_words() + 1;
  EXPECT_THROW(clos_permutation_workload(cfg(2, 2, 4, 2), o), InputError);
  EXPECT_THROW(clos_rounds_workload(cfg(2, 2, 4, 2), 0, 2, 1), InputError);
  EXPECT_THROW(clos_stream_spec(cfg(2, 2, 4, 0)), ConfigError);
}

}  // namespace
}  // namespace cmnet

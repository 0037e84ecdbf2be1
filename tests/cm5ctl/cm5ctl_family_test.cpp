// The cm5ctl family behind the shared commands: `cmnet sim` on both engines (the same result
// lines, the software results agreeing, the RTL's lines the functional oracle's results), its input errors, the clear refusal of build, run and
// options run and sweep have no meaning for, and `cmnet bench --quick` (RTL latency equal to the
// model's, throughput one operation per packet time).
#include "host/cli/cm5ctl/cm5ctl_family.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gen/core/errors.h"
#include "sim/cm5ctl/cm5ctl_workload_file.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"
#include "sim/cm5ctl/cm5ctl_oracle_view.h"
#include "tests/core/fst_check.h"
#include "tests/core/sim_lines_check.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

const Family& fam() { return find_family("cm5ctl", "test"); }

NetworkConfig config(int leaves) {
  return parse_config(R"({"network": "cm5ctl", "cm5ctl": {"leaves": )" + std::to_string(leaves) + "}}", "net.json");
}

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::vector<nlohmann::ordered_json> parsed(const std::vector<std::string>& lines) {
  std::vector<nlohmann::ordered_json> out;
  for (const std::string& l : lines) out.push_back(nlohmann::ordered_json::parse(l));
  return out;
}

fs::path temp_dir() {
  const fs::path p = fs::temp_directory_path() / ("cmnet-cm5fam-" + std::to_string(::getpid()));
  fs::create_directories(p);
  return p;
}

// `cmnet sim` of `a` on 8 leaves on the model, then on the RTL; both must exit 0. Their lines.
std::pair<std::vector<std::string>, std::vector<std::string>> sim_on_both(SimArgs a, const fs::path& dir) {
  a.engine = "model";
  a.out = (dir / "model.jsonl").string();
  EXPECT_EQ(fam().sim(config(8), a), 0);
  a.engine = "rtl";
  a.out = (dir / "rtl.jsonl").string();
  EXPECT_EQ(fam().sim(config(8), a), 0);
  return {lines((dir / "model.jsonl").string()), lines((dir / "rtl.jsonl").string())};
}

// The results `cmnet sim` wrote, back in the results' form: the k-th combining line's arrivals
// are the leaves' k-th combining results, the broadcast lines' theirs in order (sender, then
// push); kind and combiner as the workload pushed them, values and flags the lines'.
Cm5Expected results_of_lines(const std::vector<nlohmann::ordered_json>& lines, const Cm5Workload& w) {
  Cm5Expected got;
  got.multi.resize(w.leaf.size());
  got.bcast.resize(w.leaf.size());
  std::vector<const Cm5Op*> bcasts;  // sender, then push
  for (const auto& l : w.leaf)
    for (const Cm5Op& o : l)
      if (o.broadcast) bcasts.push_back(&o);
  size_t k = 0, b = 0;
  for (const auto& j : lines) {
    if (j.value("kind", "") != "operation") continue;
    const bool bc = j["extra"]["type"] == "broadcast";
    for (const auto& a : j["arrived"]) {
      Cm5Result r;
      r.leaf = a["at"].get<uint32_t>();
      r.broadcast = bc;
      size_t n = 0;
      const Cm5Op* o = bc ? bcasts.at(b) : nullptr;
      for (const Cm5Op& x : w.leaf.at(r.leaf))
        if (!bc && !x.broadcast && n++ == k) o = &x;
      const bool flush = bc && o->comb == cm5::kFlushComb;
      r.kind = flush ? cm5::kSupervisor : o->kind & 3;
      r.comb = bc ? (flush ? cm5::kFlushComb : 0) : o->kind == cm5::kSync ? cm5::kOr : o->comb;
      r.data = std::stoull(a["words"][0].get<std::string>(), nullptr, 16);
      r.ovf = a["flags"]["ovf"].get<bool>();
      r.err = a["flags"]["err"].get<bool>();
      r.abstained = a["flags"]["abstained"].get<bool>();
      (bc ? got.bcast : got.multi)[r.leaf].push_back(r);
    }
    ++(bc ? b : k);
  }
  return got;
}

Cm5ctlParams params8() {
  Cm5ctlParams p;
  p.leaves = 8;
  validate(p, "test");
  return p;
}

TEST(Cm5ctlFamily, IsRegisteredAndChecksItsConfig) {
  EXPECT_EQ(fam().name(), "cm5ctl");
  EXPECT_FALSE(fam().patterns().empty());
  try {
    fam().check(parse_config(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 24}})", "net.json"));
    ADD_FAILURE() << "24 leaves accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("net.json: cm5ctl: leaves = 24 is not a power of two"), std::string::npos)
        << e.what();
  }
  EXPECT_NE(fam().summary(config(16)).find("height 4"), std::string::npos);
}

TEST(Cm5ctlFamily, SimOnBothEnginesWritesTheSameResults) {
  const fs::path dir = temp_dir();
  SimArgs a;
  a.pattern = "mixed";
  a.per_proc = 12;
  a.seed = 5;
  auto [m, r] = sim_on_both(a, dir);
  ASSERT_EQ(m.size(), r.size());
  ASSERT_GT(m.size(), 12u);  // a line an operation
  // Every result line is the same (cycle included); the summaries differ in engine and seconds.
  for (size_t i = 0; i + 1 < m.size(); ++i) EXPECT_EQ(m[i], r[i]) << i;
  test::expect_sim_schema(parsed(r), "cm5ctl");
  test::expect_engines_agree(parsed(m), parsed(r));
  const Cm5Workload w = make_cm5ctl_workload("mixed", 8, 32, 5, 12);
  EXPECT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(params8(), w, results_of_lines(parsed(r), w))), "");
  const auto s = nlohmann::json::parse(r.back())["summary"];
  EXPECT_EQ(s["engine"], "rtl");
  EXPECT_TRUE(s["completed"].get<bool>());
  EXPECT_TRUE(s["software_agrees"].get<bool>());
  EXPECT_EQ(s["results"], s["expected_results"]);
  fs::remove_all(dir);
}

// The RTL harness on the shared driver writes an FST waveform of the run's cycles asked for
// (counted from the first after reset).
// The workload `cmnet sim` hands to either engine is drawn before the engine is chosen, from the
// pattern and --seed alone: the same seed, the same operations and values.
TEST(Cm5ctlFamily, WorkloadDependsOnTheSeedOnly) {
  auto text = [](uint64_t seed) {
    std::ostringstream s;
    const Cm5Workload w = make_cm5ctl_workload("mixed", 8, 32, seed, 6);
    for (size_t l = 0; l < w.leaf.size(); ++l)
      for (const Cm5Op& o : w.leaf[l])
        s << l << ' ' << o.broadcast << o.abstain << int{o.kind} << int{o.comb} << o.segmented << o.seg << ' ' << o.data
          << ' ' << o.release << '\n';
    return s.str();
  };
  EXPECT_EQ(text(7), text(7));
  EXPECT_NE(text(7), text(8));
}

TEST(Cm5ctlFamily, SimOnTheRtlWritesAWaveform) {
  const fs::path dir = temp_dir();
  SimArgs a;
  a.pattern = "paper";
  a.engine = "rtl";
  a.out = (dir / "rtl.jsonl").string();
  a.trace = TraceWindow{(dir / "run.fst").string(), 5, 25};
  EXPECT_EQ(fam().sim(config(4), a), 0);
  EXPECT_TRUE(test::fst_holds_cycles(a.trace.file, 5, 25));
  a.engine = "model";
  EXPECT_THROW(fam().sim(config(4), a), InputError);  // only the RTL has waveforms
  a.engine = "rtl";
  a.trace.file = (dir / "run.vcd").string();
  EXPECT_THROW(fam().sim(config(4), a), InputError);
  fs::remove_all(dir);
}

// A user's workload file (sim/cm5ctl/cm5ctl_workload_file.h) on both engines: the same result
// lines, the software's results, the RTL agreeing with the model cycle for cycle, the global
// outputs reported; 8 leaves: the Verilator model SimOnBothEngines builds.
TEST(Cm5ctlFamily, SimRunsAWorkloadFileOnBothEngines) {
  const fs::path dir = temp_dir();
  const std::string file = (dir / "mine.workload").string();
  std::ofstream(file) << "# mine\n"
                         "reduce add 1 2 3 4 5 6 7 8\n"
                         "scan-fwd max 5 - -3 2 9 0 1 1   # leaf 1 abstains\n"
                         "segscan-bwd xor 1 2 |4 8 16 |32 64 128\n"
                         "broadcast 3 0x1234 interrupt\n"
                         "barrier 0 0 0 0 0 0 0 1\n"
                         "global 10 5 4\n";
  SimArgs a;
  a.traffic = file;
  auto [m, r] = sim_on_both(a, dir);
  ASSERT_EQ(m.size(), r.size());
  // One line an operation (sim_lines.h), in the file's order, then the global ORs.
  const auto jm = parsed(m), jr = parsed(r);
  test::expect_sim_schema(jr, "cm5ctl");
  test::expect_engines_agree(jm, jr);
  for (size_t i = 0; i + 1 < m.size(); ++i) EXPECT_EQ(m[i], r[i]) << i;
  const Cm5Workload w = read_cm5ctl_workload(file, 8, 32);
  EXPECT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(params8(), w, results_of_lines(jr, w))), "");
  ASSERT_EQ(jr.size(), 5u + 1 + 1);
  const auto& sum = jr[0];  // 1 + .. + 8 = 36 = 0x24, at every leaf
  EXPECT_EQ(sum["extra"]["kind"], "reduce");
  ASSERT_EQ(sum["sent"].size(), 8u);
  ASSERT_EQ(sum["arrived"].size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(sum["sent"][i]["words"][0], std::to_string(i + 1));
    EXPECT_EQ(sum["arrived"][i]["at"], i);
    EXPECT_EQ(sum["arrived"][i]["words"][0], "24");
  }
  EXPECT_EQ(jr[1]["sent"][1]["flags"]["abstain"], true);
  EXPECT_EQ(jr[3]["extra"]["type"], "broadcast");
  EXPECT_EQ(jr[3]["sent"][0]["at"], 3);
  EXPECT_EQ(jr[3]["arrived"].size(), 8u);
  EXPECT_EQ(jr[5]["kind"], "globals");
  EXPECT_EQ(jr[5]["arrived"].size(), 8u);  // every leaf's hard-error OR raised
  const auto s = nlohmann::json::parse(r.back())["summary"];
  EXPECT_EQ(s["traffic"], file);
  EXPECT_TRUE(s["software_agrees"].get<bool>()) << s.dump();
  EXPECT_TRUE(s["model_agrees"].get<bool>()) << s.dump();
  EXPECT_EQ(s["results"], s["expected_results"]);
  // Garbage is refused naming file, line and field, on sim and on run (before any board starts).
  std::ofstream(file) << "this is not a message\n";
  try {
    fam().sim(config(8), a);
    ADD_FAILURE() << "garbage accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(file + ":1: field 1 'this': not an operation", 0), 0u) << e.what();
  }
  RunArgs ra;
  ra.traffic = file;
  EXPECT_THROW(fam().run(config(8), ra), InputError);
  fs::remove_all(dir);
}

TEST(Cm5ctlFamily, SimInputErrors) {
  SimArgs a;
  a.out = "/dev/null";
  a.pattern = "permutation";
  EXPECT_THROW(fam().sim(config(4), a), InputError);
  a.pattern = "paper";
  a.traffic = "x.traffic";
  EXPECT_THROW(fam().sim(config(4), a), InputError);
  a.traffic.clear();
  a.mode = "or";
  EXPECT_THROW(fam().sim(config(4), a), InputError);
}

// The board is the shared stream board (cm5ctl_board_test runs it): build makes its host top,
// run and sweep refuse what they have no meaning for (cm5ctl_board_test runs the sweep).
TEST(Cm5ctlFamily, BuildMakesTheStreamBoardRunAndSweepRefuseOptions) {
  EXPECT_EQ(fam().build_modes(), std::vector<std::string>{"host"});
  const Board hx8k = load_board("ice40hx8k_breakout");
  const GeneratedDesign d = fam().board_top(config(4), hx8k, BuildArgs{});
  EXPECT_EQ(d.top, "cm5ctl_host_board");
  BuildArgs b;
  b.mode = "chip";
  EXPECT_THROW(fam().board_top(config(4), hx8k, b), InputError);
  RunArgs r;
  r.traffic = "x.traffic";
  EXPECT_THROW(fam().run(config(4), r), InputError);
  SweepArgs s;
  s.mode = "or";
  EXPECT_THROW(fam().sweep(config(4), s), InputError);
  s.mode.clear();
  s.sim_link = "pcie";
  EXPECT_THROW(fam().sweep(config(4), s), InputError);
  s.sim_link = "fifo";
  s.pattern = "no-such-pattern";
  s.max_per_proc = 1;
  EXPECT_THROW(fam().sweep(config(4), s), InputError);
  s.pattern = "flush";  // timed events: cmnet run's business
  EXPECT_THROW(fam().sweep(config(4), s), InputError);
}

TEST(Cm5ctlFamily, QuickBenchMeasuresLatencyAndThroughput) {
  const fs::path dir = temp_dir();
  BenchArgs b;
  b.quick = true;
  b.json = (dir / "bench.json").string();
  ASSERT_EQ(fam().bench(b), 0);
  std::ifstream in(b.json);
  const auto j = nlohmann::json::parse(in);
  int rtl_rows = 0;
  for (const auto& row : j["latency"]) {
    const auto& m = row["model"];
    // Within the bound plus the leaf's first frame and the cycle to present.
    EXPECT_LE(m["reduce"].get<int>(), m["bound"].get<int>() + 8 + 2) << row.dump();
    EXPECT_LE(m["broadcast"].get<int>(), m["reduce"].get<int>()) << row.dump();
    if (row.contains("rtl")) {
      ++rtl_rows;
      EXPECT_TRUE(row["rtl_equals_model"].get<bool>()) << row.dump();
    }
  }
  EXPECT_EQ(rtl_rows, 2);
  EXPECT_EQ(j["latency"].back()["model"]["leaves"], 1024);
  for (const auto& t : j["throughput"]) EXPECT_NEAR(t["ops_per_packet_time"].get<double>(), 1.0, 0.02) << t.dump();
  ASSERT_TRUE(j.contains("node_ice40"));
  EXPECT_GT(j["node_ice40"]["SB_LUT4"].get<int>(), 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cmnet

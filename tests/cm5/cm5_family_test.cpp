// The cm5 family through the registry: `cmnet sim` on the model for every pattern and on the RTL
// for one (the 4-leaf machine of cm5_rtl_test: the same Verilator build), the example config,
// gen's files, the refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "host/cli/cm5/cm5_lines.h"
#include "host/cli/family.h"
#include "gen/cm5/cm5_config.h"
#include "gen/core/errors.h"
#include "tests/cm5/cm5_check.h"
#include "tests/core/emitter_checks.h"
#include "tests/core/fst_check.h"
#include "tests/core/sim_lines_check.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

// The config of cm5test::machine(1), as a file.
NetworkConfig small(const fs::path& dir) {
  const fs::path p = dir / "cm5.json";
  std::ofstream(p) << config_to_json(cm5test::machine(1));
  const Family* f = nullptr;
  NetworkConfig cfg = load_network(p.string(), &f);
  EXPECT_EQ(f->name(), "cm5");
  return cfg;
}

// The summary line of a sim's output.
nlohmann::json summary(const fs::path& out) {
  std::ifstream in(out);
  std::string line, last;
  while (std::getline(in, line)) last = line;
  return nlohmann::json::parse(last).at("summary");
}

TEST(Cm5MachineFamily, SimOnTheModelEveryPattern) {
  const fs::path dir = testing_checks::temp_dir("cm5-family");
  const NetworkConfig cfg = small(dir);
  const Family& f = find_family("cm5", "here");
  for (const std::string pattern : {"router-done", "lost", "duplicated"}) {
    SimArgs a;
    a.engine = "model";
    a.pattern = pattern;
    a.per_proc = 3;
    a.out = (dir / (pattern + ".jsonl")).string();
    EXPECT_EQ(f.sim(cfg, a), 0) << pattern;
    const nlohmann::json s = summary(a.out);
    test::expect_sim_schema(test::read_sim_lines(a.out), "cm5");
    EXPECT_TRUE(s.at("ok").get<bool>()) << s.dump();
    EXPECT_EQ(s.at("read"), s.at("messages")) << s.dump();
    if (pattern == "router-done") {
      EXPECT_GT(s.at("router_done").get<uint64_t>(), s.at("last_arrival").get<uint64_t>());
    } else if (pattern == "lost") {
      EXPECT_EQ(s.at("router_done").get<uint64_t>(), 0u);
    } else {
      EXPECT_TRUE(s.at("router_done_err").get<bool>());
    }
  }
}

TEST(Cm5MachineFamily, SimOnTheRtlAgreesWithTheModel) {
  const fs::path dir = testing_checks::temp_dir("cm5-family-rtl");
  const NetworkConfig cfg = small(dir);
  const Family& f = find_family("cm5", "here");
  SimArgs a;
  a.pattern = "duplicated";
  a.per_proc = 2;
  a.engine = "model";
  a.out = (dir / "model.jsonl").string();
  ASSERT_EQ(f.sim(cfg, a), 0);
  a.engine = "rtl";
  a.out = (dir / "rtl.jsonl").string();
  ASSERT_EQ(f.sim(cfg, a), 0);
  // Line by line the same records (sim_lines.h): every message read and router-done's results.
  const auto m = test::read_sim_lines((dir / "model.jsonl").string()), r = test::read_sim_lines((dir / "rtl.jsonl").string());
  test::expect_sim_schema(m, "cm5");
  test::expect_sim_schema(r, "cm5");
  test::expect_engines_agree(m, r);
  EXPECT_EQ(r.back().at("summary").at("model_difference"), "");
  const size_t n = m.size();
  // Every message read once, its words as sent (the hook doubles the counter's count, not the
  // read); router-done's one operation, every leaf's result with the error bit.
  size_t once = 0, ops = 0;
  for (size_t i = 0; i + 1 < r.size(); ++i) {
    if (r[i].at("kind") == "message") {
      once += r[i].at("arrived").size() == 1;
      EXPECT_EQ(r[i].at("arrived").at(0).at("words"), r[i].at("sent").at(0).at("words")) << r[i].dump();
    }
    if (r[i].at("kind") == "operation") {
      ++ops;
      EXPECT_EQ(r[i].at("arrived").size(), 4u);
      for (const auto& e : r[i].at("arrived")) EXPECT_TRUE(e.at("flags").at("err").get<bool>()) << r[i].dump();
    }
  }
  EXPECT_EQ(once, r.back().at("summary").at("messages").get<size_t>());
  EXPECT_EQ(ops, 1u);
  EXPECT_GT(n, 10u);
}

// The CM-5 machine: two equal messages (network, source, destination, tag, words) are credited
// to the first, and both lines say the credit is a guess; a message read twice is one line
// with two arrivals.
TEST(Cm5MachineFamily, SimLinesNameEqualMessagesAmbiguous) {
  const Cm5MachineConfig c = cm5_machine_config(load_network(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5_4.json", nullptr));
  Cm5MachineWorkload w;
  Cm5MachineMessage m;
  m.src = 1;
  m.dst = 2;
  m.data = {1, 0xcafe};
  w.messages = {m, m};
  m.release = 5;
  m.data = {1, 0xbeef};
  w.messages.push_back(m);
  Cm5MachineRun r;
  auto read = [](uint32_t leaf, uint64_t cycle, std::vector<uint32_t> words) {
    Cm5MachineReceived x;
    x.leaf = leaf;
    x.msg.cycle = cycle;
    x.msg.head = 1u << 30;
    x.msg.words = std::move(words);
    return x;
  };
  r.received = {read(2, 30, {1, 0xcafe}), read(2, 41, {1, 0xcafe}), read(2, 50, {1, 0xbeef}), read(2, 51, {1, 0xbeef})};
  const std::vector<SimRecord> recs = cm5_machine_records(c, w, r);
  ASSERT_GE(recs.size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_NE(recs[i].ambiguous.find("carries no id"), std::string::npos) << i;
    EXPECT_EQ(recs[i].arrived.size(), 1u);
  }
  EXPECT_EQ(recs[0].arrived[0].time, 30u);
  EXPECT_TRUE(recs[2].ambiguous.empty());
  EXPECT_EQ(recs[2].arrived.size(), 2u);  // read twice
  EXPECT_EQ(sim_record_json(recs[2])["latency"], 45);
}

// `cmnet sim --engine rtl --trace`: the machine's waveform holds the run's cycles asked for
// (from the first after reset).
TEST(Cm5MachineFamily, SimOnTheRtlWritesTheWaveformAskedFor) {
  const fs::path dir = testing_checks::temp_dir("cm5-family-trace");
  const NetworkConfig cfg = small(dir);
  const Family& f = find_family("cm5", "here");
  SimArgs a;
  a.pattern = "router-done";
  a.engine = "rtl";
  a.out = (dir / "rtl.jsonl").string();
  a.trace = TraceWindow{(dir / "run.fst").string(), 10, 40};
  ASSERT_EQ(f.sim(cfg, a), 0);
  EXPECT_TRUE(test::fst_holds_cycles(a.trace.file, 10, 40));
}

TEST(Cm5MachineFamily, ExampleGenAndRefusals) {
  const Family* f = nullptr;
  const NetworkConfig ex = load_network(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5_16.json", &f);
  ASSERT_NE(f, nullptr);
  const GeneratedDesign d = f->emit(ex);
  EXPECT_EQ(d.top, "cm5_machine");
  EXPECT_FALSE(f->summary(ex).empty());
  EXPECT_EQ(f->canonical_json(parse_config(f->canonical_json(ex), "again")), f->canonical_json(ex));
  const fs::path dir = testing_checks::temp_dir("cm5-family-refuse");
  const NetworkConfig cfg = small(dir);
  SimArgs a;
  a.out = (dir / "x.jsonl").string();
  a.pattern = "torus";
  EXPECT_THROW(f->sim(cfg, a), InputError);
  a.pattern = "lost";
  a.engine = "fpga";
  EXPECT_THROW(f->sim(cfg, a), InputError);
  a.engine = "model";
  a.traffic = "x.traffic";
  EXPECT_THROW(f->sim(cfg, a), InputError);
  EXPECT_THROW(f->run(cfg, RunArgs{}), InputError);
  EXPECT_THROW(f->sweep(cfg, SweepArgs{}), InputError);
  // --trace of `run`: refused with the run itself (the machine has no board to simulate).
  RunArgs traced;
  traced.trace.file = (dir / "board.fst").string();
  try {
    f->run(cfg, traced);
    ADD_FAILURE() << "run --trace accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the cm5 machine has no board"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cmnet

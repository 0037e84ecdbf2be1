// `cmnet sim` for CM-1 on both engines (host/cli/cm1/cm1_sim.h): the RTL's JSON lines against
// the model's for the same pattern, line by line (host/cli/sim_lines.h), each message's data sent
// and the data its processor received. The network and options are cm1_trace_test's (the whole
// network in one model, c = 2): the same cached Verilator build.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "host/cli/cm1/cm1_sim.h"
#include "sim/cm1/traffic.h"
#include "tests/core/sim_lines_check.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

TEST(Cm1SimLines, RtlAndModelLinesAgreeLineByLine) {
  Cm1Config cfg;
  cfg.name = "trace";
  cfg.cm1.cube_dims = 2;
  cfg.cm1.procs_per_chip = 4;
  cfg.cm1.data_bits = 8;
  const Traffic t = make_pattern("permutation", cfg.cm1, 3, 1);
  Cm1RtlOptions whole;
  whole.whole_network = true;
  const fs::path dir = fs::temp_directory_path() / ("cmnet-cm1-lines-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* engine : {"model", "rtl"}) {
    const SimOutcome o = simulate(cfg, t, EjectMode::kOrCombine, engine, 1000, whole);
    ASSERT_TRUE(o.completed) << engine;
    write_jsonl((dir / (std::string(engine) + ".jsonl")).string(), cfg, t, o, engine, EjectMode::kOrCombine);
  }
  const auto model = test::read_sim_lines((dir / "model.jsonl").string());
  const auto rtl = test::read_sim_lines((dir / "rtl.jsonl").string());
  test::expect_sim_schema(model, "cm1");
  test::expect_sim_schema(rtl, "cm1");
  test::expect_engines_agree(model, rtl);
  ASSERT_EQ(rtl.size(), t.messages.size() + 1);
  for (size_t i = 0; i < t.messages.size(); ++i) {
    EXPECT_EQ(rtl[i]["sent"][0]["at"], t.messages[i].src);
    EXPECT_EQ(rtl[i]["dst"], t.messages[i].dst);
    EXPECT_TRUE(rtl[i]["delivered"].get<bool>()) << rtl[i].dump();
    // A permutation: every processor receives one message alone, its data as sent.
    EXPECT_EQ(rtl[i]["arrived"][0]["words"], rtl[i]["sent"][0]["words"]) << rtl[i].dump();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cmnet

// `cmnet sim` for CM-1 on both engines (host/cli/cm1/cm1_sim.h): the RTL's JSON lines against
// the model's for the same pattern, line by line (host/cli/sim_lines.h; both runs' receptions also
// against the oracle), each message's data sent
// and the data its processor received; the lines of OR-combined receptions that more than one
// assignment explains say "ambiguous" and why. The network and options are cm1_trace_test's (the whole
// network in one model, c = 2): the same cached Verilator build.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "host/cli/cm1/cm1_sim.h"
#include "host/cli/sim_lines.h"
#include "sim/cm1/cm1_traffic.h"
#include "tests/cm1/cm1_oracle_check.h"
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
    expect_oracle_agrees(t, o.receptions, EjectMode::kOrCombine, o.petit_cycles, engine);
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

// CM-1: processor 5 receives 0x3 twice; the messages are 0x1, 0x2 and 0x3: either reception may
// be 0x3 and the other 0x1 | 0x2 (the hardware's messages carry no source). The three lines say
// so and why; processor 9's does not (cm1_rtl_test's crediting case, written as `sim` writes it).
TEST(Cm1SimLines, OrCombinedReceptionsAreNamedAmbiguous) {
  Cm1Config cfg;
  cfg.cm1.cube_dims = 4;
  cfg.cm1.procs_per_chip = 16;
  auto msg = [](uint32_t src, uint32_t dst, uint64_t data) {
    Message m;
    m.src = src;
    m.dst = dst;
    m.data = data;
    return m;
  };
  auto rx = [](uint32_t dst, uint64_t petit, uint64_t data) {
    Cm1Reception r;
    r.dst = dst;
    r.petit = petit;
    r.data = data;
    return r;
  };
  const Traffic t{{msg(0, 5, 0x1), msg(1, 5, 0x2), msg(2, 5, 0x3), msg(3, 9, 0x3)}};
  SimOutcome o;
  o.receptions = {rx(5, 2, 0x3), rx(9, 2, 0x3), rx(5, 3, 0x3)};
  o.crediting = credit_receptions(cfg.cm1, t, o.receptions);
  o.deliveries = o.crediting->deliveries;
  o.completed = true;
  const fs::path dir = fs::temp_directory_path() / ("cmnet-cm1-amb-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write_jsonl((dir / "rtl.jsonl").string(), cfg, t, o, "rtl", EjectMode::kOrCombine);
  const auto lines = test::read_sim_lines((dir / "rtl.jsonl").string());
  test::expect_sim_schema(lines, "cm1");
  ASSERT_EQ(lines.size(), 5u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(lines[i]["ambiguous"].get<bool>()) << i;
    EXPECT_NE(lines[i]["why"].get<std::string>().find("OR-combined"), std::string::npos);
    EXPECT_EQ(lines[i]["arrived"][0]["words"][0], "3");  // what the processor received
  }
  EXPECT_FALSE(lines[3]["ambiguous"].get<bool>());
  EXPECT_EQ(lines.back()["summary"]["ambiguous"], 3);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cmnet

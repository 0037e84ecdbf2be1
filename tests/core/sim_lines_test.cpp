// `cmnet sim`'s JSON lines (host/cli/sim_lines.h): one schema for every family, the writer's
// key order and counts, and the lines that say "ambiguous" where an engine cannot tell two
// messages apart (CM-1's OR-combined receptions, the CM-5 machine's equal messages). Model runs
// only: each family's own test compares its RTL's lines with its model's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gen/cm5/cm5_config.h"
#include "host/cli/cm1/cm1_sim.h"
#include "host/cli/cm5/cm5_lines.h"
#include "host/cli/family.h"
#include "host/cli/sim_lines.h"
#include "tests/core/sim_lines_check.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

fs::path temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("cmnet-simlines-" + tag + "-" + std::to_string(::getpid()));
  fs::create_directories(p);
  return p;
}

std::string example(const std::string& name) { return std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + name; }

TEST(SimLines, OneRecordInTheSchemasOrder) {
  SimRecord r;
  r.id = 7;
  r.sent.push_back(SimEnd{3, 10, {0xcafe0001}, {}, {}});
  r.dst = 12;
  r.arrived.push_back(SimEnd{12, 43, {0xcafe0001}, {}, {}});
  r.delivered = true;
  r.extra["tag"] = 2;
  EXPECT_EQ(sim_record_json(r).dump(),
            R"({"id":7,"kind":"message","sent":[{"at":3,"time":10,"words":["cafe0001"]}],"dst":12,)"
            R"("arrived":[{"at":12,"time":43,"words":["cafe0001"]}],"delivered":true,"latency":33,)"
            R"("ambiguous":false,"why":null,"extra":{"tag":2}})");
  r.delivered = false;
  r.arrived.clear();
  r.ambiguous = "a guess";
  const auto j = sim_record_json(r);
  EXPECT_EQ(j["latency"], nullptr);
  EXPECT_EQ(j["ambiguous"], true);
  EXPECT_EQ(j["why"], "a guess");
}

// Every family's `sim` on its model writes the one schema: records numbered 0, 1, ... in the
// input's order, each with what was sent and what arrived, then the summary counting them.
TEST(SimLines, EveryFamilyWritesTheOneSchema) {
  struct Case {
    const char *family, *config, *pattern, *traffic;
  };
  const Case cases[] = {{"cm1", "cm1_c4.json", "", "hello.traffic"},
                        {"cm5data", "cm5data_16.json", "", "cm5data_hello.traffic"},
                        {"cm5ctl", "cm5ctl_4.json", "", "cm5ctl_scan.workload"},
                        {"cm5", "cm5_4.json", "router-done", ""},
                        {"clos", "clos_n224.json", "permutation", ""},
                        {"hcube", "hcube_3.json", "", "hcube_hello.traffic"}};
  ASSERT_EQ(std::size(cases), families().size());
  const fs::path dir = temp_dir("all");
  for (const Case& c : cases) {
    const Family* f = nullptr;
    const NetworkConfig cfg = load_network(example(c.config), &f);
    SimArgs a;
    a.pattern = c.pattern;
    if (*c.traffic) a.traffic = example(c.traffic);
    a.out = (dir / (std::string(c.family) + ".jsonl")).string();
    EXPECT_EQ(f->sim(cfg, a), 0) << c.family;
    const auto lines = test::read_sim_lines(a.out);
    SCOPED_TRACE(c.family);
    test::expect_sim_schema(lines, c.family);
    EXPECT_GT(lines.size(), 1u);
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
      EXPECT_FALSE(lines[i]["sent"].empty()) << lines[i].dump();
      EXPECT_TRUE(lines[i]["delivered"].get<bool>()) << lines[i].dump();
      EXPECT_FALSE(lines[i]["ambiguous"].get<bool>()) << lines[i].dump();  // a model knows its senders
    }
  }
  fs::remove_all(dir);
}

// cm5ctl: an operation's line holds every leaf's input and every leaf's result; the workload
// file's lines numbered in its order (the broadcast, line 7, is record 6; the global ORs last).
TEST(SimLines, Cm5ctlOperationHoldsEveryLeafsInputAndResult) {
  const fs::path dir = temp_dir("cm5ctl");
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(example("cm5ctl_4.json"), &f);
  SimArgs a;
  a.traffic = example("cm5ctl_scan.workload");
  a.out = (dir / "m.jsonl").string();
  ASSERT_EQ(f->sim(cfg, a), 0);
  const auto lines = test::read_sim_lines(a.out);
  ASSERT_EQ(lines.size(), 11u + 1);
  const auto& sum = lines[0];  // reduce add 3 5 7 9
  EXPECT_EQ(sum["kind"], "operation");
  ASSERT_EQ(sum["sent"].size(), 4u);
  ASSERT_EQ(sum["arrived"].size(), 4u);
  const char* in[] = {"3", "5", "7", "9"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(sum["sent"][i]["at"], i);
    EXPECT_EQ(sum["sent"][i]["words"][0], in[i]);
    EXPECT_EQ(sum["arrived"][i]["at"], i);
    EXPECT_EQ(sum["arrived"][i]["words"][0], "18");  // 24
    EXPECT_EQ(sum["arrived"][i]["flags"]["want"], "18");
  }
  EXPECT_EQ(sum["extra"]["comb"], "add");
  EXPECT_EQ(lines[6]["extra"]["type"], "broadcast");
  EXPECT_EQ(lines[6]["sent"][0]["words"][0], "beef");
  EXPECT_EQ(lines[6]["arrived"].size(), 4u);
  EXPECT_EQ(lines[10]["kind"], "globals");
  EXPECT_EQ(lines[10]["sent"].size(), 2u);
  fs::remove_all(dir);
}

// CM-1: processor 5 receives 0x3 twice; the messages are 0x1, 0x2 and 0x3: either reception may
// be 0x3 and the other 0x1 | 0x2 (the hardware's messages carry no source). The three lines say
// so and why; processor 9's does not (cm1_rtl_test's crediting case, written as `sim` writes it).
TEST(SimLines, Cm1OrCombinedReceptionsAreNamedAmbiguous) {
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
  const fs::path dir = temp_dir("cm1");
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

// The CM-5 machine: two equal messages (network, source, destination, tag, words) are credited
// to the first, and both lines say the credit is a guess; a message read twice is one line
// with two arrivals.
TEST(SimLines, Cm5EqualMessagesAreNamedAmbiguous) {
  const Cm5MachineConfig c = cm5_machine_config(load_network(example("cm5_4.json"), nullptr));
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

}  // namespace
}  // namespace cmnet

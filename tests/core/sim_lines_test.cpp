// `cmnet sim`'s JSON lines (host/cli/sim_lines.h): one schema for every family, through the
// registry, and the writer's key order. Model runs only: each family's own test compares its
// RTL's lines with its model's and checks the lines that say "ambiguous" (cm1_sim_lines_test,
// cm5_family_test, cm5data_family_test).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

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

}  // namespace
}  // namespace cmnet

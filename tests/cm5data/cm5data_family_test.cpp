// The cm5data family through the registry: its example configs load, emit and summarize; the
// canonical JSON reads back; `cmnet sim` writes one JSON line per message and a summary on both
// engines; the board top is the stream board's, bad sweep arguments are refused with a clear sentence; a traffic file
// is read with errors naming the file, line and field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bitstreams/board.h"
#include "host/cli/cm5data/cm5data_family.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_traffic.h"
#include "tests/cm5data/cm5data_oracle_check.h"
#include "tests/core/fst_check.h"
#include "tests/core/sim_lines_check.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

std::string example(const std::string& name) { return std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + name; }

TEST(Cm5Family, RegisteredWithItsPatterns) {
  const Family& f = find_family("cm5data", "here");
  EXPECT_EQ(f.name(), "cm5data");
  EXPECT_EQ(f.patterns().size(), 6u);
  EXPECT_FALSE(f.figures().empty());
}

TEST(Cm5Family, ExamplesLoadEmitAndRoundTrip) {
  for (const char* ex : {"cm5data_16.json", "cm5data_64_full.json", "cm5data_paper.json", "cm5data_4_board.json"}) {
    const Family* f = nullptr;
    const NetworkConfig cfg = load_network(example(ex), &f);
    ASSERT_EQ(f->name(), "cm5data");
    EXPECT_NE(f->summary(cfg).find("router chips"), std::string::npos) << ex;
    const NetworkConfig again = parse_config(f->canonical_json(cfg), "canonical");
    EXPECT_EQ(f->canonical_json(again), f->canonical_json(cfg)) << ex;
    if (std::string(ex) != "cm5data_paper.json") {
      EXPECT_FALSE(f->emit(cfg).verilog_files().empty()) << ex;
    }
  }
  const Family* f = nullptr;
  const NetworkConfig paper = load_network(example("cm5data_paper.json"), &f);
  EXPECT_NE(f->summary(paper).find("16384 leaves"), std::string::npos) << f->summary(paper);
  EXPECT_THROW(f->emit(paper), ConfigError);  // 16,384 leaves: the model only
}

TEST(Cm5Family, BoardTopOnTheStreamShellAndRefusals) {
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(example("cm5data_16.json"), &f);
  EXPECT_EQ(f->build_modes(),
            (std::vector<std::string>{"host", "network", "cabled-network", "cabled-leaf", "cabled-rom-leaf"}));
  Board b;
  b.clock_mhz = 12;
  const GeneratedDesign d = f->board_top(cfg, b, BuildArgs{});
  EXPECT_EQ(d.top, "cm5data_host_board");
  BuildArgs other;
  other.mode = "chip";
  EXPECT_THROW(f->board_top(cfg, b, other), InputError);
  // The self-test top needs the board's LEDs (pass, fail).
  BuildArgs selftest;
  selftest.mode = "network";
  selftest.pattern = "nearest-neighbour";
  selftest.per_proc = 2;
  EXPECT_THROW(f->board_top(cfg, b, selftest), ConfigError);
  b.leds = {BoardPin{"LED0", "B5", false, ""}, BoardPin{"LED1", "B4", true, ""}};
  const GeneratedDesign st = f->board_top(cfg, b, selftest);
  EXPECT_EQ(st.top, "cm5data_selftest_top");
  bool has_json = false;
  for (const auto& [name, text] : st.files)
    if (name == "selftest.json") has_json = text.find("\"pattern\": \"nearest-neighbour\"") != std::string::npos;
  EXPECT_TRUE(has_json);
  // The split over boards: a 16-leaf network is refused by name; the 4-leaf one builds each board.
  BuildArgs cabled = selftest;
  cabled.mode = "cabled-leaf";
  EXPECT_THROW(f->board_top(cfg, b, cabled), ConfigError);
  const NetworkConfig four = load_network(example("cm5data_4_board.json"), &f);
  cabled.chip_id = 3;
  EXPECT_EQ(f->board_top(four, b, cabled).top, "cm5data_cabled_leaf");
  cabled.mode = "cabled-network";
  EXPECT_THROW(f->board_top(four, b, cabled), ConfigError);  // a network board's side is 0 or 1
  cabled.chip_id = 1;
  EXPECT_EQ(f->board_top(four, b, cabled).top, "cm5data_cabled_network");
  // A traffic file is for the self-test and split tops; the host board refuses it by name.
  BuildArgs host;
  host.traffic = "mine.txt";
  try {
    f->board_top(four, b, host);
    ADD_FAILURE() << "--traffic accepted for the host board";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--traffic"), std::string::npos) << e.what();
  }
  RunArgs r;
  r.generator = "x";
  try {
    f->run(cfg, r);
    ADD_FAILURE() << "run accepted --generator";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--generator: not used by the cm5data family"), std::string::npos) << e.what();
  }
  // Sweep arguments are refused before a board starts.
  SweepArgs sm;
  sm.mode = "or";
  SweepArgs sp;
  sp.pattern = "tornado";
  SweepArgs sz;
  sz.max_per_proc = 0;
  SweepArgs sl;
  sl.sim_link = "pigeon";
  const std::pair<SweepArgs, const char*> bad[] = {{sm, "--mode is CM-1's"},
                                                   {sp, "--pattern tornado: unknown pattern"},
                                                   {sz, "--max-per-proc 0 must be at least 1"},
                                                   {sl, "--sim-link pigeon"}};
  for (const auto& [args, want] : bad) {
    try {
      f->sweep(cfg, args);
      ADD_FAILURE() << "sweep accepted " << want;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}

TEST(Cm5Family, SlotsNetworkRefusedOnTheBoard) {
  // Input slots count credits per message; the board's leaf interfaces count them per flit.
  const NetworkConfig cfg = parse_config(
      R"({"network":"cm5data","name":"s","cm5data":{"height":2,"slots":2}})", "slots.json");
  const Family& f = find_family("cm5data", "here");
  EXPECT_NE(f.summary(cfg).find("(2 message slots)"), std::string::npos) << f.summary(cfg);
  Board b;
  b.clock_mhz = 12;
  const std::string want = "slots.json: cm5data: slots = 2 is not supported by ";
  try {
    f.board_top(cfg, b, BuildArgs{});
    ADD_FAILURE() << "build accepted slots";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(want + "build"), std::string::npos) << e.what();
  }
  // The self-test top's leaves count slots as the chips do.
  b.leds = {BoardPin{"LED0", "B5", false, ""}, BoardPin{"LED1", "B4", false, ""}};
  BuildArgs selftest;
  selftest.mode = "network";
  EXPECT_EQ(f.board_top(cfg, b, selftest).top, "cm5data_selftest_top");
  try {
    f.run(cfg, RunArgs{});
    ADD_FAILURE() << "run accepted slots";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(want + "run"), std::string::npos) << e.what();
  }
  try {
    f.sweep(cfg, SweepArgs{});
    ADD_FAILURE() << "sweep accepted slots";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(want + "sweep"), std::string::npos) << e.what();
  }
}

TEST(Cm5Family, SimWritesJsonLinesOnBothEngines) {
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(example("cm5data_16.json"), &f);
  const fs::path dir = fs::temp_directory_path() / ("cmnet-cm5fam-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> lines[2];
  int e = 0;
  for (const char* engine : {"model", "rtl"}) {
    SimArgs a;
    a.engine = engine;
    a.traffic = example("cm5data_hello.traffic");
    a.out = (dir / (std::string(engine) + ".jsonl")).string();
    EXPECT_EQ(f->sim(cfg, a), 0) << engine;
    std::ifstream in(a.out);
    for (std::string l; std::getline(in, l);) lines[e].push_back(l);
    ++e;
  }
  ASSERT_EQ(lines[0].size(), 5u);
  // The same messages at the same cycles; the summaries differ only in the engine and time.
  for (size_t i = 0; i + 1 < lines[0].size(); ++i) EXPECT_EQ(lines[0][i], lines[1][i]);
  auto sm = nlohmann::json::parse(lines[0].back())["summary"], sr = nlohmann::json::parse(lines[1].back())["summary"];
  for (auto* s : {&sm, &sr}) {
    s->erase("engine");
    s->erase("seconds");
  }
  EXPECT_EQ(sm, sr);
  EXPECT_EQ(sm["delivered"], 4);
  const auto model = test::read_sim_lines(dir / "model.jsonl"), rtl = test::read_sim_lines(dir / "rtl.jsonl");
  test::expect_sim_schema(model, "cm5data");
  test::expect_sim_schema(rtl, "cm5data");
  test::expect_engines_agree(model, rtl);
  const auto& j = rtl[1];
  EXPECT_EQ(j["kind"], "message");
  EXPECT_EQ(j["sent"][0]["at"], 3);
  EXPECT_EQ(j["dst"], 12);
  EXPECT_EQ(j["sent"][0]["words"].size(), 2u);
  EXPECT_EQ(j["arrived"][0]["at"], 12);
  EXPECT_EQ(j["arrived"][0]["words"], j["sent"][0]["words"]);  // what arrived, not only when
  EXPECT_EQ(j["latency"], j["arrived"][0]["time"].get<uint64_t>() - j["sent"][0]["time"].get<uint64_t>());
  EXPECT_EQ(j["extra"]["crc_ok"], true);
  EXPECT_EQ(j["extra"]["lca_level"], 2);
  // What the RTL's lines say arrived, against the paper's view of the traffic file (untimed:
  // each message once at its destination with the data words it was sent with).
  const Cm5DataParams p = cm5data_config(cfg).cm5;
  std::vector<Cm5UntimedDelivery> got;
  for (const auto& l : rtl)
    if (l.contains("kind") && l["kind"] == "message")
      for (const auto& a : l["arrived"]) {
        Cm5UntimedDelivery d{a["at"].get<uint32_t>(), {}};
        for (const auto& w : a["words"]) d.data.push_back(static_cast<uint32_t>(std::stoul(w.get<std::string>(), nullptr, 16)));
        got.push_back(d);
      }
  ASSERT_EQ(got.size(), 4u);
  expect_cm5_oracle_agrees_untimed(p, read_cm5_traffic_file(example("cm5data_hello.traffic"), p), got, "the RTL's sim lines");
  fs::remove_all(dir);
}

// Issue 24's reproduction: the same payload from leaves 15 and 1 to leaf 0. The hardware cannot
// tell the two apart by what arrives; the RTL engine's second run, each message's first word
// replaced by its traffic index (a simulation-only id), arrives at the same leaves and cycles
// and names them: both engines give each message its own latency, their lines equal line by
// line, with what arrived and how often (copies), neither line ambiguous. Same 16-leaf build.
TEST(Cm5Family, SimEqualPayloadsFromTwoLeavesKeepTheirLatencies) {
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(example("cm5data_16.json"), &f);
  const fs::path dir = fs::temp_directory_path() / ("cmnet-cm5fam-eq-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string traffic = (dir / "eq.traffic").string();
  std::ofstream(traffic) << "15 0 cafe0001\n1 0 cafe0001\n";
  std::vector<nlohmann::json> lines[2];
  int e = 0;
  for (const char* engine : {"model", "rtl"}) {
    SimArgs a;
    a.engine = engine;
    a.traffic = traffic;
    a.out = (dir / (std::string(engine) + ".jsonl")).string();
    EXPECT_EQ(f->sim(cfg, a), 0) << engine;
    std::ifstream in(a.out);
    for (std::string l; std::getline(in, l);) lines[e].push_back(nlohmann::json::parse(l));
    ++e;
  }
  ASSERT_EQ(lines[0].size(), 3u);
  ASSERT_EQ(lines[1].size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(lines[0][i], lines[1][i]);
    EXPECT_EQ(lines[1][i]["arrived"].size(), 1u);
    EXPECT_EQ(lines[1][i]["arrived"][0]["words"], nlohmann::json::array({"cafe0001"}));
    EXPECT_EQ(lines[1][i]["extra"]["copies"], 1);
    EXPECT_EQ(lines[1][i]["ambiguous"], false);
    EXPECT_EQ(lines[1][i]["why"], nullptr);
  }
  EXPECT_LT(lines[1][1]["latency"], lines[1][0]["latency"]);  // leaf 1 is nearer leaf 0 than leaf 15
  fs::remove_all(dir);
}

// Where the RTL engine cannot tell a message from an equal one (its tagged second run did not
// arrive at the same leaves and cycles, so the first run's credit stands as a guess), the line
// says so and why, and still holds what arrived; the summary counts it.
TEST(Cm5Family, SimLineOfAnUntoldMessageSaysAmbiguous) {
  Cm5DataMessage m;
  m.src = 15;
  m.dst = 0;
  m.data = {0xcafe0001};
  m.len = 1;
  Cm5DataDelivery d;
  d.delivered = true;
  d.sent = 0;
  d.arrived = 58;
  d.at_leaf = 0;
  d.words = {0x1234, 0xcafe0001, 0x5678};  // head, data, CRC
  d.crc_ok = true;
  d.copies = 1;
  d.ambiguous = true;
  const auto j = sim_record_json(cm5data_sim_record(0, m, d));
  EXPECT_EQ(j["ambiguous"], true);
  EXPECT_NE(j["why"].get<std::string>().find("equal messages in flight"), std::string::npos);
  EXPECT_EQ(j["arrived"][0]["words"], nlohmann::ordered_json::array({"cafe0001"}));
  EXPECT_EQ(j["latency"], 58);
  d.ambiguous = false;
  EXPECT_EQ(sim_record_json(cm5data_sim_record(0, m, d))["why"], nullptr);
}

// The traffic `cmnet sim` hands to either engine is drawn before the engine is chosen, from the
// pattern and --seed alone: the same seed, the same messages and data words.
TEST(Cm5Family, PatternTrafficDependsOnTheSeedOnly) {
  const Cm5DataParams p = cm5data_config(load_network(example("cm5data_16.json"), nullptr)).cm5;
  auto text = [](const Cm5DataTraffic& t) {
    std::string s;
    for (const Cm5DataMessage& m : t.messages) {
      s += std::to_string(m.src) + ' ' + std::to_string(m.dst) + ' ' + std::to_string(m.tag) + ' ' + std::to_string(m.inject_at);
      for (uint32_t w : m.data) s += ' ' + std::to_string(w);
      s += '\n';
    }
    return s;
  };
  for (const char* pat : {"random", "hot-spot"}) {
    EXPECT_EQ(text(make_cm5_pattern(pat, p, 7, 2)), text(make_cm5_pattern(pat, p, 7, 2))) << pat;
    EXPECT_NE(text(make_cm5_pattern(pat, p, 7, 2)), text(make_cm5_pattern(pat, p, 8, 2))) << pat;
  }
}

// `cmnet sim --engine rtl --trace`: the waveform holds the run's cycles asked for. The config is
// cm5data_rtl_faults_test's traced 4-leaf network: the same Verilator build.
TEST(Cm5Family, SimOnTheRtlWritesTheWaveformAskedFor) {
  const Family& f = find_family("cm5data", "here");
  const NetworkConfig cfg = parse_config(R"({"network": "cm5data", "name": "cm5data-4-mapped-out",
      "cm5data": {"height": 1, "parents": "cm5", "link_bits": 8, "buffer_words": 2, "seed": 4,
                  "mapped_out_leaves": [2]}})", "traced.json");
  f.check(cfg);
  const fs::path dir = fs::temp_directory_path() / ("cmnet-cm5fam-trace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  SimArgs a;
  a.engine = "rtl";
  a.pattern = "random";
  a.seed = 21;
  a.out = (dir / "rtl.jsonl").string();
  a.trace = TraceWindow{(dir / "run.fst").string(), 4, 15};
  EXPECT_EQ(f.sim(cfg, a), 0);
  EXPECT_TRUE(test::fst_holds_cycles(a.trace.file, 4, 15));
  fs::remove_all(dir);
}

TEST(Cm5Family, TrafficFileErrorsNameFileLineAndField) {
  const fs::path p = fs::temp_directory_path() / ("cm5bad-" + std::to_string(::getpid()) + ".traffic");
  Cm5DataParams params;
  auto err = [&](const std::string& text) {
    std::ofstream(p) << text;
    try {
      (void)read_cm5_traffic_file(p.string(), params);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(err("0 16 1\n").find(":1: field 'DST' value 16 out of range 0..15"), std::string::npos);
  EXPECT_NE(err("# c\n0 1 1 2 3 4 5 6\n").find(":2: field 'DATA': 6 words, at most 5"), std::string::npos);
  EXPECT_NE(err("0 1 xyz\n").find("field 'DATA' value xyz"), std::string::npos);
  EXPECT_EQ(err("0 1 1\n"), "(accepted)");
  fs::remove(p);
}

}  // namespace
}  // namespace cmnet

// The hcube family through the registry: its example configs load and round-trip; the summary
// names the scheme; `cmnet sim --engine model` writes one JSON line per message, a short summary
// (port totals, per dimension, the spread) and every port's counters in its own CSV; a traffic file is read with errors naming the file, line and field;
// build emits the stream-board top; run and sweep refuse bad options before a board starts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "bitstreams/board.h"
#include "host/cli/hcube/hcube_family.h"
#include "gen/core/errors.h"
#include "tests/core/fst_check.h"
#include "tests/core/sim_lines_check.h"
#include "tests/hcube/hcube_oracle_check.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

std::string example(const std::string& name) { return std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + name; }

TEST(HcubeFamily, RegisteredExamplesLoadAndRoundTrip) {
  const Family& f = find_family("hcube", "here");
  EXPECT_EQ(f.patterns().size(), 4u);
  EXPECT_FALSE(f.figures().empty());
  for (const char* ex : {"hcube_3.json", "hcube_paper_quasi.json", "hcube_paper_fixed.json", "hcube_paper_wormhole.json"}) {
    const Family* g = nullptr;
    const NetworkConfig cfg = load_network(example(ex), &g);
    ASSERT_EQ(g->name(), "hcube");
    const NetworkConfig again = parse_config(g->canonical_json(cfg), "canonical");
    EXPECT_EQ(g->canonical_json(again), g->canonical_json(cfg)) << ex;
  }
  EXPECT_FALSE(find_family("hcube", "here").emit(load_network(example("hcube_3.json"), nullptr)).verilog_files().empty());
  const Family* g = nullptr;
  const NetworkConfig q = load_network(example("hcube_paper_quasi.json"), &g);
  EXPECT_NE(g->summary(q).find("quasi routing"), std::string::npos) << g->summary(q);
  const NetworkConfig w = load_network(example("hcube_paper_wormhole.json"), &g);
  EXPECT_NE(g->summary(w).find("wormhole"), std::string::npos) << g->summary(w);
}

fs::path temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("cmnet-hcube-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// The lines of a file.
std::vector<std::string> lines_of(const fs::path& f) {
  std::ifstream in(f);
  std::vector<std::string> v;
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

// The summary's port totals and per-dimension sums against the per-port CSV, row by row.
void expect_ports_match_csv(const nlohmann::json& ports, const fs::path& csv, int dims) {
  const auto rows = lines_of(csv);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], "node,dim,packets,messages,bytes,blocked_ticks");
  const size_t n_ports = static_cast<size_t>(dims) << dims;
  ASSERT_EQ(rows.size(), n_ports + 1);  // one row per port of every node
  EXPECT_EQ(ports["count"].get<size_t>(), n_ports);
  const char* names[] = {"packets", "messages", "bytes", "blocked_ticks"};
  uint64_t total[4] = {0, 0, 0, 0}, max[4] = {0, 0, 0, 0};
  std::vector<uint64_t> dim_bytes(static_cast<size_t>(dims), 0);
  for (size_t i = 1; i < rows.size(); ++i) {
    std::istringstream in(rows[i]);
    std::string cell;
    std::vector<uint64_t> v;
    while (std::getline(in, cell, ',')) v.push_back(std::stoull(cell));
    ASSERT_EQ(v.size(), 6u) << rows[i];
    EXPECT_EQ(v[0], (i - 1) / static_cast<size_t>(dims));  // node-major, dimension within
    EXPECT_EQ(v[1], (i - 1) % static_cast<size_t>(dims));
    for (int k = 0; k < 4; ++k) total[k] += v[2 + k], max[k] = std::max(max[k], v[2 + k]);
    dim_bytes[v[1]] += v[4];
  }
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(ports["total"][names[k]].get<uint64_t>(), total[k]) << names[k];
    EXPECT_EQ(ports["per_port"][names[k]]["max"].get<uint64_t>(), max[k]) << names[k];
  }
  ASSERT_EQ(ports["per_dim"].size(), static_cast<size_t>(dims));
  for (int d = 0; d < dims; ++d) EXPECT_EQ(ports["per_dim"][d]["bytes"].get<uint64_t>(), dim_bytes[static_cast<size_t>(d)]);
}

TEST(HcubeFamily, SimModelWritesMessagesAndPortCounters) {
  const fs::path dir = temp_dir("sim");
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(example("hcube_3.json"), &f);
  for (const char* traffic : {"", "hcube_hello.traffic"}) {
    SimArgs a;
    a.engine = "model";
    a.per_proc = 4;
    if (*traffic) a.traffic = example(traffic);
    else a.pattern = "uniform";
    a.out = (dir / "out.jsonl").string();
    EXPECT_EQ(f->sim(cfg, a), 0);
    const auto lines = lines_of(a.out);
    ASSERT_FALSE(lines.empty());
    const auto s = nlohmann::json::parse(lines.back())["summary"];
    EXPECT_EQ(lines.size(), s["messages"].get<size_t>() + 1);
    EXPECT_TRUE(s["completed"].get<bool>());
    EXPECT_EQ(s["ports"]["file"], "out.ports.csv");
    EXPECT_EQ(hcube_ports_path(a.out), (dir / "out.ports.csv").string());
    expect_ports_match_csv(s["ports"], dir / "out.ports.csv", 3);
    EXPECT_GE(s["ports"]["total"]["messages"].get<uint64_t>(), s["messages"].get<uint64_t>());
  }
  SimArgs bad;
  bad.engine = "spice";
  bad.pattern = "uniform";
  bad.out = (dir / "x.jsonl").string();
  EXPECT_THROW(f->sim(cfg, bad), InputError);
  fs::remove_all(dir);
}

// A 10-cube has 10,240 ports: the summary line stays short (it used to list them all, 770 kB)
// and the CSV holds one row per port.
// The traffic `cmnet sim` hands to either engine is drawn before the engine is chosen, from the
// pattern and --seed alone (the payload bytes from the config's seed, hcube_payload, on both).
TEST(HcubeFamily, PatternTrafficDependsOnTheSeedOnly) {
  const HcubeParams p = hcube_config(load_network(example("hcube_3.json"), nullptr)).hc;
  auto text = [&](uint64_t seed) {
    std::ostringstream s;
    for (const HcubeMessage& m : hcube_sim_pattern(p, "uniform", seed, 3).messages)
      s << m.src << ' ' << m.dst << ' ' << m.gen << ' ' << m.len << ' ' << m.seq << '\n';
    return s.str();
  };
  EXPECT_EQ(text(7), text(7));
  EXPECT_NE(text(7), text(8));
}

TEST(HcubeFamily, SimSummaryStaysShortAtTenDimensions) {
  const fs::path dir = temp_dir("sim10");
  const Family& f = find_family("hcube", "here");
  const NetworkConfig cfg =
      parse_config(R"({"network": "hcube", "name": "cube10", "hcube": {"dims": 10, "buffers": 4}})", "cube10");
  SimArgs a;
  a.engine = "model";
  a.pattern = "uniform";
  a.per_proc = 1;
  a.out = (dir / "ten.jsonl").string();
  EXPECT_EQ(f.sim(cfg, a), 0);
  const auto lines = lines_of(a.out);
  ASSERT_EQ(lines.size(), 1024u + 1);
  EXPECT_LT(lines.back().size(), 4000u) << "the summary line";
  const auto s = nlohmann::json::parse(lines.back())["summary"];
  expect_ports_match_csv(s["ports"], dir / "ten.ports.csv", 10);
  // Each message's first packet crosses one port per hop.
  uint64_t hops = 0;
  for (size_t i = 0; i + 1 < lines.size(); ++i) hops += nlohmann::json::parse(lines[i])["extra"]["hops"].get<uint64_t>();
  EXPECT_EQ(s["ports"]["total"]["messages"].get<uint64_t>(), hops);
  fs::remove_all(dir);
}

std::string traffic_error(const std::string& text) {
  const fs::path dir = temp_dir("traffic");
  std::ofstream(dir / "t.traffic") << text;
  HcubeParams p;
  try {
    (void)read_hcube_traffic_file((dir / "t.traffic").string(), p);
  } catch (const InputError& e) {
    fs::remove_all(dir);
    return e.what();
  }
  fs::remove_all(dir);
  return "(accepted)";
}

TEST(HcubeFamily, BadTrafficFilesGiveClearErrors) {
  EXPECT_NE(traffic_error("0 1 0\n").find("t.traffic:1: expected SRC DST GEN LEN, got 3 fields"), std::string::npos);
  EXPECT_NE(traffic_error("# c\n0 9 0 5\n").find("t.traffic:2: field 'DST' value 9 out of range 0..7"), std::string::npos);
  EXPECT_NE(traffic_error("0 1 0 0\n").find("field 'LEN' value 0 out of range 1.."), std::string::npos);
  EXPECT_NE(traffic_error("2 2 0 5\n").find("field 'DST' value 2 is the source"), std::string::npos);
  EXPECT_NE(traffic_error("1 2 50 5\n1 3 40 5\n").find("t.traffic:2: field 'GEN' value 40 is before"), std::string::npos);
  EXPECT_NE(traffic_error("x 2 0 5\n").find("field 'SRC' value x"), std::string::npos);
  EXPECT_EQ(traffic_error("0 7 0 100 # ok\n"), "(accepted)");
}

// What `cmnet sim` lines say arrived, as the receivers' reassembled messages (the type field
// is the message's sequence number at its source).
HcubeRunResult received_of_lines(const HcubeTraffic& t, const std::vector<nlohmann::ordered_json>& lines) {
  HcubeRunResult r;
  for (const auto& l : lines) {
    if (!l.contains("id") || l["arrived"].empty()) continue;
    const auto& e = l["arrived"][0];
    HcubeReceived x;
    x.dst = e["at"].get<uint32_t>();
    x.src = l["sent"][0]["at"].get<uint32_t>();
    x.type = t.messages.at(l["id"].get<size_t>()).seq & 0xFFFFu;
    x.len = l["extra"]["len"].get<uint32_t>();
    x.first_dim = l["extra"]["first_dim"].get<int>();
    x.first = l["extra"]["first"].get<uint64_t>();
    x.last = e["time"].get<uint64_t>();
    for (const auto& w : e["words"])
      for (size_t k = 0; k + 1 < w.get<std::string>().size(); k += 2)
        x.data.push_back(static_cast<uint8_t>(std::stoi(w.get<std::string>().substr(k, 2), nullptr, 16)));
    r.received.push_back(std::move(x));
  }
  return r;
}

// `cmnet sim --engine rtl --trace`: the waveform holds the run's ticks asked for (counted from the
// first after reset), on the smallest cube.
TEST(HcubeFamily, SimOnTheRtlWritesTheWaveformAskedFor) {
  const Family& f = find_family("hcube", "here");
  const NetworkConfig cfg = parse_config(R"({"network": "hcube", "name": "cube2", "hcube": {"dims": 2}})", "cube2.json");
  f.check(cfg);
  const fs::path dir = fs::temp_directory_path() / ("cmnet-hcube-trace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  SimArgs a;
  a.engine = "rtl";
  a.pattern = "uniform";
  a.out = (dir / "rtl.jsonl").string();
  a.trace = TraceWindow{(dir / "run.fst").string(), 6, 30};
  EXPECT_EQ(f.sim(cfg, a), 0);
  EXPECT_TRUE(test::fst_holds_cycles(a.trace.file, 6, 30));
  // The model on the same pattern: the same lines (sim_lines.h), each message's payload sent and
  // the bytes the receiver reassembled, line by line.
  a.engine = "model";
  a.trace = {};
  a.out = (dir / "model.jsonl").string();
  EXPECT_EQ(f.sim(cfg, a), 0);
  const auto model = test::read_sim_lines(a.out), rtl = test::read_sim_lines((dir / "rtl.jsonl").string());
  test::expect_sim_schema(rtl, "hcube");
  test::expect_engines_agree(model, rtl);
  for (size_t i = 0; i + 1 < rtl.size(); ++i) {
    EXPECT_TRUE(rtl[i]["delivered"].get<bool>());
    EXPECT_EQ(rtl[i]["arrived"][0]["words"], rtl[i]["sent"][0]["words"]) << rtl[i].dump();
  }
  // The RTL's lines against the paper's oracle: where, what, which first hop, how soon.
  const HcubeParams p = hcube_config(cfg).hc;
  const HcubeTraffic t = hcube_sim_pattern(p, a.pattern, a.seed, a.per_proc);
  for (const std::string& s : hcube_oracle_check(p, t, received_of_lines(t, rtl)))
    ADD_FAILURE() << "rtl lines against the oracle: " << s;
  fs::remove_all(dir);
}

TEST(HcubeFamily, BoardCommandsTakeTheStreamBoard) {
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(example("hcube_3.json"), &f);
  EXPECT_EQ(f->build_modes(), (std::vector<std::string>{"host", "network"}));
  Board b;
  b.clock_mhz = 12;
  EXPECT_EQ(f->board_top(cfg, b, BuildArgs{}).top, "hcube_host_board");
  BuildArgs other;
  other.mode = "other";
  EXPECT_THROW(f->board_top(cfg, b, other), InputError);
  BuildArgs traffic;
  traffic.traffic = example("hcube_hello.traffic");
  EXPECT_THROW(f->board_top(cfg, b, traffic), InputError);  // the host board's traffic comes from cmnet run
  RunArgs r;
  r.pattern = "no-such-pattern";
  EXPECT_THROW(f->run(cfg, r), InputError);  // refused before a board starts
  RunArgs cm1;
  cm1.mode = "or";
  EXPECT_THROW(f->run(cfg, cm1), InputError);
  SweepArgs s;
  s.mode = "or";
  EXPECT_THROW(f->sweep(cfg, s), InputError);
  RunArgs link;
  link.sim_link = "pigeon";
  EXPECT_THROW(f->run(cfg, link), InputError);
}

// Fails unless `f` throws an error whose message holds `text`.
template <typename F>
void expect_error(F f, const std::string& text) {
  try {
    f();
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    return;
  }
  ADD_FAILURE() << "no error; expected one saying: " << text;
}

std::string file_text(const GeneratedDesign& d, const std::string& name) {
  for (const auto& [n, text] : d.files)
    if (n == name) return text;
  ADD_FAILURE() << "no file " << name;
  return "";
}

NetworkConfig with_dims(NetworkConfig c, int dims) {
  c.section["dims"] = dims;
  return c;
}

// `cmnet build --mode network`: the self-test top of a wormhole cube, its traffic a pattern or a
// traffic file; a packet cube, a cube too large or too much traffic for the ROM refused, naming why.
TEST(HcubeFamily, NetworkModeBuildsTheSelfTestTopOrSaysWhyNot) {
  const Family* f = nullptr;
  const NetworkConfig worm = load_network(example("hcube_2_board.json"), &f);
  const Board b = load_board("ice40hx8k_breakout");
  BuildArgs a;
  a.mode = "network";
  a.per_proc = 2;
  const GeneratedDesign d = f->board_top(worm, b, a);
  EXPECT_EQ(d.top, "hcube_selftest_top");
  EXPECT_NE(file_text(d, "selftest.json").find("\"pattern\": \"uniform\""), std::string::npos);  // permutation runs as uniform
  BuildArgs file = a;
  const fs::path dir = fs::temp_directory_path() / ("cmnet-hcube-st-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream(dir / "t.traffic") << "0 3 0 20\n1 2 5 7\n3 0 5 1\n";
  }
  file.traffic = (dir / "t.traffic").string();
  EXPECT_NE(file_text(f->board_top(worm, b, file), "hcube_selftest_top.v").find("node 3 message 0 to 0, 11 bytes, gen 5"),
            std::string::npos);
  {
    std::ofstream(dir / "long.traffic") << "0 3 0 600\n";
  }
  file.traffic = (dir / "long.traffic").string();
  expect_error([&] { (void)f->board_top(worm, b, file); }, "node 0's worms are 610 bytes");
  fs::remove_all(dir);
  BuildArgs many = a;
  many.per_proc = 40;
  many.pattern = "bit-complement";
  expect_error([&] { (void)f->board_top(worm, b, many); }, "sends 40 messages; a self-test ROM holds 32");
  BuildArgs none = a;
  none.per_proc = 0;
  expect_error([&] { (void)f->board_top(worm, b, none); }, "--per-proc 0");
  expect_error([&] { (void)f->board_top(with_dims(worm, 4), b, a); }, "dims = 4 out of range 2..3");
  const NetworkConfig packet = load_network(example("hcube_3.json"), &f);
  expect_error([&] { (void)f->board_top(packet, b, a); }, "wormhole networks only");
}

}  // namespace
}  // namespace cmnet

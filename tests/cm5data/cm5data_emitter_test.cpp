// The CM-5 data network config and Verilog emitter: config errors (a width of 3, 5 parents, a
// height of 0, ...), derived figures, determinism, the generated header, and a matrix of
// networks that must pass `verilator --lint-only -Wall`, plus yosys synth_ice40 of one router.
#include "gen/cm5data/cm5data_emitter.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gen/cm5data/cm5data_stream.h"
#include "gen/core/errors.h"
#include "gen/core/process.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;
using testing_checks::file_of;
using testing_checks::temp_dir;
using testing_checks::run_tool;

std::string config_error(const std::string& body) {
  try {
    (void)parse_cm5data_config(R"({"network": "cm5data", "cm5data": )" + body + "}", "net.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

Cm5DataConfig cfg(int h, const std::string& profile, int W, int buffer_words = 2) {
  Cm5DataConfig c;
  c.cm5.height = h;
  c.cm5.profile = profile;
  c.cm5.link_bits = W;
  c.cm5.buffer_words = buffer_words;
  return c;
}

TEST(Cm5DataConfig, BadConfigsGiveClearErrors) {
  const std::string w3 = config_error(R"({"link_bits": 3})");
  EXPECT_NE(w3.find("net.json: cm5data: link_bits = 3 is not allowed (allowed: 4, 8, 16, 32)"), std::string::npos) << w3;
  const std::string p5 = config_error(R"({"height": 3, "parents": [2, 5]})");
  EXPECT_NE(p5.find("net.json: cm5data: parents[1] (level 2) = 5 is not allowed (allowed: 2, 4)"), std::string::npos) << p5;
  const std::string h0 = config_error(R"({"height": 0})");
  EXPECT_NE(h0.find("net.json: cm5data: height = 0 out of range 1..7"), std::string::npos) << h0;
  EXPECT_NE(config_error(R"({"height": 3, "parents": [2]})").find("needs 2"), std::string::npos);
  EXPECT_NE(config_error(R"({"parents": "thin"})").find("parents = \"thin\" is not a profile"), std::string::npos);
  EXPECT_NE(config_error(R"({"max_words": 6})").find("max_words = 6 out of range 1..5"), std::string::npos);
  EXPECT_NE(config_error(R"({"buffer_words": 0})").find("buffer_words = 0 out of range 1..16"), std::string::npos);
  EXPECT_NE(config_error(R"({"seed": -1})").find("seed = -1 out of range 0..65535"), std::string::npos);
  EXPECT_NE(config_error(R"({"widht": 4})").find("unknown field 'widht'"), std::string::npos);
  EXPECT_EQ(config_error(R"({"height": 3, "parents": [4, 2], "link_bits": 8})"), "(accepted)");
  // Map-out and fault injection.
  const std::string mo = config_error(R"({"height": 2, "mapped_out": [{"level": 1, "node": 4, "chip": 0, "parent": 0}]})");
  EXPECT_NE(mo.find("net.json: cm5data: mapped_out[0].node = 4 out of range 0..3"), std::string::npos) << mo;
  EXPECT_NE(config_error(R"({"height": 2, "mapped_out": [{"level": 1, "node": 0, "chip": 0}]})").find("mapped_out[0]: parent is missing"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"height": 2, "mapped_out": [{"level": 2, "node": 0, "chip": 0, "parent": 0}]})")
                .find("mapped_out[0].level = 2 out of range 1..1"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"height": 2, "mapped_out": [{"level": 1, "node": 0, "chip": 0, "parent": 0},
                                                         {"level": 1, "node": 0, "chip": 0, "parent": 1}]})")
                .find("mapped_out leaves no way up at level 1 from chip 0 of node 0 (all its parents are out)"),
            std::string::npos);
  const std::string ff = config_error(R"({"height": 2, "fault": {"chip": 9, "port": 0, "flit": 8, "mask": 1}})");
  EXPECT_NE(ff.find("net.json: cm5data: fault.chip = 9 out of range 0..5"), std::string::npos) << ff;
  EXPECT_NE(config_error(R"({"height": 2, "fault": {"chip": 0, "port": 0, "flit": 2}})").find("fault.flit = 2 out of range 8..55"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"height": 2, "fault": {"chip": 0, "flit": 9, "mask": 0}})").find("fault.mask = 0 out of range 1..15"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"fault": {"chip": 0, "bit": 1}})").find("unknown field 'bit'"), std::string::npos);
  // The NIs' FIFO sizes.
  const std::string nr = config_error(R"({"ni": {"recv_words": 12}})");
  EXPECT_NE(nr.find("net.json: cm5data: ni.recv_words = 12 is not allowed (a power of 2, 8..64, at least the longest "
                    "message: 7 words)"),
            std::string::npos)
      << nr;
  EXPECT_NE(config_error(R"({"ni": {"send_words": 4, "recv_words": 8}})").find("ni.send_words = 4 is not allowed"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"ni": {"send_words": 128}})").find("ni.send_words = 128 is not allowed"), std::string::npos);
  EXPECT_NE(config_error(R"({"ni": {"send_words": 0}})").find("ni: send_words = 0 is not allowed"), std::string::npos);
  EXPECT_NE(config_error(R"({"ni": {"sides": 1}})").find("unknown field 'sides'"), std::string::npos);
  EXPECT_NE(config_error(R"({"ni": 8})").find("ni must be an object"), std::string::npos);
  EXPECT_EQ(config_error(R"({"max_words": 1, "ni": {"send_words": 8, "recv_words": 8}})"), "(accepted)");
}

TEST(Cm5DataConfig, CanonicalJsonRoundTrips) {
  const Cm5DataConfig a = parse_cm5data_config(
      R"({"network": "cm5data", "name": "x", "cm5data": {"height": 3, "parents": [4, 2]}})", "a");
  const Cm5DataConfig b = parse_cm5data_config(config_to_json(a), "b");
  EXPECT_EQ(config_to_json(a), config_to_json(b));
  EXPECT_EQ(b.cm5.parents_at(1), 4);
  EXPECT_EQ(b.cm5.parents_at(2), 2);
  EXPECT_EQ(b.cm5.parents_at(3), 0);
  const Cm5DataConfig c = parse_cm5data_config(
      R"({"network": "cm5data", "name": "x", "cm5data": {"height": 2, "mapped_out": [{"level": 1, "node": 2, "chip": 0,
          "parent": 1}], "fault": {"chip": 3, "port": 4, "flit": 20, "mask": 6}}})", "c");
  EXPECT_EQ(config_to_json(parse_cm5data_config(config_to_json(c), "d")), config_to_json(c));
  EXPECT_EQ(c.cm5.mapped_out.size(), 1u);
  EXPECT_TRUE(c.cm5.fault.on);
  EXPECT_EQ(c.cm5.fault.mask, 6u);
  // Without them the canonical JSON (and so the Verilog) is what it was.
  EXPECT_EQ(config_to_json(a).find("mapped_out"), std::string::npos);
  EXPECT_EQ(config_to_json(a).find("\"ni\""), std::string::npos);
  const Cm5DataConfig n = parse_cm5data_config(
      R"({"network": "cm5data", "name": "x", "cm5data": {"height": 1, "ni": {"send_words": 16, "recv_words": 8}}})", "n");
  EXPECT_EQ(n.cm5.ni_send_words, 16);
  EXPECT_EQ(n.cm5.ni_recv_words, 8);
  EXPECT_EQ(config_to_json(parse_cm5data_config(config_to_json(n), "m")), config_to_json(n));
}

// The smallest board's example (gen/examples/cm5data_4_board.json): one chip per network, NIs of
// 8-word FIFOs on the stream board.
TEST(Cm5DataConfig, SmallBoardExampleSetsTheNiFifos) {
  const std::string path = std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5data_4_board.json";
  const Cm5DataConfig c = parse_cm5data_config(read_file(path), path);
  EXPECT_EQ(c.cm5.leaves(), 4u);
  EXPECT_EQ(cm5_stream_send_words(c.cm5), 8);
  EXPECT_EQ(config_to_json(parse_cm5data_config(config_to_json(c), "again")), config_to_json(c));
  const GeneratedDesign d = emit_cm5data_stream(c);
  EXPECT_NE(file_of(d, "cm5data_ni.v").find("//   send FIFO words = 8\n//   receive FIFO words = 8\n"), std::string::npos);
  EXPECT_NE(file_of(d, "cm5data_stream.v").find("//   NI send FIFO words = 8\n//   NI receive FIFO words = 8\n"),
            std::string::npos);
  // The default board's NIs keep their 64-word send and 16-word receive FIFOs.
  Cm5DataConfig def = c;
  def.cm5.ni_send_words = 0;
  def.cm5.ni_recv_words = 16;
  EXPECT_EQ(cm5_stream_send_words(def.cm5), 64);
  EXPECT_NE(file_of(emit_cm5data_stream(def), "cm5data_ni.v").find("//   send FIFO words = 64\n//   receive FIFO words = 16\n"),
            std::string::npos);
}

TEST(Cm5DataParams, DerivedFiguresOfTheCm5Profile) {
  // The paper: 2 parents on levels 1-2, 4 above; 16 leaves have 4 links out of their subtree
  // per network (the paper's 160 MB/s is 8 links: two networks, left and right).
  Cm5DataParams p;
  p.height = 5;
  EXPECT_EQ(p.leaves(), 1024u);
  EXPECT_EQ(p.chips_per_node(1), 1);
  EXPECT_EQ(p.chips_per_node(2), 2);
  EXPECT_EQ(p.chips_per_node(3), 4);
  EXPECT_EQ(p.chips_per_node(4), 16);
  EXPECT_EQ(p.up_links(2), 4);
  EXPECT_EQ(p.chips_at(1), 256u);
  EXPECT_EQ(p.chips_at(5), 64u);
  EXPECT_EQ(p.total_chips(), 256u + 128u + 64u + 64u + 64u);
  // A quarter of a link per leaf across the bisection from level 2 up.
  EXPECT_EQ(p.bisection_links(), 128u);
  EXPECT_EQ(p.message_bits(5), 224);
  EXPECT_EQ(p.message_flits(5), 56);
  Cm5DataParams full = p;
  full.profile = "full";
  EXPECT_EQ(full.bisection_links(), 512u);  // N/2: full bisection
  // Chip numbering round-trips.
  for (uint32_t c = 0; c < p.total_chips(); ++c) {
    const Cm5DataChipPos pos = cm5_chip_pos(p, c);
    EXPECT_EQ(cm5_chip_id(p, pos.level, pos.node, pos.index), c);
  }
  EXPECT_EQ(cm5_lca_level(5, 5), 1);
  EXPECT_EQ(cm5_lca_level(0, 3), 1);
  EXPECT_EQ(cm5_lca_level(0, 4), 2);
  EXPECT_EQ(cm5_lca_level(0, 1023), 5);
}

TEST(Cm5Emitter, SameInputsGiveTheSameBytesAndAHeader) {
  const auto a = emit_cm5data(cfg(2, "cm5", 4));
  const auto b = emit_cm5data(cfg(2, "cm5", 4));
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t i = 0; i < a.files.size(); ++i) EXPECT_EQ(a.files[i], b.files[i]);
  const std::string net = file_of(a, "cm5data_network.v");
  EXPECT_NE(net.find("// Generated by cmnet"), std::string::npos);
  EXPECT_NE(net.find("//   leaves N = 16"), std::string::npos);
  EXPECT_NE(net.find("//   link_bits W = 4"), std::string::npos);
  EXPECT_NE(file_of(a, "cm5data_router_p2.v").find("module cm5data_router_p2"), std::string::npos);
  const auto j = nlohmann::json::parse(file_of(a, "manifest.json"));
  EXPECT_EQ(j["derived"]["chips"], 6);
  EXPECT_NE(file_of(emit_cm5data(cfg(2, "full", 4)), "cm5data_network.v"), net);
  try {
    emit_cm5data(cfg(6, "cm5", 4));
    ADD_FAILURE() << "emitted a 4,096-leaf network";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("height = 6"), std::string::npos) << e.what();
  }
}

struct LintCase {
  int h;
  const char* profile;
  int W, buffer_words;
};

class Cm5EmitterMatrix : public ::testing::TestWithParam<LintCase> {};

TEST_P(Cm5EmitterMatrix, LintsCleanWithVerilatorWall) {
  const LintCase k = GetParam();
  const fs::path dir = temp_dir("lint");
  const auto d = emit_cm5data(cfg(k.h, k.profile, k.W, k.buffer_words));
  write_design(d, dir.string());
  std::vector<std::string> cmd = {CMNET_VERILATOR, "--lint-only", "-Wall", "--top-module", "cm5data_network"};
  for (const auto& f : d.verilog_files()) cmd.push_back((dir / f).string());
  int rc = 0;
  const std::string log = run_tool(cmd, dir / "lint.log", &rc);
  EXPECT_EQ(rc, 0) << log;
  EXPECT_EQ(log.find("%Warning"), std::string::npos) << log;
  fs::remove_all(dir);
}

TEST(Cm5Emitter, MapOutTableAndFaultStrapsLintClean) {
  Cm5DataConfig c = cfg(3, "cm5", 8, 2);
  // Two nodes' entries at level 1, index 0 (a table of 2), one at level 2.
  c.cm5.mapped_out = {{1, 3, 0, 1}, {1, 9, 0, 1}, {2, 1, 1, 0}};
  c.cm5.fault.on = true;
  c.cm5.fault.chip = cm5_chip_id(c.cm5, 2, 1, 0);
  c.cm5.fault.port = 4;
  c.cm5.fault.flit = 7;
  c.cm5.fault.mask = 0x21;
  validate(c.cm5, "test");
  EXPECT_EQ(cm5_mapout_entries(c.cm5), 2);
  const fs::path dir = temp_dir("lint-faults");
  const auto d = emit_cm5data(c);
  write_design(d, dir.string());
  std::vector<std::string> cmd = {CMNET_VERILATOR, "--lint-only", "-Wall", "--top-module", "cm5data_network"};
  for (const auto& f : d.verilog_files()) cmd.push_back((dir / f).string());
  int rc = 0;
  const std::string log = run_tool(cmd, dir / "lint.log", &rc);
  EXPECT_EQ(rc, 0) << log;
  EXPECT_EQ(log.find("%Warning"), std::string::npos) << log;
  const std::string net = file_of(d, "cm5data_network.v");
  size_t on = 0;
  for (size_t at = net.find(".fault_en"); at != std::string::npos; at = net.find(".fault_en", at + 1))
    on += net.substr(at, net.find('\n', at) - at).find("(1'b1)") != std::string::npos;
  EXPECT_EQ(on, 1u);  // one chip has the bad link
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Networks, Cm5EmitterMatrix,
                         ::testing::Values(LintCase{1, "cm5", 4, 1}, LintCase{2, "cm5", 4, 2},
                                           LintCase{2, "full", 8, 2}, LintCase{3, "cm5", 16, 4},
                                           LintCase{3, "full", 32, 4}),
                         [](const ::testing::TestParamInfo<LintCase>& i) {
                           return "h" + std::to_string(i.param.h) + "_" + i.param.profile + "_W" +
                                  std::to_string(i.param.W) + "_b" + std::to_string(i.param.buffer_words);
                         });

TEST(Cm5Emitter, OneRouterChipSynthesizesForIce40) {
  const fs::path dir = temp_dir("yosys");
  Cm5DataParams p;
  p.link_bits = 4;
  p.buffer_words = 2;
  const auto d = emit_cm5data_router(p, 4);
  bool ok = false;
  const std::string log = testing_checks::synth_ice40(d, "cm5data_router_p4", dir, &ok);
  EXPECT_TRUE(ok) << "yosys failed or mapped no SB_LUT4 / SB_DFF:\n" << log;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cmnet

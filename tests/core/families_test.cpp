// The family registry and the shared parts every family uses: the config envelope, `cmnet list`,
// an unknown network, message conservation and the board's block list.
#include <gtest/gtest.h>

#include <set>

#include "host/cli/family.h"
#include "gen/core/config.h"
#include "gen/core/errors.h"
#include "host/board_blocks.h"
#include "host/conservation.h"
#include "host/errors.h"

namespace cmnet {
namespace {

std::string config_error(const std::string& text) {
  try {
    const NetworkConfig cfg = parse_config(text, "net.json");
    find_family(cfg.network, cfg.where).check(cfg);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Families, RegisteredOnceEachWithPatternsAndModes) {
  std::set<std::string> names;
  ASSERT_FALSE(families().empty());
  for (const Family* f : families()) {
    EXPECT_TRUE(names.insert(f->name()).second) << f->name() << " registered twice";
    EXPECT_FALSE(f->title().empty()) << f->name();
    EXPECT_FALSE(f->patterns().empty()) << f->name();
    EXPECT_FALSE(f->build_modes().empty()) << f->name();
    EXPECT_EQ(&find_family(f->name(), "here"), f);
  }
  EXPECT_TRUE(names.count("cm1"));
  EXPECT_TRUE(names.count("cm5ctl"));
}

TEST(Families, UnknownNetworkNamesTheFileAndListsTheFamilies) {
  const std::string e = config_error(R"({"network": "torus"})");
  EXPECT_NE(e.find("net.json"), std::string::npos) << e;
  EXPECT_NE(e.find("\"torus\""), std::string::npos) << e;
  for (const Family* f : families()) EXPECT_NE(e.find(f->name()), std::string::npos) << e;
}

TEST(Families, EnvelopeErrors) {
  EXPECT_NE(config_error("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(config_error("[]").find("top level must be a JSON object"), std::string::npos);
  EXPECT_NE(config_error("{}").find("missing field 'network'"), std::string::npos);
  EXPECT_NE(config_error(R"({"network": 3})").find("network must be a string"), std::string::npos);
  EXPECT_NE(config_error(R"({"network": "cm1", "extra": 1})").find("unknown field 'extra'"), std::string::npos);
  EXPECT_NE(config_error(R"({"network": "cm1", "cm1": 5})").find("cm1 must be an object"), std::string::npos);
  EXPECT_NE(config_error(R"({"network": "cm1", "name": 5})").find("name must be a string"), std::string::npos);
  // The family parses its own object.
  EXPECT_NE(config_error(R"({"network": "cm1", "cm1": {"cube_dims": 0}})").find("cube_dims = 0"), std::string::npos);
  EXPECT_EQ(config_error(R"({"network": "cm1", "cm1": {"cube_dims": 3}})"), "(accepted)");
}

TEST(Families, EveryExampleConfigLoadsAndEmits) {
  for (const char* ex : {"cm1_board.json", "cm1_c4.json", "cm1_paper.json", "cm1_cube_c2.json", "cm5ctl_16.json",
                         "cm5ctl_cm5.json", "cm5data_64_partitions.json"}) {
    const Family* f = nullptr;
    const NetworkConfig cfg = load_network(std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + ex, &f);
    ASSERT_NE(f, nullptr);
    const GeneratedDesign d = f->emit(cfg);
    EXPECT_FALSE(d.verilog_files().empty()) << ex;
    EXPECT_FALSE(f->summary(cfg).empty()) << ex;
    // The canonical JSON reads back as the same config.
    const NetworkConfig again = parse_config(f->canonical_json(cfg), "canonical");
    EXPECT_EQ(f->canonical_json(again), f->canonical_json(cfg)) << ex;
  }
}


// --trace is refused with a sentence naming it, before anything runs, by every family's `sim`
// (on the model, a file not .fst, a reversed window) and `run` (not .fst; cm5: it has no board).
// `cmnet board` on a family without a board: one sentence naming the family and the way out
// (the families with boards are started in board_cmd_test).
TEST(Families, Cm5RefusesToStartABoard) {
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5_4.json", &f);
  try {
    (void)f->start_board(cfg, BoardArgs{});
    ADD_FAILURE() << "cm5 started a board";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "board: the cm5 machine has no board (cmnet sim runs it; cm5data and cm5ctl have boards "
                           "of their own)");
  }
}

TEST(Families, TraceRefusedClearlyByEveryFamily) {
  const std::pair<const char*, const char*> examples[] = {
      {"cm1", "cm1_c4.json"},       {"cm5ctl", "cm5ctl_2.json"}, {"cm5data", "cm5data_4_board.json"},
      {"clos", "clos_n224.json"},   {"hcube", "hcube_3.json"},   {"cm5", "cm5_16.json"}};
  ASSERT_EQ(std::size(examples), families().size());
  auto refusal = [](auto&& call) {
    try {
      call();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  for (const auto& [name, ex] : examples) {
    const Family* f = nullptr;
    const NetworkConfig cfg = load_network(std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + ex, &f);
    ASSERT_EQ(f->name(), name);
    SimArgs s;
    s.pattern = f->patterns().front();
    s.out = "/dev/null";
    s.trace = TraceWindow{"w.fst", 0, 10};
    EXPECT_EQ(refusal([&] { f->sim(cfg, s); }), "--trace w.fst: only an RTL run has waveforms (--engine rtl)") << name;
    s.engine = "rtl";
    s.trace.file = "w.vcd";
    EXPECT_EQ(refusal([&] { f->sim(cfg, s); }), "--trace w.vcd: the waveform file must end in .fst") << name;
    s.trace = TraceWindow{"w.fst", 10, 9};
    EXPECT_EQ(refusal([&] { f->sim(cfg, s); }), "--trace-from 10 is after --trace-to 9") << name;
    RunArgs r;
    r.trace.file = "w.vcd";
    const std::string e = refusal([&] { f->run(cfg, r); });
    if (std::string(name) == "cm5")
      EXPECT_NE(e.find("the cm5 machine has no board"), std::string::npos) << e;
    else
      EXPECT_EQ(e, "--trace w.vcd: the waveform file must end in .fst") << name;
  }
}
TEST(Conservation, EveryRegionChecked) {
  EXPECT_TRUE(check_conservation({{"network", 10, 7, 3}, {"chip 0", 4, 4, 0}}).ok);
  const ConservationCheck bad = check_conservation({{"network", 10, 7, 3}, {"chip 1", 5, 3, 1}, {"chip 2", 1, 0, 0}});
  EXPECT_FALSE(bad.ok);
  ASSERT_EQ(bad.violations.size(), 2u);
  EXPECT_EQ(bad.violations[0], "chip 1: injected 5 != delivered 3 + in flight 1");
  EXPECT_NE(bad.summary().find("and 1 more"), std::string::npos) << bad.summary();
  EXPECT_FALSE(check_conservation({}).ok);  // nothing reported proves nothing
}

// A register port over a word map, for the block list.
class MapPort : public RegisterPort {
 public:
  std::map<uint32_t, uint32_t> mem;
  uint32_t read32(uint32_t a) override { return mem.count(a) ? mem[a] : 0; }
  void write32(uint32_t a, uint32_t v) override { mem[a] = v; }
  std::vector<uint32_t> burst_read(uint32_t a, size_t n, bool fifo = false) override {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < n; ++i) out.push_back(read32(fifo ? a : a + 4 * static_cast<uint32_t>(i)));
    return out;
  }
  void burst_write(uint32_t a, std::span<const uint32_t> w, bool fifo = false) override {
    for (size_t i = 0; i < w.size(); ++i) write32(fifo ? a : a + 4 * static_cast<uint32_t>(i), w[i]);
  }
  std::string name() const override { return "map://test"; }
};

TEST(BoardBlocks, WalksTheListAndFindsABlockByType) {
  MapPort p;
  p.mem = {{0x0, blockreg::kBoardType}, {0x8, 0x100}, {0x10, 12000000}, {0x18, 0xabcd},
           {0x100, 0x41424344}, {0x104, 1}, {0x108, 0x200}, {0x10c, 0x100},
           {0x200, 0x434D3120}, {0x204, 2}, {0x208, 0}, {0x20c, 0x1000}};
  const BoardHeader h = discover_board(p);
  EXPECT_EQ(h.clock_hz, 12000000u);
  EXPECT_EQ(h.config_id, 0xabcdu);
  ASSERT_EQ(h.blocks.size(), 2u);
  EXPECT_EQ(h.blocks[0].type_name(), "ABCD");
  EXPECT_EQ(find_block(h, p, 0x434D3120, 2, "CM-1").base, 0x200u);
  try {
    find_block(h, p, 0x434D3120, 3, "CM-1");
    ADD_FAILURE() << "version 3 accepted";
  } catch (const HostError& e) {
    EXPECT_NE(std::string(e.what()).find("version 2, this driver speaks version 3"), std::string::npos) << e.what();
  }
  try {
    find_block(h, p, 0x58595A20, 1, "XYZ");
    ADD_FAILURE() << "missing block found";
  } catch (const HostError& e) {
    EXPECT_NE(std::string(e.what()).find("no XYZ block (blocks: 'ABCD', 'CM1 ')"), std::string::npos) << e.what();
  }
  p.mem[0x208] = 0x100;  // a loop
  EXPECT_THROW(discover_board(p), HostError);
  p.mem[0x0] = 0;
  EXPECT_THROW(discover_board(p), HostError);
}

}  // namespace
}  // namespace cmnet

namespace cmnet {
namespace {

TEST(FuseSoc, CoreNamesEveryVerilogFileInOrderAndTheTop) {
  GeneratedDesign d;
  d.top = "top_x";
  d.files = {{"a.v", ""}, {"filelist.f", ""}, {"b.v", ""}, {"manifest.json", ""}};
  const std::string core = fusesoc_core(d, "cm1", "my net/1", "0", "a \"quoted\" title");
  EXPECT_EQ(core.rfind("CAPI=2:\n", 0), 0u) << core;
  EXPECT_NE(core.find("name: cmnet:cm1:my_net_1:0\n"), std::string::npos) << core;
  EXPECT_NE(core.find("      - a.v\n      - b.v\n"), std::string::npos) << core;
  EXPECT_EQ(core.find("filelist.f"), std::string::npos) << core;
  EXPECT_NE(core.find("toplevel: top_x"), std::string::npos) << core;
  EXPECT_NE(core.find("description: \"a  quoted  title\""), std::string::npos) << core;
}

}  // namespace
}  // namespace cmnet

// The stream board shell (gen/core/stream_board.h, hw/common/cmnet_stream_regs.v,
// host/stream_board.h) end to end, on a test network (tests/core/stream_loopback.v: every unit
// comes out at the next leaf): the info text and its parser, the register map against its one
// description, lint and iCE40 synthesis of the board top, and the real host driver loading,
// draining and reading counters on the simulated board over TCP.
#include "gen/core/stream_board.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "gen/core/errors.h"
#include "gen/core/stream_regmap.h"
#include "host/board_client.h"
#include "host/stream_board.h"
#include "host/stream_runner.h"
#include "sim/core/sim_board.h"
#include "tests/core/emitter_checks.h"
#include "tests/core/fst_check.h"
#include "tests/core/register_decode_checks.h"

namespace cmnet {
namespace {

using namespace testing_checks;

constexpr uint32_t kLeaves = 4;

StreamBoardSpec loopback_spec(int fifo_log2 = 4) {
  StreamBoardSpec s;
  s.info.family = "loopback";
  s.info.name = "loopback-4";
  s.info.leaves = kLeaves;
  s.info.params = {{"NLEAF", "4"}, {"stage", "1"}};
  s.info.regions = {"network"};
  for (uint32_t l = 0; l < kLeaves; ++l) {
    s.info.counters.push_back({"leaf" + std::to_string(l) + ".sent", CounterKind::In, 0});
    s.info.counters.push_back({"leaf" + std::to_string(l) + ".received", CounterKind::Out, 0});
  }
  s.info.counters.push_back({"network.held", CounterKind::Held, 0});
  s.title = "Loopback test network";
  s.canonical_json = R"({"network":"loopback"})";
  std::ifstream in(std::string(CMNET_SOURCE_DIR) + "/tests/core/stream_loopback.v");
  std::stringstream ss;
  ss << in.rdbuf();
  s.network.files = {{"stream_loopback.v", ss.str()}};
  s.network.top = "stream_loopback";
  s.stream_module = "stream_loopback";
  s.fifo_log2 = fifo_log2;
  return s;
}

TEST(StreamInfo, TextRoundTrips) {
  const StreamInfo info = loopback_spec().info;
  const std::string text = stream_info_text(info);
  EXPECT_EQ(text.rfind("cmnet-stream 1\nfamily loopback\n", 0), 0u) << text;
  EXPECT_NE(text.find("counter 8 held 0 network.held\n"), std::string::npos) << text;
  EXPECT_EQ(parse_stream_info(text, "rom"), info);
  EXPECT_EQ(text.find("counter_bits"), std::string::npos) << "32 bits is not written";
  StreamInfo narrow = info;
  narrow.counter_bits = 16;
  EXPECT_NE(stream_info_text(narrow).find("\ncounter_bits 16\n"), std::string::npos);
  EXPECT_EQ(parse_stream_info(stream_info_text(narrow), "rom"), narrow);
}

// A board with narrow counters bounds a run's units (a unit adds at most one to each counter).
TEST(StreamInfo, NarrowCountersBoundARunsUnits) {
  StreamInfo info = loopback_spec().info;
  EXPECT_NO_THROW(check_units_per_run(info, 4000000000u));
  info.counter_bits = 16;
  EXPECT_NO_THROW(check_units_per_run(info, 65535));
  try {
    check_units_per_run(info, 65536);
    ADD_FAILURE() << "65,536 units accepted with 16-bit counters";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("16 bits: at most 65535 units a run"), std::string::npos) << e.what();
  }
}

TEST(StreamInfo, MalformedTextNamesTheLine) {
  auto err = [](const std::string& t) {
    try {
      (void)parse_stream_info(t, "sim://x");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(err("").find("empty"), std::string::npos);
  EXPECT_NE(err("cmnet-stream 2\n").find("line 1"), std::string::npos);
  EXPECT_NE(err("cmnet-stream 1\nfamily f\ncounter 0 in 0 x\n").find("region 0 is not defined"), std::string::npos);
  EXPECT_NE(err("cmnet-stream 1\nfamily f\nregion 0 r\ncounter 0 sideways 0 x\n").find("kind 'sideways'"),
            std::string::npos);
  EXPECT_NE(err("cmnet-stream 1\nfamily f\nregion 1 r\n").find("in order"), std::string::npos);
  EXPECT_NE(err("cmnet-stream 1\nfamily f\nleaves many\n").find("'many' is not a number"), std::string::npos);
  EXPECT_NE(err("cmnet-stream 1\nwhat is this\n").find("line 2 ('what is this')"), std::string::npos);
  EXPECT_NE(err("cmnet-stream 1\ncounter_bits 40\n").find("counter_bits must be 1..32"), std::string::npos);
}

// The port every family's stream module opens with (stream_port_declarations) is the contract's:
// the hand-written loopback network declares the same lines.
TEST(StreamBoardEmitter, PortDeclarationsAreTheContracts) {
  const std::string loopback = loopback_spec().network.files.front().second;
  const std::vector<std::string> d = stream_port_declarations(9, "why");
  ASSERT_EQ(d.size(), 16u);
  for (size_t i = 0; i + 1 < d.size(); ++i)
    EXPECT_NE(loopback.find("    " + d[i] + "\n"), std::string::npos) << d[i];
  EXPECT_EQ(d.back(), "output wire [287:0] counters  // why");
  EXPECT_EQ(stream_port_declarations(1).back(), "output wire [31:0] counters");
}

TEST(StreamBoardEmitter, LeafSelectDecodesTxLeaf) {
  EXPECT_EQ(stream_leaf_select(5, 3),
            (std::vector<std::string>{"wire tx_in_range = tx_leaf < 5;", "wire [2:0] tx_sel = tx_leaf[2:0];",
                                      "wire unused_tx_leaf = ^tx_leaf[15:3];"}));
  EXPECT_EQ(stream_leaf_select(65536, 16).size(), 2u);  // every bit of tx_leaf used
  EXPECT_THROW(stream_leaf_select(5, 2), ConfigError);   // 2 bits select 4 leaves
  EXPECT_THROW(stream_leaf_select(1, 0), ConfigError);
}

TEST(StreamBoardEmitter, BadSpecsAreRefusedByName) {
  auto err = [](StreamBoardSpec s) {
    try {
      (void)emit_stream_board(s, HostBoardOptions{});
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  StreamBoardSpec s = loopback_spec();
  s.info.counters[0].name = "two words";
  EXPECT_NE(err(s).find("counter 'two words'"), std::string::npos);
  s = loopback_spec();
  s.info.counters[1].region = 3;
  EXPECT_NE(err(s).find("names region 3"), std::string::npos);
  s = loopback_spec();
  s.info.family = "Bad-Name";
  EXPECT_NE(err(s).find("Verilog-safe"), std::string::npos);
  s = loopback_spec();
  s.info.counters.assign(513, StreamCounter{"c", CounterKind::Other, 0});
  EXPECT_NE(err(s).find("513 counters"), std::string::npos);
  s = loopback_spec(13);
  EXPECT_NE(err(s).find("fifo_log2 = 13"), std::string::npos);
  HostBoardOptions slow;
  slow.baud = 6000000;
  try {
    (void)emit_stream_board(loopback_spec(), slow);
    ADD_FAILURE() << "accepted 2 clocks per bit";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("fewer than 4 clocks"), std::string::npos);
  }
}

TEST(StreamBoardEmitter, DeterministicWithAHeaderAndTheInfoBeside) {
  const GeneratedDesign a = emit_stream_board(loopback_spec(), HostBoardOptions{});
  const GeneratedDesign b = emit_stream_board(loopback_spec(), HostBoardOptions{});
  ASSERT_EQ(a.files, b.files);
  EXPECT_EQ(a.top, "loopback_host_board");
  const std::string core = file_of(a, "loopback_host_core.v");
  EXPECT_NE(core.find("// Generated by cmnet"), std::string::npos);
  EXPECT_NE(core.find("//   leaves = 4"), std::string::npos);
  EXPECT_EQ(file_of(a, "stream_info.txt"), stream_info_text(loopback_spec().info));
  // The ROM shows its text to a reader.
  EXPECT_NE(file_of(a, "loopback_stream_info.v").find("// | counter 8 held 0 network.held"), std::string::npos);
  EXPECT_NE(file_of(a, "csr.csv").find("csr_register,strm_rx_pairs,0x00000160,1,ro"), std::string::npos);
  EXPECT_NE(file_of(a, "csr.csv").find("csr_register,strm_counters,0x00000800,9,ro"), std::string::npos);
}

// The decode is made from the one description (gen/core/stream_regmap.h): every register at its
// address, in the map comment, the read mux and the write selects; the hand-written block
// connects every port of it; the board carries it.
TEST(StreamRegMap, TheDecodeAgreesWithTheDescription) {
  expect_decode_agrees(streammap::kBlock, read_hw_file("cmnet_stream_regs.v"));
  const GeneratedDesign d = emit_stream_board(loopback_spec(), HostBoardOptions{});
  EXPECT_EQ(file_of(d, "cmnet_stream_regs_decode.v"), regmap::emit_decode(streammap::kBlock));
  EXPECT_NE(file_of(d, "cmnet_stream_regs_decode.v").find("32'h160: rdata = r_rx_pairs;  // RX_PAIRS"), std::string::npos);
  EXPECT_NE(file_of(d, "cmnet_stream_regs_decode.v").find("32'h118: rdata = A_INFO_ROM;  // INFO"), std::string::npos);
}

TEST(StreamBoardEmitter, BoardTopLintsCleanForBothPhys) {
  for (HostLinkPhy phy : {HostLinkPhy::Uart, HostLinkPhy::Fifo}) {
    HostBoardOptions o;
    o.phy = phy;
    const fs::path dir = temp_dir(std::string("stream-lint-") + host_link_phy_name(phy));
    EXPECT_EQ(lint_problems(emit_stream_board(loopback_spec(), o), "loopback_host_board", dir), "");
    fs::remove_all(dir);
  }
}

TEST(StreamBoardEmitter, BoardTopSynthesizesForIce40WithTheFifosInBlockRam) {
  const fs::path dir = temp_dir("stream-yosys");
  bool ok = false;
  const std::string log = synth_ice40(emit_stream_board(loopback_spec(7), HostBoardOptions{}), "loopback_host_board", dir, &ok);
  EXPECT_TRUE(ok) << log;
  EXPECT_NE(log.find("SB_RAM40_4K"), std::string::npos) << "the FIFOs and the info ROM belong in block RAM\n" << log;
  fs::remove_all(dir);
}

// The simulated board of the loopback network, shared by the tests below (one model build).
class StreamSimBoardTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { sim_ = new SimBoard(emit_stream_board(loopback_spec(), HostBoardOptions{}), HostBoardOptions{}, {}, "streamboard"); }
  static void TearDownTestSuite() {
    delete sim_;
    sim_ = nullptr;
  }
  static SimBoard* sim_;
};
SimBoard* StreamSimBoardTest::sim_ = nullptr;

TEST_F(StreamSimBoardTest, TheBoardDescribesItself) {
  BoardClient c = BoardClient::open(sim_->uri());
  StreamBoard b(c);
  EXPECT_EQ(b.info(), loopback_spec().info);
  EXPECT_EQ(b.fifo_words(), 16u);
  EXPECT_EQ(b.header().clock_hz, 12000000u);
  EXPECT_EQ(b.header().config_id, config_hash(R"({"network":"loopback"})"));
}

TEST_F(StreamSimBoardTest, UnitsComeBackWholeAtTheNextLeafAndCountersConserve) {
  BoardClient c = BoardClient::open(sim_->uri());
  StreamBoard b(c);
  // More words than both FIFOs hold (16 each), so the driver must drain while it sends.
  std::mt19937 rng(7);
  std::vector<StreamUnit> units;
  std::vector<uint32_t> sent_per_leaf(kLeaves, 0);
  for (int i = 0; i < 40; ++i) {
    StreamUnit u;
    u.leaf = rng() % kLeaves;
    const int n = 1 + static_cast<int>(rng() % 5);
    for (int k = 0; k < n; ++k) u.words.push_back(static_cast<uint32_t>(rng()));
    ++sent_per_leaf[u.leaf];
    units.push_back(u);
  }
  size_t progress_calls = 0;
  StreamRunOptions opt;
  opt.timeout_s = 30;
  opt.progress = [&](size_t, size_t) { ++progress_calls; };
  const StreamRunResult r = run_units(b, units, units.size(), opt);
  ASSERT_EQ(r.delivered.size(), units.size());
  // One stage, in order: unit i comes out as unit i, at the next leaf, every word touched.
  for (size_t i = 0; i < units.size(); ++i) {
    StreamUnit want = units[i];
    want.leaf = (want.leaf + 1) % kLeaves;
    for (uint32_t& w : want.words) w ^= 0x5A5A0000u;
    EXPECT_EQ(r.delivered[i], want) << "unit " << i;
  }
  ASSERT_EQ(r.counters.size(), 2 * kLeaves + 1);
  for (uint32_t l = 0; l < kLeaves; ++l) {
    EXPECT_EQ(r.counters[2 * l].counter.name, "leaf" + std::to_string(l) + ".sent");
    EXPECT_EQ(r.counters[2 * l].value, sent_per_leaf[l]);
    EXPECT_EQ(r.counters[2 * l + 1].value, sent_per_leaf[(l + kLeaves - 1) % kLeaves]);
  }
  EXPECT_EQ(r.counters.back().value, 0u);  // nothing held at the end
  const auto regions = b.regions(r.counters);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].injected, units.size());
  EXPECT_EQ(regions[0].delivered, units.size());
  EXPECT_TRUE(check_conservation(regions).ok);
  // Active cycles: the network's own work, not the host's think time (a unit waiting for its
  // next words from the host is not busy), so a few cycles per word.
  size_t words = 0;
  for (const auto& u : units) words += u.words.size();
  EXPECT_GT(r.cycles, 0u);
  EXPECT_LT(r.cycles, 20 * words);
  EXPECT_GT(progress_calls, 0u);
}

TEST_F(StreamSimBoardTest, StoppedNetworkHoldsUnitsAndAFullFifoIsAClearError) {
  BoardClient c = BoardClient::open(sim_->uri());
  StreamBoard b(c);
  b.set_run(false);
  b.clear();
  StreamUnit u{1, std::vector<uint32_t>(16, 0xABCD0000u)};
  b.send(u);  // fills the transmit FIFO exactly
  EXPECT_EQ(b.tx_free(), 0u);
  try {
    b.send(StreamUnit{2, {1}});
    ADD_FAILURE() << "a word beyond the FIFO was accepted";
  } catch (const HostError& e) {
    EXPECT_NE(std::string(e.what()).find("unit(s) for leaf 2 were not taken"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(b.receive().empty());  // stopped: nothing moves
  b.set_run(true);
  std::vector<StreamUnit> got;
  for (int i = 0; i < 200 && got.empty(); ++i) got = b.receive();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].leaf, 2u);
  EXPECT_EQ(got[0].words.size(), 16u);
  b.set_run(false);
  // Units and words out of range are refused by the driver before they reach the board.
  EXPECT_THROW(b.send(StreamUnit{4, {1}}), InputError);
  EXPECT_THROW(b.send(StreamUnit{0, {}}), InputError);
  EXPECT_THROW(b.send(StreamUnit{0, std::vector<uint32_t>(65536, 0)}), InputError);
}

// The shared `cmnet run` path: a simulated board started for the spec, the report written, the
// family's comparison counted in the verdict; with --trace (every stream family's `cmnet run
// --trace` comes here) the board's waveform of the clock cycles asked for after its power-on reset.
TEST(StreamRunner, RunsAWorkloadAndWritesTheSharedReport) {
  StreamWorkload w;
  w.name = "ring";
  for (uint32_t l = 0; l < kLeaves; ++l) w.units.push_back(StreamUnit{l, {l, l + 100}});
  w.expect_units = kLeaves;
  bool compared = false;
  w.compare = [&](const StreamRunResult& got, RunReport& r) {
    compared = true;
    size_t wrong = 0;
    for (const StreamUnit& u : got.delivered)
      if (u.words.size() != 2 || (u.words[0] ^ 0x5A5A0000u) != (u.leaf + kLeaves - 1) % kLeaves) ++wrong;
    r.rows.push_back({"units as the model says", std::to_string(got.delivered.size() - wrong),
                      std::to_string(kLeaves), true});
  };
  StreamRunArgs a;
  a.out_dir = temp_dir("stream-run").string();
  a.timeout_s = 30;
  a.trace = TraceWindow{(fs::path(a.out_dir) / "board.fst").string(), 100, 2000};
  std::FILE* null = std::fopen("/dev/null", "w");
  const StreamRunOutcome o = run_stream_workload(loopback_spec(), w, a, null);
  std::fclose(null);
  EXPECT_TRUE(test::fst_holds_cycles(a.trace.file, 100, 2000));
  EXPECT_TRUE(compared);
  EXPECT_TRUE(o.verdict.ok()) << o.verdict.conservation.summary();
  EXPECT_EQ(o.result.delivered.size(), kLeaves);
  EXPECT_TRUE(fs::exists(fs::path(a.out_dir) / "run.json"));
  const std::string csv = slurp_log(fs::path(a.out_dir) / "counters.csv");
  EXPECT_NE(csv.find("leaf0.sent,in,network,1"), std::string::npos) << csv;
  fs::remove_all(a.out_dir);
}

// The shared `cmnet sweep` path: one connection, a workload per offered load, the family's
// measure of each point, the table, JSON, CSV and plot.
TEST_F(StreamSimBoardTest, SweepRunsEveryPointAndPlotsBoardBesideModel) {
  StreamRunArgs a;
  a.board = sim_->uri();
  StreamConnection conn(loopback_spec(), a);
  StreamSweep sw;
  sw.title = "loopback";
  sw.x_label = "units per leaf";
  sw.y_label = "units delivered";
  sw.offered = {1, 2, 3};
  sw.workload = [](double x) {
    StreamWorkload w;
    w.name = "ring";
    for (int k = 0; k < static_cast<int>(x); ++k)
      for (uint32_t l = 0; l < kLeaves; ++l) w.units.push_back(StreamUnit{l, {l, static_cast<uint32_t>(k)}});
    w.expect_units = w.units.size();
    return w;
  };
  sw.measure = [](double x, const StreamRunResult& r) {
    StreamSweepMeasure m;
    m.accepted = static_cast<double>(r.delivered.size());
    m.model_accepted = x * kLeaves;  // the loopback delivers every unit
    m.agrees = m.accepted == m.model_accepted;
    return m;
  };
  const std::string dir = temp_dir("stream-sweep").string();
  std::FILE* null = std::fopen("/dev/null", "w");
  EXPECT_TRUE(run_stream_sweep(conn, sw, dir, 30, null));
  std::fclose(null);
  const std::string csv = slurp_log(fs::path(dir) / "sweep.csv");
  EXPECT_NE(csv.find("\n3,12,12,12,"), std::string::npos) << csv;
  const std::string svg = slurp_log(fs::path(dir) / "sweep.svg");
  EXPECT_NE(svg.find("reference model"), std::string::npos);
  EXPECT_NE(svg.find("units per leaf"), std::string::npos);
  fs::remove_all(dir);
}

TEST_F(StreamSimBoardTest, ABoardOfAnotherConfigIsRefusedByName) {
  StreamBoardSpec other = loopback_spec();
  other.canonical_json = R"({"network":"loopback","other":1})";
  StreamRunArgs a;
  a.board = sim_->uri();
  a.out_dir = temp_dir("stream-other").string();
  try {
    (void)run_stream_workload(other, StreamWorkload{"x", {}, 0, false, {}, {}}, a);
    ADD_FAILURE() << "ran on a board of another config";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is not this config's"), std::string::npos) << e.what();
  }
  fs::remove_all(a.out_dir);
}

}  // namespace
}  // namespace cmnet

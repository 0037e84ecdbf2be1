// End to end: the host driver (host/cm1_board.*, BoardClient over TCP) against the simulated
// board (the Verilator model of the generated board top: UART, frame engine, register block,
// CM-1 network). The counters and reception checks read back must equal the reference model's
// for the same pattern and seed; bad situations give clear errors and nothing hangs.
#include "host/cm1/cm1_board.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <filesystem>
#include <tuple>
#include <thread>

#include "gen/core/errors.h"
#include "host/errors.h"
#include "sim/core/rtl_build.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_sim_board.h"
#include "sim/cm1/cm1_traffic.h"
#include "sim/cm1/cm1_traffic_gen.h"
#include "tests/cm1/cm1_run_check.h"
#include "tests/core/emitter_checks.h"
#include "tests/core/commuart_like.h"
#include "tests/core/litex_csr_loader.h"

namespace cmnet {
namespace {

using namespace std::chrono_literals;

Cm1Config board_config() {
  Cm1Config cfg;
  cfg.name = "board-test";
  cfg.cm1.cube_dims = 3;
  cfg.cm1.procs_per_chip = 4;
  cfg.cm1.data_bits = 8;
  cfg.cm1.vp_bits = 1;
  cfg.cm1.queue_depth = 2;
  return cfg;
}

// A reply that must come: long enough never to time out on a loaded machine (ASan, the UART
// simulated bit by bit, a 256-word load); it only ends a wait when something is broken.
BoardClientOptions client_options() {
  BoardClientOptions o;
  o.timeout = 10000ms;
  return o;
}

class Cm1BoardTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { sim_ = new Cm1SimBoard(board_config()); }
  static void TearDownTestSuite() {
    delete sim_;
    sim_ = nullptr;
  }
  static Cm1SimBoard* sim_;
};
Cm1SimBoard* Cm1BoardTest::sim_ = nullptr;

TEST_F(Cm1BoardTest, DiscoversTheNetworkFromTheBlockList) {
  BoardClient c = BoardClient::open(sim_->uri(), client_options());
  Cm1Board b(c);
  const Cm1Params& want = board_config().cm1;
  EXPECT_EQ(b.info().params.cube_dims, want.cube_dims);
  EXPECT_EQ(b.info().params.procs_per_chip, want.procs_per_chip);
  EXPECT_EQ(b.info().params.vp_bits, want.vp_bits);
  EXPECT_EQ(b.info().msg_len, want.msg_len());
  EXPECT_EQ(b.info().petit_period, want.petit_period());
  EXPECT_EQ(b.info().queue_depth, 2);
  EXPECT_EQ(b.info().ncounters, 5 + want.cube_dims);
  EXPECT_EQ(b.info().config_id, config_id(board_config()));
  EXPECT_NO_THROW(b.check_matches(want));
}

TEST_F(Cm1BoardTest, CountersAndReceptionsEqualTheModel) {
  BoardClient c = BoardClient::open(sim_->uri(), client_options());
  Cm1Board b(c);
  const Cm1Params& p = board_config().cm1;
  int runs = 0;
  for (const EjectMode mode : {EjectMode::kOrCombine, EjectMode::kOnePerPetit})
    for (const char* pattern : {"permutation", "many-to-one", "hot-spot"}) {
      const Traffic t = make_pattern(pattern, p, 40 + static_cast<uint64_t>(runs), 2);
      load_run_and_check(b, p, t, mode, std::string(pattern) + " / " + to_string(mode));
      ++runs;
    }
}

// The paper's view of the board's tallies (host/cm1/cm1_board.h: cm1_oracle_disagreements) is no
// formality: one processor's check word read back changed, or a reception too many, disagrees.
TEST_F(Cm1BoardTest, ThePapersViewCatchesAWrongTally) {
  BoardClient c = BoardClient::open(sim_->uri(), client_options());
  Cm1Board b(c);
  const Cm1Params& p = board_config().cm1;
  const Traffic t = make_pattern("permutation", p, 5, 1);
  load_run_and_check(b, p, t, EjectMode::kOrCombine, "permutation");
  const auto rx = b.receptions();
  const uint32_t petit = b.status().petit;
  ASSERT_TRUE(cm1_oracle_disagreements(p, t, EjectMode::kOrCombine, rx, petit).empty());
  size_t g = 0;
  while (rx.at(g).count == 0) ++g;
  auto wrong = rx;
  wrong[g].xor_word ^= 1u << 3;
  auto said = cm1_oracle_disagreements(p, t, EjectMode::kOrCombine, wrong, petit);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("processor " + std::to_string(g) + ": check words XOR to"), std::string::npos) << said[0];
  wrong = rx;
  ++wrong[g].count;
  said = cm1_oracle_disagreements(p, t, EjectMode::kOrCombine, wrong, petit);
  ASSERT_FALSE(said.empty());
  EXPECT_NE(said[0].find("receptions for 1 messages"), std::string::npos) << said[0];
}

// The board's on-chip generator (hw/cm1/cm1_traffic_gen.v) makes the same pattern as its C++ twin
// (sim/cm1/cm1_traffic_gen.cpp): the run's counters and receptions equal the model's on that twin.
TEST_F(Cm1BoardTest, OnChipGeneratorsMatchTheirTwinsThroughTheModel) {
  BoardClient c = BoardClient::open(sim_->uri(), client_options());
  Cm1Board b(c);
  const Cm1Params& p = board_config().cm1;
  for (const std::string& name : generator_names()) {
    const GenPattern g = generator_from_name(name);
    const uint32_t seed = 77, count = 2;
    const Traffic t = generator_traffic(g, p, seed, count);
    b.clear();
    b.generate(static_cast<uint32_t>(g), count, seed);
    b.start(EjectMode::kOrCombine);
    const Cm1BoardStatus s = wait_run_done(b);
    expect_board_matches_model(b, p, t, EjectMode::kOrCombine, s, "generator " + name);
  }
  EXPECT_THROW(b.generate(0, 3, 1), HostError);  // queues hold 2
}

TEST_F(Cm1BoardTest, WrongBoardAndOversizedPatternAreClearErrors) {
  BoardClient c = BoardClient::open(sim_->uri(), client_options());
  Cm1Board b(c);
  Cm1Params other = board_config().cm1;
  other.cube_dims = 4;
  try {
    b.check_matches(other);
    ADD_FAILURE() << "a c = 4 config matched a c = 3 board";
  } catch (const HostError& e) {
    EXPECT_NE(std::string(e.what()).find("cube_dims = 3, the config says 4"), std::string::npos)
        << e.what();
  }
  const Traffic three = make_pattern("permutation", board_config().cm1, 1, 3);  // queue holds 2
  try {
    b.load(three);
    ADD_FAILURE() << "3 messages per processor loaded into queues of 2";
  } catch (const HostError& e) {
    EXPECT_NE(std::string(e.what()).find("queues hold 2"), std::string::npos) << e.what();
  }
}

TEST_F(Cm1BoardTest, UnmappedAddressIsAnErrorReply) {
  BoardClient c = BoardClient::open(sim_->uri(), client_options());
  try {
    c.read32(0x4000);
    ADD_FAILURE() << "read of an unmapped register succeeded";
  } catch (const HostError& e) {
    EXPECT_EQ(e.kind(), HostErrorKind::ErrorReply) << e.what();
    EXPECT_NE(std::string(e.what()).find("BAD_ADDRESS"), std::string::npos) << e.what();
  }
  // Read-only registers refuse writes the same way.
  Cm1Board b(c);
  EXPECT_THROW(c.write32(b.info().cm1_base + cm1reg::kPetit, 1), HostError);
}

TEST(Cm1SimBoard, BoardKilledMidRunGivesAClearErrorNotAHang) {
  Cm1Config cfg = board_config();
  Cm1SimBoard sim(cfg);
  BoardClientOptions o = client_options();  // generous while loading over the simulated UART
  o.retries = 1;
  BoardClient c = BoardClient::open(sim.uri(), o);
  Cm1Board b(c);
  b.clear();
  b.load(make_pattern("hot-spot", cfg.cm1, 5, 2));
  b.start(EjectMode::kOnePerPetit);
  c.set_timeout(500ms);  // short: a board that stopped answering ends the call within 2 x 500 ms
  sim.kill_now();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    for (int i = 0; i < 100; ++i) b.status();
    ADD_FAILURE() << "status() kept answering after the board was killed";
  } catch (const HostError& e) {
    EXPECT_TRUE(e.kind() == HostErrorKind::ConnectionClosed || e.kind() == HostErrorKind::Timeout)
        << e.what();
    if (e.kind() == HostErrorKind::Timeout) {  // given up after its retry, not waiting on
      EXPECT_NE(std::string(e.what()).find("(2 attempts)"), std::string::npos) << e.what();
    }
  }
  // Hang detector only, not a speed bound: the first failing call ends within about 1 s (its
  // 2 x 500 ms attempts); 30 s means a deadline was ignored.
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s) << "hang: status() ignored its deadlines";
}

// LiteX's own tools against the simulated board (issue 14), with a client that behaves exactly
// like CommUART (every byte its own write, 60 ms apart; 255-word reads; no timeout of its own):
// csr.csv (written beside the model) loaded as LiteX's loader loads it, every register it names read
// back with the expected value, the identifier read from csr.csv's identifier_mem, and
// RemoteClient's 255-word split of the counter window, which runs past the window's end.
TEST_F(Cm1BoardTest, LitexToolsWithCsrCsvIdentifierAndSplitCommands) {
  using cmnet::testing_support::CommUartLike;
  const Cm1Config cfg = board_config();
  const Cm1Params& p = cfg.cm1;
  // A run first, so the counters and endpoint words are not all zero.
  std::map<uint32_t, uint32_t> frame_view;  // what cmnet's own driver reads, address -> value
  {
    BoardClient c = BoardClient::open(sim_->uri(), client_options());
    Cm1Board b(c);
    load_run_and_check(b, p, make_pattern("permutation", p, 5, 1), EjectMode::kOrCombine, "before LiteX");
  }
  // csr.csv as LiteX's loader reads it (tests/core/litex_csr_loader.h).
  const testing_support::LitexCsrFile csr = testing_support::load_litex_csr_file(sim_->csr_csv_path());
  ASSERT_TRUE(csr.ok()) << csr.report();
  const std::map<std::string, uint32_t>& bases = csr.bases;
  const auto& regs = csr.registers;
  ASSERT_GT(regs.size(), 20u);
  {
    BoardClient c = BoardClient::open(sim_->uri(), client_options());
    for (const auto& r : regs) {
      const auto v = c.burst_read(r.addr, r.size);
      for (uint32_t j = 0; j < r.size; ++j) frame_view[r.addr + 4 * j] = v[j];
    }
  }
  const std::map<std::string, uint32_t> constants = {
      {"board_type", 0x434D4E54},      {"board_clock_hz", HostBoardOptions{}.clock_hz},
      {"board_link", 0},               {"board_config_id", config_id(cfg)},
      {"cm1_c", uint32_t(p.cube_dims)}, {"cm1_b", uint32_t(p.rows)},
      {"cm1_p", uint32_t(p.procs_per_chip)}, {"cm1_v", uint32_t(p.vp_bits)},
      {"cm1_d", uint32_t(p.data_bits)}, {"cm1_l", uint32_t(p.msg_len())},
      {"cm1_tp", uint32_t(p.petit_period())}, {"cm1_queue_depth", uint32_t(p.queue_depth)},
      {"cm1_ep_hist", 0x200000}};
  size_t checked_constants = 0;
  {
    CommUartLike slow(sim_->port(), 60ms);  // the gaps of a real host, on a few commands
    EXPECT_EQ(slow.read(bases.at("board"), 1), (std::vector<uint32_t>{0x434D4E54}));
    EXPECT_EQ(slow.read(bases.at("cm1") + 0x10, 2), (std::vector<uint32_t>{uint32_t(p.cube_dims), uint32_t(p.rows)}));
  }
  CommUartLike ub(sim_->port(), 0ms);
  for (const auto& r : regs) {
    SCOPED_TRACE(r.name);
    const auto v = ub.read(r.addr, r.size);  // 255-word commands, as RemoteClient splits them
    ASSERT_EQ(v.size(), r.size);
    for (uint32_t j = 0; j < r.size; ++j) EXPECT_EQ(v[j], frame_view.at(r.addr + 4 * j)) << "word " << j;
    if (auto it = constants.find(r.name); it != constants.end()) {
      EXPECT_EQ(v[0], it->second);
      ++checked_constants;
    }
  }
  EXPECT_EQ(checked_constants, constants.size());
  // The counter window (8 chips x CNT_STRIDE words) read as 255 words: the valid counters, then all ones
  // for the unmapped words after the window only.
  const auto cnt = std::find_if(regs.begin(), regs.end(), [](const auto& r) { return r.name == "cm1_counters"; });
  ASSERT_NE(cnt, regs.end());
  ASSERT_LT(cnt->size, 255u);
  const auto w = ub.read(cnt->addr, 255);
  for (uint32_t j = 0; j < 255; ++j) {
    if (j < cnt->size) EXPECT_EQ(w[j], frame_view.at(cnt->addr + 4 * j)) << j;
    else EXPECT_EQ(w[j], proto::uartbone::kFailedRead) << j;
  }
  // litex_client --ident: one byte per word from identifier_mem until a 0.
  const auto id = ub.read(bases.at("identifier_mem"), 256);
  std::string ident;
  for (uint32_t x : id) {
    if ((x & 0xFF) == 0) break;
    EXPECT_EQ(x >> 8, 0u);
    ident.push_back(static_cast<char>(x & 0xFF));
  }
  EXPECT_EQ(ident, cm1_identifier(cfg, HostBoardOptions{}));
  EXPECT_EQ(ident.rfind("cmnet cm1 board-test: c=3", 0), 0u) << ident;
}

// The board top (host link + register block + generator + network) lints clean for a few sizes.
TEST(Cm1HostBoard, LintsCleanWithVerilatorWall) {
  for (const auto& [c, P, d, v, phy, button] :
       std::vector<std::tuple<int, int, int, int, HostLinkPhy, bool>>{
           {1, 1, 1, 0, HostLinkPhy::Uart, true}, {2, 1, 40, 2, HostLinkPhy::Fifo, true},
           {3, 4, 8, 1, HostLinkPhy::Uart, false}, {4, 16, 16, 0, HostLinkPhy::Fifo, false}}) {
    Cm1Config cfg;
    cfg.cm1.cube_dims = c;
    cfg.cm1.procs_per_chip = P;
    cfg.cm1.data_bits = d;
    cfg.cm1.vp_bits = v;
    HostBoardOptions h;
    h.phy = phy;
    h.reset_button = button;
    const auto design = emit_cm1_host_board(cfg, h);
    const auto dir = testing_checks::temp_dir("hostboard-lint");
    // As flashed, and as the simulated board builds it (its two simulator ports).
    for (const bool simulated : {false, true}) {
      std::vector<std::string> extra;
      if (simulated) extra.push_back("+define+CMNET_SIMULATED_BOARD");
      EXPECT_EQ(testing_checks::lint_problems(design, "cm1_host_board", dir, extra), "")
          << "c=" << c << " P=" << P << " simulated=" << simulated;
    }
    std::filesystem::remove_all(dir);
  }
  Cm1Config big;
  big.cm1.cube_dims = 12;
  big.cm1.procs_per_chip = 64;
  EXPECT_THROW(emit_cm1_host_board(big), ConfigError);  // c + log2 P = 18 > 16
  Cm1Config many;
  many.cm1.cube_dims = 9;  // 512 chips x 16 counter words run past the endpoints at 0x8000
  many.cm1.procs_per_chip = 1;
  try {
    emit_cm1_host_board(many);
    ADD_FAILURE() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("0x8000"), std::string::npos) << e.what();
  }
}

// The same end-to-end check through the other host-link PHY: the board top with the FT245
// synchronous FIFO (flow control both ways, the FIFO chip stalling at random) instead of the
// UART; the register map says which link the board has.
TEST(Cm1SimBoardFifo, CountersAndReceptionsEqualTheModel) {
  Cm1Config cfg;
  cfg.name = "fifo-board";
  cfg.cm1.cube_dims = 2;
  cfg.cm1.procs_per_chip = 2;
  cfg.cm1.data_bits = 8;
  cfg.cm1.queue_depth = 4;
  HostBoardOptions h;
  h.phy = HostLinkPhy::Fifo;
  h.clock_hz = 60000000;
  Cm1SimBoard sim(cfg, h);
  BoardClient c = BoardClient::open(sim.uri(), client_options());
  Cm1Board b(c);
  EXPECT_EQ(b.info().link, 1u);  // FIFO
  EXPECT_EQ(b.info().clock_hz, 60000000u);
  for (const std::string pattern : {"permutation", "many-to-one"})
    load_run_and_check(b, cfg.cm1, make_pattern(pattern, cfg.cm1, 11, 3), EjectMode::kOrCombine,
                       "FIFO board, " + pattern);
  const std::string stats = sim.stop();
  EXPECT_NE(stats.find("stats cycles="), std::string::npos) << stats;
}

}  // namespace
}  // namespace cmnet

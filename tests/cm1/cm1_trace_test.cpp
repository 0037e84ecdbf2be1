// FST waveforms on demand: a traced RTL run writes an FST file holding exactly its window of the
// run (bit-times from petit cycle 0, not clocks from reset), and routes exactly as the untraced
// run does (tracing only observes).
#include <gtest/gtest.h>

#include <filesystem>

#include "host/cm1/cm1_board.h"
#include "host/transport_uri.h"
#include "sim/cm1/cm1_rtl.h"
#include "sim/cm1/cm1_sim_board.h"
#include "sim/cm1/cm1_traffic.h"
#include "tests/cm1/cm1_oracle_check.h"
#include "tests/core/fst_check.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

Cm1Config small() {
  Cm1Config cfg;
  cfg.name = "trace";
  cfg.cm1.cube_dims = 2;
  cfg.cm1.procs_per_chip = 4;
  cfg.cm1.data_bits = 8;
  return cfg;
}

TEST(Cm1Trace, TracedRunWritesAnFstWindowAndRoutesTheSame) {
  const Cm1Config cfg = small();
  const Traffic t = make_pattern("permutation", cfg.cm1, 3, 1);
  Cm1RtlOptions plain;
  plain.whole_network = true;
  const Cm1RtlRun a = run_cm1_rtl(cfg, t, EjectMode::kOrCombine, plain);

  const fs::path dir = fs::temp_directory_path() / ("cmnet-trace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Cm1RtlOptions traced = plain;
  traced.trace_file = (dir / "short.fst").string();
  traced.trace_from = 3;
  traced.trace_to = 9;
  const Cm1RtlRun b = run_cm1_rtl(cfg, t, EjectMode::kOrCombine, traced);
  traced.trace_file = (dir / "all.fst").string();
  traced.trace_from = 0;
  traced.trace_to = UINT64_MAX;
  const Cm1RtlRun c = run_cm1_rtl(cfg, t, EjectMode::kOrCombine, traced);

  EXPECT_EQ(b.receptions, a.receptions);
  EXPECT_EQ(c.receptions, a.receptions);
  expect_oracle_agrees(t, a.receptions, EjectMode::kOrCombine, a.petit_cycles, "the RTL");
  EXPECT_EQ(b.bit_times, a.bit_times);
  // Bit-times 3..9 of the run and nothing else: not the clocks of reset and loading before it.
  EXPECT_TRUE(test::fst_holds_cycles((dir / "short.fst").string(), 3, 9));
  // The open window: from bit-time 0 to the end of the run, its last reception included.
  uint64_t last = 0;
  EXPECT_TRUE(test::fst_holds_cycles_from((dir / "all.fst").string(), 0, &last));
  EXPECT_GE(last, a.bit_times);
  EXPECT_LT(fs::file_size(dir / "short.fst"), fs::file_size(dir / "all.fst"));
  fs::remove_all(dir);
}

TEST(Cm1Trace, RefusedWhereItCannotBeHonoured) {
  Cm1RtlOptions o;
  o.trace_file = "/tmp/x.fst";
  o.ce_period = 3;
  const Cm1Config cfg = small();
  EXPECT_THROW(run_cm1_rtl(cfg, make_pattern("permutation", cfg.cm1, 1, 1), EjectMode::kOrCombine, o),
               std::invalid_argument);
}

// `cmnet run --trace`: the simulated board writes its waveform, limited to its window, and still
// answers the host driver exactly.
TEST(Cm1Trace, SimulatedBoardWritesItsWaveform) {
  Cm1Config cfg = small();
  cfg.cm1.queue_depth = 2;
  const fs::path dir = fs::temp_directory_path() / ("cmnet-board-trace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string fst = (dir / "board.fst").string();
  {
    Cm1SimBoard sim(cfg, HostBoardOptions{}, TraceWindow{fst, 100, 3000});
    BoardClientOptions o;
    o.timeout = std::chrono::milliseconds(10000);
    auto port = open_register_port(sim.uri(), o);
    Cm1Board board(*port);
    const Traffic t = make_pattern("permutation", cfg.cm1, 2, 1);
    board.clear();
    board.load(t);
    board.start(EjectMode::kOrCombine);
    while (board.status().running) {
    }
    uint64_t received = 0;
    for (const auto& x : board.receptions()) received += x.count;
    EXPECT_EQ(received, t.messages.size());
    sim.stop();  // the harness closes the waveform on its way out
  }
  // Clock cycles 100..3000 after the board's power-on reset.
  EXPECT_TRUE(test::fst_holds_cycles(fst, 100, 3000));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cmnet

// Runs a CM-1 workload on a board through the host driver and compares it with the reference
// model: the board connection (a URI, a freshly started simulated board, or a build directory's
// rtl/ simulated), one pattern executed and checked, counters totalled. `cmnet run` and
// `cmnet sweep` (host/cli/cm1/cm1_run.cpp) print and report what this returns.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "host/cm1/cm1_board.h"
#include "host/board_connection.h"
#include "host/conservation.h"
#include "host/register_port.h"
#include "sim/cm1/cm1_sim_board.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

// One pattern, executed on a connected board and compared with the model.
struct BoardRun {
  Cm1BoardStatus st;
  std::vector<Cm1ChipCounters> chips;
  std::vector<Cm1RxCheck> rx, want_rx;
  std::array<uint32_t, 16> hist{};
  std::vector<std::array<uint32_t, 16>> ep_hist, want_ep_hist;
  Cm1RunResult model;
  Cm1ChipCounters tot;
  size_t counter_mismatch = 0, rx_mismatch = 0, ep_hist_mismatch = 0;
  std::vector<std::string> oracle;  // the paper's view's disagreements (cm1_oracle_disagreements)
  uint64_t received = 0, bit_times = 0;
  double util = 0, load_s = 0, run_s = 0;
  double mean_petit = 0, model_mean_petit = 0;  // mean delivery petit cycle of a reception
  ConservationCheck conservation;
  bool conserved = false, agree = false;
};

// `gen` >= 0: the board's on-chip generator makes the pattern (`traffic` is its C++ twin,
// sim/cm1/cm1_traffic_gen.h); otherwise the host loads `traffic`.
BoardRun execute(Cm1Board& board, const Cm1Params& p, const Traffic& traffic, EjectMode mode,
                 double timeout_s, const std::string& uri, int gen = -1, uint32_t gen_seed = 0,
                 uint32_t gen_count = 0);

// The board (host/board_connection.h) and its CM-1 driver.
struct Connection : BoardConnection {
  std::unique_ptr<Cm1Board> board;
};

// The simulated board a run without a board URI starts (`sim_link`: uart | fifo) on
// 127.0.0.1:`port` (0: any free one); `cmnet board` serves it alone.
std::unique_ptr<Cm1SimBoard> start_cm1_sim_board(const Cm1Config& cfg, const std::string& sim_link,
                                                 const TraceWindow& trace = {}, uint16_t port = 0);

// The board at `board_uri`, or a freshly started simulated board (`sim_link`: uart | fifo), or
// the build directory `rtl` simulated; checked against the config's parameters.
Connection connect_board(const Cm1Config& cfg, const std::string& board_uri,
                   const std::string& sim_link = "uart", const std::string& rtl = "",
                   const TraceWindow& trace = {});

}  // namespace cmnet

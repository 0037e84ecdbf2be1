// The simulated CM-1 board: the shared simulated board (sim/core/sim_board.h) running the CM-1
// host board top (gen/cm1/cm1_host_board_emitter.h). `cmnet run` starts one when no board URI is
// given; tests use it to drive the real host driver against the RTL.
#pragma once

#include "gen/cm1/cm1_host_board_emitter.h"
#include "sim/core/sim_board.h"

namespace cmnet {

std::string build_cm1_board_model(const Cm1Config& cfg, const HostBoardOptions& opt = {}, bool trace = false);

class Cm1SimBoard : public SimBoard {
 public:
  explicit Cm1SimBoard(const Cm1Config& cfg, const HostBoardOptions& opt = {}, const TraceWindow& trace = {},
                       uint16_t port = 0)
      : SimBoard(emit_cm1_host_board(cfg, opt), opt, trace, "cm1board", port) {}
};

}  // namespace cmnet

#include "sim/cm1/cm1_sim_board.h"

namespace cmnet {

std::string build_cm1_board_model(const Cm1Config& cfg, const HostBoardOptions& opt, bool trace) {
  return build_board_model(emit_cm1_host_board(cfg, opt), opt, trace);
}

}  // namespace cmnet

// Runs the hnodes' message engines in RTL (clos_ctrl_top: hw/clos/clos_hnode_engine.v on the
// control hypercube, Verilator) on leaves' set-up and tear-down sequences and checks them
// against the set-up model (ClosProtocolModel), message by message: every message an hnode
// handles is handed, in the RTL's order, to the model, and what the model's step sends must be
// exactly what the RTL's engine sent (the same messages, fields and InputVectors), READYs
// included, and the writes it made to the switches' configuration port exactly the model's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_config.h"
#include "sim/clos/clos_setup_model.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

struct ClosLeafRequest {
  int orig = 0, dest = 0;
  int think = 0, hold = 0;  // cycles before the CSR (after the leaf's previous request is over), READY -> ODCR
};

// A message an hnode handled, or a READY delivered to its leaf (type kREADY, orig the leaf), at a
// time: a clock cycle of the RTL, a round of the model driven in rounds (clos_circuit_setup.h).
struct ClosLogged {
  uint64_t at = 0;
  ClosMsg msg;
};

// A write the hnodes made to the switches' configuration port (ClosParams::cfg_*): the select,
// or -1 for a cleared output.
struct ClosCfgLogged {
  uint64_t at = 0;
  int addr = 0, sel = -1;
};

struct ClosCtrlRtlRun {
  uint64_t cycles = 0, requests_done = 0;
  uint64_t handled = 0, sent = 0, readies = 0, cfg_writes = 0;
  uint64_t handled_by_type[kClosMsgTypes] = {};
  uint64_t mismatches = 0;
  std::vector<std::string> first_mismatches;
  bool overflow = false;     // a WaitingQueue was full in the RTL
  bool model_idle = false;   // the model ends with everything free
  std::string model_error;
  std::vector<ClosLogged> log;  // every message handled and every READY, in the RTL's order
  std::vector<ClosCfgLogged> writes;  // every configuration write, in the RTL's order
};

// requests: each leaf's in order (a leaf's next starts after its previous one is over).
// model_params: the model runs with these parameters (CANCEL limit, selection start, RESEND after
// a wait) instead of the RTL's, to show the comparison catches a difference. trace: an FST
// waveform, its window in clock cycles from the first after reset (the log's cycles).
ClosCtrlRtlRun run_clos_ctrl_rtl(const ClosConfig& cfg, const std::vector<ClosLeafRequest>& requests,
                                 uint64_t max_cycles = 2000000, double timeout_s = 600,
                                 const ClosParams* model_params = nullptr, const TraceWindow& trace = {});

// Random sequences: `per_leaf` requests for each leaf, uniform destinations, think and hold
// uniform in [0, 2 * mean].
std::vector<ClosLeafRequest> random_leaf_requests(const ClosParams& p, int per_leaf, int think, int hold, uint64_t seed);

}  // namespace cmnet

// Replays the set-up model's switch-status operations (ClosSetupStats::hnode_ops) on the RTL of
// one hnode (hw/clos/clos_hnode.v, Verilator), hnode by hnode, and compares every decision:
// SELECT's middle switch (or none) and CO's accept / CANCEL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_config.h"
#include "sim/clos/clos_setup_model.h"

namespace cmnet {

struct ClosHnodeRtlRun {
  uint64_t ops = 0;         // operations replayed
  uint64_t mismatches = 0;  // decisions that differed
  std::vector<std::string> first_mismatches;
};

ClosHnodeRtlRun run_clos_hnode_rtl(const ClosConfig& cfg, const std::vector<ClosHnodeOp>& ops, double timeout_s = 600);

// The same for the leaf status (hw/clos/clos_leaf_status.v): every TAKE (wait or not) and
// RELEASE (which request resumes, and for what). `full` counts TAKEs that found a WaitingQueue
// of 2^queue_bits requests full (the RTL then loses the request).
struct ClosLeafRtlRun {
  uint64_t ops = 0, mismatches = 0, full = 0;
  std::vector<std::string> first_mismatches;
};
ClosLeafRtlRun run_clos_leaf_rtl(const ClosConfig& cfg, const std::vector<ClosLeafOp>& ops, int req_bits,
                                 int queue_bits, double timeout_s = 600);

}  // namespace cmnet

// Runs a workload on the generated CM-5 control network RTL (cm5ctl_tree, verilated by
// sim/core/rtl_build.h with the harness sim/cm5ctl/cm5ctl_tree_main.cpp, run as a child
// process) and reads back every result with the cycle its leaf presented it. The harness
// pushes each leaf's operations exactly as the model does (from their release cycle, one per
// cycle, when the interface's FIFO has room) and stops by the same rule, so a run compares with
// run_cm5ctl_model result by result and cycle by cycle.
#pragma once

#include <cstdint>
#include <string>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

struct Cm5RtlOptions {
  uint64_t max_cycles = 2'000'000;
  uint64_t drain_cycles = 0;  // 0 = 4 packet times (as the model)
  uint64_t min_cycles = 0;    // as the model's
  double timeout_s = 1200;
  TraceWindow trace;  // an FST waveform of the run (cycles from the first after reset)
};

struct Cm5RtlRun {
  std::vector<Cm5Result> results;
  std::vector<std::vector<uint64_t>> injected;
  uint64_t cycles = 0;
  uint64_t last_result_cycle = 0;
  bool completed = false;
  bool fault = false;       // the tree's fault output was ever high
  bool bcast_drop = false;  // the root dropped a broadcast
  bool link_error = false;  // a receiver found a wrong CRC
  std::vector<Cm5GlobalOut> globals;  // every change of a leaf's global outputs
  std::vector<int64_t> aligned;       // per leaf: the first cycle `aligned` was high (-1: never)
  double sim_seconds = 0;   // inside the harness
};

Cm5RtlRun run_cm5ctl_rtl(const Cm5ctlConfig& cfg, const Cm5Workload& w, const Cm5RtlOptions& opt = {});

// One link alone (cm5ctl_link_tx into cm5ctl_link_rx) of `p`'s packet, up (up_width, Tu) or
// down: each case's payload (cm5::Packet::pack) sent in one frame, wire 0..WIDTH-1 inverted by
// `flip_wires` in cycle `flip_cycle` of the frame (-1: none). Returns, per case, the wire word
// of every cycle of the frame, what the receiver took and its CRC error: the frame's bits as
// the RTL puts them on the wires, for comparison with the shared description.
struct Cm5LinkCase {
  uint64_t payload = 0;
  int flip_cycle = -1;
  uint32_t flip_wires = 0;
};
struct Cm5LinkFrame {
  std::vector<uint32_t> wires;  // per cycle of the frame
  uint64_t got = 0;
  bool crc_err = false;
};
std::vector<Cm5LinkFrame> run_cm5ctl_link(const Cm5ctlParams& p, bool up, const std::vector<Cm5LinkCase>& cases);

// "" when the two runs agree result by result (cycles included) and push by push, else the
// first difference.
std::string compare_runs(const Cm5RunResult& model, const Cm5RtlRun& rtl);

}  // namespace cmnet

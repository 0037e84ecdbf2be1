// `cmnet run` for the CM-5 control network on the stream board (gen/cm5ctl/cm5ctl_stream.h):
// a workload's operations as units, pushed by the host leaf by leaf (operation k of every leaf
// before operation k + 1 of any, so that no leaf's buffers fill with operations waiting for the
// others'), the results delivered back compared with the software results (per leaf, in order;
// the board's timing is the host's, so cycles are not compared) and the counters with the
// reference model's result counts, in the shared run report.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/cm5ctl/cm5ctl_stream.h"
#include "host/stream_runner.h"
#include "sim/cm5ctl/cm5ctl_ops.h"

namespace cmnet {

// The units and the comparison: the operations, the workload's global inputs, data network
// counters (router-done's input), link faults and restarts as control units in their order
// (gen/cm5ctl/cm5ctl_stream.h), and with `status` a status of every leaf in use last, compared
// with the model's final state; `status_at` (cycle, leaf): more statuses among the units at
// those cycles (the last of a leaf is the one compared). InputError for what the board cannot do
// (a flush without a restart; a link fault without the CRC, or on a link that does not exist).
StreamWorkload cm5ctl_stream_workload(const Cm5ctlConfig& cfg, const Cm5Workload& w, bool status = true,
                                      const std::vector<std::pair<uint64_t, uint32_t>>& status_at = {});

// The board's pattern "control": router-done over a stand-in data network (the counter inputs),
// then `count` reductions and scans, the global ORs and the hard-error input changed at the
// start, and with a CRC a link fault once the work is done (its hard-error OR in every status).
Cm5Workload cm5ctl_control_workload(const Cm5ctlParams& p, uint64_t seed, int count);

// The host's read of leaf `leaf`'s status registers (gen/cm5ctl/cm5ctl_stream.h): sends a status
// unit (settling `settle` cycles) and takes what the board delivers until it comes back, every
// unit appended to `delivered` in its order (the status too). With send FIFOs the status does
// not wait behind the operations (its space per function says what the host may push);
// HostError(Timeout) when it does not come within `timeout_s`.
cm5unit::Status cm5ctl_read_status(StreamBoard& board, uint32_t leaf, std::vector<StreamUnit>& delivered,
                                   uint32_t settle = 0, double timeout_s = 60);

struct Cm5RunArgs {
  std::string pattern = "reduce-scan";  // a cm5ctl pattern (cm5ctl_workloads.h) or "control"
  std::string traffic;                  // else a workload file (sim/cm5ctl/cm5ctl_workload_file.h)
  uint64_t seed = 1;
  int count = 4;  // operations per leaf
  StreamRunArgs stream;
};
StreamRunOutcome cm5ctl_run(const Cm5ctlConfig& cfg, const Cm5RunArgs& a, std::FILE* out = stdout);

// `cmnet sweep`: the offered load is K, the operations per leaf in flight at once (the host
// loads K operations into every leaf before the board runs, all offered from cycle 0); the
// accepted load is operations completed per packet time, K x packet time / cycles, on the
// board (its active cycles) and on the reference model (the same operations offered in cycle
// 0, until the last result). A point agrees when every result is the software's, every leaf's
// counters are the model's result counts, and the board's cycles lie between the model's and
// the model's plus what the board's one-unit staging register adds (3 cycles per unit): the
// board injects one unit at a time, the model's interfaces hold every operation at once.
// Loads beyond what the board's transmit FIFO holds (2 words per operation) are left out: the
// host's pace would enter the board's cycles. Patterns with timed events (flush, router-done) are
// refused.
struct Cm5SweepArgs {
  std::string pattern = "reduce-scan";
  uint64_t seed = 1;
  std::vector<int> in_flight = {1, 2, 4, 8, 16};
  StreamRunArgs stream;
};
struct Cm5SweepPoint {
  int in_flight = 0;
  uint64_t board_cycles = 0, model_cycles = 0;
  double accepted = 0, model_accepted = 0;
  bool results_ok = false, counters_ok = false, timing_ok = false;
};
// The staging register's allowance: cycles the board may take beyond the model for `units` units
// (3 a unit + 8; with send FIFOs 2 a unit + 8), plus the result memory's rows: the last results
// of the leaves read one after the other, rows - 1 cycles more each (gen/cm5ctl/cm5ctl_stream.h).
uint64_t cm5ctl_staging_allowance(size_t units, const Cm5ctlParams& p);
// Runs every point on one connection; writes the table and sweep.{json,csv,svg} to
// a.stream.out_dir. True when every point agrees.
bool cm5ctl_sweep(const Cm5ctlConfig& cfg, const Cm5SweepArgs& a, std::vector<Cm5SweepPoint>* points = nullptr,
                  std::FILE* out = stdout);

}  // namespace cmnet

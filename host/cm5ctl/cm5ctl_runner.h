// `cmnet run` for the CM-5 control network on the stream board (gen/cm5ctl/cm5ctl_stream.h):
// a workload's operations as units, pushed by the host leaf by leaf (operation k of every leaf
// before operation k + 1 of any, so that no leaf's buffers fill with operations waiting for the
// others'), the results delivered back compared with the software results (per leaf, in order;
// the board's timing is the host's, so cycles are not compared) and the counters with the
// reference model's result counts, in the shared run report.
#pragma once

#include <string>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "host/stream_runner.h"
#include "sim/cm5ctl/cm5ctl_ops.h"

namespace cmnet {

// The units and the comparison. InputError for what the board cannot do (a flush: the unit
// format has no restart; link faults, global inputs).
StreamWorkload cm5ctl_stream_workload(const Cm5ctlConfig& cfg, const Cm5Workload& w);

struct Cm5RunArgs {
  std::string pattern = "reduce-scan";
  uint64_t seed = 1;
  int count = 4;  // operations per leaf
  StreamRunArgs stream;
};
StreamRunOutcome cm5ctl_run(const Cm5ctlConfig& cfg, const Cm5RunArgs& a, std::FILE* out = stdout);

}  // namespace cmnet

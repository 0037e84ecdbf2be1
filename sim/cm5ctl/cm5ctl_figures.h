// The CM-5 control network's figures, measured on either engine: the latency of a broadcast,
// a reduction, a scan and a barrier (sync OR) against the number of leaves, beside the bound
// 2 x height x hop time + packet time; and the pipelined throughput in operations completed per
// packet time in steady state (goal 1.0).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gen/cm5ctl/cm5ctl_params.h"
#include "sim/cm5ctl/cm5ctl_ops.h"

namespace cmnet {

// Runs a workload on one engine and returns its timed results (throws when it does not complete).
using Cm5Engine = std::function<std::vector<Cm5Result>(const Cm5Workload&)>;
Cm5Engine cm5_model_engine(const Cm5ctlParams& p);

struct Cm5Latency {
  int leaves = 0;
  int height = 0;
  int64_t bound = 0;      // 2 x height x packet time + packet time
  int64_t broadcast = 0;  // leaf 0 pushes one word at cycle 0: cycles until every leaf has it
  int64_t reduce = 0;     // every leaf pushes an ADD reduction at cycle 0: until every leaf has the sum
  int64_t scan = 0;       // the same for a forward ADD scan
  int64_t barrier = 0;    // the same for a sync OR (a barrier)
};
Cm5Latency measure_latency(const Cm5ctlParams& p, const Cm5Engine& engine);

struct Cm5Throughput {
  int leaves = 0;
  int ops = 0;
  double cycles_per_op = 0;      // steady state, between the results of ops/4 and 3*ops/4 at leaf 0
  double ops_per_packet_time = 0;
};
// `ops` forward scans pushed back to back by every leaf (ops >= 8).
Cm5Throughput measure_throughput(const Cm5ctlParams& p, const Cm5Engine& engine, int ops);

}  // namespace cmnet

// The CM-5 control network's records in `cmnet sim`'s JSON lines (host/cli/sim_lines.h): one
// "operation" per combining operation (the k-th push of every leaf in use: each leaf's input
// and each leaf's result), then one per broadcast (its sender's word, every receiver's copy),
// then, when the workload sets global inputs, one "globals" record (every input change sent,
// every output change that arrived). Shared by the cm5ctl family and the cm5 machine (its
// router-done).
#pragma once

#include <cstdint>
#include <vector>

#include "gen/cm5ctl/cm5ctl_params.h"
#include "host/cli/sim_lines.h"
#include "sim/cm5ctl/cm5ctl_ops.h"

namespace cmnet {

// Records with ids from `first_id` on, numbered in the push order of the first leaf that
// broadcasts (the first leaf in use if none does): a workload file's order of lines. `want`: the software results (expected_results), shown
// beside each result; results beyond the operations a leaf pushed are not in any record.
std::vector<SimRecord> cm5ctl_records(const Cm5Workload& w, const Cm5Topology& t, const std::vector<Cm5Result>& results,
                                      const std::vector<Cm5GlobalOut>& globals, const Cm5Expected& want,
                                      int word_bits, uint64_t first_id = 0);

}  // namespace cmnet

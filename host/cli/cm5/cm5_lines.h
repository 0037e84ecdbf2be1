// The CM-5 machine's records in `cmnet sim`'s JSON lines (host/cli/sim_lines.h): one "message"
// per data network message of the workload (ids 0.., in its order: left and right networks),
// then its control network's operations (router-done, host/cli/cm5ctl/cm5ctl_lines.h).
#pragma once

#include <vector>

#include "gen/cm5/cm5_config.h"
#include "host/cli/sim_lines.h"
#include "sim/cm5/cm5_machine.h"

namespace cmnet {

// A message the processors read is credited to the first message of the workload, not yet
// credited, with the same network, source, destination, tag and words (the data network
// carries no id); when two such are in flight the credit is a guess and both say so. A
// message read again (a duplicate) is a second arrival of the one it copies.
std::vector<SimRecord> cm5_machine_records(const Cm5MachineConfig& c, const Cm5MachineWorkload& w,
                                           const Cm5MachineRun& r);

}  // namespace cmnet

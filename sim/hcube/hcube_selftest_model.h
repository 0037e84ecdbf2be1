// The hypercube self-test's traffic and expectations (gen/hcube/hcube_selftest.h): a traffic's
// messages as each node's ROM holds them (destination, generation, age-rank tag, the worm's bytes)
// and what the wormhole reference model delivers: per node the worms ending there, the XOR and sum
// of the bytes it ejects (the source field onwards, its top 4 bits the first hop's dimension, as
// the routers write them), the cycle of its last arrival, and every port's counters.
#pragma once

#include <string>

#include "gen/hcube/hcube_selftest.h"
#include "sim/hcube/hcube_traffic.h"

namespace cmnet {

// `name`, `seed` and `per_node` say what the traffic is (the top's header, selftest.json).
// ConfigError for a network the top is not for, a node whose messages do not fit its ROM (checked
// before the model runs) and a run the model does not complete; InputError for bad traffic.
HcubeSelfTest hcube_selftest_of(const HcubeParams& p, const HcubeTraffic& t, const std::string& name, uint64_t seed,
                                int per_node);

}  // namespace cmnet

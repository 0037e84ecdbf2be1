// The CM-5 data network self-test's traffic and expectations (gen/cm5data/cm5data_selftest.h):
// a named pattern's messages (one network: the left one, every message from cycle 0), the words
// each leaf sends, and per leaf what the reference model delivers: the count, the XOR of every
// word received and the cycle of the last arrival.
#pragma once

#include <string>

#include "gen/cm5data/cm5data_cabled.h"
#include "gen/cm5data/cm5data_selftest.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

// Throws ConfigError when the model does not deliver every message (the self-test would wait
// forever) or the pattern is unknown.
Cm5SelfTest cm5_selftest_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf);
// The split over boards (gen/cm5data/cm5data_cabled.h): the same messages, each leaf's
// alternating between the left and right networks, each network's run by the model.
Cm5CabledTraffic cm5_cabled_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf);
// The same for a user's messages (a traffic file's, named `name` in the tops' headers): InputError
// when a leaf sends more than 64 (what a self-test's ROM holds).
Cm5SelfTest cm5_selftest_of(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::string& name);
Cm5CabledTraffic cm5_cabled_traffic_of(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::string& name);

}  // namespace cmnet

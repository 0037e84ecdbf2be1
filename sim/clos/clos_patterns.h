// Circuit patterns for the Clos family: a (partial) permutation of the N input ports, made by
// name (a user's own connection set: sim/clos/clos_circuit_file.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_params.h"

namespace cmnet {

// identity, reverse, permutation (uniformly random), random-connections (each input, with
// probability 1/2, to a random output no other input has).
std::vector<std::string> clos_pattern_names();
std::vector<int> make_clos_pattern(const std::string& name, const ClosParams& p, uint64_t seed);

}  // namespace cmnet

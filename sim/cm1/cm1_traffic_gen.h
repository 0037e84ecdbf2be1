// The patterns of the board's on-chip traffic generator (hw/cm1/cm1_traffic_gen.v), reproduced in
// C++ bit for bit so the reference model can route exactly what the board generated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_params.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

enum class GenPattern : uint32_t {
  kUniform = 0,
  kPermutation = 1,
  kBitComplement = 2,
  kTranspose = 3,
  kHotSpot = 4,
  kNearestNeighbour = 5,
};

std::vector<std::string> generator_names();  // "uniform", "permutation", ...
GenPattern generator_from_name(const std::string& name);  // throws InputError listing the names

// COUNT rounds; in each, every processor g (in increasing order) sends one message.
// Requires c + log2(P) <= 16 (the generator's key packs the processor number in 16 bits).
Traffic generator_traffic(GenPattern pattern, const Cm1Params& p, uint32_t seed, uint32_t count);

}  // namespace cmnet

// Cm1Params: names, derived figures and range checks.
#include "gen/cm1/cm1_params.h"

#include <cstdint>
#include <string>

#include "gen/core/errors.h"

namespace cmnet {

const char* to_string(EjectMode m) {
  switch (m) {
    case EjectMode::kOrCombine:
      return "or";
    case EjectMode::kOnePerPetit:
      return "one";
  }
  return "?";
}

int Cm1Params::proc_bits() const {
  int bits = 0;
  while (bits < 31 && (1 << bits) < procs_per_chip) ++bits;
  return bits;
}

namespace {

void check_range(const std::string& where, const char* field, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi) {
    throw ConfigError(where + ": " + field + " = " + std::to_string(value) + " out of range " +
                      std::to_string(lo) + ".." + std::to_string(hi));
  }
}

}  // namespace

void validate(const Cm1Params& p, const std::string& where) {
  check_range(where, "cube_dims", p.cube_dims, 1, 16);
  check_range(where, "rows", p.rows, 2, 64);
  check_range(where, "procs_per_chip", p.procs_per_chip, 1, 64);
  if ((p.procs_per_chip & (p.procs_per_chip - 1)) != 0) {
    throw ConfigError(where + ": procs_per_chip = " + std::to_string(p.procs_per_chip) +
                      " is not a power of two (allowed 1, 2, 4, 8, 16, 32, 64)");
  }
  check_range(where, "vp_bits", p.vp_bits, 0, 16);
  check_range(where, "data_bits", p.data_bits, 1, 64);
  check_range(where, "queue_depth", p.queue_depth, 1, 1024);
  if (p.eject_mode != EjectMode::kOrCombine && p.eject_mode != EjectMode::kOnePerPetit) {
    throw ConfigError(where + ": eject_mode = " + std::to_string(static_cast<int>(p.eject_mode)) +
                      " is not one of \"or\", \"one\"");
  }
}

}  // namespace cmnet

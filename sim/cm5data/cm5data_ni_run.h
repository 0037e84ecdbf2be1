// The memory-mapped network interface (gen/cm5data/cm5data_ni_rtl.h, register map
// gen/cm5data/cm5data_ni_regmap.h) driven by a script of register accesses, on two engines:
//  - the model: the register map decoded onto the model's NI (sim/cm5data/cm5data_ni.h, one
//    side, the left network) and Cm5DataNetwork, written from the map's text, not from the RTL;
//  - the RTL: cm5data_ni_net (the emitted network with a cm5data_ni at every leaf) under
//    Verilator (sim/cm5data/cm5data_ni_main.cpp).
// Both return every read's value, in cycle order and leaf order within a cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_config.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

struct Cm5NiAccess {
  uint64_t cycle = 0;  // at most one access per leaf and cycle
  uint32_t leaf = 0;
  bool write = false;  // else a read
  uint32_t addr = 0, data = 0;
};

struct Cm5NiRead {
  uint64_t cycle = 0;
  uint32_t leaf = 0, addr = 0, value = 0;
  bool operator==(const Cm5NiRead&) const = default;
};

// Runs `cycles` cycles (at least past the script's last access). Bad scripts (leaf out of range,
// two accesses of one leaf in a cycle, an address outside the map) throw InputError.
std::vector<Cm5NiRead> run_cm5data_ni_model(const Cm5DataParams& p, const std::vector<Cm5NiAccess>& script, uint64_t cycles);
std::vector<Cm5NiRead> run_cm5data_ni_rtl(const Cm5DataConfig& cfg, const std::vector<Cm5NiAccess>& script, uint64_t cycles,
                                          const TraceWindow& trace = {});

}  // namespace cmnet

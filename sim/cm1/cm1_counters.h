// Sums over the chips of a CM-1 network's counters (board, RTL or model): the one place the
// network totals and the wire utilization are computed.
#pragma once

#include <vector>

#include "gen/cm1/cm1_params.h"
#include "sim/cm1/cm1_model.h"

namespace cmnet {

// Injected, delivered, desperation, parity errors and per-dimension busy bit-times summed over
// the chips (petit_cycles is left 0: it is per chip, not additive).
inline Cm1ChipCounters cm1_totals(const Cm1Params& p, const std::vector<Cm1ChipCounters>& chips) {
  Cm1ChipCounters t;
  t.dim_busy.assign(static_cast<size_t>(p.cube_dims), 0);
  for (const auto& c : chips) {
    t.injected += c.injected;
    t.delivered += c.delivered;
    t.desperation += c.desperation;
    t.parity_errors += c.parity_errors;
    for (size_t d = 0; d < c.dim_busy.size() && d < t.dim_busy.size(); ++d) t.dim_busy[d] += c.dim_busy[d];
  }
  return t;
}

// Busy bit-times over the capacity of every cube wire (chips x c) for `bit_times`.
inline double cm1_wire_utilization(const Cm1Params& p, const Cm1ChipCounters& totals, uint64_t bit_times) {
  uint64_t busy = 0;
  for (auto b : totals.dim_busy) busy += b;
  const double capacity = static_cast<double>(p.chips()) * p.cube_dims * static_cast<double>(bit_times);
  return capacity > 0 ? static_cast<double>(busy) / capacity : 0.0;
}

}  // namespace cmnet

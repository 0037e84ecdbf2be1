// Sums over the chips of a CM-1 network's counters (board, RTL or model): the one place the
// network totals and the wire utilization are computed.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gen/cm1/cm1_emitter.h"  // cm1_counter_names: the cnt_sel order
#include "gen/cm1/cm1_params.h"
#include "sim/cm1/cm1_model.h"

namespace cmnet {

// One chip's counters as words in cnt_sel order (cm1_counter_names: injected, delivered,
// desperation, petit_cycles, parity_errors, busy_dim0..): the one mapping between the RTL's
// counter words (board window, harness output, self-test ROMs) and Cm1ChipCounters.
inline std::vector<uint64_t> cm1_counter_words(const Cm1ChipCounters& c) {
  std::vector<uint64_t> v = {c.injected, c.delivered, c.desperation, c.petit_cycles, c.parity_errors};
  v.insert(v.end(), c.dim_busy.begin(), c.dim_busy.end());
  return v;
}
template <class Word>
Cm1ChipCounters cm1_counters_from_words(const Cm1Params& p, const Word* w, size_t n) {
  if (n < cm1_counter_names(p).size())
    throw std::invalid_argument("CM-1 counters: " + std::to_string(n) + " words for " +
                                std::to_string(cm1_counter_names(p).size()) + " counters");
  Cm1ChipCounters c;
  c.injected = w[0];
  c.delivered = w[1];
  c.desperation = w[2];
  c.petit_cycles = w[3];
  c.parity_errors = w[4];
  for (int d = 0; d < p.cube_dims; ++d) c.dim_busy.push_back(w[5 + d]);
  return c;
}

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

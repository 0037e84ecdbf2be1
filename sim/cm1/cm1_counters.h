// Sums over the chips of a CM-1 network's counters (board, RTL or model): the one place the
// network totals and the wire utilization are computed.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gen/cm1/cm1_counter_list.h"
#include "gen/cm1/cm1_emitter.h"  // cm1_counter_names: the cnt_sel order
#include "gen/cm1/cm1_params.h"
#include "sim/cm1/cm1_model.h"

namespace cmnet {

// The counter named `name` (one of cm1_counter_names: the chip's cnt_sel order, written once in
// the emitter) in `c`: the one place a counter's name meets its field. Throws std::invalid_argument
// on a name the chip does not have.
template <class Counters>
auto& cm1_counter(Counters& c, const std::string& name) {
  if (name == "injected") return c.injected;
  if (name == "delivered") return c.delivered;
  if (name == "desperation") return c.desperation;
  if (name == "petit_cycles") return c.petit_cycles;
  if (name == "parity_errors") return c.parity_errors;
  if (name.starts_with(kCm1BusyCounter)) {
    const size_t d = static_cast<size_t>(std::stoul(name.substr(kCm1BusyCounter.size())));
    if (d < c.dim_busy.size()) return c.dim_busy[d];
  }
  throw std::invalid_argument("CM-1 counters: no counter '" + name + "' (" + std::to_string(c.dim_busy.size()) +
                              " dimensions)");
}

// One chip's counters as words in cnt_sel order, by name: the mapping between the RTL's counter
// words (board window, harness output, self-test ROMs) and Cm1ChipCounters.
inline std::vector<uint64_t> cm1_counter_words(const Cm1Params& p, const Cm1ChipCounters& c) {
  std::vector<uint64_t> v;
  for (const std::string& name : cm1_counter_names(p)) v.push_back(cm1_counter(c, name));
  return v;
}
template <class Word>
Cm1ChipCounters cm1_counters_from_words(const Cm1Params& p, const Word* w, size_t n) {
  const std::vector<std::string> names = cm1_counter_names(p);
  if (n < names.size())
    throw std::invalid_argument("CM-1 counters: " + std::to_string(n) + " words for " + std::to_string(names.size()) +
                                " counters");
  Cm1ChipCounters c;
  c.dim_busy.assign(static_cast<size_t>(p.cube_dims), 0);
  for (size_t i = 0; i < names.size(); ++i) cm1_counter(c, names[i]) = w[i];
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

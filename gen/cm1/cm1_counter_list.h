// CM-1's per-chip counters, described once, in their cnt_sel order: the router's increments
// (gen/cm1/cm1_emitter.cpp), the model's fields (sim/cm1/cm1_counters.h), the harnesses' read-out
// and the host's report all find a counter by its name or take their number from here; nothing
// else fixes the order. Header-only: the Verilator harness mains include it too.
#pragma once

#include <array>
#include <string_view>

namespace cmnet {

// The counters every chip has, then one per cube dimension d: kCm1BusyCounter followed by d
// ("busy_dim0": bit-times the wire of dimension d was busy).
inline constexpr std::array<std::string_view, 5> kCm1FixedCounters = {"injected", "delivered", "desperation",
                                                                      "petit_cycles", "parity_errors"};
inline constexpr std::string_view kCm1BusyCounter = "busy_dim";

// Counters per chip of a network with `cube_dims` dimensions.
constexpr int cm1_counter_count(int cube_dims) { return static_cast<int>(kCm1FixedCounters.size()) + cube_dims; }

}  // namespace cmnet

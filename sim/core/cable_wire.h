// What the multi-board harnesses (boards on their own oscillators, cabled; sim/cm1/cm1_cube_main.cpp,
// sim/core/multiboard_main.cpp) share about a cable: a wire's history of values in time, and the
// seeded coin that decides a flip-flop's sample when the wire changed too close to its clock edge.
// Header-only: the harness mains are compiled by Verilator's build.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace cmnet::harness {

// A wire (or bundle) as (time, value) transitions in time order; old ones are dropped, so a
// reader looks back no further than a cable's delay.
struct History {
  std::vector<std::pair<uint64_t, uint32_t>> tr{{0, 0}};
  uint32_t at(uint64_t t) const {
    uint32_t v = tr.front().second;
    for (const auto& [when, val] : tr) {
      if (when > t) break;
      v = val;
    }
    return v;
  }
  void set(uint64_t t, uint32_t v) {
    if (v != tr.back().second) tr.emplace_back(t, v);
    if (tr.size() > 256) tr.erase(tr.begin(), tr.begin() + 128);
  }
};

inline uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace cmnet::harness

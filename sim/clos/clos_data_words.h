// The data words of a Clos `cmnet sim` run: splitmix64 from the case's seed, masked to the circuit
// width, input ports in order, word by word. Header-only so the RTL harness
// (sim/clos/clos_network_main.cpp), which draws the words it drives, and clos_case_words, which
// draws the same words for the model engine, are one generator.
#pragma once

#include <cstdint>

namespace cmnet {

// The next data word of the sequence in `state` (advanced), `width` bits (1..64).
inline uint64_t clos_next_data_word(uint64_t& state, int width) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return width >= 64 ? z : z & ((1ull << width) - 1);
}

}  // namespace cmnet

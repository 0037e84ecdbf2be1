// Bit-level access to Verilator ports of any width. Verilator maps a port to CData, SData,
// IData, QData or VlWide<N> depending on its width, which changes with the generator's
// parameters; these helpers let one harness drive every size of a design.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "verilated.h"

namespace cmnet::vport {

template <class T>
  requires std::is_integral_v<T>
inline bool get_bit(const T& port, int i) {
  return (static_cast<uint64_t>(port) >> i) & 1u;
}
template <std::size_t N>
inline bool get_bit(const VlWide<N>& port, int i) {
  return (port[static_cast<std::size_t>(i) / 32] >> (i % 32)) & 1u;
}

template <class T>
  requires std::is_integral_v<T>
inline void set_bit(T& port, int i, bool v) {
  const T mask = static_cast<T>(T{1} << i);
  port = v ? static_cast<T>(port | mask) : static_cast<T>(port & ~mask);
}
template <std::size_t N>
inline void set_bit(VlWide<N>& port, int i, bool v) {
  const uint32_t mask = 1u << (i % 32);
  auto& w = port[static_cast<std::size_t>(i) / 32];
  w = v ? (w | mask) : (w & ~mask);
}

// Reads `width` (<= 64) bits starting at bit `lsb`.
template <class T>
inline uint64_t get_field(const T& port, int lsb, int width) {
  uint64_t v = 0;
  for (int b = 0; b < width; ++b) v |= static_cast<uint64_t>(get_bit(port, lsb + b)) << b;
  return v;
}

template <class T>
inline void set_field(T& port, int lsb, int width, uint64_t v) {
  for (int b = 0; b < width; ++b) set_bit(port, lsb + b, (v >> b) & 1u);
}

// True when any bit of the port is set (cheap scan of wide vectors).
template <class T>
  requires std::is_integral_v<T>
inline bool any(const T& port) {
  return port != 0;
}
template <std::size_t N>
inline bool any(const VlWide<N>& port) {
  for (std::size_t i = 0; i < N; ++i)
    if (port[i]) return true;
  return false;
}

// Index of 32-bit words in a port, for scanning sparse set bits.
template <class T>
  requires std::is_integral_v<T>
inline uint32_t word(const T& port, std::size_t w) {
  return w == 0 ? static_cast<uint32_t>(port) : static_cast<uint32_t>(static_cast<uint64_t>(port) >> 32);
}
template <std::size_t N>
inline uint32_t word(const VlWide<N>& port, std::size_t w) {
  return w < N ? port[w] : 0u;
}

}  // namespace cmnet::vport

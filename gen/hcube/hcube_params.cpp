// HcubeParams: packetization, routing helpers, range checks.
#include "gen/hcube/hcube_params.h"

#include <bit>

#include "gen/core/errors.h"

namespace cmnet {

uint64_t HcubeParams::packets_of(uint64_t len) const {
  const uint64_t first = static_cast<uint64_t>(first_data_bytes());
  if (len <= first) return 1;
  const uint64_t d = static_cast<uint64_t>(data_bytes());
  return 1 + (len - first + d - 1) / d;
}

int HcubeParams::packet_data(uint64_t len, uint64_t k) const {
  const uint64_t first = static_cast<uint64_t>(first_data_bytes());
  if (k == 0) return static_cast<int>(len < first ? len : first);
  const uint64_t d = static_cast<uint64_t>(data_bytes());
  const uint64_t off = first + (k - 1) * d;
  const uint64_t left = len > off ? len - off : 0;
  return static_cast<int>(left < d ? left : d);
}

int HcubeParams::packet_wire(uint64_t len, uint64_t k) const {
  return (k == 0 ? kMessageHeaderBytes : kRouteHeaderBytes) + packet_data(len, k);
}

namespace {
void range(const std::string& where, const char* field, int v, int lo, int hi, const std::string& why = "") {
  if (v < lo || v > hi)
    throw ConfigError(where + ": " + field + " = " + std::to_string(v) + " out of range " + std::to_string(lo) +
                      ".." + std::to_string(hi) + why);
}
}  // namespace

void validate(const HcubeParams& p, const std::string& where) {
  range(where, "dims", p.dims, 1, HcubeParams::kMaxDims,
        " (the 2-byte source field holds the node and the first-hop dimension)");
  if (p.scheme != "packet" && p.scheme != "wormhole")
    throw ConfigError(where + ": scheme = \"" + p.scheme + "\" is not a scheme (allowed: packet, wormhole)");
  if (p.routing != "fixed" && p.routing != "quasi")
    throw ConfigError(where + ": routing = \"" + p.routing + "\" is not a routing (allowed: fixed, quasi)");
  if (p.scheme == "wormhole" && p.routing != "fixed")
    throw ConfigError(where + ": routing = \"" + p.routing +
                      "\" is not allowed with scheme = \"wormhole\" (the wormhole baseline is e-cube: fixed)");
  range(where, "packet_bytes", p.packet_bytes, HcubeParams::kMessageHeaderBytes + 1, 255,
        " (the first packet carries 10 header bytes and at least one data byte)");
  // Quasi-adaptive routing keeps one buffer of every port out of contrary packets' reach.
  range(where, "buffers", p.buffers, p.quasi() ? 2 : 1, 256,
        p.quasi() ? " (quasi routing keeps one buffer per port free of contrary packets)" : "");
  range(where, "ticks_per_byte", p.ticks_per_byte, 1, 64);
  range(where, "arb_ticks", p.arb_ticks, 0, 1024);
}

int hcube_ecube_dim(uint32_t a, uint32_t b) { return a == b ? -1 : std::countr_zero(a ^ b); }
int hcube_hops(uint32_t a, uint32_t b) { return std::popcount(a ^ b); }

uint8_t hcube_data_byte(uint32_t seed, uint32_t src, uint32_t seq, uint64_t i) {
  // splitmix64 finalizer of the packed coordinates: every byte differs from its neighbours.
  uint64_t z = (static_cast<uint64_t>(seed) << 48) ^ (static_cast<uint64_t>(src) << 32) ^
               (static_cast<uint64_t>(seq) << 16) ^ (i * 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<uint8_t>(z ^ (z >> 31));
}

}  // namespace cmnet

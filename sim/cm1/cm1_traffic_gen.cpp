#include "sim/cm1/cm1_traffic_gen.h"

#include "gen/core/errors.h"

namespace cmnet {
namespace {

uint32_t xs32(uint32_t x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}
uint32_t hash(uint32_t key, uint32_t salt) { return xs32(xs32(key ^ salt)); }

uint32_t rotl(uint32_t v, uint32_t k, int w) {
  const uint32_t mask = (1u << w) - 1;
  k %= static_cast<uint32_t>(w);
  return k == 0 ? v & mask : ((v << k) | (v >> (w - static_cast<int>(k)))) & mask;
}

// The definitions are hw/cm1/cm1_traffic_gen.v's header comment.
constexpr uint32_t kSaltDst = 0x9E3779B9, kSaltRound = 0xA0761D65;

const std::vector<std::string> kNames = {"uniform",   "permutation", "bit-complement",
                                         "transpose", "hot-spot",    "nearest-neighbour"};

}  // namespace

std::vector<std::string> generator_names() { return kNames; }

GenPattern generator_from_name(const std::string& name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<GenPattern>(i);
  std::string list;
  for (const auto& n : kNames) list += (list.empty() ? "" : ", ") + n;
  throw InputError("unknown generator '" + name + "' (valid: " + list + ")");
}

Traffic generator_traffic(GenPattern pattern, const Cm1Params& p, uint32_t seed, uint32_t count) {
  const int pa = p.proc_bits();
  const int gw = p.cube_dims + pa;
  if (gw > 16)
    throw ConfigError("on-chip generator: c + log2(P) = " + std::to_string(gw) +
                      " is above its limit of 16");
  const uint32_t np = 1u << gw, mask = np - 1;
  Traffic t;
  for (uint32_t r = 0; r < count; ++r) {
    const uint32_t key_round = seed ^ ((r & 0xffff) << 16 | 0xffff);
    const uint32_t h_round = hash(key_round, kSaltRound);
    const uint32_t rot = ((h_round >> 24) * static_cast<uint32_t>(gw)) >> 8;  // in [0, gw)
    for (uint32_t g = 0; g < np; ++g) {
      const uint32_t key = seed ^ ((r & 0xffff) << 16 | g);
      const uint32_t h = hash(key, kSaltDst);
      uint32_t dst = 0;
      switch (pattern) {
        case GenPattern::kPermutation: dst = rotl(g ^ (h_round & mask), rot, gw); break;
        case GenPattern::kBitComplement: dst = ~g & mask; break;
        case GenPattern::kTranspose: dst = rotl(g, static_cast<uint32_t>(gw / 2), gw); break;
        case GenPattern::kHotSpot: dst = (h >> 30) == 0 ? 0 : h & mask; break;
        case GenPattern::kNearestNeighbour: dst = g ^ (1u << (pa + static_cast<int>(r % static_cast<uint32_t>(p.cube_dims)))); break;
        case GenPattern::kUniform: dst = h & mask; break;
      }
      Message m;
      m.src = g;
      m.dst = dst;
      const uint32_t data_lo = xs32(h);
      const uint64_t data64 = (static_cast<uint64_t>(xs32(data_lo)) << 32) | data_lo;
      m.data = p.data_bits >= 64 ? data64 : data64 & ((1ull << p.data_bits) - 1);
      // vp = h[29 -: V]
      m.vp = p.vp_bits > 0 ? (h >> (30 - p.vp_bits)) & ((1u << p.vp_bits) - 1) : 0;
      t.messages.push_back(m);
    }
  }
  return t;
}

}  // namespace cmnet

#include "sim/hcube/hcube_traffic.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "gen/core/errors.h"
#include "gen/core/field_lines.h"

namespace cmnet {
namespace {

// xoshiro256** seeded by splitmix64: our own generator and distributions, so the streams are
// the same on every standard library.
struct Rng {
  uint64_t s[4];
  explicit Rng(uint64_t seed) {
    for (auto& x : s) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      x = z ^ (z >> 31);
    }
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    const uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(uniform() * n); }
  double normal() {  // Box-Muller, one value per call
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }
};

uint32_t transpose(uint32_t x, int n) {
  const int h = n / 2;
  const uint32_t mask = (1u << n) - 1;
  return ((x << h) | (x >> (n - h))) & mask;
}

}  // namespace

std::vector<std::string> hcube_pattern_names() { return {"uniform", "bit-complement", "transpose", "hotspot"}; }

std::vector<uint8_t> hcube_payload(uint32_t seed, const HcubeMessage& m) {
  std::vector<uint8_t> b(m.len);
  for (uint32_t i = 0; i < m.len; ++i) b[i] = hcube_data_byte(seed, m.src, m.seq, i);
  return b;
}

void check_hcube_traffic(const HcubeTraffic& t, const HcubeParams& p, const std::string& where) {
  std::map<uint32_t, std::pair<uint32_t, uint64_t>> next;  // source -> (seq expected, last gen)
  const uint32_t N = static_cast<uint32_t>(p.nodes());
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const HcubeMessage& m = t.messages[i];
    const std::string at = where + ": message " + std::to_string(i) + ": ";
    if (m.src >= N) throw InputError(at + "src = " + std::to_string(m.src) + " out of range 0.." + std::to_string(N - 1));
    if (m.dst >= N) throw InputError(at + "dst = " + std::to_string(m.dst) + " out of range 0.." + std::to_string(N - 1));
    if (m.src == m.dst) throw InputError(at + "dst = src = " + std::to_string(m.src) + " (a node does not send to itself)");
    if (m.len == 0) throw InputError(at + "len = 0 (a message has at least one byte)");
    auto& [seq, gen] = next[m.src];
    if (m.seq != seq)
      throw InputError(at + "seq = " + std::to_string(m.seq) + ", expected " + std::to_string(seq) +
                       " (each source's messages numbered 0, 1, ... in order)");
    if (seq > 0 && m.gen < gen)
      throw InputError(at + "gen = " + std::to_string(m.gen) + " before the source's previous message (" +
                       std::to_string(gen) + ")");
    ++seq;
    gen = m.gen;
  }
}

HcubeTraffic make_hcube_workload(int dims, const std::string& pattern, double mean_len, double mean_gap, int per_node,
                                 uint64_t seed) {
  const auto names = hcube_pattern_names();
  if (std::find(names.begin(), names.end(), pattern) == names.end())
    throw InputError("pattern \"" + pattern + "\" is not an hcube pattern (uniform, bit-complement, transpose, hotspot)");
  const uint32_t N = 1u << dims;
  HcubeTraffic t;
  for (uint32_t s = 0; s < N; ++s) {
    Rng r(seed * 0x100000001B3ull + s);
    uint64_t now = 0;
    uint32_t seq = 0;
    for (int k = 0; k < per_node; ++k) {
      // Every draw is made whatever the pattern, so the streams stay aligned across patterns.
      const double gap = mean_gap + std::sqrt(mean_gap / 2.0) * r.normal();
      const double len = std::ceil(-mean_len * std::log(1.0 - r.uniform()));
      const uint32_t any = r.below(N - 1);
      const double hot = r.uniform();
      now += static_cast<uint64_t>(std::max(1.0, std::round(gap)));
      uint32_t dst = any >= s ? any + 1 : any;  // uniform over the other nodes
      if (pattern == "bit-complement") dst = ~s & (N - 1);
      if (pattern == "transpose") dst = transpose(s, dims);
      if (pattern == "hotspot" && hot < 0.125) dst = 0;
      if (dst == s) continue;
      HcubeMessage m;
      m.src = s;
      m.dst = dst;
      m.gen = now;
      m.len = static_cast<uint32_t>(std::clamp(len, 1.0, 1e9));
      m.seq = seq++;
      t.messages.push_back(m);
    }
  }
  return t;
}

double hcube_ideal_utilization(const HcubeTraffic& t, const HcubeParams& p) {
  double link_ticks = 0;
  uint64_t last = 0;
  for (const auto& m : t.messages) {
    link_ticks += static_cast<double>(p.ticks_per_byte) * m.len * hcube_hops(m.src, m.dst);
    last = std::max(last, m.gen);
  }
  return last == 0 ? 0.0 : link_ticks / (static_cast<double>(p.links()) * static_cast<double>(last));
}

HcubeTraffic read_hcube_traffic_file(const std::string& path, const HcubeParams& p) {
  HcubeTraffic t;
  std::vector<uint32_t> seq(static_cast<size_t>(p.nodes()), 0);
  std::vector<uint64_t> last(static_cast<size_t>(p.nodes()), 0);
  const uint64_t top = static_cast<uint64_t>(p.nodes() - 1);
  for (const FieldLine& l : read_field_lines_file(path, "traffic file")) {
    if (l.fields.size() != 4)
      throw InputError(l.at + "expected SRC DST GEN LEN, got " + std::to_string(l.fields.size()) + " fields");
    HcubeMessage m;
    m.src = static_cast<uint32_t>(l.num(0, "SRC", 0, top));
    m.dst = static_cast<uint32_t>(l.num(1, "DST", 0, top));
    m.gen = l.num(2, "GEN", 0, 1ull << 40);
    m.len = static_cast<uint32_t>(l.num(3, "LEN", 1, 1u << 24));
    if (m.src == m.dst) throw InputError(l.error(1, "DST", "is the source (a node does not send to itself)"));
    if (seq[m.src] > 0 && m.gen < last[m.src])
      throw InputError(l.error(2, "GEN", "is before source " + l.fields[0] + "'s previous message (" +
                                             std::to_string(last[m.src]) + ")"));
    m.seq = seq[m.src]++;
    last[m.src] = m.gen;
    t.messages.push_back(m);
  }
  return t;
}

}  // namespace cmnet

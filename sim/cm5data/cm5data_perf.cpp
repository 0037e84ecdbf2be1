#include "sim/cm5data/cm5data_perf.h"

#include <vector>

namespace cmnet {

namespace {

// load[l][node][0 = up, 1 = down] in flits, l = 0 for the leaf links.
using Loads = std::vector<std::vector<std::vector<double>>>;

Loads empty_loads(const Cm5DataParams& p) {
  Loads load(static_cast<size_t>(p.height));
  for (int l = 0; l < p.height; ++l) load[static_cast<size_t>(l)].assign(p.leaves() >> (2 * l), std::vector<double>(2, 0.0));
  return load;
}

void add(Loads& load, const Cm5DataParams& p, uint32_t src, uint32_t dst, double f) {
  const int L = cm5_lca_level(src, dst);
  for (int l = 0; l < L && l < p.height; ++l) {
    load[static_cast<size_t>(l)][src >> (2 * l)][0] += f;
    load[static_cast<size_t>(l)][dst >> (2 * l)][1] += f;
  }
}

Cm5DataArmBound worst(const Cm5DataParams& p, const Loads& load, double total) {
  Cm5DataArmBound b;
  for (int l = 0; l < p.height; ++l) {
    const double links = l == 0 ? 1.0 : static_cast<double>(p.up_links(l));
    const auto& lv = load[static_cast<size_t>(l)];
    for (size_t n = 0; n < lv.size(); ++n)
      for (int d = 0; d < 2; ++d) {
        const double c = lv[n][static_cast<size_t>(d)] / links;
        if (c > b.cycles) {
          b.cycles = c;
          b.worst_arm = l == 0 ? "leaf " + std::to_string(n) + (d == 0 ? " out" : " in")
                               : "level " + std::to_string(l) + " node " + std::to_string(n) + (d == 0 ? " up" : " down") +
                                     " (" + std::to_string(static_cast<int>(links)) + " links)";
        }
      }
  }
  b.rate_per_leaf = b.cycles > 0 ? (total / p.leaves()) / b.cycles : 0;
  return b;
}

}  // namespace

Cm5DataArmBound cm5_pattern_bound(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, uint64_t rounds, int len) {
  Cm5DataDestGen gen(pattern, p, seed);
  Loads load = empty_loads(p);
  const double f = p.message_flits(len);
  double total = 0;
  for (uint64_t r = 0; r < rounds; ++r)
    for (uint32_t src = 0; src < p.leaves(); ++src) {
      add(load, p, src, gen.next(src, r), f);
      total += f;
    }
  return worst(p, load, total);
}

Cm5DataArmBound cm5_arm_bound(const Cm5DataParams& p, const Cm5DataTraffic& t) {
  Loads load = empty_loads(p);
  double total = 0;
  for (const Cm5DataMessage& m : t.messages) {
    const double f = p.message_flits(m.len);
    add(load, p, m.src, m.dst, f);
    total += f;
  }
  return worst(p, load, total);
}

}  // namespace cmnet

#include "sim/clos/clos_patterns.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "gen/clos/clos_router.h"
#include "gen/core/errors.h"

namespace cmnet {

std::vector<std::string> clos_pattern_names() { return {"permutation", "random-connections", "identity", "reverse"}; }

std::vector<int> make_clos_pattern(const std::string& name, const ClosParams& p, uint64_t seed) {
  const int N = p.ports();
  std::vector<int> dest(static_cast<size_t>(N));
  std::iota(dest.begin(), dest.end(), 0);
  std::mt19937_64 rng(seed);
  if (name == "identity") return dest;
  if (name == "reverse") {
    std::reverse(dest.begin(), dest.end());
    return dest;
  }
  if (name == "permutation" || name == "random-connections") {
    std::shuffle(dest.begin(), dest.end(), rng);
    if (name == "random-connections")
      for (auto& d : dest)
        if (rng() & 1) d = -1;
    return dest;
  }
  std::string all;
  for (const auto& n : clos_pattern_names()) all += (all.empty() ? "" : ", ") + n;
  throw InputError("--pattern " + name + ": unknown pattern (allowed: " + all + ")");
}

}  // namespace cmnet

#include "sim/clos/clos_patterns.h"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

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

std::vector<int> read_clos_circuits(const std::string& path, const ClosParams& p) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open circuit file");
  const int N = p.ports();
  std::vector<int> dest(static_cast<size_t>(N), -1), src_of(static_cast<size_t>(N), -1);
  std::string line;
  for (int ln = 1; std::getline(in, line); ++ln) {
    if (const auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ss(line);
    long long s = 0, d = 0;
    if (!(ss >> s)) continue;
    const std::string at = path + ":" + std::to_string(ln) + ": ";
    if (!(ss >> d)) throw InputError(at + "expected 'SRC DST'");
    std::string extra;
    if (ss >> extra) throw InputError(at + "unexpected '" + extra + "' after 'SRC DST'");
    const std::string range = " out of range 0.." + std::to_string(N - 1);
    if (s < 0 || s >= N) throw InputError(at + "field 'SRC' value " + std::to_string(s) + range);
    if (d < 0 || d >= N) throw InputError(at + "field 'DST' value " + std::to_string(d) + range);
    if (dest[static_cast<size_t>(s)] >= 0) throw InputError(at + "field 'SRC' value " + std::to_string(s) + " already has a circuit");
    if (src_of[static_cast<size_t>(d)] >= 0)
      throw InputError(at + "field 'DST' value " + std::to_string(d) + " is already the destination of " +
                       std::to_string(src_of[static_cast<size_t>(d)]));
    dest[static_cast<size_t>(s)] = static_cast<int>(d);
    src_of[static_cast<size_t>(d)] = static_cast<int>(s);
  }
  return dest;
}

}  // namespace cmnet

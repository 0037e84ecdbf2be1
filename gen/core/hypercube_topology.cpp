#include "gen/core/hypercube_topology.h"

#include "gen/core/errors.h"

namespace cmnet {

std::string HypercubeLink::name() const {
  return "cube_n" + std::to_string(from) + "_d" + std::to_string(dim);
}

HypercubeTopology::HypercubeTopology(int dims) : dims_(dims) {
  if (dims < 1 || dims > 24) throw ConfigError("hypercube dims = " + std::to_string(dims) + " out of range 1..24");
}

std::vector<HypercubeLink> HypercubeTopology::links() const {
  std::vector<HypercubeLink> out;
  out.reserve(static_cast<size_t>(nodes()) * dims_);
  for (int n = 0; n < nodes(); ++n)
    for (int d = 0; d < dims_; ++d) out.push_back({n, d, neighbor(n, d)});
  return out;
}

}  // namespace cmnet

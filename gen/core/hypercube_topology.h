// The hypercube of router chips: node x's dimension-i link goes to node x XOR 2^i. The
// emitter wires the RTL from it, and the reports name links by it.
#pragma once

#include <string>
#include <vector>

namespace cmnet {

struct HypercubeLink {
  int from = 0;
  int dim = 0;
  int to = 0;
  std::string name() const;  // "cube_n<from>_d<dim>"
};

class HypercubeTopology {
 public:
  explicit HypercubeTopology(int dims);
  int dims() const { return dims_; }
  int nodes() const { return 1 << dims_; }
  int neighbor(int node, int dim) const { return node ^ (1 << dim); }
  // Every directed link, ordered by (from, dim).
  std::vector<HypercubeLink> links() const;

 private:
  int dims_;
};

}  // namespace cmnet

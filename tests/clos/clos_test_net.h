// The network N(m, n, r) the clos tests build their cases on, with 2^hnode_dims hnodes.
#pragma once

#include "gen/clos/clos_params.h"

namespace cmnet::clos_test {

inline ClosParams net(int m, int n, int r, int hnode_dims = 1) {
  ClosParams p;
  p.m = m;
  p.n = n;
  p.r = r;
  p.hnode_dims = hnode_dims;
  return p;
}

}  // namespace cmnet::clos_test

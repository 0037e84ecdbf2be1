// Verilator harness of cm5data_ni_net (the emitted network with a memory-mapped cm5data_ni at
// every leaf). Built per design by sim/core/rtl_build.cpp and run by sim/cm5data/cm5data_ni_run.cpp.
//
// Input (one record per line):
//   params N CYCLES
//   acc CYCLE LEAF WRITE ADDR DATA     (decimal; at most one per leaf and cycle)
// Output, in cycle order and leaf order within a cycle:
//   rd CYCLE LEAF ADDR VALUE           (every read: rdata during the access's cycle)
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "Vcm5data_ni_net.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"
#include "verilated.h"

using namespace cmnet::vport;
using cmnet::harness::die;

namespace {

struct Acc {
  uint64_t cycle;
  uint32_t leaf;
  int write;
  uint32_t addr, data;
};

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("cm5data NI harness", argc, argv);
  FILE* in = io.in();
  FILE* out = io.out();
  uint32_t N = 0;
  uint64_t cycles = 0;
  std::vector<Acc> accs;
  char kind[16];
  while (std::fscanf(in, "%15s", kind) == 1) {
    if (!std::strcmp(kind, "params")) {
      if (std::fscanf(in, "%u %" SCNu64, &N, &cycles) != 2) die("bad params");
    } else if (!std::strcmp(kind, "acc")) {
      Acc a{};
      if (std::fscanf(in, "%" SCNu64 " %u %d %u %u", &a.cycle, &a.leaf, &a.write, &a.addr, &a.data) != 5) die("bad acc");
      if (a.leaf >= N) die("acc leaf out of range");
      accs.push_back(a);
    } else {
      die("unknown record");
    }
  }
  if (N == 0) die("missing params");
  std::stable_sort(accs.begin(), accs.end(), [](const Acc& a, const Acc& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.leaf < b.leaf;
  });

  cmnet::harness::Driver<Vcm5data_ni_net> top(cmnet::harness::Origin::kRun);
  for (uint32_t x = 0; x < N; ++x) {
    set_bit(top->we, static_cast<int>(x), false);
    set_bit(top->re, static_cast<int>(x), false);
  }
  top.reset();
  top.set_time_origin();
  size_t i = 0;
  for (uint64_t t = 0; t < cycles; ++t) {
    top.clock(false);
    const size_t first = i;
    for (uint32_t x = 0; x < N; ++x) {
      set_bit(top->we, static_cast<int>(x), false);
      set_bit(top->re, static_cast<int>(x), false);
    }
    while (i < accs.size() && accs[i].cycle == t) {
      const Acc& a = accs[i++];
      set_field(top->addr, static_cast<int>(a.leaf) * 4, 4, a.addr);
      set_field(top->wdata, static_cast<int>(a.leaf) * 32, 32, a.data);
      set_bit(top->we, static_cast<int>(a.leaf), a.write != 0);
      set_bit(top->re, static_cast<int>(a.leaf), a.write == 0);
    }
    top.eval();
    for (size_t k = first; k < i; ++k)
      if (!accs[k].write)
        std::fprintf(out, "rd %" PRIu64 " %u %u %u\n", t, accs[k].leaf, accs[k].addr,
                     static_cast<unsigned>(get_field(top->rdata, static_cast<int>(accs[k].leaf) * 32, 32)));
    top.clock(true);
  }
  return 0;
}

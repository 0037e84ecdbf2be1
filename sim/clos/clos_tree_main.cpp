// Verilator harness for the tree-shaped packet network (clos_tree_top): each leaf injects its
// messages in order as fast as the network takes them; every delivery to a leaf and every
// control message kept by an hnode is logged. Built and run by sim/clos/clos_tree_rtl.cpp.
//
// Input: "params LEAVES HNODES MW MAX_CYCLES", then "msg SRC HEX" (the whole message word).
// Output: "D CYCLE LEAF HEX", "C CYCLE HNODE HEX", then "end CYCLES".
#include <cstdio>
#include <deque>
#include <fstream>
#include <string>
#include <vector>

#include "Vclos_tree_top.h"
#include "sim/core/harness_driver.h"
#include "sim/core/verilator_ports.h"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::ifstream in(argv[1]);
  FILE* out = std::fopen(argv[2], "w");
  if (!in || !out) return 2;
  using namespace cmnet::vport;
  std::string kind;
  int L = 0, H = 0, MW = 0;
  uint64_t max_cycles = 0;
  in >> kind >> L >> H >> MW >> max_cycles;
  if (kind != "params" || L <= 0 || H <= 0 || MW <= 0 || MW > 64) return 2;
  std::vector<std::deque<uint64_t>> q(static_cast<size_t>(L));
  int src = 0;
  uint64_t m = 0, total = 0, seen = 0;
  while (in >> kind >> src >> std::hex >> m >> std::dec) {
    if (kind != "msg" || src < 0 || src >= L) return 2;
    q[static_cast<size_t>(src)].push_back(m);
    ++total;
  }
  cmnet::harness::Driver<Vclos_tree_top> top(cmnet::harness::Origin::kRun);
  top->rst = 1;
  top.tick();
  top.tick();
  top->rst = 0;
  top.set_time_origin();  // trace windows count the cycles of the log (CYCLE) from here
  uint64_t cycle = 0;
  for (; cycle < max_cycles && seen < total; ++cycle) {
    for (int x = 0; x < L; ++x) {
      const bool v = !q[static_cast<size_t>(x)].empty();
      set_bit(top->inj_valid, x, v);
      set_field(top->inj_msg, x * MW, MW, v ? q[static_cast<size_t>(x)].front() : 0);
    }
    top.clock(false);
    for (int x = 0; x < L; ++x) {
      if (get_bit(top->inj_take, x)) q[static_cast<size_t>(x)].pop_front();
      if (get_bit(top->dlv_valid, x)) {
        ++seen;
        std::fprintf(out, "D %llu %d %llx\n", static_cast<unsigned long long>(cycle), x,
                     static_cast<unsigned long long>(get_field(top->dlv_msg, x * MW, MW)));
      }
    }
    for (int h = 0; h < H; ++h)
      if (get_bit(top->ctl_valid, h)) {
        ++seen;
        std::fprintf(out, "C %llu %d %llx\n", static_cast<unsigned long long>(cycle), h,
                     static_cast<unsigned long long>(get_field(top->ctl_msg, h * MW, MW)));
      }
    top.clock(true);
  }
  std::fprintf(out, "end %llu\n", static_cast<unsigned long long>(cycle));
  std::fclose(out);
  return 0;  // the driver finalizes the model (and closes the trace)
}

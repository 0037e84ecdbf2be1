// Verilator harness for the tree-shaped packet network (clos_tree_top): each leaf injects its
// messages in order as fast as the network takes them; every delivery to a leaf and every
// control message kept by an hnode is logged. Built and run by sim/clos/clos_tree_rtl.cpp.
//
// Input: "params LEAVES HNODES MW MAX_CYCLES", then "msg SRC HEX" (the whole message word).
// Output: "D CYCLE LEAF HEX", "C CYCLE HNODE HEX", then "end CYCLES".
#include <cstdio>
#include <string>

#include "Vclos_tree_top.h"
#include "sim/clos/clos_harness.h"

using cmnet::clos_harness::die;
using cmnet::clos_harness::write_msg;

int main(int argc, char** argv) {
  const cmnet::harness::Files io("clos tree harness", argc, argv);
  FILE* out = io.out();
  using namespace cmnet::vport;
  cmnet::clos_harness::Reader in(io.in());
  in.expect("params");
  const int L = in.i32(), H = in.i32(), MW = in.i32();
  const uint64_t max_cycles = in.u64();
  if (L <= 0 || H <= 0 || MW <= 0 || MW > 64) die("bad params record");
  cmnet::clos_harness::MsgQueues q(L, MW);
  uint64_t total = 0, seen = 0;
  for (std::string kind; in.next(kind); ++total) {
    if (kind != "msg") die("unknown record '" + kind + "'");
    const int src = in.i32();
    if (src < 0 || src >= L) die("bad msg record");
    q.push(src, in.hex());
  }
  cmnet::harness::Driver<Vclos_tree_top> top(cmnet::harness::Origin::kRun);
  top.reset();
  top.set_time_origin();  // trace windows count the cycles of the log (CYCLE) from here
  uint64_t cycle = 0;
  for (; cycle < max_cycles && seen < total; ++cycle) {
    q.offer(top->inj_valid, top->inj_msg);
    top.clock(false);
    q.take(top->inj_take);
    for (int x = 0; x < L; ++x)
      if (get_bit(top->dlv_valid, x)) {
        ++seen;
        write_msg(out, 'D', cycle, x, get_field(top->dlv_msg, x * MW, MW));
      }
    for (int h = 0; h < H; ++h)
      if (get_bit(top->ctl_valid, h)) {
        ++seen;
        write_msg(out, 'C', cycle, h, get_field(top->ctl_msg, h * MW, MW));
      }
    top.clock(true);
  }
  std::fprintf(out, "end %llu\n", static_cast<unsigned long long>(cycle));
  return 0;  // the driver finalizes the model (and closes the trace), then the files close
}

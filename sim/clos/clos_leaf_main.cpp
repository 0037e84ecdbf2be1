// Verilator harness for one hnode's leaf status (clos_leaf_status_top): replays the set-up
// model's TAKE / RELEASE operations on one hnode and compares every decision. Built and run by
// sim/clos/clos_hnode_rtl.cpp.
//
// Input: "reset" (a new hnode) and "op RELEASE LEAF REQ KIND WAIT RESUME RES_REQ RES_KIND" (the
// model's decisions). Output: "mismatch OPNO what got want" for the first differences, then
// "result OPS MISMATCHES FULL" (FULL: TAKEs that met a full WaitingQueue).
#include "Vclos_leaf_status_top.h"
#include "sim/clos/clos_harness.h"

using namespace cmnet::vport;

int main(int argc, char** argv) {
  const cmnet::harness::Files io("clos leaf status harness", argc, argv);
  cmnet::clos_harness::Reader in(io.in());
  cmnet::clos_harness::OpReplay<Vclos_leaf_status_top> replay(in, io.out(), 1);  // the leaf read a clock ahead
  int release = 0, wait = 0, resume = 0, res_req = 0, res_kind = 0;
  uint64_t full = 0;
  auto drive = [&](Vclos_leaf_status_top& top) {
    release = in.i32();
    top.op_release = static_cast<uint8_t>(release);
    set_field(top.op_leaf, 0, 16, static_cast<uint64_t>(in.i32()));
    set_field(top.op_req, 0, 32, static_cast<uint64_t>(in.i32()));
    top.op_kind = static_cast<uint8_t>(in.i32());
    wait = in.i32();
    resume = in.i32();
    res_req = in.i32();
    res_kind = in.i32();
  };
  auto check = [&](const Vclos_leaf_status_top& top) {
    if (!release) {
      if (top.res_wait != wait) replay.bad("wait", top.res_wait, wait);
      if (top.res_wait && top.res_full) ++full;
    } else if (top.res_resume != resume) {
      replay.bad("resume", top.res_resume, resume);
    } else if (resume) {
      const long got_req = static_cast<long>(get_field(top.res_req, 0, 32));
      if (got_req != res_req) replay.bad("req", got_req, res_req);
      if (top.res_kind != res_kind) replay.bad("kind", top.res_kind, res_kind);
    }
  };
  replay.run(drive, check);
  replay.write_result({full});
  return 0;
}

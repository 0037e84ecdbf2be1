// Verilator harness for one hnode's switch status (clos_hnode_top): replays the set-up model's
// operations on one hnode and compares every decision. Built and run by sim/clos/clos_hnode_rtl.cpp.
//
// Input: "params M", then "reset" (a new hnode: state cleared) and
//   "op CODE SW K MS IN OUT START IV TRIED FOUND RES_MS ACCEPT" (IV, TRIED: M characters 0/1,
//   bit 0 first; FOUND RES_MS: SELECT's decision, ACCEPT: CO's, as the model took them; for a
//   CR, IV is the InputVector the model sent and must be the hnode's).
// Output: "mismatch OPNO what got want" for the first differences, then "result OPS MISMATCHES".
#include <string>

#include "Vclos_hnode_top.h"
#include "sim/clos/clos_harness.h"

using namespace cmnet::vport;
using cmnet::clos_harness::die;

int main(int argc, char** argv) {
  const cmnet::harness::Files io("clos hnode harness", argc, argv);
  cmnet::clos_harness::Reader in(io.in());
  in.expect("params");
  const int M = in.i32();
  if (M <= 0) die("bad params record");
  int code = 0, found = 0, res_ms = 0, accept = 0;
  std::string iv, tried;
  cmnet::clos_harness::OpReplay<Vclos_hnode_top> replay(in, io.out());
  auto drive = [&](Vclos_hnode_top& top) {
    code = in.i32();
    set_field(top.op_sw, 0, 16, static_cast<uint64_t>(in.i32()));
    set_field(top.op_k, 0, 16, static_cast<uint64_t>(in.i32()));
    top.op_ms = static_cast<decltype(+top.op_ms)>(in.i32());
    top.op_in_sw = static_cast<decltype(+top.op_in_sw)>(in.i32());
    top.op_out_sw = static_cast<decltype(+top.op_out_sw)>(in.i32());
    top.op_start = static_cast<decltype(+top.op_start)>(in.i32());
    iv = in.word();
    tried = in.word();
    found = in.i32();
    res_ms = in.i32();
    accept = in.i32();
    if (iv.size() < static_cast<size_t>(M) || tried.size() < static_cast<size_t>(M)) die("bad op record");
    top.op_code = static_cast<uint8_t>(code);
    for (int b = 0; b < M; ++b) {
      set_bit(top.op_iv, b, iv[static_cast<size_t>(b)] == '1');
      set_bit(top.op_tried, b, tried[static_cast<size_t>(b)] == '1');
    }
  };
  auto check = [&](const Vclos_hnode_top& top) {
    if (code == 0) {
      if (top.res_found != found) replay.bad("found", top.res_found, found);
      else if (found && static_cast<int>(top.res_ms) != res_ms) replay.bad("ms", top.res_ms, res_ms);
    } else if (code == 1 && top.res_accept != accept) {
      replay.bad("accept", top.res_accept, accept);
    } else if (code == 6) {
      for (int b = 0; b < M; ++b)
        if (get_bit(top.res_iv, b) != (iv[static_cast<size_t>(b)] == '1')) {
          replay.bad("iv bit", b, iv[static_cast<size_t>(b)] == '1');
          break;
        }
    }
  };
  replay.run(drive, check);
  replay.write_result();
  return 0;
}

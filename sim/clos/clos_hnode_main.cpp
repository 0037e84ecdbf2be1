// Verilator harness for one hnode's switch status (clos_hnode_top): replays the set-up model's
// operations on one hnode and compares every decision. Built and run by sim/clos/clos_hnode_rtl.cpp.
//
// Input: "params M", then "reset" (a new hnode: state cleared) and
//   "op CODE SW K MS IN OUT START IV TRIED FOUND RES_MS ACCEPT" (IV, TRIED: M characters 0/1,
//   bit 0 first; FOUND RES_MS: SELECT's decision, ACCEPT: CO's, as the model took them; for a
//   CR, IV is the InputVector the model sent and must be the hnode's).
// Output: "mismatch OPNO what got want" for the first differences, then "result OPS MISMATCHES".
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "Vclos_hnode_top.h"
#include "sim/core/harness_driver.h"
#include "sim/core/verilator_ports.h"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::ifstream in(argv[1]);
  FILE* out = std::fopen(argv[2], "w");
  if (!in || !out) return 2;
  using namespace cmnet::vport;
  cmnet::harness::Driver<Vclos_hnode_top> top;  // one clock per operation, traced from the first
  std::string kind;
  int M = 0;
  in >> kind >> M;
  if (kind != "params" || M <= 0) return 2;
  uint64_t ops = 0, mismatches = 0;
  auto bad = [&](const char* what, long got, long want) {
    if (mismatches++ < 8) std::fprintf(out, "mismatch %llu %s %ld %ld\n", static_cast<unsigned long long>(ops), what, got, want);
  };
  while (in >> kind) {
    if (kind == "reset") {
      top->op_valid = 0;
      top->rst = 1;
      top.tick();
      top->rst = 0;
      continue;
    }
    if (kind != "op") return 2;
    int code = 0, sw = 0, k = 0, ms = 0, isw = 0, osw = 0, start = 0, found = 0, res_ms = 0, accept = 0;
    std::string iv, tried;
    in >> code >> sw >> k >> ms >> isw >> osw >> start >> iv >> tried >> found >> res_ms >> accept;
    top->op_code = static_cast<uint8_t>(code);
    set_field(top->op_sw, 0, 16, static_cast<uint64_t>(sw));
    set_field(top->op_k, 0, 16, static_cast<uint64_t>(k));
    top->op_ms = static_cast<decltype(+top->op_ms)>(ms);
    top->op_in_sw = static_cast<decltype(+top->op_in_sw)>(isw);
    top->op_out_sw = static_cast<decltype(+top->op_out_sw)>(osw);
    top->op_start = static_cast<decltype(+top->op_start)>(start);
    for (int b = 0; b < M; ++b) {
      set_bit(top->op_iv, b, iv[static_cast<size_t>(b)] == '1');
      set_bit(top->op_tried, b, tried[static_cast<size_t>(b)] == '1');
    }
    top->op_valid = 1;
    top.clock(false);
    if (code == 0) {
      if (top->res_found != found) bad("found", top->res_found, found);
      else if (found && static_cast<int>(top->res_ms) != res_ms) bad("ms", top->res_ms, res_ms);
    } else if (code == 1 && top->res_accept != accept) {
      bad("accept", top->res_accept, accept);
    } else if (code == 6) {
      for (int b = 0; b < M; ++b)
        if (get_bit(top->res_iv, b) != (iv[static_cast<size_t>(b)] == '1')) {
          bad("iv bit", b, iv[static_cast<size_t>(b)] == '1');
          break;
        }
    }
    top.clock(true);
    top->op_valid = 0;
    ++ops;
  }
  std::fprintf(out, "result %llu %llu\n", static_cast<unsigned long long>(ops), static_cast<unsigned long long>(mismatches));
  std::fclose(out);
  return 0;  // the driver finalizes the model (and closes the trace)
}

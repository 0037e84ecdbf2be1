// Verilator harness for one hnode's leaf status (clos_leaf_status_top): replays the set-up
// model's TAKE / RELEASE operations on one hnode and compares every decision. Built and run by
// sim/clos/clos_hnode_rtl.cpp.
//
// Input: "reset" (a new hnode) and "op RELEASE LEAF REQ KIND WAIT RESUME RES_REQ RES_KIND" (the
// model's decisions). Output: "mismatch OPNO what got want" for the first differences, then
// "result OPS MISMATCHES FULL" (FULL: TAKEs that met a full WaitingQueue).
#include <cstdio>
#include <fstream>
#include <string>

#include "Vclos_leaf_status_top.h"
#include "sim/core/harness_driver.h"
#include "sim/core/verilator_ports.h"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::ifstream in(argv[1]);
  FILE* out = std::fopen(argv[2], "w");
  if (!in || !out) return 2;
  using namespace cmnet::vport;
  cmnet::harness::Driver<Vclos_leaf_status_top> top;  // one clock per operation, traced from the first
  uint64_t ops = 0, mismatches = 0, full = 0;
  auto bad = [&](const char* what, long got, long want) {
    if (mismatches++ < 8) std::fprintf(out, "mismatch %llu %s %ld %ld\n", static_cast<unsigned long long>(ops), what, got, want);
  };
  std::string kind;
  while (in >> kind) {
    if (kind == "reset") {
      top->op_valid = 0;
      top->rst = 1;
      top.tick();
      top->rst = 0;
      continue;
    }
    if (kind != "op") return 2;
    int release = 0, leaf = 0, req = 0, k = 0, wait = 0, resume = 0, res_req = 0, res_kind = 0;
    in >> release >> leaf >> req >> k >> wait >> resume >> res_req >> res_kind;
    top->op_release = static_cast<uint8_t>(release);
    set_field(top->op_leaf, 0, 16, static_cast<uint64_t>(leaf));
    set_field(top->op_req, 0, 32, static_cast<uint64_t>(req));
    top->op_kind = static_cast<uint8_t>(k);
    top->op_valid = 1;
    top.clock(false);
    if (!release) {
      if (top->res_wait != wait) bad("wait", top->res_wait, wait);
      if (top->res_wait && top->res_full) ++full;
    } else {
      if (top->res_resume != resume) {
        bad("resume", top->res_resume, resume);
      } else if (resume) {
        const long got_req = static_cast<long>(get_field(top->res_req, 0, 32));
        if (got_req != res_req) bad("req", got_req, res_req);
        if (top->res_kind != res_kind) bad("kind", top->res_kind, res_kind);
      }
    }
    top.clock(true);
    top->op_valid = 0;
    ++ops;
  }
  std::fprintf(out, "result %llu %llu %llu\n", static_cast<unsigned long long>(ops),
               static_cast<unsigned long long>(mismatches), static_cast<unsigned long long>(full));
  std::fclose(out);
  return 0;  // the driver finalizes the model (and closes the trace)
}

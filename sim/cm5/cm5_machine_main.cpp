// Verilator harness of cm5_machine (gen/cm5/cm5_emitter.h). Built per design by
// sim/core/rtl_build.cpp and run by sim/cm5/cm5_machine_rtl.cpp.
//
// Input (one record per line, decimal unless said):
//   params N WC CYCLES
//   msg SIDE SRC DST TAG RELEASE LEN W0 W1 ...       (words in hex; each processor's in order)
//   op LEAF RELEASE BCAST ABSTAIN KIND COMB SEGMENTED SEG DATAHEX   (each leaf's in order)
//   fault CYCLE LEAF DUP                              (lose_next / dup_next of LEAF high in CYCLE)
// Output, per cycle in this order:
//   cnt LEAF CYCLE VALUE     (rd_count of LEAF changed: its value from CYCLE on, signed)
//   rx LEAF SIDE CYCLE HEAD W0 ...   (a message its processor read: the RECV_HEAD cycle, hex words)
//   res LEAF CYCLE BCAST KIND COMB DATAHEX OVF ERR ABSTAINED
//   inj LEAF CYCLE
// and last "done CYCLES FAULT LAST_SEND" (the cycle of the last SEND write).
// The processors run sim/cm5/cm5_proc.h's program; a leaf offers its next control operation from
// its release cycle on, one push per cycle, accepted when inj_ready is high (the model's rule).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "Vcm5_machine.h"
#include "sim/cm5/cm5_proc.h"
#include "sim/cm5ctl/cm5ctl_harness_leaves.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"

using namespace cmnet::vport;
using cmnet::harness::die;

namespace {

struct Fault {
  uint64_t cycle = 0;
  int leaf = 0, dup = 0;
};

int64_t sign(uint64_t v, int bits) {
  const uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  v &= m;
  return (v >> (bits - 1)) & 1 ? static_cast<int64_t>(v | ~m) : static_cast<int64_t>(v);
}

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("cm5 machine harness", argc, argv);
  FILE* in = io.in();
  FILE* out = io.out();
  int N = 0, WC = 0;
  uint64_t cycles = 0;
  std::vector<cmnet::cm5mach::Processor> procs;
  cmnet::cm5ctl_harness::LeafOps ops(0, 0);
  std::vector<Fault> faults;
  char kind[16];
  while (std::fscanf(in, "%15s", kind) == 1) {
    if (!std::strcmp(kind, "params")) {
      if (std::fscanf(in, "%d %d %" SCNu64, &N, &WC, &cycles) != 3 || N <= 0 || WC < 8 || WC > 32) die("bad params");
      procs.resize(2 * static_cast<size_t>(N));
      ops = cmnet::cm5ctl_harness::LeafOps(N, WC);
    } else if (!std::strcmp(kind, "msg")) {
      int side = 0, src = 0, len = 0;
      cmnet::cm5mach::Outgoing m;
      if (std::fscanf(in, "%d %d %u %d %" SCNu64 " %d", &side, &src, &m.dst, &m.tag, &m.release, &len) != 6 ||
          side < 0 || side > 1 || src < 0 || src >= N || len < 1 || len > 7)
        die("bad msg");
      for (int k = 0; k < len; ++k) {
        unsigned x = 0;
        if (std::fscanf(in, "%x", &x) != 1) die("bad msg word");
        m.data.push_back(x);
      }
      procs[static_cast<size_t>(side * N + src)].add(m);
    } else if (!std::strcmp(kind, "op")) {
      ops.read(in);
    } else if (!std::strcmp(kind, "fault")) {
      Fault f;
      if (std::fscanf(in, "%" SCNu64 " %d %d", &f.cycle, &f.leaf, &f.dup) != 3 || f.leaf < 0 || f.leaf >= N) die("bad fault");
      faults.push_back(f);
    } else {
      die("unknown record");
    }
  }
  if (N == 0) die("missing params");

  cmnet::harness::Driver<Vcm5_machine> top(cmnet::harness::Origin::kRun);
  top.reset();
  top.set_time_origin();
  const size_t Q = 2 * static_cast<size_t>(N);
  std::vector<cmnet::cm5mach::Access> acc(Q);
  std::vector<int64_t> shown(static_cast<size_t>(N), 0);
  bool fault = false;
  for (uint64_t t = 0; t < cycles; ++t) {
    top.clock(false);
    for (int x = 0; x < N; ++x) {
      set_bit(top->lose_next, x, false);
      set_bit(top->dup_next, x, false);
    }
    for (const Fault& f : faults)
      if (f.cycle == t) set_bit(f.dup ? top->dup_next : top->lose_next, f.leaf, true);
    for (size_t q = 0; q < Q; ++q) {
      acc[q] = procs[q].next(t);
      set_field(top->ni_addr, static_cast<int>(q) * 4, 4, acc[q].addr);
      set_field(top->ni_wdata, static_cast<int>(q) * 32, 32, acc[q].data);
      set_bit(top->ni_we, static_cast<int>(q), acc[q].valid && acc[q].write);
      set_bit(top->ni_re, static_cast<int>(q), acc[q].valid && !acc[q].write);
    }
    ops.offer(top.top(), t);
    top.eval();
    for (int x = 0; x < N; ++x) {
      const int64_t v = sign(get_field(top->rd_count, WC * x, WC), WC);
      if (v != shown[static_cast<size_t>(x)]) {
        shown[static_cast<size_t>(x)] = v;
        std::fprintf(out, "cnt %d %" PRIu64 " %lld\n", x, t, static_cast<long long>(v));
      }
    }
    for (size_t q = 0; q < Q; ++q) {
      const size_t before = procs[q].received().size();
      procs[q].done(t, acc[q], static_cast<uint32_t>(get_field(top->ni_rdata, static_cast<int>(q) * 32, 32)));
      if (procs[q].received().size() == before) continue;
      const auto& m = procs[q].received().back();
      std::fprintf(out, "rx %d %d %" PRIu64 " %x %zu", static_cast<int>(q % static_cast<size_t>(N)),
                   static_cast<int>(q / static_cast<size_t>(N)), m.cycle, m.head, m.words.size());
      for (uint32_t wd : m.words) std::fprintf(out, " %x", wd);
      std::fprintf(out, "\n");
    }
    ops.write_results(top.top(), t, out);
    ops.take(top.top(), t, out);
    fault = fault || top->fault || top->bcast_drop;
    top.clock(true);
  }
  uint64_t last_send = 0;
  for (const auto& p : procs)
    if (!p.sends().empty()) last_send = std::max(last_send, p.sends().back());
  std::fprintf(out, "done %" PRIu64 " %d %" PRIu64 "\n", cycles, fault ? 1 : 0, last_send);
  return 0;
}

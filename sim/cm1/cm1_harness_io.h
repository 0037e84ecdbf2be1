// The text protocol between sim/cm1/cm1_rtl.cpp and the Verilator harness mains it builds
// (cm1_network_main.cpp: the whole emitted network top; cm1_chip_main.cpp: 2^c emitted chip
// models wired as a hypercube in C++).
//
// Input (one record per line):
//   params C L TP P PA V D EJECT_ONE MAX_PETIT
//   msg SRC DST_CHIP DST_PROC VP DATA_HEX          (loaded into endpoint SRC, in order)
//   fault BIT_TIME CHIP DIM                        (flip the bit arriving at CHIP on DIM)
//   group                                          (the messages after it form a separate run
//                                                   that starts when the previous one is done)
//   ce PERIOD SEED                                 (chip harness only) the chips' clock enable:
//                                                   high every PERIOD-th clock; a nonzero SEED
//                                                   also drops half of those at random
//   freeze BIT_TIME CLOCKS                         (chip harness only) CLOCKS more clocks with ce
//                                                   low before BIT_TIME (group 0, as faults)
// With a `ce` or `freeze` record, reset is applied with ce low, and in every clock with ce low
// the harness drives noise on the inputs the chips must ignore then (all but clk, rst, ce and
// phase; cube_in too) and checks that their outputs hold. Bit-times count ce cycles only.
// Output:
//   rx GROUP PETIT BIT_TIME GLOBAL_PROC WORD_HEX   (WORD = {DATA, VP} as received; petit and
//                                                   bit-time count from the group's start)
//   done GROUP PETIT_CYCLES BIT_TIMES COMPLETED
//   idle CLOCKS CHANGES                            (chip harness: clocks with ce low after reset,
//                                                   and how many of them changed an output)
//   cnt CHIP v0 v1 ...                             (the router's counters, cnt_sel order)
#pragma once

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "sim/core/harness_io.h"

namespace cmnet::harness {

struct Load {
  uint32_t src, chip, proc, vp;
  uint64_t data;
};
struct Fault {
  uint64_t t;
  uint32_t chip, dim;
};
struct Freeze {
  uint64_t t;
  uint32_t clocks;
};
struct Input {
  int C = 0, L = 0, TP = 0, P = 0, PA = 0, V = 0, D = 0, eject_one = 0;
  uint64_t max_petit = 0;
  std::vector<Load> loads;
  std::vector<Fault> faults;
  std::vector<size_t> group_starts = {0};  // index into loads where each group begins
  uint32_t ce_period = 1;
  uint64_t ce_seed = 0;
  std::vector<Freeze> freezes;
  bool ce_gated() const { return ce_period != 1 || ce_seed != 0 || !freezes.empty(); }
  int64_t rx_offset() const { return 2 * C + (L - 1); }  // rx_valid's bit-time in a petit cycle
};

inline Input read_input(FILE* in) {
  Input x;
  char kind[16];
  while (std::fscanf(in, "%15s", kind) == 1) {
    if (!std::strcmp(kind, "params")) {
      if (std::fscanf(in, "%d %d %d %d %d %d %d %d %" SCNu64, &x.C, &x.L, &x.TP, &x.P, &x.PA,
                      &x.V, &x.D, &x.eject_one, &x.max_petit) != 9)
        die("bad params line");
    } else if (!std::strcmp(kind, "msg")) {
      Load m{};
      if (std::fscanf(in, "%u %u %u %u %" SCNx64, &m.src, &m.chip, &m.proc, &m.vp, &m.data) != 5)
        die("bad msg line");
      x.loads.push_back(m);
    } else if (!std::strcmp(kind, "group")) {
      if (!x.loads.empty() || x.group_starts.size() > 1) x.group_starts.push_back(x.loads.size());
    } else if (!std::strcmp(kind, "fault")) {
      Fault f{};
      if (std::fscanf(in, "%" SCNu64 " %u %u", &f.t, &f.chip, &f.dim) != 3) die("bad fault line");
      x.faults.push_back(f);
    } else if (!std::strcmp(kind, "ce")) {
      if (std::fscanf(in, "%u %" SCNu64, &x.ce_period, &x.ce_seed) != 2 || x.ce_period == 0)
        die("bad ce line");
    } else if (!std::strcmp(kind, "freeze")) {
      Freeze f{};
      if (std::fscanf(in, "%" SCNu64 " %u", &f.t, &f.clocks) != 2) die("bad freeze line");
      x.freezes.push_back(f);
    } else {
      die("unknown input record");
    }
  }
  if (x.C <= 0 || x.TP <= 0) die("missing params");
  return x;
}

inline void write_rx(FILE* out, size_t group, int64_t petit, uint64_t t, int g, uint64_t word) {
  std::fprintf(out, "rx %zu %" PRId64 " %" PRIu64 " %d %" PRIx64 "\n", group, petit, t, g, word);
}

inline void write_done(FILE* out, const Input& x, size_t group, uint64_t petit_cycles,
                       bool completed) {
  std::fprintf(out, "done %zu %" PRIu64 " %" PRIu64 " %d\n", group, petit_cycles,
               petit_cycles * static_cast<uint64_t>(x.TP) + 2u * static_cast<uint64_t>(x.C),
               completed ? 1 : 0);
}

}  // namespace cmnet::harness

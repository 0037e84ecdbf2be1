// Verilator harness for the emitted Clos network (clos_network). Built per design by
// sim/core/rtl_build.cpp and run as a child process by sim/clos/clos_rtl.cpp.
//
// Input (text): "params N W AW DW" (ports, circuit width, cfg_addr and cfg_data bits) then cases, each:
//   case                       a new case (settings carry over from the previous one)
//   cfg ADDR DATA              a configuration write (one clock with cfg_we high)
//   dest D0 .. D(N-1)          the circuits the case expects: input i's data at output Di (-1: none)
//   words K SEED [verbose]     K random data words per input port (clos_next_data_word from
//                              SEED, sim/clos/clos_data_words.h), each driven for one clock
//                              and checked at every output: out[Di] == in[i], every output
//                              no input is meant for reads 0
// Output: per case "result CASE WORDS MISMATCHES", the first mismatches as
// "mismatch CASE WORD OUTPUT GOT WANT", and with `verbose` every word as "rx CASE WORD SRC DST SENT GOT"
// and every output's word, circuit or not, as "out CASE WORD OUTPUT GOT".
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "Vclos_network.h"
#include "sim/clos/clos_data_words.h"
#include "sim/clos/clos_harness.h"

using cmnet::clos_harness::die;

int main(int argc, char** argv) {
  const cmnet::harness::Files io("clos harness", argc, argv);
  FILE* out = io.out();
  using namespace cmnet::vport;

  // Traced from the first cycle after reset (cmnet sim --trace): configuration writes, then words.
  cmnet::harness::Driver<Vclos_network> top(cmnet::harness::Origin::kRun);
  cmnet::clos_harness::Reader in(io.in());
  in.expect("params");
  const int N = in.i32(), W = in.i32(), AW = in.i32(), DW = in.i32();
  if (N <= 0 || W <= 0 || W > 32 || AW <= 0 || AW > 32 || DW <= 0 || DW > 32) die("bad params record");
  top->cfg_we = 0;
  top.reset(1);
  top.set_time_origin();
  top.tick();
  int64_t case_no = -1;
  std::vector<int> dest(static_cast<size_t>(N), -1);
  std::vector<uint64_t> sent(static_cast<size_t>(N));
  for (std::string kind; in.next(kind);) {
    if (kind == "case") {
      ++case_no;
    } else if (kind == "cfg") {
      top->cfg_we = 1;
      set_field(top->cfg_addr, 0, AW, in.u64());
      set_field(top->cfg_data, 0, DW, in.u64());
      top.tick();
      top->cfg_we = 0;
    } else if (kind == "dest") {
      for (auto& d : dest)
        if ((d = in.i32()) < -1 || d >= N) die("bad dest record");
    } else if (kind == "words") {
      const uint64_t k = in.u64();
      uint64_t seed = in.u64();
      const bool verbose = in.line_has("verbose");
      std::vector<int> src_of(static_cast<size_t>(N), -1);
      for (int i = 0; i < N; ++i)
        if (dest[static_cast<size_t>(i)] >= 0) src_of[static_cast<size_t>(dest[static_cast<size_t>(i)])] = i;
      uint64_t mismatches = 0;
      for (uint64_t w = 0; w < k; ++w) {
        for (int i = 0; i < N; ++i) {
          sent[static_cast<size_t>(i)] = cmnet::clos_next_data_word(seed, W);
          set_field(top->in_data, i * W, W, sent[static_cast<size_t>(i)]);
        }
        top.clock(false);
        for (int q = 0; q < N; ++q) {
          const uint64_t got = get_field(top->out_data, q * W, W);
          const int s = src_of[static_cast<size_t>(q)];
          const uint64_t want = s >= 0 ? sent[static_cast<size_t>(s)] : 0;
          if (got != want && mismatches++ < 8)
            std::fprintf(out, "mismatch %" PRId64 " %" PRIu64 " %d %" PRIx64 " %" PRIx64 "\n", case_no, w, q, got, want);
          if (verbose && s >= 0)
            std::fprintf(out, "rx %" PRId64 " %" PRIu64 " %d %d %" PRIx64 " %" PRIx64 "\n", case_no, w, s, q,
                         sent[static_cast<size_t>(s)], got);
          if (verbose) std::fprintf(out, "out %" PRId64 " %" PRIu64 " %d %" PRIx64 "\n", case_no, w, q, got);
        }
        top.clock(true);
      }
      std::fprintf(out, "result %" PRId64 " %" PRIu64 " %" PRIu64 "\n", case_no, k, mismatches);
    } else {
      die("unknown record '" + kind + "'");
    }
  }
  return 0;  // the driver finalizes the model (and closes the trace), then the files close
}

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
// "mismatch CASE WORD OUTPUT GOT WANT", and with `verbose` every word as "rx CASE WORD SRC DST SENT GOT".
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Vclos_network.h"
#include "sim/clos/clos_data_words.h"
#include "sim/core/harness_driver.h"
#include "sim/core/verilator_ports.h"

namespace {

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "clos harness: %s\n", msg.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) die("usage: harness INPUT OUTPUT");
  std::ifstream in(argv[1]);
  if (!in) die("cannot open input");
  FILE* out = std::fopen(argv[2], "w");
  if (!out) die("cannot open output");
  using namespace cmnet::vport;

  // Traced from the first cycle after reset (cmnet sim --trace): configuration writes, then words.
  cmnet::harness::Driver<Vclos_network> top(cmnet::harness::Origin::kRun);
  std::string kind;
  int N = 0, W = 0, AW = 0, DW = 0;
  if (!(in >> kind >> N >> W >> AW >> DW) || kind != "params" || N <= 0 || W <= 0 || W > 32 || AW <= 0 ||
      AW > 32 || DW <= 0 || DW > 32)
    die("bad params line");
  top->rst = 1;
  top->cfg_we = 0;
  top.tick();
  top->rst = 0;
  top.set_time_origin();
  top.tick();
  int64_t case_no = -1;
  std::vector<int> dest(static_cast<size_t>(N), -1);
  std::vector<uint64_t> sent(static_cast<size_t>(N));
  while (in >> kind) {
    if (kind == "case") {
      ++case_no;
    } else if (kind == "cfg") {
      uint64_t a = 0, d = 0;
      in >> a >> d;
      top->cfg_we = 1;
      set_field(top->cfg_addr, 0, AW, a);
      set_field(top->cfg_data, 0, DW, d);
      top.tick();
      top->cfg_we = 0;
    } else if (kind == "dest") {
      for (auto& d : dest) in >> d;
    } else if (kind == "words") {
      uint64_t k = 0, seed = 0;
      in >> k >> seed;
      std::string rest;
      std::getline(in, rest);
      const bool verbose = rest.find("verbose") != std::string::npos;
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
        }
        top.clock(true);
      }
      std::fprintf(out, "result %" PRId64 " %" PRIu64 " %" PRIu64 "\n", case_no, k, mismatches);
    } else {
      die("unknown record '" + kind + "'");
    }
  }
  std::fclose(out);
  return 0;  // the driver finalizes the model (and closes the trace)
}

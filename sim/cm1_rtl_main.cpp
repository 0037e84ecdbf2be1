// Verilator harness for a generated CM-1 network top (cm1_network). Built per design by
// sim/rtl_build.cpp and run as a child process by sim/cm1_rtl.cpp, so that a crash or a hang
// in a model cannot take the caller with it.
//
// Input (text, one record per line):
//   params C L TP P PA V D EJECT_ONE MAX_PETIT
//   msg SRC DST_CHIP DST_PROC VP DATA_HEX          (loaded into endpoint SRC, in order)
//   fault BIT_TIME CHIP DIM                        (flip one cube-wire bit arriving at CHIP)
// Output:
//   rx PETIT BIT_TIME GLOBAL_PROC WORD_HEX         (WORD = {DATA, VP} as received)
//   cnt CHIP v0 v1 ...                             (the router's counters, cnt_sel order)
//   done PETIT_CYCLES BIT_TIMES COMPLETED
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vcm1_network.h"
#include "sim/verilator_ports.h"
#include "verilated.h"

namespace {

struct Load {
  uint32_t src, chip, proc, vp;
  uint64_t data;
};
struct Fault {
  uint64_t t;
  uint32_t chip, dim;
};

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "cm1 harness: %s\n", what);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) die("usage: harness INPUT OUTPUT");
  FILE* in = std::fopen(argv[1], "r");
  if (!in) die("cannot open input");
  int C = 0, L = 0, TP = 0, P = 0, PA = 0, V = 0, D = 0, eject_one = 0;
  uint64_t max_petit = 0;
  std::vector<Load> loads;
  std::vector<Fault> faults;
  char kind[16];
  while (std::fscanf(in, "%15s", kind) == 1) {
    if (!std::strcmp(kind, "params")) {
      if (std::fscanf(in, "%d %d %d %d %d %d %d %d %" SCNu64, &C, &L, &TP, &P, &PA, &V, &D,
                      &eject_one, &max_petit) != 9)
        die("bad params line");
    } else if (!std::strcmp(kind, "msg")) {
      Load m{};
      if (std::fscanf(in, "%u %u %u %u %" SCNx64, &m.src, &m.chip, &m.proc, &m.vp, &m.data) != 5)
        die("bad msg line");
      loads.push_back(m);
    } else if (!std::strcmp(kind, "fault")) {
      Fault f{};
      if (std::fscanf(in, "%" SCNu64 " %u %u", &f.t, &f.chip, &f.dim) != 3) die("bad fault line");
      faults.push_back(f);
    } else {
      die("unknown input record");
    }
  }
  std::fclose(in);
  if (C <= 0 || TP <= 0) die("missing params");
  FILE* out = std::fopen(argv[2], "w");
  if (!out) die("cannot open output");

  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vcm1_network>(ctx.get());
  using namespace cmnet::vport;
  const int NP = (1 << C) * P;
  const int W = V + D;

  auto tick = [&] {
    top->clk = 0;
    top->eval();
    top->clk = 1;
    top->eval();
  };
  top->rst = 1;
  top->run = 0;
  top->clear = 0;
  top->eject_one = eject_one;
  top->load_en = 0;
  top->fault_en = 0;
  tick();
  tick();
  top->rst = 0;

  // Load the pattern while the machine idles (run = 0).
  for (const Load& m : loads) {
    top->load_proc = m.src;
    top->load_chip = m.chip;
    top->load_dproc = m.proc;
    top->load_vp = m.vp;
    set_field(top->load_data, 0, D, m.data);
    top->clk = 0;
    top->eval();
    if (top->load_full) die("endpoint queue full: build with a larger queue_depth");
    top->load_en = 1;
    top->clk = 1;
    top->eval();
    top->load_en = 0;
  }
  top->clk = 0;
  top->eval();
  // Start so that petit cycle 0 begins on the next phase 0.
  while (top->phase != TP - 1) tick();
  tick();  // now phase == 0 is being presented (after the rising edge)
  top->run = 1;

  const int64_t rx_offset = 2 * C + (L - 1);  // bit-time of rx_valid within a petit cycle
  const size_t words = (static_cast<size_t>(NP) + 31) / 32;
  uint64_t petit_cycles = 0;
  bool completed = false;
  int64_t stop_at = -1;
  for (uint64_t t = 0;; ++t) {
    top->clk = 0;
    top->fault_en = 0;
    for (const Fault& f : faults)
      if (f.t == t) {
        top->fault_en = 1;
        top->fault_chip = f.chip;
        top->fault_dim = f.dim;
      }
    top->eval();
    if (top->phase == 0 && top->run) {
      const uint64_t petit = t / static_cast<uint64_t>(TP);
      if (!top->msgs_present && !top->pending) {
        // Everything delivered: stop before this petit cycle counts, flush the receptions.
        top->run = 0;
        top->eval();
        petit_cycles = petit;
        completed = true;
        stop_at = static_cast<int64_t>(t) + rx_offset + 1;
      } else if (petit >= max_petit) {
        top->run = 0;
        top->eval();
        petit_cycles = petit;
        stop_at = static_cast<int64_t>(t) + rx_offset + 1;
      }
    }
    for (size_t w = 0; w < words; ++w) {
      uint32_t bits = word(top->rx_valid, w);
      while (bits) {
        const int b = __builtin_ctz(bits);
        bits &= bits - 1;
        const int g = static_cast<int>(w * 32) + b;
        const uint64_t rx = get_field(top->rx_word, g * W, W);
        const int64_t petit = (static_cast<int64_t>(t) - rx_offset) / TP;
        std::fprintf(out, "rx %" PRId64 " %" PRIu64 " %d %" PRIx64 "\n", petit, t, g, rx);
      }
    }
    top->clk = 1;
    top->eval();
    if (stop_at >= 0 && static_cast<int64_t>(t) >= stop_at) break;
  }

  // Read every chip's counters through the select mux.
  const int ncnt = 5 + C;
  for (int chip = 0; chip < (1 << C); ++chip) {
    std::fprintf(out, "cnt %d", chip);
    for (int s = 0; s < ncnt; ++s) {
      top->cnt_chip = chip;
      top->cnt_sel = s;
      top->eval();
      std::fprintf(out, " %u", static_cast<unsigned>(top->cnt_value));
    }
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "done %" PRIu64 " %" PRIu64 " %d\n", petit_cycles,
               static_cast<uint64_t>(petit_cycles) * TP + 2 * C, completed ? 1 : 0);
  std::fclose(out);
  top->final();
  return 0;
}

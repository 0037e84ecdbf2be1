// Verilator harness for the whole generated CM-1 network top (cm1_network). Built per design by
// sim/core/rtl_build.cpp and run as a child process by sim/cm1/cm1_rtl.cpp, so that a crash or a hang
// in a model cannot take the caller with it.
//
// The protocol is in sim/cm1/cm1_harness_io.h.
#include "Vcm1_network.h"
#include "gen/cm1/cm1_counter_list.h"
#include "sim/cm1/cm1_harness_io.h"
#include "sim/core/harness_driver.h"
#include "sim/core/verilator_ports.h"

using namespace cmnet::harness;

int main(int argc, char** argv) {
  const Files io("cm1 harness", argc, argv);
  FILE* out = io.out();
  const Input x = read_input(io.in());
  const int C = x.C, L = x.L, TP = x.TP, P = x.P, V = x.V, D = x.D;
  (void)L;
  const uint64_t max_petit = x.max_petit;
  const auto& loads = x.loads;
  const auto& faults = x.faults;
  if (x.group_starts.size() > 1) die("the whole-network harness runs one group only");
  if (x.ce_gated()) die("the whole-network harness has no clock enable (cm1_network ties it to 1)");

  Driver<Vcm1_network> top(Origin::kRun);
  using namespace cmnet::vport;
  const int NP = (1 << C) * P;
  const int W = V + D;

  auto tick = [&] { top.tick(); };
  top->run = 0;
  top->clear = 0;
  top->eject_one = x.eject_one;
  top->load_en = 0;
  top->fault_en = 0;
  top.reset();

  // Load the pattern while the machine idles (run = 0).
  for (const Load& m : loads) {
    top->load_proc = m.src;
    top->load_chip = m.chip;
    top->load_dproc = m.proc;
    top->load_vp = m.vp;
    set_field(top->load_data, 0, D, m.data);
    top.clock(false);
    if (top->load_full) die("endpoint queue full: build with a larger queue_depth");
    top->load_en = 1;
    top.clock(true);
    top->load_en = 0;
  }
  top.clock(false);
  // Start so that petit cycle 0 begins on the next phase 0.
  while (top->phase != TP - 1) tick();
  tick();  // now phase == 0 is being presented (after the rising edge)
  top->run = 1;
  top.set_time_origin();  // trace windows count bit-times of the run from here

  const int64_t rx_offset = x.rx_offset();
  const size_t words = (static_cast<size_t>(NP) + 31) / 32;
  uint64_t petit_cycles = 0;
  bool completed = false;
  int64_t stop_at = -1;
  for (uint64_t t = 0;; ++t) {
    top->fault_en = 0;
    for (const Fault& f : faults)
      if (f.t == t) {
        top->fault_en = 1;
        top->fault_chip = f.chip;
        top->fault_dim = f.dim;
      }
    top.clock(false);
    if (top->phase == 0 && top->run) {
      const uint64_t petit = t / static_cast<uint64_t>(TP);
      if (!top->msgs_present && !top->pending) {
        // Everything delivered: stop before this petit cycle counts, flush the receptions.
        top->run = 0;
        top.eval();
        petit_cycles = petit;
        completed = true;
        stop_at = static_cast<int64_t>(t) + rx_offset + 1;
      } else if (petit >= max_petit) {
        top->run = 0;
        top.eval();
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
        write_rx(out, 0, petit, t, g, rx);
      }
    }
    top.clock(true);
    if (stop_at >= 0 && static_cast<int64_t>(t) >= stop_at) break;
  }

  write_done(out, x, 0, petit_cycles, completed);
  // Read every chip's counters through the select mux.
  const int ncnt = cmnet::cm1_counter_count(C);
  for (int chip = 0; chip < (1 << C); ++chip) {
    std::fprintf(out, "cnt %d", chip);
    for (int s = 0; s < ncnt; ++s) {
      top->cnt_chip = chip;
      top->cnt_sel = s;
      top.eval();
      std::fprintf(out, " %u", static_cast<unsigned>(top->cnt_value));
    }
    std::fprintf(out, "\n");
  }
  return 0;
}

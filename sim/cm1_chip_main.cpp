// Verilator harness that builds a CM-1 network out of 2^c instances of the generated chip
// (cm1_chip: router + endpoints) and wires their cube wires as a hypercube in C++, exactly
// as cm1_network.v does in Verilog. Verilator 5 emits code per instance, so a whole-network
// model grows with 2^c; one chip class reused 2^c times keeps c = 8 buildable in seconds.
// The protocol is in sim/cm1_harness_io.h.
//
// A chip's cube_out depends only on its registers and the phase, never combinationally on
// cube_in, so one cycle is: evaluate every chip with the clock low, route every cube_out to
// its neighbour's cube_in, evaluate again, then raise the clock on every chip.
#include <chrono>
#include <memory>
#include <vector>

#include "Vcm1_chip.h"
#include "sim/cm1_harness_io.h"
#include "sim/verilator_ports.h"
#include "verilated.h"

using namespace cmnet::harness;
using namespace cmnet::vport;

int main(int argc, char** argv) {
  if (argc != 3) die("usage: harness INPUT OUTPUT");
  const Input x = read_input(argv[1]);
  FILE* out = std::fopen(argv[2], "w");
  if (!out) die("cannot open output");
  const int C = x.C, NC = 1 << C, P = x.P, W = x.V + x.D;

  auto ctx = std::make_unique<VerilatedContext>();
  std::vector<std::unique_ptr<Vcm1_chip>> chip;
  for (int n = 0; n < NC; ++n) {
    chip.push_back(std::make_unique<Vcm1_chip>(ctx.get()));
    Vcm1_chip& c = *chip.back();
    c.my_chip = static_cast<uint32_t>(n);
    c.eject_one = static_cast<uint8_t>(x.eject_one);
    c.rst = 1;
    c.ce = 1;   // a bit-time every clock
    c.run = 0;
    c.clear = 0;
    c.load_en = 0;
    c.cube_in = 0;
    c.phase = 0;
  }
  int phase = 0;
  std::vector<uint32_t> cube_out(static_cast<size_t>(NC), 0);
  std::vector<uint32_t> fault_mask(static_cast<size_t>(NC), 0);

  // One bit-time for every chip. `before_edge` runs after the inputs have settled.
  auto cycle = [&](auto&& before_edge) {
    for (int n = 0; n < NC; ++n) {
      chip[n]->phase = static_cast<uint32_t>(phase);
      chip[n]->clk = 0;
      chip[n]->eval();
      cube_out[n] = static_cast<uint32_t>(chip[n]->cube_out);
    }
    for (int n = 0; n < NC; ++n) {
      uint32_t in = 0;
      for (int d = 0; d < C; ++d) in |= ((cube_out[n ^ (1 << d)] >> d) & 1u) << d;
      chip[n]->cube_in = in ^ fault_mask[n];
      chip[n]->eval();
    }
    before_edge();
    for (int n = 0; n < NC; ++n) {
      chip[n]->clk = 1;
      chip[n]->eval();
    }
    phase = (phase + 1) % x.TP;
  };
  auto nothing = [] {};

  cycle(nothing);
  cycle(nothing);
  for (auto& c : chip) c->rst = 0;
  phase = 0;

  const int64_t rx_offset = x.rx_offset();
  for (size_t group = 0; group < x.group_starts.size(); ++group) {
    const size_t first = x.group_starts[group];
    const size_t last = group + 1 < x.group_starts.size() ? x.group_starts[group + 1] : x.loads.size();
    // Load the group's messages while the machine idles (run = 0): every chip has its own
    // load port, so all chips load in parallel, one message per chip per cycle.
    std::vector<std::vector<const Load*>> per_chip(static_cast<size_t>(NC));
    for (size_t i = first; i < last; ++i)
      per_chip.at(x.loads[i].src / static_cast<uint32_t>(P)).push_back(&x.loads[i]);
    for (size_t k = 0;; ++k) {
      bool any_load = false;
      for (int n = 0; n < NC; ++n) {
        Vcm1_chip& c = *chip[n];
        c.load_en = 0;
        if (k >= per_chip[n].size()) continue;
        const Load& m = *per_chip[n][k];
        c.load_local = m.src % static_cast<uint32_t>(P);
        c.load_chip = m.chip;
        c.load_dproc = m.proc;
        c.load_vp = m.vp;
        set_field(c.load_data, 0, x.D, m.data);
        c.load_en = 1;
        any_load = true;
      }
      if (!any_load) break;
      cycle([&] {
        for (int n = 0; n < NC; ++n)
          if (chip[n]->load_en && chip[n]->load_full) die("endpoint queue full: build with a larger queue_depth");
      });
    }
    for (auto& c : chip) c->load_en = 0;
    // The group's petit cycle 0 begins at the next phase 0.
    while (phase != 0) cycle(nothing);
    for (auto& c : chip) c->run = 1;

    uint64_t petit_cycles = 0;
    bool completed = false;
    int64_t stop_at = -1;
    bool running = true;
    const auto t_start = std::chrono::steady_clock::now();
    uint64_t cycles = 0;
    for (uint64_t t = 0;; ++t) {
      ++cycles;
      for (int n = 0; n < NC; ++n) fault_mask[n] = 0;
      for (const Fault& f : x.faults)
        if (group == 0 && f.t == t) fault_mask.at(f.chip) |= 1u << f.dim;
      cycle([&] {
        if (phase == 0 && running) {
          bool busy = false;
          for (auto& c : chip) busy = busy || c->msgs_present || c->pending;
          const uint64_t petit = t / static_cast<uint64_t>(x.TP);
          if (!busy || petit >= x.max_petit) {
            // Stop before this petit cycle is counted; flush the last receptions.
            running = false;
            for (auto& c : chip) {
              c->run = 0;
              c->eval();
            }
            petit_cycles = petit;
            completed = !busy;
            stop_at = static_cast<int64_t>(t) + rx_offset + 1;
          }
        }
        for (int n = 0; n < NC; ++n) {
          const Vcm1_chip& c = *chip[n];
          if (!any(c.rx_valid)) continue;
          for (int q = 0; q < P; ++q) {
            if (!get_bit(c.rx_valid, q)) continue;
            const int64_t petit = (static_cast<int64_t>(t) - rx_offset) / x.TP;
            write_rx(out, group, petit, t, n * P + q, get_field(c.rx_word, q * W, W));
          }
        }
      });
      if (stop_at >= 0 && static_cast<int64_t>(t) >= stop_at) break;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::fprintf(out, "speed %zu %" PRIu64 " %.6f\n", group, cycles, secs);
    write_done(out, x, group, petit_cycles, completed);
    if (!completed) break;  // a stuck network would poison the next group
  }

  const int ncnt = 5 + C;
  for (int n = 0; n < NC; ++n) {
    std::fprintf(out, "cnt %d", n);
    for (int s = 0; s < ncnt; ++s) {
      chip[n]->cnt_sel = static_cast<uint32_t>(s);
      chip[n]->eval();
      std::fprintf(out, " %u", static_cast<unsigned>(chip[n]->cnt_value));
    }
    std::fprintf(out, "\n");
  }
  std::fclose(out);
  for (auto& c : chip) c->final();
  return 0;
}

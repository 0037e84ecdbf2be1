// Verilator harness that builds a CM-1 network out of 2^c instances of the generated chip
// (cm1_chip: router + endpoints) and wires their cube wires as a hypercube in C++, exactly
// as cm1_network.v does in Verilog. Verilator 5 emits code per instance, so a whole-network
// model grows with 2^c; one chip class reused 2^c times keeps c = 8 buildable in seconds.
// The protocol is in sim/cm1/cm1_harness_io.h.
//
// A chip's cube_out depends only on its registers, never combinationally on cube_in, so one
// clock is: evaluate every chip with the clock low, route every cube_out to its neighbour's
// cube_in, evaluate again, then raise the clock on every chip.
//
// Clock enable: a bit-time is one clock with the chips' ce high. `phase` advances by one every
// ce cycle (mod the petit period) and is 0 at the first ce cycle after reset. With a `ce`
// pattern or a `freeze` the harness adds clocks with ce low: phase holds, every input the
// chips sample carries noise (they must ignore it; the intended values are back for the next
// ce cycle), cube_in too (between boards it changes between ce cycles, as a neighbour's bit
// comes through the pin registers), and every output must hold. Bit-times, petit cycles and
// receptions count ce cycles only.
#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "Vcm1_chip.h"
#include "sim/cm1/cm1_harness_io.h"
#include "sim/core/harness_driver.h"
#include "sim/core/verilator_ports.h"

using namespace cmnet::harness;
using namespace cmnet::vport;

namespace {

// splitmix64: a small deterministic generator for the ce pattern and the noise.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

// The outputs that depend on registers only, as 32-bit words: they hold while ce is low.
std::vector<uint32_t> registered_outputs(const Vcm1_chip& c, int C, int P, int W) {
  std::vector<uint32_t> v;
  auto put = [&](const auto& port, int width) {
    for (int i = 0; i < (width + 31) / 32; ++i) v.push_back(word(port, static_cast<size_t>(i)));
  };
  put(c.inj_valid, P);
  put(c.rx_valid, P);
  put(c.rx_word, P * W);
  put(c.cube_out, C);
  v.push_back(c.msgs_present);
  v.push_back(c.pending);
  return v;
}

// What a chip shows while ce is low: its registered outputs, and the combinational reads of
// its registers for every select value (cnt_value per cnt_sel, load_full per load_local).
struct Shown {
  std::vector<uint32_t> regs;
  std::vector<uint32_t> cnt;
  std::vector<uint8_t> full;
};

// The inputs a chip samples in ce cycles only (all but clk, rst, ce, phase and cube_in, which
// the harness drives itself).
struct Sampled {
  uint8_t run, clear, eject_one, load_en;
  uint32_t my_chip, load_local, load_chip, load_dproc, load_vp, cnt_sel;
  uint64_t load_data;
};
Sampled sampled(const Vcm1_chip& c, int D) {
  return {c.run,       c.clear,     c.eject_one,  c.load_en, c.my_chip,
          c.load_local, c.load_chip, c.load_dproc, c.load_vp, c.cnt_sel, get_field(c.load_data, 0, D)};
}
void drive(Vcm1_chip& c, const Sampled& s, int D) {
  c.run = s.run;
  c.clear = s.clear;
  c.eject_one = s.eject_one;
  c.load_en = s.load_en;
  c.my_chip = s.my_chip;
  c.load_local = s.load_local;
  c.load_chip = s.load_chip;
  c.load_dproc = s.load_dproc;
  c.load_vp = s.load_vp;
  c.cnt_sel = s.cnt_sel;
  set_field(c.load_data, 0, D, s.load_data);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) die("usage: harness INPUT OUTPUT");
  const Input x = read_input(argv[1]);
  FILE* out = std::fopen(argv[2], "w");
  if (!out) die("cannot open output");
  const int C = x.C, NC = 1 << C, P = x.P, W = x.V + x.D;
  const int ncnt = 5 + C;
  const bool gated = x.ce_gated();

  // One driver per chip; chip 0 writes the trace when one is asked for.
  std::vector<std::unique_ptr<Driver<Vcm1_chip>>> drv;
  std::vector<Vcm1_chip*> chip;
  for (int n = 0; n < NC; ++n) {
    drv.push_back(std::make_unique<Driver<Vcm1_chip>>(Origin::kRun, n == 0));
    chip.push_back(&drv.back()->top());
    Vcm1_chip& c = *chip.back();
    c.my_chip = static_cast<uint32_t>(n);
    c.eject_one = static_cast<uint8_t>(x.eject_one);
    c.rst = 1;
    c.ce = gated ? 0 : 1;   // with a ce pattern, reset must work without ce
    c.run = 0;
    c.clear = 0;
    c.load_en = 0;
    c.cube_in = 0;
    c.phase = 0;
  }
  int phase = 0;
  std::vector<uint32_t> cube_out(static_cast<size_t>(NC), 0);
  std::vector<uint32_t> fault_mask(static_cast<size_t>(NC), 0);

  Rng ce_rng{x.ce_seed}, noise{x.ce_seed ^ 0x5eed5eed5eed5eedull};
  // One clock for every chip. `before_edge` runs after the inputs have settled. Cube wires
  // are routed in ce cycles and carry noise in the others.
  auto clock = [&](bool ce, auto&& before_edge) {
    for (int n = 0; n < NC; ++n) {
      chip[n]->phase = static_cast<uint32_t>(phase);
      chip[n]->ce = ce ? 1 : 0;
      drv[n]->clock(false);
      cube_out[n] = static_cast<uint32_t>(chip[n]->cube_out);
    }
    for (int n = 0; n < NC; ++n) {
      uint32_t in = 0;
      for (int d = 0; d < C; ++d) in |= ((cube_out[n ^ (1 << d)] >> d) & 1u) << d;
      chip[n]->cube_in = ce ? in ^ fault_mask[n] : static_cast<uint32_t>(noise.next() & (NC - 1u));
      chip[n]->eval();
    }
    before_edge();
    for (int n = 0; n < NC; ++n) drv[n]->clock(true);
  };
  auto nothing = [] {};

  // Clocks with ce low (after reset): noise on the sampled inputs, outputs checked.
  uint64_t ce_clock = 0, idle_clocks = 0, idle_changes = 0;
  auto show = [&](Vcm1_chip& c) {
    Shown s{registered_outputs(c, C, P, W), {}, {}};
    const uint32_t sel = c.cnt_sel, local = c.load_local;
    for (int k = 0; k < ncnt; ++k) {
      c.cnt_sel = static_cast<uint32_t>(k);
      c.eval();
      s.cnt.push_back(c.cnt_value);
    }
    for (int q = 0; q < P; ++q) {
      c.load_local = static_cast<uint32_t>(q);
      c.eval();
      s.full.push_back(c.load_full);
    }
    c.cnt_sel = sel;
    c.load_local = local;
    c.eval();
    return s;
  };
  auto idle = [&](uint64_t clocks) {
    if (clocks == 0) return;
    std::vector<Shown> before;
    for (auto& c : chip) before.push_back(show(*c));
    for (uint64_t i = 0; i < clocks; ++i) {
      std::vector<Sampled> keep;
      for (auto& c : chip) {
        keep.push_back(sampled(*c, x.D));
        const uint64_t r = noise.next();
        const auto bits = [&](int lsb, uint64_t mod) { return static_cast<uint32_t>((r >> lsb) % mod); };
        const Sampled z{static_cast<uint8_t>(r & 1), static_cast<uint8_t>((r >> 1) & 1),
                        static_cast<uint8_t>((r >> 2) & 1), static_cast<uint8_t>((r >> 3) & 1),
                        bits(8, static_cast<uint64_t>(NC)), bits(16, static_cast<uint64_t>(P)),
                        bits(24, static_cast<uint64_t>(NC)), bits(32, static_cast<uint64_t>(P)),
                        bits(40, 1ull << x.V), bits(56, static_cast<uint64_t>(ncnt)), noise.next()};
        drive(*c, z, x.D);
      }
      clock(false, nothing);
      ++idle_clocks;
      bool changed = false;
      for (int n = 0; n < NC; ++n) {
        const Vcm1_chip& c = *chip[n];
        const Shown& s = before[n];
        changed = changed || registered_outputs(c, C, P, W) != s.regs ||
                  c.cnt_value != s.cnt[c.cnt_sel] || c.load_full != s.full[c.load_local];
      }
      if (changed) ++idle_changes;
      for (int n = 0; n < NC; ++n) drive(*chip[n], keep[n], x.D);
    }
  };
  // One bit-time: the ce pattern's clocks with ce low, then a ce cycle.
  auto cycle = [&](auto&& before_edge) {
    uint64_t low = 0;
    for (;; ++low) {
      const bool on = ce_clock++ % x.ce_period == x.ce_period - 1;
      if (on && (x.ce_seed == 0 || (ce_rng.next() & 1))) break;
    }
    idle(low);
    clock(true, before_edge);
    phase = (phase + 1) % x.TP;
  };

  clock(!gated, nothing);
  clock(!gated, nothing);
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
    if (group == 0) drv[0]->set_time_origin();  // trace windows count clocks of the run from here

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
      for (const Freeze& f : x.freezes)
        if (group == 0 && f.t == t) idle(f.clocks);
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

  std::fprintf(out, "idle %" PRIu64 " %" PRIu64 "\n", idle_clocks, idle_changes);
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
  return 0;  // the drivers finalize the models and close the trace
}

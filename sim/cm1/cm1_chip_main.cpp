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
#include "gen/cm1/cm1_counter_list.h"
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

// The network of chips and the clocks the harness gives them.
class ChipNetwork {
 public:
  ChipNetwork(const Input& x, FILE* out)
      : x_(x), out_(out), C_(x.C), NC_(1 << x.C), P_(x.P), W_(x.V + x.D), ncnt_(cmnet::cm1_counter_count(x.C)),
        gated_(x.ce_gated()),
        cube_out_(static_cast<size_t>(NC_), 0), fault_mask_(static_cast<size_t>(NC_), 0), ce_rng_{x.ce_seed},
        noise_{x.ce_seed ^ 0x5eed5eed5eed5eedull} {
    // One driver per chip; chip 0 writes the trace when one is asked for.
    for (int n = 0; n < NC_; ++n) {
      drv_.push_back(std::make_unique<Driver<Vcm1_chip>>(Origin::kRun, n == 0));
      chip_.push_back(&drv_.back()->top());
      Vcm1_chip& c = *chip_.back();
      c.my_chip = static_cast<uint32_t>(n);
      c.eject_one = static_cast<uint8_t>(x.eject_one);
      c.rst = 1;
      c.ce = gated_ ? 0 : 1;   // with a ce pattern, reset must work without ce
      c.run = 0;
      c.clear = 0;
      c.load_en = 0;
      c.cube_in = 0;
      c.phase = 0;
    }
  }

  void reset() {
    clock(!gated_, nothing);
    clock(!gated_, nothing);
    for (auto& c : chip_) c->rst = 0;
    phase_ = 0;
  }

  // Load the group's messages while the machine idles (run = 0): every chip has its own
  // load port, so all chips load in parallel, one message per chip per cycle.
  void load_group(size_t first, size_t last) {
    std::vector<std::vector<const Load*>> per_chip(static_cast<size_t>(NC_));
    for (size_t i = first; i < last; ++i)
      per_chip.at(x_.loads[i].src / static_cast<uint32_t>(P_)).push_back(&x_.loads[i]);
    for (size_t k = 0;; ++k) {
      bool any_load = false;
      for (int n = 0; n < NC_; ++n) {
        Vcm1_chip& c = *chip_[n];
        c.load_en = 0;
        if (k >= per_chip[n].size()) continue;
        const Load& m = *per_chip[n][k];
        c.load_local = m.src % static_cast<uint32_t>(P_);
        c.load_chip = m.chip;
        c.load_dproc = m.proc;
        c.load_vp = m.vp;
        set_field(c.load_data, 0, x_.D, m.data);
        c.load_en = 1;
        any_load = true;
      }
      if (!any_load) break;
      cycle([&] {
        for (int n = 0; n < NC_; ++n)
          if (chip_[n]->load_en && chip_[n]->load_full) die("endpoint queue full: build with a larger queue_depth");
      });
    }
    for (auto& c : chip_) c->load_en = 0;
  }

  // Runs the loaded group from the next phase 0 until the network is empty (or max_petit), writing
  // its receptions, speed and done lines. Returns whether it completed.
  bool run_group(size_t group) {
    // The group's petit cycle 0 begins at the next phase 0.
    while (phase_ != 0) cycle(nothing);
    for (auto& c : chip_) c->run = 1;
    if (group == 0) drv_[0]->set_time_origin();  // trace windows count clocks of the run from here

    Run run;
    const auto t_start = std::chrono::steady_clock::now();
    uint64_t cycles = 0;
    for (uint64_t t = 0;; ++t) {
      ++cycles;
      for (int n = 0; n < NC_; ++n) fault_mask_[n] = 0;
      for (const Fault& f : x_.faults)
        if (group == 0 && f.t == t) fault_mask_.at(f.chip) |= 1u << f.dim;
      for (const Freeze& f : x_.freezes)
        if (group == 0 && f.t == t) idle(f.clocks);
      cycle([&] {
        if (phase_ == 0 && run.running) stop_when_done(run, t);
        write_receptions(group, t);
      });
      if (run.stop_at >= 0 && static_cast<int64_t>(t) >= run.stop_at) break;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::fprintf(out_, "speed %zu %" PRIu64 " %.6f\n", group, cycles, secs);
    write_done(out_, x_, group, run.petit_cycles, run.completed);
    return run.completed;
  }

  void write_counters() {
    std::fprintf(out_, "idle %" PRIu64 " %" PRIu64 "\n", idle_clocks_, idle_changes_);
    for (int n = 0; n < NC_; ++n) {
      std::fprintf(out_, "cnt %d", n);
      for (int s = 0; s < ncnt_; ++s) {
        chip_[n]->cnt_sel = static_cast<uint32_t>(s);
        chip_[n]->eval();
        std::fprintf(out_, " %u", static_cast<unsigned>(chip_[n]->cnt_value));
      }
      std::fprintf(out_, "\n");
    }
  }

 private:
  static void nothing() {}

  // A group's run: where it stops, and what it reports.
  struct Run {
    uint64_t petit_cycles = 0;
    bool completed = false;
    int64_t stop_at = -1;
    bool running = true;
  };

  // At a phase 0 of bit-time t: an empty network (or max_petit) stops before this petit cycle is
  // counted; the last receptions are flushed.
  void stop_when_done(Run& run, uint64_t t) {
    bool busy = false;
    for (auto& c : chip_) busy = busy || c->msgs_present || c->pending;
    const uint64_t petit = t / static_cast<uint64_t>(x_.TP);
    if (busy && petit < x_.max_petit) return;
    run.running = false;
    for (auto& c : chip_) {
      c->run = 0;
      c->eval();
    }
    run.petit_cycles = petit;
    run.completed = !busy;
    run.stop_at = static_cast<int64_t>(t) + x_.rx_offset() + 1;
  }

  void write_receptions(size_t group, uint64_t t) {
    const int64_t rx_offset = x_.rx_offset();
    for (int n = 0; n < NC_; ++n) {
      const Vcm1_chip& c = *chip_[n];
      if (!any(c.rx_valid)) continue;
      for (int q = 0; q < P_; ++q) {
        if (!get_bit(c.rx_valid, q)) continue;
        const int64_t petit = (static_cast<int64_t>(t) - rx_offset) / x_.TP;
        write_rx(out_, group, petit, t, n * P_ + q, get_field(c.rx_word, q * W_, W_));
      }
    }
  }

  // One clock for every chip. `before_edge` runs after the inputs have settled. Cube wires
  // are routed in ce cycles and carry noise in the others.
  template <class F>
  void clock(bool ce, F&& before_edge) {
    for (int n = 0; n < NC_; ++n) {
      chip_[n]->phase = static_cast<uint32_t>(phase_);
      chip_[n]->ce = ce ? 1 : 0;
      drv_[n]->clock(false);
      cube_out_[n] = static_cast<uint32_t>(chip_[n]->cube_out);
    }
    for (int n = 0; n < NC_; ++n) {
      uint32_t in = 0;
      for (int d = 0; d < C_; ++d) in |= ((cube_out_[n ^ (1 << d)] >> d) & 1u) << d;
      chip_[n]->cube_in = ce ? in ^ fault_mask_[n] : static_cast<uint32_t>(noise_.next() & (NC_ - 1u));
      chip_[n]->eval();
    }
    before_edge();
    for (int n = 0; n < NC_; ++n) drv_[n]->clock(true);
  }

  // One bit-time: the ce pattern's clocks with ce low, then a ce cycle.
  template <class F>
  void cycle(F&& before_edge) {
    uint64_t low = 0;
    for (;; ++low) {
      const bool on = ce_clock_++ % x_.ce_period == x_.ce_period - 1;
      if (on && (x_.ce_seed == 0 || (ce_rng_.next() & 1))) break;
    }
    idle(low);
    clock(true, before_edge);
    phase_ = (phase_ + 1) % x_.TP;
  }

  Shown show(Vcm1_chip& c) {
    Shown s{registered_outputs(c, C_, P_, W_), {}, {}};
    const uint32_t sel = c.cnt_sel, local = c.load_local;
    for (int k = 0; k < ncnt_; ++k) {
      c.cnt_sel = static_cast<uint32_t>(k);
      c.eval();
      s.cnt.push_back(c.cnt_value);
    }
    for (int q = 0; q < P_; ++q) {
      c.load_local = static_cast<uint32_t>(q);
      c.eval();
      s.full.push_back(c.load_full);
    }
    c.cnt_sel = sel;
    c.load_local = local;
    c.eval();
    return s;
  }

  // Noise on a chip's sampled inputs, for a clock with ce low.
  Sampled noise_inputs() {
    const uint64_t r = noise_.next();
    const auto bits = [&](int lsb, uint64_t mod) { return static_cast<uint32_t>((r >> lsb) % mod); };
    return Sampled{static_cast<uint8_t>(r & 1), static_cast<uint8_t>((r >> 1) & 1),
                   static_cast<uint8_t>((r >> 2) & 1), static_cast<uint8_t>((r >> 3) & 1),
                   bits(8, static_cast<uint64_t>(NC_)), bits(16, static_cast<uint64_t>(P_)),
                   bits(24, static_cast<uint64_t>(NC_)), bits(32, static_cast<uint64_t>(P_)),
                   bits(40, 1ull << x_.V), bits(56, static_cast<uint64_t>(ncnt_)), noise_.next()};
  }

  // Clocks with ce low: noise on the sampled inputs, outputs checked.
  void idle(uint64_t clocks) {
    if (clocks == 0) return;
    std::vector<Shown> before;
    for (auto& c : chip_) before.push_back(show(*c));
    for (uint64_t i = 0; i < clocks; ++i) {
      std::vector<Sampled> keep;
      for (auto& c : chip_) {
        keep.push_back(sampled(*c, x_.D));
        drive(*c, noise_inputs(), x_.D);
      }
      clock(false, nothing);
      ++idle_clocks_;
      bool changed = false;
      for (int n = 0; n < NC_; ++n) {
        const Vcm1_chip& c = *chip_[n];
        const Shown& s = before[n];
        changed = changed || registered_outputs(c, C_, P_, W_) != s.regs ||
                  c.cnt_value != s.cnt[c.cnt_sel] || c.load_full != s.full[c.load_local];
      }
      if (changed) ++idle_changes_;
      for (int n = 0; n < NC_; ++n) drive(*chip_[n], keep[n], x_.D);
    }
  }

  const Input& x_;
  FILE* out_;
  const int C_, NC_, P_, W_, ncnt_;
  const bool gated_;
  std::vector<std::unique_ptr<Driver<Vcm1_chip>>> drv_;
  std::vector<Vcm1_chip*> chip_;
  int phase_ = 0;
  std::vector<uint32_t> cube_out_, fault_mask_;
  Rng ce_rng_, noise_;
  uint64_t ce_clock_ = 0, idle_clocks_ = 0, idle_changes_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const Files io("cm1 harness", argc, argv);
  const Input x = read_input(io.in());
  ChipNetwork net(x, io.out());
  net.reset();
  for (size_t group = 0; group < x.group_starts.size(); ++group) {
    const size_t first = x.group_starts[group];
    const size_t last = group + 1 < x.group_starts.size() ? x.group_starts[group + 1] : x.loads.size();
    net.load_group(first, last);
    if (!net.run_group(group)) break;  // a stuck network would poison the next group
  }
  net.write_counters();
  return 0;  // the drivers finalize the models and close the trace
}

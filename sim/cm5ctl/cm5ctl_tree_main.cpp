// Verilator harness for the generated CM-5 control network top (cm5ctl_tree). Built per design
// by sim/core/rtl_build.cpp and run as a child process by sim/cm5ctl/cm5ctl_rtl.cpp.
//
// Input (text): "params N W EXPECT MAX_CYCLES DRAIN MIN_CYCLES", then one line per operation in each
// leaf's order: "op LEAF RELEASE BCAST ABSTAIN KIND COMB SEGMENTED SEG DATAHEX"; then the
// leaves' data network counters for router-done, "cnt LEAF CYCLE VALUEHEX" (from CYCLE on), and
// the faults to inject, "flip u|d LINK CYCLE" (wire 0 of up_LINK / down_LINK inverted then),
// the restarts after a flush, "restart LEAF CYCLE" (restart high in that cycle), and the
// global inputs, "glob LEAF CYCLE VALUE" (from CYCLE on: bit 0 async_in[0], bit 1 async_in[1],
// bit 2 hard_error_in).
// Output: "inj LEAF CYCLE" per accepted push, "res LEAF CYCLE BCAST KIND COMB DATAHEX OVF ERR
// ABSTAINED" per result (cycle order, then leaf), "g LEAF CYCLE VALUE" whenever a leaf's
// {hard_error_out, async_out} changes, "a LEAF CYCLE" when its `aligned` is first high, "done CYCLES COMPLETED FAULT BCAST_DROP
// LINK_ERROR SECONDS".
// With CMNET_TRACE=FILE.fst (a model built with trace_flags()) an FST waveform, cycles counted
// from the first after reset (sim/core/harness_driver.h).
// Cycle 0 is the first after reset. A leaf offers its next operation from its release cycle on,
// one push per cycle at most; it is accepted when inj_ready is high (the model's rule). The run
// stops DRAIN cycles after the EXPECT-th result (not before MIN_CYCLES), or at MAX_CYCLES.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vcm5ctl_tree.h"
#include "sim/cm5ctl/cm5ctl_harness_leaves.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"

using cmnet::harness::die;

namespace {

struct Flip {
  uint64_t cycle;
  int link;
  bool up;
};

struct Glob {
  uint64_t cycle;
  int leaf;
  unsigned value;
};

// The input file.
struct Input {
  int N = 0, W = 0;
  unsigned long long expect = 0, max_cycles = 0, drain = 0, min_cycles = 0;
  cmnet::cm5ctl_harness::LeafOps ops{0, 0};
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> cnt;
  std::vector<Flip> flips;
  std::vector<std::pair<uint64_t, int>> restarts;
  std::vector<Glob> globs;
};

Input read_input(FILE* in) {
  Input x;
  if (std::fscanf(in, " params %d %d %llu %llu %llu %llu", &x.N, &x.W, &x.expect, &x.max_cycles, &x.drain,
                  &x.min_cycles) != 6)
    die("bad params line");
  const int N = x.N;
  x.ops = cmnet::cm5ctl_harness::LeafOps(N, x.W);
  x.cnt.resize(static_cast<size_t>(N));
  char word[8];
  while (std::fscanf(in, " %7s", word) == 1) {
    int leaf = 0;
    unsigned long long rel = 0, data = 0;
    if (std::string(word) == "cnt") {
      if (std::fscanf(in, " %d %llu %llx", &leaf, &rel, &data) != 3 || leaf < 0 || leaf >= N) die("bad cnt line");
      x.cnt[static_cast<size_t>(leaf)].emplace_back(rel, data);
    } else if (std::string(word) == "restart") {
      if (std::fscanf(in, " %d %llu", &leaf, &rel) != 2 || leaf < 0 || leaf >= N) die("bad restart line");
      x.restarts.emplace_back(rel, leaf);
    } else if (std::string(word) == "glob") {
      unsigned val = 0;
      if (std::fscanf(in, " %d %llu %u", &leaf, &rel, &val) != 3 || leaf < 0 || leaf >= N) die("bad glob line");
      x.globs.push_back({rel, leaf, val});
    } else if (std::string(word) == "flip") {
      char dir = 0;
      if (std::fscanf(in, " %c %d %llu", &dir, &leaf, &rel) != 3 || leaf < 2 || leaf >= 2 * N) die("bad flip line");
      x.flips.push_back({rel, leaf, dir == 'u'});
    } else if (std::string(word) == "op") {
      x.ops.read(in);
    } else {
      die("unknown input line");
    }
  }
  return x;
}

using namespace cmnet::vport;

// The tree's run: what each leaf offers, and the outputs written cycle by cycle.
class TreeRun {
 public:
  TreeRun(const Input& x, FILE* out)
      : x_(x), out_(out), N_(x.N), W_(x.W), ops_(x.ops), cnt_next_(static_cast<size_t>(x.N), 0), done_(x.expect == 0),
        gout_(static_cast<size_t>(x.N), 0), was_aligned_(static_cast<size_t>(x.N), false) {}

  void run() {
    drv_.reset();
    drv_.set_time_origin();
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t t = 0;
    for (; t < x_.max_cycles; ++t) {
      if (done_ && t >= done_at_ + x_.drain && t >= x_.min_cycles) break;
      drv_.clock(false);
      drive_controls(t);
      drive_leaves(t);
      drv_.eval();
      write_aligned(t);
      write_globals(t);
      write_results(t);
      ops_.take(*top_, t, out_);
      fault_ = fault_ || top_->fault;
      drop_ = drop_ || top_->bcast_drop;
      link_error_ = link_error_ || top_->link_error;
      drv_.clock(true);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(out_, "done %llu %d %d %d %d %.6f\n", static_cast<unsigned long long>(t), got_ == x_.expect ? 1 : 0,
                 fault_ ? 1 : 0, drop_ ? 1 : 0, link_error_ ? 1 : 0, secs);
  }

 private:
  // Restarts, global inputs and link faults of cycle t (a fault lasts one cycle).
  void drive_controls(uint64_t t) {
    for (int i = 0; i < N_; ++i) set_bit(top_->restart, i, false);
    for (const auto& [c, leaf] : x_.restarts)
      if (c == t) set_bit(top_->restart, leaf, true);
    for (const Glob& g : x_.globs)
      if (g.cycle == t) {
        set_bit(top_->async_in, 2 * g.leaf, g.value & 1);
        set_bit(top_->async_in, 2 * g.leaf + 1, (g.value >> 1) & 1);
        set_bit(top_->hard_error_in, g.leaf, (g.value >> 2) & 1);
      }
    for (int k : flipped_) {
      set_bit(top_->flip_up, k - 2, false);
      set_bit(top_->flip_down, k - 2, false);
    }
    flipped_.clear();
    for (const Flip& f : x_.flips)
      if (f.cycle == t) {
        if (f.up) set_bit(top_->flip_up, f.link - 2, true);
        else set_bit(top_->flip_down, f.link - 2, true);
        flipped_.push_back(f.link);
      }
  }

  // Each leaf's counter, and its next operation.
  void drive_leaves(uint64_t t) {
    for (int i = 0; i < N_; ++i) {
      const size_t s = static_cast<size_t>(i);
      while (cnt_next_[s] < x_.cnt[s].size() && x_.cnt[s][cnt_next_[s]].first <= t)
        set_field(top_->rd_count, W_ * i, W_, x_.cnt[s][cnt_next_[s]++].second);
    }
    ops_.offer(*top_, t);
  }

  void write_aligned(uint64_t t) {
    for (int i = 0; i < N_; ++i)
      if (!was_aligned_[static_cast<size_t>(i)] && get_bit(top_->aligned, i)) {
        was_aligned_[static_cast<size_t>(i)] = true;
        std::fprintf(out_, "a %d %llu\n", i, static_cast<unsigned long long>(t));
      }
  }

  void write_globals(uint64_t t) {
    for (int i = 0; i < N_; ++i) {
      const unsigned g = static_cast<unsigned>(get_field(top_->async_out, 2 * i, 2)) |
                         (get_bit(top_->hard_error_out, i) ? 4u : 0u);
      if (g != gout_[static_cast<size_t>(i)]) {
        gout_[static_cast<size_t>(i)] = g;
        std::fprintf(out_, "g %d %llu %u\n", i, static_cast<unsigned long long>(t), g);
      }
    }
  }

  void write_results(uint64_t t) {
    got_ += ops_.write_results(*top_, t, out_);
    if (!done_ && got_ >= x_.expect) {
      done_ = true;
      done_at_ = t;
    }
  }

  const Input& x_;
  FILE* out_;
  const int N_, W_;
  cmnet::harness::Driver<Vcm5ctl_tree> drv_{cmnet::harness::Origin::kRun};
  Vcm5ctl_tree* top_ = &drv_.top();
  cmnet::cm5ctl_harness::LeafOps ops_;
  std::vector<size_t> cnt_next_;
  uint64_t got_ = 0, done_at_ = 0;
  bool done_, fault_ = false, drop_ = false, link_error_ = false;
  std::vector<int> flipped_;  // links set in the last cycle, cleared in the next
  std::vector<unsigned> gout_;
  std::vector<bool> was_aligned_;
};

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("cm5ctl harness", argc, argv);
  const Input x = read_input(io.in());
  TreeRun run(x, io.out());
  run.run();
  return 0;
}

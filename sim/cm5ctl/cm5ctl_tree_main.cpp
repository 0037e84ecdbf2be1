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
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "Vcm5ctl_tree.h"
#include "sim/core/harness_driver.h"
#include "sim/core/verilator_ports.h"

namespace {

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "cm5ctl harness: %s\n", what);
  std::exit(2);
}

struct Op {
  uint64_t release = 0;
  int bcast = 0, abstain = 0, kind = 0, comb = 0, segmented = 0, seg = 0;
  uint64_t data = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) die("usage: harness INPUT OUTPUT");
  FILE* in = std::fopen(argv[1], "r");
  if (!in) die("cannot open input");
  int N = 0, W = 0;
  unsigned long long expect = 0, max_cycles = 0, drain = 0, min_cycles = 0;
  if (std::fscanf(in, " params %d %d %llu %llu %llu %llu", &N, &W, &expect, &max_cycles, &drain, &min_cycles) != 6)
    die("bad params line");
  std::vector<std::vector<Op>> ops(static_cast<size_t>(N));
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> cnt(static_cast<size_t>(N));
  char word[8];
  struct Flip {
    uint64_t cycle;
    int link;
    bool up;
  };
  std::vector<Flip> flips;
  std::vector<std::pair<uint64_t, int>> restarts;
  struct Glob {
    uint64_t cycle;
    int leaf;
    unsigned value;
  };
  std::vector<Glob> globs;
  while (std::fscanf(in, " %7s", word) == 1) {
    int leaf = 0;
    unsigned long long rel = 0, data = 0;
    if (std::string(word) == "cnt") {
      if (std::fscanf(in, " %d %llu %llx", &leaf, &rel, &data) != 3 || leaf < 0 || leaf >= N) die("bad cnt line");
      cnt[static_cast<size_t>(leaf)].emplace_back(rel, data);
      continue;
    }
    if (std::string(word) == "restart") {
      if (std::fscanf(in, " %d %llu", &leaf, &rel) != 2 || leaf < 0 || leaf >= N) die("bad restart line");
      restarts.emplace_back(rel, leaf);
      continue;
    }
    if (std::string(word) == "glob") {
      unsigned val = 0;
      if (std::fscanf(in, " %d %llu %u", &leaf, &rel, &val) != 3 || leaf < 0 || leaf >= N) die("bad glob line");
      globs.push_back({rel, leaf, val});
      continue;
    }
    if (std::string(word) == "flip") {
      char dir = 0;
      if (std::fscanf(in, " %c %d %llu", &dir, &leaf, &rel) != 3 || leaf < 2 || leaf >= 2 * N) die("bad flip line");
      flips.push_back({rel, leaf, dir == 'u'});
      continue;
    }
    if (std::string(word) != "op") die("unknown input line");
    Op o;
    const int n = std::fscanf(in, " %d %llu %d %d %d %d %d %d %llx", &leaf, &rel, &o.bcast, &o.abstain, &o.kind,
                              &o.comb, &o.segmented, &o.seg, &data);
    if (n != 9 || leaf < 0 || leaf >= N) die("bad op line");
    o.release = rel;
    o.data = data;
    ops[static_cast<size_t>(leaf)].push_back(o);
  }
  std::vector<size_t> cnt_next(static_cast<size_t>(N), 0);
  std::fclose(in);
  FILE* out = std::fopen(argv[2], "w");
  if (!out) die("cannot open output");

  cmnet::harness::Driver<Vcm5ctl_tree> drv(cmnet::harness::Origin::kRun);
  Vcm5ctl_tree* top = &drv.top();
  using namespace cmnet::vport;
  top->rst = 1;
  drv.tick();
  drv.tick();
  top->rst = 0;
  drv.set_time_origin();
  std::vector<size_t> next(static_cast<size_t>(N), 0);
  std::vector<long long> last_push(static_cast<size_t>(N), -1);
  std::vector<int> offering(static_cast<size_t>(N), 0);
  uint64_t got = 0, done_at = 0;
  bool done = expect == 0, fault = false, drop = false, link_error = false;
  std::vector<int> flipped;  // links set in the last cycle, cleared in the next
  std::vector<unsigned> gout(static_cast<size_t>(N), 0);
  std::vector<bool> was_aligned(static_cast<size_t>(N), false);
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t t = 0;
  for (; t < max_cycles; ++t) {
    if (done && t >= done_at + drain && t >= min_cycles) break;
    drv.clock(false);
    for (int i = 0; i < N; ++i) set_bit(top->restart, i, false);
    for (const auto& [c, leaf] : restarts)
      if (c == t) set_bit(top->restart, leaf, true);
    for (const Glob& g : globs)
      if (g.cycle == t) {
        set_bit(top->async_in, 2 * g.leaf, g.value & 1);
        set_bit(top->async_in, 2 * g.leaf + 1, (g.value >> 1) & 1);
        set_bit(top->hard_error_in, g.leaf, (g.value >> 2) & 1);
      }
    for (int k : flipped) {
      set_bit(top->flip_up, k - 2, false);
      set_bit(top->flip_down, k - 2, false);
    }
    flipped.clear();
    for (const Flip& f : flips)
      if (f.cycle == t) {
        if (f.up) set_bit(top->flip_up, f.link - 2, true);
        else set_bit(top->flip_down, f.link - 2, true);
        flipped.push_back(f.link);
      }
    for (int i = 0; i < N; ++i) {
      const size_t s = static_cast<size_t>(i);
      while (cnt_next[s] < cnt[s].size() && cnt[s][cnt_next[s]].first <= t)
        set_field(top->rd_count, W * i, W, cnt[s][cnt_next[s]++].second);
      offering[s] = 0;
      if (next[s] < ops[s].size()) {
        const Op& o = ops[s][next[s]];
        if (t >= o.release && static_cast<long long>(t) > last_push[s]) {
          offering[s] = 1;
          set_bit(top->inj_bcast, i, o.bcast);
          set_bit(top->inj_abstain, i, o.abstain);
          set_field(top->inj_kind, 2 * i, 2, static_cast<uint64_t>(o.kind));
          set_field(top->inj_comb, 3 * i, 3, static_cast<uint64_t>(o.comb));
          set_bit(top->inj_segmented, i, o.segmented);
          set_bit(top->inj_seg, i, o.seg);
          set_field(top->inj_data, W * i, W, o.data);
        }
      }
      set_bit(top->inj_valid, i, offering[s]);
    }
    drv.eval();
    for (int i = 0; i < N; ++i)
      if (!was_aligned[static_cast<size_t>(i)] && get_bit(top->aligned, i)) {
        was_aligned[static_cast<size_t>(i)] = true;
        std::fprintf(out, "a %d %llu\n", i, static_cast<unsigned long long>(t));
      }
    for (int i = 0; i < N; ++i) {
      const unsigned g = static_cast<unsigned>(get_field(top->async_out, 2 * i, 2)) |
                         (get_bit(top->hard_error_out, i) ? 4u : 0u);
      if (g != gout[static_cast<size_t>(i)]) {
        gout[static_cast<size_t>(i)] = g;
        std::fprintf(out, "g %d %llu %u\n", i, static_cast<unsigned long long>(t), g);
      }
    }
    if (any(top->res_valid)) {
      for (int i = 0; i < N; ++i) {
        if (!get_bit(top->res_valid, i)) continue;
        std::fprintf(out, "res %d %llu %d %d %d %llx %d %d %d\n", i, static_cast<unsigned long long>(t),
                     get_bit(top->res_bcast, i) ? 1 : 0, static_cast<int>(get_field(top->res_kind, 2 * i, 2)),
                     static_cast<int>(get_field(top->res_comb, 3 * i, 3)),
                     static_cast<unsigned long long>(get_field(top->res_data, W * i, W)),
                     get_bit(top->res_ovf, i) ? 1 : 0, get_bit(top->res_err, i) ? 1 : 0,
                     get_bit(top->res_abstained, i) ? 1 : 0);
        ++got;
        if (!done && got >= expect) {
          done = true;
          done_at = t;
        }
      }
    }
    for (int i = 0; i < N; ++i) {
      const size_t s = static_cast<size_t>(i);
      if (offering[s] && get_bit(top->inj_ready, i)) {
        std::fprintf(out, "inj %d %llu\n", i, static_cast<unsigned long long>(t));
        last_push[s] = static_cast<long long>(t);
        ++next[s];
      }
    }
    fault = fault || top->fault;
    drop = drop || top->bcast_drop;
    link_error = link_error || top->link_error;
    drv.clock(true);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(out, "done %llu %d %d %d %d %.6f\n", static_cast<unsigned long long>(t), got == expect ? 1 : 0,
               fault ? 1 : 0, drop ? 1 : 0, link_error ? 1 : 0, secs);
  std::fclose(out);
  return 0;
}

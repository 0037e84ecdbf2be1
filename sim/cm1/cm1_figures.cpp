// Figure 12 on the reference model.
#include "sim/cm1/cm1_figures.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "gen/core/errors.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

Cm1Params cm1_figure12_params() {
  Cm1Params p;
  p.cube_dims = 12;
  p.procs_per_chip = 16;
  p.rows = 7;
  p.data_bits = 32;
  p.vp_bits = 0;
  return p;
}

Cm1Fig12 cm1_figure12(const Cm1Params& params, int v_max, uint64_t seed, bool one_message) {
  validate(params, "figure 12");
  if (v_max < 1 || v_max > 1024) {
    throw ConfigError("figure 12: v_max = " + std::to_string(v_max) + " out of range 1..1024");
  }
  Cm1Fig12 f;
  f.params = params;
  f.seed = seed;
  using clock = std::chrono::steady_clock;
  for (int v = 1; v <= v_max; ++v) {
    Cm1Fig12Row row;
    row.v = v;
    Cm1Params p = params;
    int bits = 0;
    while ((1 << bits) < v) ++bits;
    p.vp_bits = std::max(p.vp_bits, bits);
    row.vp_bits = p.vp_bits;
    const Traffic t = make_pattern("permutation", p, seed, v);
    row.messages = t.messages.size();

    const auto t0 = clock::now();
    const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine);
    const auto t1 = clock::now();
    row.seconds = std::chrono::duration<double>(t1 - t0).count();
    f.messages += r.deliveries.size();
    f.hops += r.crossings;

    row.petit_or = r.petit_cycles;
    row.completed_or = r.completed;
    row.lower_bound = static_cast<double>(p.procs_per_chip) * v / 2.0;
    row.ratio = static_cast<double>(r.petit_cycles) / row.lower_bound;
    row.bit_times = r.bit_times;
    row.crossings = r.crossings;
    row.desperation = r.desperation;
    uint64_t busy = 0;
    for (const Cm1ChipCounters& k : r.chips)
      for (uint64_t x : k.dim_busy) busy += x;
    const double capacity = static_cast<double>(p.chips()) * p.cube_dims * static_cast<double>(r.bit_times);
    row.utilization = capacity > 0 ? static_cast<double>(busy) / capacity : 0.0;

    if (one_message) {
      const auto t2 = clock::now();
      const Cm1RunResult o = run_cm1_model(p, t, EjectMode::kOnePerPetit);
      const auto t3 = clock::now();
      row.seconds += std::chrono::duration<double>(t3 - t2).count();
      f.messages += o.deliveries.size();
      f.hops += o.crossings;
      row.petit_one = o.petit_cycles;
      row.completed_one = o.completed;
      row.slowdown = r.petit_cycles ? static_cast<double>(o.petit_cycles) / static_cast<double>(r.petit_cycles) : 0.0;
    }
    f.seconds += row.seconds;
    f.rows.push_back(row);
  }
  if (f.seconds > 0) {
    f.messages_per_second = static_cast<double>(f.messages) / f.seconds;
    f.hops_per_second = static_cast<double>(f.hops) / f.seconds;
  }
  return f;
}

std::string format_cm1_figure12(const Cm1Fig12& f) {
  std::string out;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "Figure 12 (reference model): c=%d P=%d b=%d d=%d, random permutations, seed %llu\n",
                f.params.cube_dims, f.params.procs_per_chip, f.params.rows, f.params.data_bits,
                static_cast<unsigned long long>(f.seed));
  out += buf;
  out += "   v  messages  petit(or)  bound  ratio  desperation  bit-times  wire-util  petit(one)  slowdown\n";
  for (const Cm1Fig12Row& r : f.rows) {
    std::snprintf(buf, sizeof buf, "%4d  %8llu  %9llu%s %6.0f  %5.2f  %11llu  %9llu  %8.1f%%  %10llu%s %8.2f\n", r.v,
                  static_cast<unsigned long long>(r.messages), static_cast<unsigned long long>(r.petit_or),
                  r.completed_or ? " " : "!", r.lower_bound, r.ratio,
                  static_cast<unsigned long long>(r.desperation), static_cast<unsigned long long>(r.bit_times),
                  100.0 * r.utilization, static_cast<unsigned long long>(r.petit_one),
                  r.completed_one || r.petit_one == 0 ? " " : "!", r.slowdown);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "model speed: %.3g messages/s, %.3g hops/s (%llu messages, %llu hops, %.3f s)\n",
                f.messages_per_second, f.hops_per_second, static_cast<unsigned long long>(f.messages),
                static_cast<unsigned long long>(f.hops), f.seconds);
  out += buf;
  if (std::any_of(f.rows.begin(), f.rows.end(),
                  [](const Cm1Fig12Row& r) { return !r.completed_or || (r.petit_one && !r.completed_one); })) {
    out += "! = did not complete within max_petit\n";
  }
  return out;
}

}  // namespace cmnet

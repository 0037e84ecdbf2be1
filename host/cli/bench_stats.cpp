#include "host/cli/bench_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace cmnet::bench {

using json = nlohmann::ordered_json;

namespace {

std::string format(const char* fmt, double v) {
  char b[64];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

}  // namespace

Spread Spread::of(const std::vector<uint64_t>& seeds, const std::vector<double>& values) {
  if (values.empty() || seeds.size() != values.size())
    throw std::invalid_argument("bench::Spread: one value per seed, at least one");
  Spread s;
  s.seeds = seeds;
  s.values = values;
  const double n = static_cast<double>(values.size());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double ss = 0;
  for (double v : values) ss += (v - s.mean) * (v - s.mean);
  s.stddev = values.size() > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
  return s;
}

std::string Spread::str(const char* fmt) const {
  return format(fmt, mean) + " [" + format(fmt, min) + ", " + format(fmt, max) + "]";
}

json Spread::to_json() const {
  return {{"seeds", seeds}, {"values", values}, {"mean", mean}, {"min", min},
          {"max", max},     {"spread", range()}, {"stddev", stddev}};
}

bool is_steady(const Spread& shorter, const Spread& longer, double rel_tol) {
  // The longer window's spread decides (bench_stats.h): a short window's wide one would hide a drift.
  const double moved = std::fabs(longer.mean - shorter.mean);
  return moved <= longer.range() || moved <= rel_tol * std::fabs(longer.mean);
}

std::string SteadyFigure::str(const char* fmt) const {
  return figure.str(fmt) + ", " + std::to_string(figure.seeds.size()) + " seeds, window " + std::to_string(window) +
         " " + window_unit + " (" + std::to_string(shorter_window) + ": " + format(fmt, shorter.mean) + "), " +
         (steady ? "steady" : "NOT steady");
}

json SteadyFigure::to_json() const {
  json j = figure.to_json();
  j["load"] = load;
  j["window"] = window;
  j["window_unit"] = window_unit;
  j["shorter_window"] = shorter_window;
  j["shorter_mean"] = shorter.mean;
  j["shorter_spread"] = shorter.range();
  j["moved"] = moved();
  j["steady"] = steady;
  return j;
}

SteadyFigure measure_steady(const Measure& f, const SteadyOptions& o) {
  if (o.seeds.size() < 3) throw std::invalid_argument("bench::measure_steady: at least three seeds");
  if (o.window == 0) throw std::invalid_argument("bench::measure_steady: a window of at least 1");
  auto at = [&](uint64_t w) {
    std::vector<double> v;
    for (uint64_t s : o.seeds) v.push_back(f(s, w));
    const Spread sp = Spread::of(o.seeds, v);
    if (!o.progress.empty()) {
      std::fprintf(stderr, "   [%s: window %llu %s: %s]\n", o.progress.c_str(), static_cast<unsigned long long>(w),
                   o.window_unit.c_str(), sp.str("%.4g").c_str());
      std::fflush(stderr);
    }
    return sp;
  };
  SteadyFigure r;
  r.load = o.load;
  r.window_unit = o.window_unit;
  r.shorter_window = o.window;
  r.shorter = at(o.window);
  r.window = 2 * o.window;
  r.figure = at(r.window);
  r.steady = is_steady(r.shorter, r.figure, o.rel_tol);
  for (int k = 1; !r.steady && k < o.max_doublings; ++k) {
    r.shorter_window = r.window;
    r.shorter = r.figure;
    r.window *= 2;
    r.figure = at(r.window);
    r.steady = is_steady(r.shorter, r.figure, o.rel_tol);
  }
  return r;
}

std::pair<double, double> wilson95(uint64_t events, uint64_t trials) {
  if (trials == 0) return {0, 1};
  const double z = 1.96, n = static_cast<double>(trials), p = static_cast<double>(events) / n;
  const double den = 1 + z * z / n, c = (p + z * z / (2 * n)) / den;
  const double h = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den;
  return {std::max(0.0, c - h), std::min(1.0, c + h)};
}

}  // namespace cmnet::bench

// A figure a user can trust, the one way every family's bench measures it: the mean over at
// least three seeds, with its spread, at a stated load, in a window long enough that a longer
// one changes nothing. measure_steady runs the figure for every seed at a window W and at 2W
// (doubling again, up to a limit, while the longer window still moves the mean) and reports
// the longest window's figure beside the shorter one's, and whether it is steady.
//
// Steady: the longer window's mean moved from the shorter one's by no more than the longer
// window's spread over the seeds (its max - min), or by no more than rel_tol of it (seeds that
// all give the same value have no spread). The shorter window's spread does not count: a short
// window's wide spread would hide a drift (cm5data's 8 slots at 64 leaves: 0.944 [0.926, 0.957]
// at 4,500 cycles, 0.921 [0.920, 0.924] at 9,000). A figure that is not steady says so; the bench prints it
// as it is (beyond saturation a mean time grows with the run: that is not a figure).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace cmnet::bench {

// One figure over seeds: mean, min, max and the sample standard deviation.
struct Spread {
  std::vector<uint64_t> seeds;
  std::vector<double> values;  // values[i] for seeds[i]
  double mean = 0, min = 0, max = 0, stddev = 0;

  static Spread of(const std::vector<uint64_t>& seeds, const std::vector<double>& values);
  double range() const { return max - min; }
  // "0.905 [0.893, 0.917]": mean [min, max]; `fmt` formats each number.
  std::string str(const char* fmt = "%.3f") const;
  nlohmann::ordered_json to_json() const;
};

// Does the longer window's figure agree with the shorter one's (the rule above)?
bool is_steady(const Spread& shorter, const Spread& longer, double rel_tol);

// The figure at the given seed and window (the window's unit is the bench's: cycles, requests,
// messages per node).
using Measure = std::function<double(uint64_t seed, uint64_t window)>;

struct SteadyOptions {
  std::vector<uint64_t> seeds = {7, 8, 9};
  uint64_t window = 0;      // the first (shorter) window
  int max_doublings = 1;    // 1: W and 2W; k: up to 2^k W while the mean still moves
  double rel_tol = 0.01;    // a relative move this small is steady whatever the spread
  std::string load;         // the stated load, e.g. "1.25 of the bound"
  std::string window_unit;  // e.g. "cycles"
  std::string progress;     // non-empty: a line on stderr per window, naming this figure
};

struct SteadyFigure {
  std::string load, window_unit;
  uint64_t window = 0;          // the window of `figure` (the longest run)
  Spread figure;
  uint64_t shorter_window = 0;  // window / 2
  Spread shorter;
  bool steady = false;

  double moved() const { return figure.mean - shorter.mean; }
  // "0.905 [0.893, 0.917], 3 seeds, window 9000 cycles (4500: 0.912), steady"
  std::string str(const char* fmt = "%.3f") const;
  nlohmann::ordered_json to_json() const;
};

SteadyFigure measure_steady(const Measure& f, const SteadyOptions& o);

// The 95% Wilson score interval of `events` in `trials` ({0, 1} for no trials): a rate's bound
// when it was seen 0 times.
std::pair<double, double> wilson95(uint64_t events, uint64_t trials);

}  // namespace cmnet::bench

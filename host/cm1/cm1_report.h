// The report of a CM-1 run (host/run_report.h filled for the CM-1 family): the board's counters
// beside the model's, conservation per region, per-link, per-chip and per-endpoint tables, and
// the plots (link utilization heat map, utilization per dimension, delivery histogram).
// `cmnet run` (host/cli/cm1/cm1_run.cpp) writes it; tests can build it from any BoardRun.
#pragma once

#include <string>

#include "host/cm1/cm1_runner.h"
#include "host/run_report.h"

namespace cmnet {

struct Cm1RunDescription {
  std::string what;          // the pattern, traffic file or on-chip generator
  std::string uri;           // the board
  uint64_t seed = 0;
  size_t messages = 0;       // messages offered
  EjectMode mode = EjectMode::kOrCombine;
  std::string link_stats;    // "; link: N requests, M retries" or ""
};

RunReport cm1_run_report(const Cm1Config& cfg, const Cm1RunDescription& d, const BoardRun& r);

// `cmnet sweep`: offered load (messages per processor, 1 .. the queue depth) against accepted
// throughput and delivery time on a connected board, every point checked against the model;
// prints a table, writes sweep.json, sweep.svg and sweep_latency.svg into out_dir. True when
// every point agrees and conserves.
struct Cm1SweepOptions {
  std::string pattern = "permutation";
  uint64_t seed = 1;
  int max_per_proc = 64;
  double timeout_s = 300;
  EjectMode mode = EjectMode::kOrCombine;
  std::string out_dir = "out/sweep";
};
bool run_cm1_sweep(const Cm1Config& cfg, Connection& conn, const Cm1SweepOptions& opt);

// The plots of a run.
std::string cm1_utilization_svg(const Cm1Config& cfg, const std::vector<Cm1ChipCounters>& chips, uint64_t bit_times);
std::string cm1_dimensions_svg(const Cm1Config& cfg, const std::vector<Cm1ChipCounters>& chips, uint64_t bit_times);
std::string cm1_histogram_svg(const Cm1Config& cfg, const std::array<uint32_t, 16>& h);

}  // namespace cmnet

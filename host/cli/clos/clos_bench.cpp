// `cmnet bench` for the Clos family: CONNECT's figures (Li and Rishe 1991), measured on the
// off-line router, the set-up model and the emitted switch. Prints tables, writes JSON.
//   - the off-line router on random permutations of the paper's N(32, 32, 32) (N = 1,024);
//   - blocking probability of N(32, 32, 32) under random connections (paper: < 1e-4) and the
//     race rate (paper: < 1e-3), on the set-up model with the paper's 960 active leaves (30 per
//     switch), 32 hnodes, transputer-class timing, at three loads, with 95% Wilson intervals;
//   - set-up latency (hops, microseconds) against N;
//   - the N(4, 4, 4) switch (8-bit circuits) through yosys synth_ice40: LUTs and flip-flops; the
//     switch with its controllers (clos_switched) placed on the HX8K by nextpnr: logic cells, Fmax.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <regex>
#include <sstream>

#include "bitstreams/flow.h"
#include "host/cli/bench_stats.h"
#include "host/cli/clos/clos_family.h"
#include "gen/clos/clos_emitter.h"
#include "gen/clos/clos_router.h"
#include "gen/core/errors.h"
#include "gen/core/process.h"
#include "sim/clos/clos_eval.h"
#include "sim/clos/clos_setup_model.h"
#include "sim/clos/clos_tree.h"

namespace cmnet {
namespace {

using json = nlohmann::ordered_json;

struct Rate {
  uint64_t x = 0, n = 0;
  double p() const { return n ? static_cast<double>(x) / static_cast<double>(n) : 0.0; }
  std::pair<double, double> ci() const { return bench::wilson95(x, n); }
  json to_json() const { return {{"events", x}, {"trials", n}, {"rate", p()}, {"ci95", {ci().first, ci().second}}}; }
  std::string str() const {
    char b[96];
    std::snprintf(b, sizeof b, "%.2e [%.1e, %.1e]", p(), ci().first, ci().second);
    return b;
  }
};

double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}
double pct(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

ClosParams paper_net() {
  ClosParams p;
  p.m = p.n = p.r = 32;
  p.width = 1;
  p.hnode_dims = 5;
  p.cancel_limit = 3;
  return p;
}

json bench_router(bool quick) {
  const ClosParams p = paper_net();
  const int perms = quick ? 10 : 100;
  std::mt19937_64 rng(1);
  std::vector<int> dest(static_cast<size_t>(p.ports()));
  int ok = 0;
  double secs = 0;
  for (int k = 0; k < perms; ++k) {
    std::iota(dest.begin(), dest.end(), 0);
    std::shuffle(dest.begin(), dest.end(), rng);
    const auto t0 = std::chrono::steady_clock::now();
    const auto circuits = route_permutation(p, dest);
    secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const ClosTrace t = trace(p, settings_of(p, circuits));
    ok += (t.error.empty() && t.reached == dest) ? 1 : 0;
  }
  std::printf("== off-line router (edge colouring), %s, N = %d\n", clos_name(p).c_str(), p.ports());
  std::printf("   random permutations routed and traced: %d of %d; %.0f us per permutation\n", ok, perms,
              1e6 * secs / perms);
  // The Benes network of the same N: the looping algorithm recursively, 19 stages of 2 x 2 switches.
  int benes_ok = 0;
  double benes_secs = 0;
  for (int k = 0; k < perms; ++k) {
    std::iota(dest.begin(), dest.end(), 0);
    std::shuffle(dest.begin(), dest.end(), rng);
    const auto t0 = std::chrono::steady_clock::now();
    const BenesSettings b = route_benes(dest);
    benes_secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    benes_ok += trace_benes(b) == dest ? 1 : 0;
  }
  std::printf("   Benes network of %d ports (19 stages of 2 x 2): %d of %d routed and traced; %.0f us per permutation\n",
              p.ports(), benes_ok, perms, 1e6 * benes_secs / perms);
  std::printf("   paper: m >= n routes every pairing (Benes 1962); m = n = 32 here\n\n");
  return {{"network", clos_name(p)}, {"permutations", perms}, {"routed_and_traced", ok}, {"us_per_permutation", 1e6 * secs / perms},
          {"benes_routed_and_traced", benes_ok}, {"benes_us_per_permutation", 1e6 * benes_secs / perms}};
}

// The paper's traffic (its evaluation): long messages (> 100 bytes, 40% of all, exponential,
// mean 3,000 bytes) take circuits; a circuit carries 0.8 MB/s x 0.83 (the bus contention
// factor) = 0.664 MB/s, so it is held 3,000 / 0.664 = 4,518 us on average.
constexpr double kLongBytes = 3000, kCircuitMBs = 0.8 * 0.83, kHoldUs = kLongBytes / kCircuitMBs;

struct SetupRow {
  const char* variant;
  ClosSetupStats s;
};

json setup_row_json(const ClosSetupStats& s) {
  const Rate blocking{s.blocked, s.selections}, truly{s.truly_blocked, s.selections},
      race_fresh{s.requests_raced_fresh, s.ready}, raced{s.requests_raced, s.ready}, per_co{s.cancels, s.cos},
      outst{s.crs_sent_while_outstanding, s.crs_sent};
  return {{"mean_circuits", s.mean_circuits}, {"max_circuits", s.max_circuits}, {"connections", s.ready},
          {"race_paper", race_fresh.to_json()}, {"raced_connections", raced.to_json()}, {"cancel_per_co", per_co.to_json()},
          {"cancels_after_wait", s.cancels_after_wait}, {"cancels_retry", s.cancels_retry},
          {"cancels_paper_race", s.cancels - s.cancels_after_wait - s.cancels_retry},
          {"cr_sent_while_outstanding", outst.to_json()}, {"blocking", blocking.to_json()}, {"truly_blocked", truly.to_json()},
          {"resends", s.resends}, {"wait_resends", s.wait_resends}, {"waited", s.waited},
          {"mean_latency_us", mean(s.latency_us)}, {"p99_latency_us", pct(s.latency_us, 0.99)},
          {"cube_hops_per_connection", s.ready ? static_cast<double>(s.cube_hops) / static_cast<double>(s.ready) : 0.0}};
}

void print_setup_row(const char* load, const char* variant, const ClosSetupStats& s) {
  const Rate blocking{s.blocked, s.selections}, race_fresh{s.requests_raced_fresh, s.ready}, raced{s.requests_raced, s.ready};
  const uint64_t paper = s.cancels - s.cancels_after_wait - s.cancels_retry;
  std::printf("   %-14s %-26s %8.1f %8llu %26s %26s %6llu %6llu %6llu %6.2f %26s %9.2f\n", load, variant, s.mean_circuits,
              static_cast<unsigned long long>(s.ready), race_fresh.str().c_str(), raced.str().c_str(),
              static_cast<unsigned long long>(s.cancels_after_wait), static_cast<unsigned long long>(s.cancels_retry),
              static_cast<unsigned long long>(paper),
              s.crs_sent ? static_cast<double>(s.crs_sent_while_outstanding) / static_cast<double>(s.crs_sent) : 0.0,
              blocking.str().c_str(), s.ready ? static_cast<double>(s.cube_hops) / static_cast<double>(s.ready) : 0.0);
}

json bench_setup(bool quick) {
  const ClosParams p = paper_net();
  std::printf("== race and blocking: the parallel set-up model, %s, 32 hnodes (5-cube), 30 active leaves per switch "
              "(960), hop 50 us, handling 30 us, %d tree hops\n", clos_name(p).c_str(), ClosTree(ClosTreeShape{}).depth());
  std::printf("   race (paper) = connections whose first CO, from a CR that went straight to its selection, was "
              "CANCELed:\n   the paper's race (\"a connection request previously sent from h_o which has not been "
              "acknowledged\");\n   CANCELs are split by cause: 'wait' = the CR waited in the destination's WaitingQueue "
              "(its InputVector\n   is as old as the wait), 'retry' = a re-selection after a CANCEL, 'race' = the paper's; "
              "'outst' = CRs sent\n   while another CR of the same input switch was unacknowledged (the race's "
              "precondition)\n");
  std::printf("   %-14s %-26s %8s %8s %26s %26s %6s %6s %6s %6s %26s %9s\n", "load", "protocol", "circuits", "conns",
              "race (paper) per conn", "any CANCEL per conn", "wait", "retry", "race", "outst", "blocking (h_d: none free)",
              "cube hops");
  json rows = json::array();
  const uint64_t requests = quick ? 20000 : 100000;
  Rate pooled;  // blocking over every row: no selection blocked anywhere
  uint64_t most_circuits = 0;  // the most circuits up at once in any row: the occupancy it was measured at
  auto base = [&] {
    ClosSetupOptions o;
    o.requests = requests;
    o.active_per_switch = 30;
    o.seed = 7;
    o.full_trace_every = 5000;
    o.tree_hops = ClosTree(ClosTreeShape{}).depth();
    return o;
  };
  // What the earlier bench measured: closed loop (a leaf asks again a think time after its
  // circuit is gone), hold 4 ms, the protocol as read.
  for (double think : {16000.0, 4000.0, 0.0}) {
    ClosSetupOptions o = base();
    o.think_us = think;
    o.hold_us = 4000;
    const ClosSetupStats s = run_clos_setup(p, o);
    if (!s.error.empty() || s.deadlock) throw InputError("clos bench: set-up model failed: " + s.error);
    pooled.x += s.blocked;
    pooled.n += s.selections;
    most_circuits = std::max(most_circuits, s.max_circuits);
    char load[32];
    std::snprintf(load, sizeof load, "think %.0f ms", think / 1000);
    print_setup_row(load, "as read (closed loop)", s);
    json j = setup_row_json(s);
    j["arrivals"] = "closed";
    j["think_us"] = think;
    j["protocol"] = "as read";
    rows.push_back(j);
  }
  // The paper's conditions: Poisson messages per data processor, uniform destinations, circuits
  // for the long ones (mean hold kHoldUs); offered circuit load in MB/s.
  struct Variant {
    const char* name;
    bool resend;
    ClosSelectStart start;
  };
  const Variant variants[] = {{"as read", false, ClosSelectStart::kDest},
                              {"+ RESEND after a wait", true, ClosSelectStart::kDest},
                              {"+ Latin-square start", true, ClosSelectStart::kPair},
                              {"+ nearest h_m", true, ClosSelectStart::kNearest}};
  for (double mbs : {24.0, 48.0, 96.0}) {
    for (const Variant& v : variants) {
      ClosSetupOptions o = base();
      o.open_loop = true;
      o.interarrival_us = 960 * kLongBytes / mbs;  // bytes / (MB/s) = us
      o.hold_us = kHoldUs;
      o.resend_after_wait = v.resend;
      o.select = v.start;
      const ClosSetupStats s = run_clos_setup(p, o);
      if (!s.error.empty() || s.deadlock) throw InputError("clos bench: set-up model failed: " + s.error);
      pooled.x += s.blocked;
      pooled.n += s.selections;
      most_circuits = std::max(most_circuits, s.max_circuits);
      char load[32];
      std::snprintf(load, sizeof load, "%.0f MB/s", mbs);
      print_setup_row(load, v.name, s);
      json j = setup_row_json(s);
      j["arrivals"] = "open";
      j["offered_mb_per_s"] = mbs;
      j["interarrival_us"] = o.interarrival_us;
      j["hold_us"] = o.hold_us;
      j["protocol"] = v.name;
      rows.push_back(j);
    }
  }
  std::printf("   blocking, every row pooled: %s of %llu selections, at no more than %llu circuits up (%.2f of the 960\n"
              "   active ports; the curve against occupancy below goes to full)\n", pooled.str().c_str(),
              static_cast<unsigned long long>(pooled.n), static_cast<unsigned long long>(most_circuits),
              static_cast<double>(most_circuits) / 960.0);
  std::printf("   paper: blocking < 1e-4 (N(32, 32, 32), random connections); race < 1e-3 (\"with the assumed "
              "communication pattern\")\n");
  std::printf("   (rates: events / trials, 95%% Wilson interval. Open loop: each of the 960 leaves sends messages "
              "needing a\n   circuit as a Poisson process, one circuit at a time, hold %.0f us = 3,000 bytes at 0.8 "
              "MB/s x 0.83;\n   'MB/s' = offered circuit traffic. '+ RESEND after a wait': h_d RESENDs a CR that "
              "waited for the leaf;\n   '+ Latin-square start': h_d's search starts at (input switch + output switch) "
              "mod m, not at h_d;\n   '+ nearest h_m': of the free middle switches one whose hnode makes h_d -> h_m -> h_o shortest, ties in\n   the Latin-square order; 'cube hops' = hypercube hops of all control messages per connection)\n\n", kHoldUs);
  rows.push_back({{"blocking_pooled", pooled.to_json()}, {"most_circuits", most_circuits},
                  {"most_occupancy", static_cast<double>(most_circuits) / 960.0}});
  return rows;
}

// The paper's evaluation (its Figures 11 and 12 and the static circuit count) on the models.
json bench_eval(bool quick) {
  std::printf("== the paper's evaluation re-run: 960 data processors (32 trees of 30, Figure 10), 256 communication\n"
              "   processors, N(32, 32, 32), links 0.8 MB/s x 0.83, CPU routing uniform 0..60 us, Poisson messages,\n"
              "   60%% log-normal < 100 bytes (mean 50), 40%% 100 + exponential (mean 3,000), uniform destinations;\n"
              "   long messages take circuits (the set-up model), short ones the trees and the hypercube\n");
  // Static: pairs of processors linked at once (paper: 240 to 480 pairs, 384 to 768 MB/s at 1.6 MB/s a pair).
  const ClosParams p = paper_net();
  std::vector<int> pairing(static_cast<size_t>(p.ports()), -1);
  std::vector<int> procs;
  for (int sw = 0; sw < p.r; ++sw)
    for (int k = 0; k < 30; ++k) procs.push_back(sw * p.n + k);
  std::mt19937_64 rng(3);
  std::shuffle(procs.begin(), procs.end(), rng);
  for (size_t i = 0; i + 1 < procs.size(); i += 2) {
    pairing[static_cast<size_t>(procs[i])] = procs[i + 1];
    pairing[static_cast<size_t>(procs[i + 1])] = procs[i];
  }
  const auto routed = route_permutation(p, pairing);
  const ClosTrace tr = trace(p, settings_of(p, routed));
  const bool all = tr.error.empty() && tr.reached == pairing;
  const std::vector<int> dyn = clos_dynamic_pairs(quick ? 5 : 50, 11);
  const int dmin = *std::min_element(dyn.begin(), dyn.end()), dmax = *std::max_element(dyn.begin(), dyn.end());
  const double dmean = std::accumulate(dyn.begin(), dyn.end(), 0.0) / static_cast<double>(dyn.size());
  std::printf("   pairs talking at once: off-line router %d of 480 (%s); set up one by one in random order, first fit\n"
              "   from h_d's switch, no rearranging: %d to %d (mean %.1f) over %zu orders = %.0f to %.0f MB/s\n"
              "   paper: 240 to 480 pairs (384 to 768 MB/s)\n",
              all ? 480 : 0, all ? "every pairing routes: m = n" : "FAILED", dmin, dmax, dmean, dyn.size(), dmin * 1.6,
              dmax * 1.6);
  json stat = {{"router_pairs", all ? 480 : 0}, {"dynamic_pairs_min", dmin}, {"dynamic_pairs_max", dmax},
               {"dynamic_pairs_mean", dmean}, {"paper_pairs", {240, 480}}};
  std::printf("   %9s | %-54s | %-38s\n", "", "CONNECT", "10-cube, store-and-forward (17% CPU load)");
  std::printf("   %9s | %8s %9s %9s %9s %6s %9s | %9s %9s %6s %10s\n", "load MB/s", "long MB/s", "circuits", "long us",
              "short us", "corr", "MSE us2", "long us", "short us", "corr", "MSE us2");
  json rows = json::array();
  const std::vector<double> loads = quick ? std::vector<double>{20, 100, 120} : std::vector<double>{20, 60, 100, 120, 140, 170, 200};
  ClosEvalResult c120, h120;
  for (double load : loads) {
    ClosEvalOptions o;
    o.load_mb_s = load;
    o.sim_us = quick ? 150000 : 400000;
    o.warmup_us = o.sim_us / 8;
    o.seed = 5;
    const ClosEvalResult c = run_connect_eval(o);
    const ClosEvalResult h = run_hypercube_eval(o);
    if (load == 120) c120 = c, h120 = h;
    std::printf("   %9.0f | %9.1f %9.1f %9.0f %9.0f %6.3f %9.0f | %9.0f %9.0f %6.3f %10.0f\n", load, c.long_mb_s, c.mean_circuits,
                c.long_delivery_us, c.short_delivery_us, c.short_size_delay_corr, c.short_mse_us2, h.long_delivery_us,
                h.short_delivery_us, h.short_size_delay_corr, h.short_mse_us2);
    rows.push_back({{"load_mb_s", load},
                    {"connect", {{"long_mb_s", c.long_mb_s}, {"mean_circuits", c.mean_circuits}, {"long_delivery_us", c.long_delivery_us},
                                 {"short_delivery_us", c.short_delivery_us}, {"short_corr", c.short_size_delay_corr},
                                 {"short_mse_us2", c.short_mse_us2}, {"long_msgs", c.long_msgs}, {"short_msgs", c.short_msgs}}},
                    {"hypercube", {{"long_delivery_us", h.long_delivery_us}, {"short_delivery_us", h.short_delivery_us},
                                   {"short_corr", h.short_size_delay_corr}, {"short_mse_us2", h.short_mse_us2}}}});
  }
  auto less = [](double a, double b) { return b > 0 ? 100.0 * (1 - a / b) : 0.0; };
  std::printf("   paper: long delivery climbs past 170 MB/s, practical limit 200 MB/s; short 900 to 970 us from a few to\n"
              "   200 MB/s, corr 0.97, MSE 28,816 us2 (hypercube 1,789,561); at 120 MB/s CONNECT 40%% less than the\n"
              "   hypercube for long messages, 21%% less for short\n");
  std::printf("   here at 120 MB/s: CONNECT %.0f%% less for long messages, %.0f%% less for short; MSE ratio %.0f\n",
              less(c120.long_delivery_us, h120.long_delivery_us), less(c120.short_delivery_us, h120.short_delivery_us),
              c120.short_mse_us2 > 0 ? h120.short_mse_us2 / c120.short_mse_us2 : 0.0);
  std::printf("   ('long MB/s' = carried by circuits over the run, drain included: below the offered long share, 97.6%%\n"
              "   of the bytes, the circuits saturate; 'circuits' = mean established; delivery = generated -> last\n"
              "   byte; the hypercube stores and forwards whole messages, as the paper says)\n\n");
  return {{"static", stat}, {"loads", rows},
          {"at_120", {{"long_less_pct", less(c120.long_delivery_us, h120.long_delivery_us)},
                      {"short_less_pct", less(c120.short_delivery_us, h120.short_delivery_us)}}},
          {"paper", {{"knee_mb_s", 170}, {"limit_mb_s", 200}, {"short_us", {900, 970}}, {"short_corr", 0.97},
                     {"mse_connect", 28816}, {"mse_hypercube", 1789561}, {"long_less_pct", 40}, {"short_less_pct", 21}}}};
}

// Why the long messages saturate near 100 MB/s (paper: knee 170, limit 200 MB/s): the same
// evaluation with one thing changed at a time, and where the time goes in each.
json bench_knee(bool quick) {
  std::printf("== the throughput knee, measured: the evaluation above with one assumption changed at a time\n");
  std::printf("   %-34s %6s | %9s %8s %9s %9s | %6s %6s | %6s %6s | %7s\n", "variant", "load", "long MB/s", "circuits",
              "long us", "set-up us", "leaf", "data", "hnode", "max", "s-links");
  struct Variant {
    const char* name;
    bool two_cubes, duplex;
    double mb_s, scale;
  };
  const Variant vs[] = {{"as built (two hypercubes)", true, false, 0.8 * 0.83, 1},
                        {"one hypercube (no split)", false, false, 0.8 * 0.83, 1},
                        {"near-instant set-up (x 0.01)", true, false, 0.8 * 0.83, 0.01},
                        {"circuits at 0.8 MB/s", true, false, 0.8, 1},
                        {"a busy bit per c-link (duplex)", true, true, 0.8 * 0.83, 1}};
  json rows = json::array();
  auto row = [&](const Variant& v, double load) {
    ClosEvalOptions o;
    o.load_mb_s = load;
    o.sim_us = quick ? 150000 : 400000;
    o.warmup_us = o.sim_us / 8;
    o.seed = 5;
    o.two_hypercubes = v.two_cubes;
    o.duplex_leaves = v.duplex;
    o.circuit_mb_s = v.mb_s;
    o.control_scale = v.scale;
    const ClosEvalResult c = run_connect_eval(o);
    std::printf("   %-34s %6.0f | %9.1f %8.1f %9.0f %9.0f | %6.2f %6.2f | %6.2f %6.2f | %7.3f\n", v.name, load, c.long_mb_s,
                c.mean_circuits, c.long_delivery_us, c.setup_latency_us, c.leaf_busy, c.leaf_data, c.hnode_util,
                c.hnode_util_max, c.s_link_util);
    rows.push_back({{"variant", v.name}, {"load_mb_s", load}, {"long_mb_s", c.long_mb_s}, {"mean_circuits", c.mean_circuits},
                    {"long_delivery_us", c.long_delivery_us}, {"setup_latency_us", c.setup_latency_us},
                    {"leaf_busy", c.leaf_busy}, {"leaf_data", c.leaf_data}, {"hnode_util", c.hnode_util},
                    {"hnode_util_max", c.hnode_util_max}, {"s_link_util", c.s_link_util}});
  };
  for (double load : quick ? std::vector<double>{200} : std::vector<double>{100, 200})
    for (const Variant& v : vs) row(v, load);
  std::printf("   the duplex leaves' curve:\n");
  for (double load : quick ? std::vector<double>{120, 280} : std::vector<double>{60, 120, 140, 170, 240, 280})
    row(vs[4], load);
  std::printf("   ('leaf' = share of the leaves' time (sides' with duplex) their busy bit is held, 'data' = of it carrying\n"
              "   data; 'hnode' = control hnodes' CPU, mean and busiest; 's-links' = share in circuits; set-up = CSR ->\n"
              "   READY, waits for a busy leaf included. One hypercube: the hnodes also route the short messages,\n"
              "   jobs of 0..60 us at the rate their routes cross each hnode. Duplex: a leaf may send over one circuit\n"
              "   while it receives over another, as the paper's 1.6 MB/s per talking pair implies)\n\n");
  return {{"rows", rows}, {"paper", {{"knee_mb_s", 170}, {"limit_mb_s", 200}}}};
}

json bench_latency(bool quick) {
  std::printf("== set-up latency against N (N(32, 32, r), one hnode per switch pair, 32 active leaves per switch, light load: think 40 ms, hold 4 ms)\n");
  std::printf("   %6s %6s %8s %14s %16s %14s %14s\n", "N", "hnodes", "network", "hops (direct)", "latency (direct)",
              "latency (all)", "p99 (all)");
  json rows = json::array();
  for (int dims = 1; dims <= 5; ++dims) {
    ClosParams p = paper_net();
    p.r = 1 << dims;
    p.hnode_dims = dims;
    ClosSetupOptions o;
    o.requests = quick ? 3000 : 20000;
    o.think_us = 40000;
    o.hold_us = 4000;
    o.seed = 3;
    o.full_trace_every = 1000;
    o.tree_hops = ClosTree(ClosTreeShape{}).depth();
    const ClosSetupStats s = run_clos_setup(p, o);
    std::vector<double> hops(s.direct_hops.begin(), s.direct_hops.end());
    std::printf("   %6d %6d %8s %14.2f %13.0f us %11.0f us %11.0f us\n", p.ports(), p.hnodes(),
                clos_name(p).c_str(), mean(hops), mean(s.direct_latency_us), mean(s.latency_us), pct(s.latency_us, 0.99));
    rows.push_back({{"N", p.ports()}, {"network", clos_name(p)}, {"hnodes", p.hnodes()}, {"direct_hops", mean(hops)},
                    {"direct_latency_us", mean(s.direct_latency_us)}, {"latency_us", mean(s.latency_us)},
                    {"p99_latency_us", pct(s.latency_us, 0.99)}, {"error", s.error}});
  }
  std::printf("   hops: CSR and READY through the subtree (%d hops each: the paper's tree, sim/clos/clos_tree.h) plus\n"
              "   CR, CO, ACK over the hypercube;\n", ClosTree(ClosTreeShape{}).depth());
  std::printf("   one hop = 50 us, each of the 4 handlings 30 us (transputer-class, the paper's assumptions)\n\n");
  return rows;
}

// LUTs and flip-flops of a design after yosys synth_ice40 (the flow's synthesis-only step);
// {-1, -1} when yosys fails.
std::pair<int, int> ice40_cells(const GeneratedDesign& d) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cmnet-clos-bench-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  try {
    const auto cells = synth_cells(d, d.top, "synth_ice40", dir.string());
    fs::remove_all(dir);
    return {static_cast<int>(count_cells(cells, "SB_LUT4")), static_cast<int>(count_cells(cells, "SB_DFF"))};
  } catch (const FlowError&) {
    fs::remove_all(dir);
    return {-1, -1};
  }
}

json bench_fpga() {
  ClosConfig c;
  c.clos.m = c.clos.n = c.clos.r = 4;
  c.clos.width = 8;
  c.clos.hnode_dims = 2;
  const auto sw = ice40_cells(emit_clos(c));
  const auto hn = ice40_cells(emit_clos_hnode(c));
  const auto lf = ice40_cells(emit_clos_leaf_status(c, 12, 4));
  std::printf("== N(4, 4, 4), 8-bit circuits, 4 hnodes, yosys synth_ice40 (SB_LUT4, flip-flops)\n");
  std::printf("   the switch (12 crossbars):                      %5d LUTs %5d FFs (select registers: %d outputs x %d bits)\n",
              sw.first, sw.second, c.clos.cfg_entries(), c.clos.cfg_sel_bits() + 1);
  std::printf("   one hnode's switch status (vectors, RelayTable): %5d LUTs %5d FFs\n", hn.first, hn.second);
  std::printf("   one hnode's leaf status (4 leaves, 16-deep WaitingQueues, 12-bit request numbers): %d LUTs %d FFs\n",
              lf.first, lf.second);
  const auto ctrl = ice40_cells(emit_clos_ctrl(c));
  std::printf("   the 4 hnodes' message engines on their 2-cube (each with its switch and leaf status): %d LUTs %d FFs\n",
              ctrl.first, ctrl.second);
  // The switch with its controllers, placed and routed alone on the HX8K (bitstreams/flow.h: a
  // module with more port bits than pins is wrapped: its ports come from a shift chain and fold
  // into registers, so nothing is optimised away). Two hnodes (a 1-cube): with four the engines
  // and an 8-bit switch take more logic cells than the HX8K has (8,482 of 7,680 measured).
  json placed = json::array();
  struct Place {
    int width;
    bool options;
  };
  for (const Place& pl : {Place{1, false}, Place{1, true}, Place{8, false}}) {
    const std::string what = std::to_string(pl.width) + "-bit circuits" + (pl.width == 1 ? " (serial, the paper's)" : "") +
                             ", 2 hnodes, " + (pl.options ? "pair start + RESEND after a wait" : "reference engines");
    namespace fs = std::filesystem;
    ModulePlaceOptions po;
    po.dir = (fs::temp_directory_path() / ("cmnet-clos-place-" + std::to_string(::getpid()))).string();
    po.freq_mhz = 12;  // the boards' clock (met or not, Fmax is nextpnr's)
    fs::remove_all(po.dir);
    try {
      const PlaceableModule mod = clos_switched_placeable(pl.width, pl.options);
      const ModulePlacement m = place_module_ice40(mod.design, mod.top, po);
      std::printf("   the switch with its controllers (clos_switched), %s, on the HX8K: %ld LUTs %ld FFs,\n"
                  "      %ld of %ld logic cells%s, Fmax %.1f MHz (nextpnr-ice40, seed %d)\n",
                  what.c_str(), m.luts, m.ffs, m.logic_cells, m.logic_cells_available,
                  m.wrapped ? " (wrapped: ports on a shift chain)" : "", m.fmax_mhz, po.seed);
      placed.push_back({{"what", what}, {"width", pl.width}, {"hnodes", 2}, {"options", pl.options}, {"luts", m.luts},
                        {"flip_flops", m.ffs}, {"logic_cells", m.logic_cells},
                        {"logic_cells_available", m.logic_cells_available}, {"wrapped", m.wrapped}, {"fmax_mhz", m.fmax_mhz}});
    } catch (const FlowError& e) {
      std::printf("   the switch with its controllers, %s: place and route failed: %s\n", what.c_str(), e.what());
      placed.push_back({{"what", what}, {"error", e.what()}});
    }
    fs::remove_all(po.dir);
  }
  std::printf("\n");
  return {{"network", clos_name(c.clos)}, {"width", c.clos.width},
          {"switch", {{"luts", sw.first}, {"flip_flops", sw.second}}},
          {"hnode_switch_status", {{"luts", hn.first}, {"flip_flops", hn.second}}},
          {"hnode_leaf_status", {{"luts", lf.first}, {"flip_flops", lf.second}}},
          {"hnode_engines", {{"luts", ctrl.first}, {"flip_flops", ctrl.second}}},
          {"switch_with_controllers_hx8k", placed}};
}

}  // namespace

PlaceableModule clos_switched_placeable(int width, bool options) {
  ClosConfig k;
  k.clos.m = k.clos.n = k.clos.r = 4;
  k.clos.width = width;
  k.clos.hnode_dims = 1;
  k.clos.select_pair = k.clos.resend_after_wait = options;
  return {emit_clos_switched(k), "clos_switched", "", {}};
}

int clos_bench(const BenchArgs& a) {
  const std::string path = a.json.empty() ? "out/bench-clos.json" : a.json;
  if (std::filesystem::path(path).has_parent_path())
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  json out;
  out["tool"] = "cmnet bench";
  out["family"] = "clos";
  const ClosParams p = paper_net();
  std::printf("== CONNECT's Clos network %s: %d ports, %d switches (paper: 96 Inmos C004 32 x 32), "
              "%lld crosspoints vs %lld for a 1024 x 1024 crossbar, %d s-links\n\n",
              clos_name(p).c_str(), p.ports(), p.switches(), static_cast<long long>(p.crosspoints()),
              static_cast<long long>(p.crossbar_crosspoints()), p.s_links());
  out["network"] = {{"network", clos_name(p)}, {"switches", p.switches()}, {"crosspoints", p.crosspoints()},
                    {"crossbar_crosspoints", p.crossbar_crosspoints()}};
  const std::filesystem::path jp(path);
  const std::string svg = ((jp.has_parent_path() ? jp.parent_path() / jp.stem() : jp.stem()).string()) + "-blocking.svg";
  if (a.only == "blocking") {
    out["blocking_curve"] = clos_blocking_curve(p, a.quick, svg);
    std::ofstream(path) << out.dump(2) << "\n";
    std::printf("JSON: %s\n", path.c_str());
    return 0;
  }
  out["router"] = bench_router(a.quick);
  out["setup"] = bench_setup(a.quick);
  out["blocking_curve"] = clos_blocking_curve(p, a.quick, svg);
  out["paper"] = {{"blocking_probability_below", 1e-4}, {"race_rate_below", 1e-3}};
  out["latency"] = bench_latency(a.quick);
  out["evaluation"] = bench_eval(a.quick);
  out["knee"] = bench_knee(a.quick);
  out["fpga"] = bench_fpga();
  std::ofstream js(path);
  js << out.dump(2) << "\n";
  std::printf("JSON: %s\n", path.c_str());
  return 0;
}

}  // namespace cmnet

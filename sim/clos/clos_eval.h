// CONNECT's performance evaluation (Li and Rishe 1991, "Performance evaluation of CONNECT")
// re-run on cmnet's models: 960 data processors under 32 trees of 30 (Figure 10) and two
// 5-cubes of hnodes, an N(32, 32, 32) Clos network, transputer-class links (0.8 MB/s x 0.83 for
// the bus contention = 0.664 MB/s), CPU routing 30 us on average (uniform 0..60 us), Poisson
// messages per data processor with the paper's length mix (60% log-normal below 100 bytes,
// mean 50; 40% above 100 bytes, near-exponential, mean 3,000), uniform destinations.
//   - long messages (>= 100 bytes) take circuits: the parallel set-up model (clos_setup_model.h,
//     open loop), delivery = generated -> transfer over the circuit done;
//   - short messages travel store-and-forward through the trees and the communication hypercube
//     (clos_tree.h routes);
//   - the baseline: a 10-cube of 1,024 transputer-class processors carrying every message
//     store-and-forward by e-cube routing, CPU routing slowed by a 17% computation load.
#pragma once

#include <cstdint>
#include <vector>

namespace cmnet {

struct ClosEvalOptions {
  double load_mb_s = 120;     // offered: all messages' bytes per second, MB/s (= bytes/us)
  double sim_us = 400000;     // messages generated over this time (then the run drains)
  double warmup_us = 50000;   // messages generated before are not measured
  uint64_t seed = 1;
  int hypercube_packet_bytes = 0;  // baseline: 0 = whole messages stored and forwarded (the paper's)
  // Variants for finding what limits the long messages' throughput (the knee):
  bool two_hypercubes = true;  // false: one hypercube, whose hnodes also route the short messages
                               // (the paper's design before "Separation of the control hypercube")
  bool duplex_leaves = false;  // a busy bit per c-link of a leaf (send and receive at once)
  double circuit_mb_s = 0.8 * 0.83;  // a circuit's data rate (the processor's link, bus contention included)
  double control_scale = 1;    // the set-up's hop and handling times scaled (small: near-instant set-up)
};

struct ClosEvalResult {
  double offered_mb_s = 0;
  double long_mb_s = 0;             // carried by long messages (accepted), MB/s
  double long_delivery_us = 0;      // mean
  double short_delivery_us = 0;     // mean
  double short_size_delay_corr = 0; // Pearson, size vs delivery time, short messages
  double short_mse_us2 = 0;         // mean square error of the linear regression delivery ~ size
  double mean_circuits = 0;         // CONNECT: circuits established at once (time average)
  uint64_t long_msgs = 0, short_msgs = 0;
  // Where the time goes (the circuits' part):
  double setup_latency_us = 0;      // mean CSR -> READY
  double leaf_busy = 0;             // share of the leaves' time (sides' with duplex) their busy bit is held
  double leaf_data = 0;             // share of it carrying data (READY -> release, at both ends)
  double hnode_util = 0, hnode_util_max = 0;  // control hnodes' CPU: mean and the busiest
  double s_link_util = 0;           // share of the 2 r m s-links in circuits (time average)
};

ClosEvalResult run_connect_eval(const ClosEvalOptions& o);
ClosEvalResult run_hypercube_eval(const ClosEvalOptions& o);

// How many pairs of the 960 data processors can talk at once through N(32, 32, 32) (30 in use on
// each switch): random pairings set up pair by pair (both directions) by the hnodes' first-fit
// selection from h_d's switch, a pair that finds no path skipped. Pairs linked per trial.
std::vector<int> clos_dynamic_pairs(int trials, uint64_t seed);

}  // namespace cmnet

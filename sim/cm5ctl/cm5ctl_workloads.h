// Named CM-5 control network workloads (what `cmnet sim --pattern` and the tests run): every
// leaf's pushes, seeded, for any number of leaves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/cm5ctl/cm5ctl_ops.h"

namespace cmnet {

// paper: the paper's forward + scan of 3,2,0,4,2,6,5,8 (repeated over the leaves);
// reduce-or, reduce-xor, reduce-max, reduce-add, reduce-uadd: `count` reductions of random
// words; router-done: `count` messages per leaf on a stand-in data network, then router-done
// (router_done_workload); scan-fwd, scan-bwd: `count` scans cycling through the five combiners; scan-seg:
// segmented scans, both directions, random segment bits; multiword: `count` 128-bit additions
// (reductions and scans, signed and unsigned, chained words); broadcast: leaf 0 broadcasts `count`
// words; barrier: `count` sync ORs; abstain: reductions and scans with a random abstain mask;
// mixed: a random mix of all of them (leaf 0 broadcasting among them); flush: the mix with a
// flush by leaf 0 in the middle and a restart of every leaf later; reduce-scan: reductions and
// forward scans in turn through the combiners (what `cmnet run` does by default).
std::vector<std::string> cm5ctl_pattern_names();
Cm5Workload make_cm5ctl_workload(const std::string& name, int leaves, int word_bits, uint64_t seed, int count);

struct Cm5MixOptions {
  int ops = 20;               // combining operations per leaf
  int broadcasts = 0;         // words leaf `broadcaster` broadcasts among them
  int broadcaster = 0;
  double abstain = 0.0;       // probability a leaf abstains from an operation
  double segment = 0.25;      // probability of a segment bit in a segmented scan
  bool small_values = false;  // values near the overflow edges and small ones
  int release_spread = 0;     // each push offered at a random cycle up to this (stragglers)
  double chains = 0.3;        // probability an addition goes on for more words (up to 128 bits)
};
// A random pipelined mix: every kind, combiner and segmentation, in order at every leaf.
Cm5Workload random_cm5ctl_mix(int leaves, int word_bits, uint64_t seed, const Cm5MixOptions& o);

// Router-done over a stand-in data network: `messages` messages between random leaves, each
// sent at a random cycle and received some cycles later, move the leaves' counters; every leaf
// pushes router-done once it has sent all its messages, then an ADD reduction. `fault`: none,
// "lost" (the last message to arrive never does) or "duplicated" (the last one arrives twice
// at once).
struct Cm5RouterDone {
  Cm5Workload w;
  uint64_t last_arrival = 0;  // the cycle the last message arrives
};
Cm5RouterDone router_done_workload(int leaves, uint64_t seed, int messages, const std::string& fault = "none");

// Flush and restart: `w` with a flush (a supervisor broadcast with comb 7) pushed by leaf
// `flusher` after its first `after` operations, offered from cycle `at`, and every leaf
// restarted in cycle `restart` (which should come after the flush reached every leaf).
Cm5Workload with_flush(Cm5Workload w, uint32_t flusher, size_t after, uint64_t at, uint64_t restart);

// A random mix per partition over its leaves in use (`o`, the broadcaster the partition's
// first leaf in use); each leaf not in use pushes `junk` reductions nobody listens to.
Cm5Workload partitioned_mix(const Cm5ctlParams& p, uint64_t seed, const Cm5MixOptions& o, int junk = 3);

}  // namespace cmnet

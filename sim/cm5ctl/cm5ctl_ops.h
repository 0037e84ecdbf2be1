// What a CM-5 control network is asked to do and what it answers: the operations a leaf's
// network interface injects (a workload), the results it receives, the five combiners on
// W-bit words, and the plain software computation of every result (no tree, no timing) that
// the model and the RTL are checked against.
//
// Semantics (paper, section 5):
// - reduce: every leaf gets the combination of every participating leaf's value;
// - forward scan: leaf i gets the combination of leaves 0..i-1 (exclusive: leaf 0 gets the
//   identity); backward scan: of leaves i+1..N-1;
// - segmented scans: a leaf whose segment bit is set starts the scan over (it gets the
//   identity and the leaves after it, in the scan's direction, combine from it on). A segmented
//   reduction is a forward scan with the bits at segment starts plus a backward scan with the
//   bits at segment ends (the paper's "two segmented scans");
// - sync OR (barrier): the OR of one bit from every leaf, delivered when all have pushed it;
// - abstain: the leaf takes part in the order of operations but its value is the identity
//   (OR, XOR, ADD: 0; MAX: the most negative word) and its segment bit is ignored; it still
//   receives the result;
// - overflow: set when an addition overflowed on the way up (signed: two's complement range;
//   unsigned: a carry out); for an unsegmented unsigned ADD that is exactly "the true sum does
//   not fit in W bits"; otherwise it depends on the tree's grouping, which this computation
//   follows (subtree by subtree, as the paper's combining does);
// - multi-word addition (paper: "a sequence of 32-bit reductions, each of which saves residual
//   data, such as a carry"): a word combined with ADD or UADD followed by consecutive words
//   with ADDC or UADDC, least significant first; every node keeps the carry of its last
//   addition for the next word, so the words of the results are those of the multi-word sums
//   and prefixes (here: up to 128 bits); the overflow flag of the last word is the sum's;
// - router-done (kind reduce, comb 7; every leaf pushes it once it has sent all its data
//   network messages): the interfaces sum their counters with ADD reductions, again and again,
//   until the sum is zero; then every leaf gets one result, data 0. A sum below zero (a
//   message counted out twice: duplicated) ends it with the error bit and the sum; a sum that
//   stays above zero (a message lost) never ends it. While it runs, a leaf sends no other
//   combining operation;
// - error: set when different operations were combined, or two broadcasts collided.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm5ctl/cm5ctl_packet.h"
#include "gen/cm5ctl/cm5ctl_params.h"

namespace cmnet {

struct Cm5Op {
  bool broadcast = false;  // single-source (kind = the broadcast kind) or multiple-source
  bool abstain = false;    // multiple-source only
  uint8_t kind = cm5::kReduce;
  uint8_t comb = cm5::kAdd;
  bool segmented = false;  // scans only
  bool seg = false;        // this leaf's segment bit
  uint64_t data = 0;
  uint64_t release = 0;    // the interface offers it from this cycle on (and after the op before it)
};

// A fault injected on a link: wire 0 of link `link` (the heap index of its lower end: node i's
// children are 2i and 2i+1, leaf j is N + j) inverted in cycle `cycle`, up or down.
struct Cm5Flip {
  uint64_t cycle = 0;
  uint32_t link = 2;
  bool up = true;
};

// A change of a leaf's global inputs from `cycle` on: bit 0 its asynchronous OR 0 input, bit 1
// the privileged asynchronous OR 1, bit 2 its hard-error input (the data network's and the
// interface's hard errors).
struct Cm5GlobalIn {
  uint64_t cycle = 0;
  uint32_t leaf = 0;
  uint8_t value = 0;
};
// A leaf's global outputs changed (presented from `cycle` on): the same bits, the partition's ORs.
struct Cm5GlobalOut {
  uint32_t leaf = 0;
  uint64_t cycle = 0;
  uint8_t value = 0;
  bool operator==(const Cm5GlobalOut& o) const { return leaf == o.leaf && cycle == o.cycle && value == o.value; }
};

// Each leaf's operations in the order its processor pushes them. Every leaf pushes the same
// number of multiple-source operations (the k-th of each leaf combine together).
struct Cm5Workload {
  std::string name;
  std::vector<std::vector<Cm5Op>> leaf;
  // Each leaf's data network counter (messages its interface put into the data network minus
  // those it took out), the input router-done sums: from cycle `first` on it is `second`
  // (events in cycle order; 0 before the first). A stand-in for the data network's counters.
  std::vector<std::vector<std::pair<uint64_t, int64_t>>> counters;
  std::vector<Cm5Flip> flips;  // faults injected on links (in cycle order)
  // Flush and restart: a broadcast with comb = cm5::kFlushComb is a flush; restarts[k] =
  // (cycle, leaf): the supervisor resumes that leaf's interface in that cycle (in cycle order).
  std::vector<std::pair<uint64_t, uint32_t>> restarts;
  std::vector<Cm5GlobalIn> globals;  // in cycle order
  size_t multi_ops() const;        // per leaf (checked equal by check_workload)
  size_t broadcasts() const;       // over all leaves
};

// Throws std::invalid_argument when the leaf count differs from `leaves` or the leaves push
// different numbers of multiple-source operations.
void check_workload(const Cm5Workload& w, int leaves);
// With partitions and mapped-out leaves: the leaves in use of a partition push the same number
// of multiple-source operations (the leaves not in use may push anything: nobody listens).
void check_workload(const Cm5Workload& w, const Cm5Topology& t);

struct Cm5Result {
  uint32_t leaf = 0;
  uint64_t cycle = 0;      // the cycle the interface presents it (0 when not timed)
  bool broadcast = false;
  uint8_t kind = 0;
  uint8_t comb = 0;
  uint64_t data = 0;
  bool ovf = false;
  bool err = false;
  bool abstained = false;  // this leaf abstained from the operation
  bool operator==(const Cm5Result& o) const;
  std::string str() const;
};

namespace cm5 {
uint64_t mask(int w);
uint64_t identity(uint8_t comb, int w);
// a (op) b on W-bit words; *ovf set when an addition overflows. Additions add `cin` (ADDC and
// UADDC: the carry of the word before; callers pass false for ADD and UADD) and set *cout to
// the carry out of the W-bit sum.
uint64_t apply(uint8_t comb, uint64_t a, uint64_t b, int w, bool* ovf, bool cin = false, bool* cout = nullptr);
int64_t to_signed(uint64_t x, int w);
// crc8: gen/cm5ctl/cm5ctl_packet.h.
}  // namespace cm5

// The results every leaf should receive, from the definitions above: expected[leaf] is the
// sequence of multiple-source results in order, then (separately, since their interleaving
// with combining results depends on timing) bcast[leaf] the broadcasts in order of their
// sources' pushes, leaf 0's first (valid when one leaf broadcasts at a time).
struct Cm5Expected {
  std::vector<std::vector<Cm5Result>> multi;
  std::vector<std::vector<Cm5Result>> bcast;
};
Cm5Expected expected_results(const Cm5Workload& w, int word_bits);
// Per partition, over its leaves in use (in leaf order: a mapped-out leaf is skipped); the
// leaves not in use get nothing.
Cm5Expected expected_results(const Cm5Workload& w, int word_bits, const Cm5Topology& t);

// Splits timed results by leaf into multiple-source and broadcast sequences (cycle kept).
Cm5Expected split_results(const std::vector<Cm5Result>& results, int leaves);
// "" when `got` matches `want` (ignoring cycles), else the first difference described.
std::string compare_to_expected(const Cm5Expected& want, const Cm5Expected& got);

}  // namespace cmnet

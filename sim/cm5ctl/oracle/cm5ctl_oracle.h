// A functional oracle of the CM-5 control network (Leiserson et al. 1992, section 5): what each
// leaf receives, from the paper's definitions alone, with no tree, packet or timing. It shares
// nothing with the generator, the params or the cycle model (it includes only standard
// headers); sim/cm5ctl/cm5ctl_oracle_view.h translates a workload and a run into its terms
// (for the tests and for `cmnet run`'s report).
//
// The paper's definitions used:
// - reduction: "combines values provided by all (participating) processors according to a
//   user-supplied operator and delivers a copy of the result to all processors"; the operators:
//   bitwise OR, bitwise XOR, signed maximum, signed addition, unsigned addition ("differ in how
//   overflow is reported");
// - forward scan: "delivers to the ith processor the result of applying one of the five
//   reduction operators to the values in the preceding i - 1 processors": exclusive, as the
//   example (3,2,0,4,2,6,5,8) -> (0,3,5,5,9,11,17,22) shows; backward scan: the same in the
//   reverse direction; segmented: "if a segment start bit ... is set, the scan starts over at
//   that point";
// - multiple-word values: "a sequence of 32-bit reductions, each of which saves residual data,
//   such as a carry": the words of the result are those of the multiple-word sum or prefix;
// - abstain: "these operations complete as if the abstaining processors had provided identity
//   data" (OR, XOR, additions: 0; signed maximum: the most negative word);
// - synchronous OR (barrier): an OR reduction of one bit per processor;
// - router-done ("Kirchhoff's current law"): done when the messages that entered the data
//   network equal those that left; lost messages: it never completes; created ones: an error;
// - errors: "if two processors attempt to perform different combining operations, an error is
//   signaled";
// - broadcast: a processor's message goes to the processors of its partition, in order; one
//   broadcasting processor at a time; a flush travels "in a manner similar to a broadcast".
// Where the paper is silent, Options names the choice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cmnet::cm5ctl_oracle {

enum class Kind { kReduce, kScanForward, kScanBackward, kBarrier, kRouterDone };
enum class Operator { kOr, kXor, kMax, kSignedAdd, kUnsignedAdd };
enum class BroadcastKind { kUser, kSupervisor, kInterrupt, kUtility, kFlush };

// One leaf's part in one combining operation.
struct LeafInput {
  Kind kind = Kind::kReduce;
  Operator op = Operator::kOr;  // ignored by barriers (OR) and router-done
  bool segmented = false;       // scans only
  bool segment_bit = false;     // this leaf's segment start bit
  bool abstain = false;
  // The value, least significant word first (more than one word: additions only); a barrier's
  // input is bit 0 of the first word.
  std::vector<uint64_t> words;
  int64_t messages = 0;  // router-done: data network messages this leaf sent minus those it received
};

struct Combining {
  std::vector<LeafInput> leaf;  // one per leaf, in the data network's order of addresses
};

struct Broadcast {
  int source = 0;
  BroadcastKind kind = BroadcastKind::kUser;
  uint64_t word = 0;
};

struct Input {
  int leaves = 0;
  std::vector<Combining> combining;  // in the order every leaf pushes them
  std::vector<Broadcast> broadcasts; // in the order they are pushed (one source at a time)
};

// The choices the paper leaves open.
struct Options {
  int word_bits = 32;  // W (the paper: 32); multiple-word values up to 128 bits
  // How an addition's overflow flag is reported (the paper: the two additions "differ in how
  // overflow is reported", no more). kAnySubtree: set, at every leaf, when the combination of
  // the two halves of any aligned block of leaves (a subtree of the binary tree the leaves are
  // in order under) overflowed: for a multiple-word value, word j's flag is that of the words
  // 0..j as one number. kExactTotal: set when the exact sum of every participating value (words
  // 0..j) does not fit.
  enum class Overflow { kAnySubtree, kExactTotal } overflow = Overflow::kAnySubtree;
  // What a leaf with no leaf before it in its scan segment receives: the operator's identity,
  // or zero (differs for MAX only).
  enum class ScanStart { kIdentity, kZero } scan_start = ScanStart::kIdentity;
  // Which way a set segment bit looks in a backward scan: the scan starts over at that leaf in
  // the scan's direction (it gets the identity; the leaves before it combine from it on), or
  // the bit marks a segment start in the leaves' order for both directions (the leaves before
  // it do not see it or the leaves after it).
  enum class BackwardSegment { kStartsInScanDirection, kStartsInLeafOrder } backward_segment =
      BackwardSegment::kStartsInScanDirection;
  bool abstainer_segment_bit_counts = false;  // an abstaining leaf's segment bit
  bool abstainer_gets_result = true;          // an abstaining leaf receives the result (marked)
  bool sender_gets_own_broadcast = true;      // the paper: "to all other processors"
};

struct LeafResult {
  size_t op = 0;                 // index into Input::combining
  std::vector<uint64_t> words;   // empty when `error`
  std::vector<bool> overflow;    // per word
  bool error = false;            // operations mixed up, or router-done saw messages created
  bool abstained = false;
};

struct Output {
  // Per leaf, the combining operations' results in order; an operation that never completes
  // (router-done with messages lost) ends the list: the ones after it wait behind it.
  std::vector<std::vector<LeafResult>> combining;
  std::vector<std::vector<Broadcast>> broadcasts;  // per leaf, the broadcasts it receives (W-bit words), in order
};

// Throws std::invalid_argument on an input it cannot answer (leaf counts differ, more than
// 128 bits, several words with an operator that is not an addition).
Output evaluate(const Input& in, const Options& opt = {});

}  // namespace cmnet::cm5ctl_oracle

// CM-5 data network traffic: the messages each leaf sends, in order, each with the earliest
// cycle its first flit may enter the network. Named patterns and open-loop (Bernoulli) loads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_params.h"

namespace cmnet {

struct Cm5DataMessage {
  uint32_t src = 0, dst = 0;
  int len = 1;                  // data words, 1..max_words
  int tag = 0;                  // 4 bits
  std::vector<uint32_t> data;   // len words
  uint64_t inject_at = 0;       // earliest cycle of the first flit
  bool afd = false;             // sent already marked all-fall-down (a leaf's own choice)
  int side = 0;                 // the stream board's left (0) or right (1) network
};

struct Cm5DataTraffic {
  std::vector<Cm5DataMessage> messages;  // each leaf sends its own messages in this order
};

// The words a leaf sends: head word, data words, CRC word.
std::vector<uint32_t> cm5_message_words(const Cm5DataParams& p, const Cm5DataMessage& m);

// Named patterns: "random" (uniform random destinations), "permutation" (a random permutation
// per round), "hot-spot" (a quarter of the messages to leaf 0, the rest random), "all-to-one"
// (every leaf to leaf 0), "nearest-neighbour" (the leaves in Z order on a 2^h x 2^h torus, one of
// the four neighbours at random), "bit-complement" (leaf x to ~x).
std::vector<std::string> cm5_pattern_names();
// One destination for message `round` of leaf `src` (the pattern's rule). With partitions
// (Cm5DataParams::partitions) each partition runs the pattern as a machine of its own (its
// relative addresses, its own random stream), and `sends(src)` is false for the leaves outside
// every partition: the patterns give them nothing to send.
struct Cm5DataDestGen {
  Cm5DataDestGen(const std::string& name, const Cm5DataParams& p, uint64_t seed);
  uint32_t next(uint32_t src, uint64_t round);
  bool sends(uint32_t src) const { return parts.empty() || owner[src] >= 0; }
  std::string name;
  uint32_t n;
  int height;
  uint64_t state;
  std::vector<std::vector<uint32_t>> perms;  // one random permutation per round, made in order
  std::vector<Cm5DataDestGen> parts;         // one per partition (their bases in `base`)
  std::vector<uint32_t> base;
  std::vector<int> owner;                    // leaf -> partition (-1: none), with partitions
  uint64_t rnd();
};

// `per_leaf` messages from every leaf, all ready at cycle 0; len 0 = random 1..max_words.
// Data word 0 is (src << 12) | message number (unique per message), the rest random.
Cm5DataTraffic make_cm5_pattern(const std::string& name, const Cm5DataParams& p, uint64_t seed, int per_leaf,
                            int len = 0);
// Open loop: every leaf starts a message with probability `rate` per cycle (Bernoulli) over
// `cycles` cycles, destinations from the pattern, `len` data words each.
Cm5DataTraffic make_cm5_open_loop(const std::string& name, const Cm5DataParams& p, uint64_t seed, double rate,
                              uint64_t cycles, int len);

// A message the sender's network interface refuses: from or to a leaf mapped out of the address
// space (Cm5DataParams::mapped_out_leaves), or from a partition's leaf to a leaf outside its
// partition (the bounds check). It never enters the network; the NI counts it.
bool cm5_refused(const Cm5DataParams& p, const Cm5DataMessage& m);

// Throws InputError when a message does not fit `p`.
void check_cm5_traffic(const Cm5DataTraffic& t, const Cm5DataParams& p, const std::string& where);

// A traffic file: one message per line, "SRC DST DATA..." (decimal leaves, 1..max_words hex data
// words); '#' starts a comment. InputError names the file, line and field (gen/core/field_lines.h).
Cm5DataTraffic read_cm5_traffic_file(const std::string& path, const Cm5DataParams& p);

}  // namespace cmnet

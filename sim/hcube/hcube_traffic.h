// Traffic of the hypercube family: messages with a source, a destination, a generation tick, a
// length in bytes and a 2-byte type; the paper's workload (section 6) and other patterns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/hcube/hcube_params.h"

namespace cmnet {

struct HcubeMessage {
  uint32_t src = 0, dst = 0;
  uint64_t gen = 0;    // tick the message is handed to its source's chip
  uint32_t len = 1;    // data bytes
  uint32_t seq = 0;    // index among its source's messages (the type field carries it mod 2^16)
};

// Messages in any order; each source's in generation order (seq 0, 1, ...). A source sends its
// messages one after the other, in that order.
struct HcubeTraffic {
  std::vector<HcubeMessage> messages;
};

// The payload of message m.
std::vector<uint8_t> hcube_payload(uint32_t seed, const HcubeMessage& m);

// Throws InputError naming `where` when a message is out of the cube, to itself, empty, or a
// source's messages are not in generation order with seq 0, 1, ...
void check_hcube_traffic(const HcubeTraffic& t, const HcubeParams& p, const std::string& where);

// The paper's workload: every node generates `per_node` messages, inter-generation times normal
// with the given mean and variance mean / 2 (at least 1 tick), lengths exponential with the given
// mean (rounded up, at least 1 byte), destinations by `pattern`. Each node draws from its own
// stream (seeded by seed and node), so every scheme sees the same messages.
// Patterns: uniform (any other node), bit-complement, transpose (the two halves of the address
// swapped; odd n: rotated by n / 2), hotspot (node 0 with probability 1/8, else uniform).
// Nodes whose pattern destination is themselves send nothing.
HcubeTraffic make_hcube_workload(int dims, const std::string& pattern, double mean_len, double mean_gap, int per_node,
                                 uint64_t seed);
std::vector<std::string> hcube_pattern_names();

// The paper's ideal link utilization: sum over messages of ticks_per_byte x length x hops, over
// links x the tick of the last generation.
double hcube_ideal_utilization(const HcubeTraffic& t, const HcubeParams& p);

// A traffic file: one message per line, "SRC DST GEN LEN" (decimal nodes, generation tick, data
// bytes); each source's messages in generation order; '#' starts a comment. InputError names the
// file, line and field (gen/core/field_lines.h).
HcubeTraffic read_hcube_traffic_file(const std::string& path, const HcubeParams& p);

}  // namespace cmnet

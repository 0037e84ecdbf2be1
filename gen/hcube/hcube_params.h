// Parameters of a hypercube of message-transport chips after "packet transport versus wormhole
// routing" (the seed-004 paper: a quasi-adaptive packet scheme against wormhole routing on a
// binary n-cube) and the figures derived from them. One struct drives the reference models, the
// RTL emitter, the harnesses and the reports.
//
// The cube: 2^n nodes; node x's dimension-d link goes to x XOR 2^d (gen/core/hypercube_topology.h);
// every link is two independent directed channels (the paper's non-interfering bidirectional links).
//
// The packet scheme (paper section 5.3): a message of L bytes is cut into packets of at most
// packet_bytes bytes: 2 bytes destination, 2 bytes source, then data; the first packet also
// carries the 4-byte length and the 2-byte type, so it holds packet_bytes - 10 data bytes and
// every later one packet_bytes - 4. A packet is sent with only the bytes it holds (the last one
// may be short). Each output port of a chip has `buffers` packet buffers.
//
// The wormhole baseline: the same 10-byte message header (destination, source, length, type) in
// front of the data, sent as one worm.
#pragma once

#include <cstdint>
#include <string>

namespace cmnet {

struct HcubeParams {
  int dims = 3;                    // n: 2^n nodes
  std::string scheme = "packet";   // packet | wormhole
  std::string routing = "fixed";   // fixed (e-cube) | quasi (packet scheme only)
  int packet_bytes = 20;           // bytes per packet, headers included
  int buffers = 16;                // packet buffers per output port
  int ticks_per_byte = 2;          // link time of one byte
  int arb_ticks = 4;               // arbitration for a shared resource (a link, per packet or per worm hop)
  uint32_t seed = 1;               // traffic and payload seed of `cmnet sim` patterns

  static constexpr int kMaxDims = 12;        // the source field holds the node (n bits) and a dimension (4 bits)
  static constexpr int kRouteHeaderBytes = 4;  // destination + source: in every packet
  static constexpr int kMessageHeaderBytes = 10;  // + length (4) + type (2): first packet / worm
  static constexpr int kRouteBytes = 2;      // a router decides once the destination has arrived

  int nodes() const { return 1 << dims; }
  int links() const { return dims * nodes(); }  // directed channels
  int data_bytes() const { return packet_bytes - kRouteHeaderBytes; }
  int first_data_bytes() const { return packet_bytes - kMessageHeaderBytes; }
  bool packet() const { return scheme == "packet"; }
  bool quasi() const { return routing == "quasi"; }
  // Packets of a message of `len` bytes (len >= 1).
  uint64_t packets_of(uint64_t len) const;
  // Data bytes of packet k of a message of `len` bytes, and its bytes on the wire.
  int packet_data(uint64_t len, uint64_t k) const;
  int packet_wire(uint64_t len, uint64_t k) const;
  // Bytes of the whole worm of a message.
  uint64_t worm_bytes(uint64_t len) const { return len + kMessageHeaderBytes; }
};

// Throws cmnet::ConfigError naming `where`, the field, its value and the allowed range.
void validate(const HcubeParams& p, const std::string& where);

// E-cube: the lowest dimension in which a and b differ (-1 when equal).
int hcube_ecube_dim(uint32_t a, uint32_t b);
int hcube_hops(uint32_t a, uint32_t b);

// The payload byte i of message `seq` of source `src` (a hash of the seed, source, sequence and
// index): what the sources send and the reassembly is checked against, in models and harnesses.
uint8_t hcube_data_byte(uint32_t seed, uint32_t src, uint32_t seq, uint64_t i);

}  // namespace cmnet

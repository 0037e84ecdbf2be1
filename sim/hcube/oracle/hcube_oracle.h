// hcube's second view (issue 26), written from the seed-004 paper ("a high performance message
// transport scheme based upon packet routing") at the level a user reasons at, sharing nothing
// with the emitter, the params or the cycle models:
//  - every message arrives exactly once, at its destination, with its data unchanged, and
//    nothing else arrives (a message is known by its source and its 2-byte type, section 5.3);
//  - what a source hands the network is the paper's packetization (section 5.3: packets of
//    `packet_bytes`, 2 bytes destination and 2 source in each, the first also the 4-byte length
//    and 2-byte type, so 10 data bytes in the first of 20 and 16 in every later one; only the
//    last may be short) or, wormhole, the same 10-byte header in front of all the data;
//  - routing: wormhole and fixed packet routing take the e-cube path, so the first hop is the
//    lowest dimension in which source and destination differ; quasi-adaptive routing picks a
//    first step "in a direction that takes the message closer to its destination" (5.1);
//  - no schedule beats the unloaded pipeline: a message takes hamming-distance hops, each hop
//    of a packet (a worm's header) costs the arbitration and its 2 destination bytes before the
//    next hop can start (cut-through), the bytes behind follow one per byte time, and all the
//    packets of a message take the same route (5.1), so they cross its first channel one after
//    the other;
//  - wormhole messages do not interleave on a channel (section 4), so the worms from one source
//    to one destination (one e-cube path) arrive one after the other, in the source's order.
// The packet scheme promises no order between messages (quasi routing may overtake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet::hcube_oracle {

enum class Scheme { kPacket, kWormhole };
enum class Routing { kFixed, kQuasi };
// Byte order of the multi-byte header fields (destination, source, length, type): the paper
// gives their sizes, not their order.
enum class ByteOrder { kLittleEndian, kBigEndian };

struct Net {
  int dims = 3;
  Scheme scheme = Scheme::kPacket;
  Routing routing = Routing::kFixed;
  int packet_bytes = 20;    // headers included
  int ticks_per_byte = 2;   // a channel's time per byte
  int arb_ticks = 4;        // arbitration before every packet's (worm header's) hop
};

// The choices the paper leaves open (gen/hcube/README.md, "as built").
struct Options {
  ByteOrder byte_order = ByteOrder::kLittleEndian;
  // Ticks from a message's generation to the earliest tick its first packet (header) may start
  // on a channel.
  uint64_t inject_ticks = 1;
  // Packet scheme: every packet's arbitration for a channel follows the transfer before it (the
  // paper gives a time per arbitration, not whether it overlaps the previous transfer); false:
  // the bound counts one arbitration on the first channel.
  bool arbitration_per_packet = true;
  // Wormhole: the "first" arrival is of this many data bytes (the paper's "first packet (or 16
  // data bytes)"; all of them when the message is shorter).
  uint32_t worm_first_data_bytes = 16;
  // Check that the worms from one source to one destination arrive in the source's order.
  bool worm_pair_order = true;
};

struct Message {
  uint32_t src = 0, dst = 0;
  uint64_t gen = 0;              // tick it is handed to its source
  uint16_t type = 0;             // the header's type field: names it among its source's messages
  std::vector<uint8_t> data;     // its payload (the length is data.size())
  // What the source handed the network: its packets (packet scheme) or its worm (one entry),
  // each as bytes on the wire; empty: not checked.
  std::vector<std::vector<uint8_t>> wire;
};

// A message as a run says it arrived.
struct Delivery {
  uint32_t at = 0;               // the node it was ejected at
  uint32_t src = 0;
  uint16_t type = 0;
  uint32_t len = 0;              // the length field it arrived with
  int first_dim = -1;            // its first hop (-1: the run does not say)
  uint64_t first = 0, last = 0;  // arrival of its first packet (worm: first data bytes), last byte
  std::vector<uint8_t> data;
};

// The paper's packets (or worm: one entry) of `m` on the wire, from the source's hands.
std::vector<std::vector<uint8_t>> wire_of(const Net& net, const Message& m, const Options& o = {});
// The message's data reassembled from its packets (or worm) in order, by the header fields;
// empty when a header is inconsistent (destination, source or type differs, length mismatch).
std::vector<uint8_t> reassemble(const std::vector<std::vector<uint8_t>>& wire, const Options& o = {});
// The earliest ticks no schedule can beat: arrival of the first packet (worm: first data
// bytes) and of the last byte.
uint64_t earliest_first(const Net& net, const Message& m, const Options& o = {});
uint64_t earliest_last(const Net& net, const Message& m, const Options& o = {});

// Every way the run departs from the paper, one sentence each ("message 3 (0 -> 7, 100 bytes):
// ..."); empty when it agrees.
std::vector<std::string> disagreements(const Net& net, const std::vector<Message>& sent,
                                       const std::vector<Delivery>& got, const Options& o = {});

}  // namespace cmnet::hcube_oracle

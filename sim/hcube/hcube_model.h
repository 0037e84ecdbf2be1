// Tick-level reference models of the two message transports of the seed-004 paper on a binary
// n-cube, written from the paper (sections 4-6), independently of the RTL:
//
//  the packet scheme (hcube_packet_model.cpp): messages cut into packets (hcube_params.h) that
//  interleave on links; `buffers` packet buffers per output port; virtual cut-through (a packet
//  moves on as soon as its destination bytes have arrived, when the next channel is free and a
//  buffer of the next port is free; otherwise it waits whole in its buffer); the destination
//  reassembles by source (and first-hop dimension). Routing fixed (e-cube, lowest differing dimension first) or
//  quasi-adaptive (section 5.1: the first hop of a message on the productive dimension whose
//  output port holds the fewest packets, ties to the lowest dimension, every packet of the
//  message on that route, every later hop e-cube). Deadlock avoidance (section 5.2, "at least one
//  buffer slot for each channel in every node be either free, or occupied with a non-contrary
//  packet"): a contrary packet (first hop not the e-cube one) enters a port's buffers only while
//  fewer than buffers - 1 of them hold contrary packets, and a port sends the oldest of its
//  packets that can move (not only its head), so the non-contrary packets' e-cube order is
//  never blocked behind contrary ones.
//
//  the wormhole baseline (hcube_wormhole_model.cpp): e-cube, one message per channel; the header
//  acquires channel after channel (arbitration per hop, the oldest waiting message first, the
//  paper's creation-order priority) and holds every one until its tail has passed; data flows at
//  the link rate behind the header once the path to the destination is complete (flit-level flow
//  control with one-byte flit buffers).
//
// Timing (both models; what the paper leaves open is a named choice here, and the RTL follows):
//  - a message generated at tick g is handed to its source's chip at g; its first packet or
//    header can take a channel from tick g + 1. A source starts its messages in order (a queue,
//    so a message waits behind the one before it: the paper's sequential bottleneck, section
//    5.1): packet scheme, the head starts once an output port it may take (fixed: the e-cube
//    one; quasi: of the productive ones not taking another of this source's messages, the one
//    with the fewest buffers in use, ties to the lowest dimension) is not taking another of the
//    source's messages, and each port takes one packet per tick of the message it takes while it
//    has a free buffer (messages of one source interleave only across ports, so a destination
//    reassembles by source and first-hop dimension, carried in the source field); wormhole, the
//    head's header waits for its first channel and the next message's header follows once it
//    has it;
//  - a channel moves one byte per ticks_per_byte; taking a channel costs arb_ticks first (per
//    packet; per hop of a worm): a packet of w bytes sent from tick s has its 2 destination bytes
//    downstream at s + A + 2T and its last byte at s + A + wT, and its buffer upstream is free at
//    that last tick; a worm granted its last channel at tick s has its destination bytes there at
//    s + A + 2T and byte k (k >= 1) at s + A + 2T + (k - 1)T; its i-th of h channels is released
//    when the tail has crossed it, (h - i)T before the last byte arrives (a worm of B bytes
//    spans at most B - 2 channels behind its header, one flit a node: when it is shorter than its
//    path, channel i is released T after the header reaches the node i + B - 2 hops on);
//  - the destination takes every arriving byte at once.
//  - results per message: the tick its first packet (wormhole: its first 16 data bytes, or all
//    if fewer; the paper's "first packet (or 16 data bytes)") and its last byte arrived.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gen/hcube/hcube_params.h"
#include "sim/hcube/hcube_traffic.h"

namespace cmnet {

struct HcubeDelivery {
  bool delivered = false;
  uint64_t started = 0;     // tick its first packet (header) took its first channel (models only)
  uint64_t first = 0;       // tick its first packet (wormhole: first 16 data bytes) arrived
  uint64_t last = 0;        // tick its last byte arrived
  int first_dim = -1;       // dimension of its first hop
  bool data_ok = false;     // reassembled bytes, length, type and destination as sent
};

// Counters of one output port: a node's channel in one dimension (index node * n + dim).
struct HcubePortCounters {
  uint64_t packets = 0;        // packets sent (wormhole: worms)
  uint64_t messages = 0;       // first packets (worm headers) sent
  uint64_t bytes = 0;          // bytes sent, headers included
  // Ticks this channel had work it could not do: packet scheme, it was idle with packets waiting
  // and every one's next buffers full; wormhole, a header waited for it while another worm held it.
  uint64_t blocked_ticks = 0;
};

struct HcubeModelOptions {
  uint64_t max_ticks = 2000000000ull;
  bool keep_received = false;  // keep every reassembled message's bytes (tests)
  bool deadlock_rule = true;   // packet scheme, quasi routing: the contrary-packet limit (tests turn it off)
};

// One message as the destination reassembled it, from its packets' header fields only.
struct HcubeReceived {
  uint32_t dst = 0, src = 0, len = 0, type = 0;
  int first_dim = -1;  // from the source field (packet scheme), -1 when not known
  uint64_t first = 0, last = 0;
  std::vector<uint8_t> data;
};

struct HcubeRunResult {
  std::vector<HcubeDelivery> deliveries;    // by message
  std::vector<HcubePortCounters> ports;     // node * n + dim
  std::vector<HcubeReceived> received;      // options.keep_received
  uint64_t ticks = 0;           // tick of the last arrival (or where the run stopped)
  bool completed = false;       // every message delivered
  bool deadlock = false;        // stopped with messages in the network and nothing able to move
  uint64_t delivered = 0;
  uint64_t bad_reassembly = 0;  // messages reassembled with wrong bytes, length or destination
  uint64_t source_blocked_ticks = 0;  // ticks, summed over nodes, a source waited for a buffer
  int max_buffer_used = 0;      // most buffers of one port in use (reserved or holding) at once
  int max_contrary = 0;         // most buffers of one port holding contrary packets at once
  uint64_t events = 0;          // ticks the model stepped through (it skips idle stretches)
  double seconds = 0;           // wall time of the simulation loop
};

// The scheme and routing come from p. Throws InputError for bad traffic.
HcubeRunResult run_hcube_model(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt = {});
HcubeRunResult run_hcube_packet_model(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt);
HcubeRunResult run_hcube_wormhole_model(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt);

// Matches each reassembled message, as it completes, to the traffic by source and type (= seq
// mod 2^16) and checks destination, length and bytes; sets deliveries[].delivered/first/last/
// data_ok, r.delivered and r.bad_reassembly; keeps the message in r.received when asked.
class HcubeReassemblyCheck {
 public:
  HcubeReassemblyCheck(const HcubeParams& p, const HcubeTraffic& t, HcubeRunResult& r, bool keep);
  void add(HcubeReceived x);

 private:
  const HcubeParams& p_;
  const HcubeTraffic& t_;
  HcubeRunResult& r_;
  bool keep_;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<size_t>> by_;  // (src, type) -> messages, last first
};

}  // namespace cmnet

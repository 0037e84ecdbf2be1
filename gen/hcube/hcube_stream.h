// The hypercube network on the shared stream board (hw/common/STREAM_BOARD.md): the module
// hcube_stream (the stream port around hcube_network, either scheme) and its self-description.
//
// Each leaf is a node. Its host side is a message store of slots and its receive side a byte FIFO
// per incoming dimension; a tick counter keeps the model's ticks, and one clock enable (`en`) on
// every router register makes a tick of an enabled cycle only, so long runs stream through.
//  - host -> leaf x, a message (at least 5 words): word 0 {tag[31:16], dst[15:0]} (the tag's low
//    slot_bits bits (hcube_stream_store below) are the store slot the host chose for it, the rest
//    its age rank: the wormhole routers' priority); word 1 its generation tick; word 2 its packets
//    (packet scheme) or its worm's bytes (wormhole); word 3 the bytes the destination will eject
//    (the In of the byte conservation); then the data, at most 2^word_bits words: packet scheme, per
//    packet a word with its wire bytes and ceil(P / 4) words of its bytes (little endian);
//    wormhole, the worm's bytes four to a word. Messages of a node join its queue in order. A unit
//    naming a slot in use, and words beyond a slot, are dropped and counted (refused).
//  - host -> a leaf, a one-word unit: 0 the start (to any leaf; the tick counter runs from the
//    next cycle while `run` is 1), 1 the leaf's end (no more messages for that node).
//  - leaf -> host, a credit: a one-word unit {2'b01, slot}: that slot of the leaf's store is free
//    again (its message has been taken by the source and no feeder reads it any more). The host
//    sends a node's next message only into a slot it knows is free.
//  - leaf -> host, a segment of what arrived on one incoming dimension: word 0 {last[31],
//    dim[23:16], bytes[15:0]}, word 1 the tick its last byte arrived, then the bytes four to a
//    word. Packet scheme: a segment is a packet (last = 1). Wormhole: a worm's ejected bytes (its
//    source field onwards) in segments of at most 24 bytes (so the first ends with data byte 16,
//    the paper's "first 16 data bytes"), the last one's last = 1.
// Back-pressure: a cycle is a tick (en = 1) only while every receive FIFO has room for a byte and
// a segment (a destination takes at most one byte per incoming channel per tick) and every node
// has its next message in its store or its end has come (the source offers its queue head from
// its generation tick: a message not yet loaded might be due). Otherwise every router register
// holds, the counters included, so the board's ticks are the model's whatever the link's speed.
// Each node has more slots than ports, and a source feeds at most one message per port, so a
// node waiting for its next message always has a free slot to report: streaming cannot deadlock.
// Counters: per leaf bytes loaded (In, word 3 of its messages), bytes delivered to the host
// (Out), messages loaded, words refused, bytes overflowed (Other); network.held (Held: loaded,
// not yet delivered); the cycles the network waited for the host and for a receive FIFO; every
// port's packets, messages, bytes and blocked cycles (Other), read by a scan into shadow
// registers (busy until a whole scan pass after the last byte inside).
#pragma once

#include <string>

#include "gen/core/design.h"
#include "gen/core/stream_board.h"
#include "gen/hcube/hcube_config.h"

namespace cmnet {

// A node's message store: 2^slot_bits slots of 2^word_bits words. Slots: more than a node's ports
// (a source feeds at most one message per port, so a node waiting for its next message always has
// a free slot). Packet scheme: 8 slots of 256 words (42 packets of 20 bytes, 666 data bytes), in
// flip-flops (a feeder reads a whole packet in a cycle). Wormhole: a copy of the store per feeder
// in block RAM, read one cycle after the feeder's index moves; 64 words a slot (a worm of 256
// bytes), 4 slots up to n = 3: one 256 x 32 pair of SB_RAM40_4K per feeder.
struct HcubeStreamStore {
  int slot_bits = 3;
  int word_bits = 8;
};
HcubeStreamStore hcube_stream_store(const HcubeParams& p);
constexpr int kHcubeStreamWormSegment = 24;   // wormhole: bytes per segment

// The receive FIFOs' sizes (the host need not know them: the network waits for their room).
struct HcubeStreamSizes {
  int rx_byte_bits = 9;  // 512 bytes per incoming dimension: one 512 x 8 block RAM
  int rx_seg_bits = 2;   // 4 segment descriptors (flip-flops)
};

// The network's design (emit_hcube) with hcube_stream.v added; top hcube_stream. ConfigError for
// receive FIFOs that cannot hold a segment, and for a wormhole board at 1 tick per byte (its
// feeders' store is read one cycle after their index moves: a byte per cycle would be late).
GeneratedDesign emit_hcube_stream(const HcubeConfig& cfg, const HcubeStreamSizes& z = {});
StreamBoardSpec hcube_stream_spec(const HcubeConfig& cfg, const HcubeStreamSizes& z = {});
// Names of a port's counters on the bus ("n3.d1.packets").
std::string hcube_stream_port_counter(int node, int dim, int kind);

}  // namespace cmnet

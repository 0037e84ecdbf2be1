// The hypercube network on the shared stream board (hw/common/STREAM_BOARD.md): the module
// hcube_stream (the stream port around hcube_network, either scheme) and its self-description.
//
// Each leaf is a node. Its host side is a message store and its receive side a byte FIFO per
// incoming dimension; a tick counter keeps the model's ticks.
//  - host -> leaf x, a message (at least 5 words): word 0 its generation tick; word 1
//    {tag[31:16], dst[15:0]} (the tag's low kHcubeStreamSlotBits bits are the message's index in x's
//    queue, the rest its age rank: the wormhole routers' priority); word 2 its packets (packet
//    scheme) or its worm's bytes (wormhole); word 3 the bytes the destination will eject (the
//    In of the byte conservation); then the data: packet scheme, per packet a word with its
//    wire bytes and ceil(P / 4) words of its bytes (little endian); wormhole, the worm's bytes
//    four to a word. Messages go into the store in order; one that finds no free slot, and words
//    that find the store full, are dropped and counted (refused): the host refuses such
//    workloads before it sends them (hcube_board_fits).
//  - host -> any leaf, the start: a one-word unit. From the cycle after it the tick counter runs
//    (while `run` is 1) and each node offers its queue head from its generation tick (wormhole:
//    the tick after, the model's), and answers its ports' feeders from the store. The host sends
//    it after every message, so the whole workload is in the stores before tick 0.
//  - leaf -> host, a segment of what arrived on one incoming dimension: word 0 {last[31],
//    dim[23:16], bytes[15:0]}, word 1 the tick its last byte arrived, then the bytes four to a
//    word. Packet scheme: a segment is a packet (last = 1). Wormhole: a worm's ejected bytes (its
//    source field onwards) in segments of at most 24 bytes (so the first ends with data byte 16,
//    the paper's "first 16 data bytes"), the last one's last = 1.
// Back-pressure: none is needed. A destination takes every arriving byte at once (the routers
// have no way to stop a channel), so each receive FIFO holds kHcubeStreamRxBytes bytes and
// kHcubeStreamRxSegments segments, and the host refuses a workload that could put more into one
// over the whole run (hcube_board_fits), whatever the host's drain rate. A byte that still found
// its FIFO full would be dropped and counted (overflow), never silently.
// Counters: per leaf bytes loaded (In, word 3 of its messages), bytes delivered to the host
// (Out), messages loaded, words refused, bytes overflowed (Other); network.held (Held: loaded,
// not yet delivered); every port's packets, messages, bytes and blocked cycles (Other), read by a
// scan into shadow registers (busy until a whole scan pass after the last byte inside).
#pragma once

#include <string>

#include "gen/core/design.h"
#include "gen/core/stream_board.h"
#include "gen/hcube/hcube_config.h"

namespace cmnet {

constexpr int kHcubeStreamSlotBits = 4;        // 16 messages per node
constexpr int kHcubeStreamStoreWordBits = 10;  // 1,024 words per node's store
constexpr int kHcubeStreamRxByteBits = 9;      // 512 bytes per receive FIFO
constexpr int kHcubeStreamRxSegBits = 5;       // 32 segments per receive FIFO
constexpr int kHcubeStreamRxBytes = 1 << kHcubeStreamRxByteBits;
constexpr int kHcubeStreamRxSegments = 1 << kHcubeStreamRxSegBits;
constexpr int kHcubeStreamWormSegment = 24;    // wormhole: bytes per segment

// The network's design (emit_hcube) with hcube_stream.v added; top hcube_stream.
GeneratedDesign emit_hcube_stream(const HcubeConfig& cfg);
StreamBoardSpec hcube_stream_spec(const HcubeConfig& cfg);
// Names of a port's counters on the bus ("n3.d1.packets").
std::string hcube_stream_port_counter(int node, int dim, int kind);

}  // namespace cmnet

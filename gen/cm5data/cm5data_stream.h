// The CM-5 data network on the shared stream board (hw/common/STREAM_BOARD.md): the module
// cm5data_stream (the stream port around cm5data_network: per leaf a network interface that
// turns a unit into a message and a delivered message into a unit) and the board's
// self-description (StreamBoardSpec: counters, regions, parameters).
//
// Units (as built):
//  - host -> leaf x: word 0 = {7'b0, mark[24], tag[23:20], 1'b0, len[18:16], dst[15:0]}, then
//    len data words (1..max_words). The leaf's interface holds the whole message (it is
//    accepted only whole; tx_ready is low while the leaf's previous message is still going out),
//    writes the routing instructions (U from its own number and dst, the digits of dst) and the
//    CRC, and sends a flit per cycle while it holds credits and `run` is 1;
//  - leaf -> host: the message as it arrived, whole: the head word (length, mark, U as it
//    arrived, tag, digits), the data words, the CRC word (the host checks it: cm5_crc_status).
//    Each leaf's receive FIFO holds 16 words; it returns a credit to the network while every flit
//    the network may still send has room.
// Counters (one region "network"): per leaf units accepted whole (In) and delivered whole (Out),
// and units inside (Held: accepted, not yet delivered); busy while Held is not 0.
#pragma once

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/design.h"
#include "gen/core/stream_board.h"

namespace cmnet {

// The unit's head word for a message to `dst` (what the host codec writes).
uint32_t cm5_stream_unit_head(uint32_t dst, int len, int tag, bool mark = false);
// Receive FIFO words per leaf.
constexpr int kCm5StreamRxWords = 16;

// The network's design (emit_cm5data) with cm5data_stream.v added; top cm5data_stream.
GeneratedDesign emit_cm5data_stream(const Cm5DataConfig& cfg);
// The board description for emit_stream_board.
StreamBoardSpec cm5data_stream_spec(const Cm5DataConfig& cfg);

}  // namespace cmnet

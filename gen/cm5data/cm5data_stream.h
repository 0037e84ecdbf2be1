// The CM-5 data network on the shared stream board (hw/common/STREAM_BOARD.md): the module
// cm5data_stream (the stream port around cm5data_network: per leaf a network interface that
// turns a unit into a message and a delivered message into a unit) and the board's
// self-description (StreamBoardSpec: counters, regions, parameters).
//
// Each leaf has two sides, left and right: two independent networks (cm5data_network and
// cm5data_network_r, the same tree with its own LFSR seeds), as the paper's processors do.
// Units (as built):
//  - host -> leaf x, a message: word 0 = {6'b0, side[25], mark[24], tag[23:20], 1'b0,
//    len[18:16], dst[15:0]}, then len data words (1..max_words). The leaf's interface holds the
//    whole message per side (it is accepted only whole; tx_ready is low while that side's
//    previous message is still going out),
//    writes the routing instructions (U from its own number and dst, the digits of dst) and the
//    CRC, and sends a flit per cycle while it holds credits and `run` is 1;
//  - host -> leaf x, control: one word {1'b1, 15'b0, mask[15:0]}: the leaf's tag mask register;
//  - leaf -> host: the message as it arrived, whole: the head word (length, mark, U as it
//    arrived, tag, digits; bit 31 set when it came on the right side), the data words, the CRC
//    word (the host clears bit 31 and checks it: cm5_crc_status). Each side's receive FIFO holds
//    16 words; it returns a credit to the network while every flit the network may still send
//    has room. A message whose tag's bit is set in the mask raises the leaf's interrupt (counted)
//    when it is whole in the FIFO.
// Counters: region "network": per leaf units accepted whole (In) and delivered whole (Out), both
// sides, interrupts (Other) and message units refused (Other: a message to a leaf mapped out of
// the address space, or any message at a mapped-out leaf: its words are taken and dropped); units inside (Held: accepted, not yet delivered). Then every
// chip's of both networks, a region per chip ("left.c3", "right.c0"): its message counters per
// port ("left.c3.in_c0" In, "left.c3.out_p1" Out; children c0..c3, parents p0..) and its CRC
// primary and secondary errors (Other). The chips' counters are read by a scan into shadow
// registers; busy while Held is not 0 and until a whole scan pass after the last message inside
// (so an idle board's counters are the chips').
#pragma once

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/design.h"
#include "gen/core/stream_board.h"

namespace cmnet {

// The chips' counters on the stream board's bus, in bus order (after the leaf counters and held).
struct Cm5StreamChipCounter {
  int side = 0;        // 0 left, 1 right network
  uint32_t chip = 0;
  int sel = 0;         // the chip's counter select (cm5_counter_names order)
  std::string name, region;
  CounterKind kind = CounterKind::Other;
};
std::vector<Cm5StreamChipCounter> cm5_stream_chip_counters(const Cm5DataParams& p);
std::string cm5_stream_chip_region(int side, uint32_t chip);

// The unit's head word for a message to `dst` (what the host codec writes).
uint32_t cm5_stream_unit_head(uint32_t dst, int len, int tag, bool mark = false, int side = 0);
// A control unit's word: set the leaf's tag mask.
uint32_t cm5_stream_mask_unit(uint16_t mask);
// Receive FIFO words per leaf.
constexpr int kCm5StreamRxWords = 16;

// The network's design (emit_cm5data) with cm5data_stream.v added; top cm5data_stream.
GeneratedDesign emit_cm5data_stream(const Cm5DataConfig& cfg);
// The board description for emit_stream_board.
StreamBoardSpec cm5data_stream_spec(const Cm5DataConfig& cfg);

}  // namespace cmnet

// The CM-5 data network on the shared stream board (hw/common/STREAM_BOARD.md): the module
// cm5data_stream (the stream port around cm5data_network: per leaf a network interface that
// turns a unit into a message and a delivered message into a unit) and the board's
// self-description (StreamBoardSpec: counters, regions, parameters).
//
// Each leaf has two sides, left and right: two independent networks (cm5data_network and
// cm5data_network_r, the same tree with its own LFSR seeds), as the paper's processors do, and a
// memory-mapped network interface per side (cm5data_ni, gen/cm5data/cm5data_ni_rtl.h, its send
// FIFO of cm5_stream_send_words words). A bridge per leaf reaches the two NIs from the host.
// Units (as built):
//  - host -> leaf x, a message: word 0 = {6'b0, side[25], mark[24], tag[23:20], 1'b0,
//    len[18:16], dst[15:0]}, then len data words: the bridge writes each data word to that side's
//    NI's SEND_DATA and then SEND {mark, tag, dst} once the send FIFO has room (so the NI writes
//    the routing instructions and the CRC, and a message is never refused for want of room; a
//    mapped-out leaf's is an address error in the NI);
//  - host -> leaf x, a register access: word 0 = {1, write[30], bridge[29], 3'b0, side[25], 21'b0,
//    addr[3:0]}, a write's data in word 1: the NI's registers (gen/cm5data/cm5data_ni_regmap.h,
//    applied in the cycle the word comes) or the bridge's (DRAIN, PACE: kBridgeRegisters);
//  - leaf -> host, a read's reply: {0, 0, side[29], bridge[28], 24'b0, addr[3:0]}, the value (read
//    as the host takes it: a RECV_DATA read takes the word);
//  - leaf -> host, a message (while the leaf's DRAIN bit for that side is set, as after reset):
//    the NI's RECV_HEAD with bit 29 = side ({1, crc_ok[30], side[29], fell[24], tag[23:20],
//    len[18:16], data words already read[3:0]}), then its data words, read out of the NI's
//    receive FIFO by RECV_DATA as the host takes them. The output takes whole units, the lowest
//    source first (leaf 0's reply, left message, right message, then leaf 1's...).
// A leaf takes no unit word while it waits to issue a SEND or to return a read, or while the
// output reads its NIs. The NIs send only while `run` is 1 and, while PACE is enabled, at its rate.
// Counters: region "network": per leaf messages accepted into its NIs' send FIFOs (In) and taken
// out of their receive FIFOs (Out), both sides, the messages that raised an NI's interrupt
// (Other) and SENDs that were address errors (Other: a message to or at a leaf mapped out of the
// address space); held (Held: accepted, not yet taken); last_arrival (Other: the cycles from
// clear or the last PACE write to the last message whole in a receive FIFO). Then every
// chip's of both networks, a region per chip ("left.c3", "right.c0"): its message counters per
// port ("left.c3.in_c0" In, "left.c3.out_p1" Out; children c0..c3, parents p0..) and its CRC
// primary and secondary errors (Other). The chips' counters are read by a scan into shadow
// registers; busy while a message is on its way (accepted, not yet whole at its receiver), the
// output or a leaf's bridge has work, and until a whole scan pass after the last message inside
// (so an idle board's counters are the chips'). A message left in a receive FIFO whose side is
// not drained waits for the host: the board is not busy for it.
#pragma once

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/design.h"
#include "gen/core/stream_board.h"

#include <vector>

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
// A register access unit's words: NI register `reg` (cm5nimap::kRegisters) or, with `bridge`,
// the bridge's (cm5nimap::kBridgeRegisters), of `side`; a write carries `data`.
std::vector<uint32_t> cm5_stream_access_unit(uint32_t reg, int side, bool write, uint32_t data = 0, bool bridge = false);
// What the board sends back: a read's reply (word 0's bit 31 clear) or a message (set).
inline bool cm5_stream_is_reply(uint32_t word0) { return (word0 >> 31) == 0; }
// A delivered message's head (RECV_HEAD with the side): as the model's delivery would read.
uint32_t cm5_stream_recv_head(bool crc_ok, bool fell, int tag, int len, int side);
// The NIs' send FIFO words on the board: the config's ni.send_words, else a power of 2 holding 8 of the
// longest messages (at most 64).
int cm5_stream_send_words(const Cm5DataParams& p);
// The pacer: leaf g's accumulator phase, and the first cycle (counted from the PACE write, the
// first cycle after it being 0) at which message k (0, 1, ...) of an NI may start at `rate`/65536
// messages per cycle.
constexpr uint32_t kCm5PacePhaseStep = 40503;  // 2^16 / golden ratio: phases spread over the leaves
inline uint32_t cm5_pace_phase(uint32_t g) { return (g * kCm5PacePhaseStep) & 0xFFFFu; }
uint64_t cm5_pace_start(uint32_t rate, uint32_t phase, uint64_t k);

// The network's design (emit_cm5data) with cm5data_stream.v added; top cm5data_stream.
GeneratedDesign emit_cm5data_stream(const Cm5DataConfig& cfg);
// The board description for emit_stream_board.
StreamBoardSpec cm5data_stream_spec(const Cm5DataConfig& cfg);

}  // namespace cmnet

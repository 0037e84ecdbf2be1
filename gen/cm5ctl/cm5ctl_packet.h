// The CM-5 control network packet (layout in gen/cm5ctl/cm5ctl_params.h), its field codes and
// their packing into the packet_bits word, shared by the emitter, the reference model and the
// harness. hw/cm5ctl/cm5ctl_pkg.vh holds the same positions for the RTL.
#pragma once

#include <cstdint>
#include <string>

namespace cmnet::cm5 {

// Packet types.
constexpr uint8_t kIdle = 0, kSingle = 1, kMulti = 2, kAbstain = 3;
// Multiple-source kinds.
constexpr uint8_t kReduce = 0, kScanFwd = 1, kScanBwd = 2, kSync = 3;
// Broadcast kinds (a single-source packet's kind field).
constexpr uint8_t kUser = 0, kSupervisor = 1, kInterrupt = 2, kUtility = 3;
// Combiners. ADDC and UADDC continue a multi-word addition: the word after an ADD (UADDC: a
// UADD) word, added with the carry each node kept from the word before (least significant
// word first; the words of a chain are consecutive operations).
constexpr uint8_t kOr = 0, kXor = 1, kMax = 2, kAdd = 3, kUadd = 4, kAddc = 5, kUaddc = 6;
constexpr int kCombs = 5;  // the one-word combiners
// A leaf's router-done operation (kind reduce, comb 7): the interface sums its data network
// counter over the partition with ADD reductions until the sum is zero (paper: Kirchhoff's
// current law); its result is the only one the processor sees. Never on a link.
constexpr uint8_t kRouterDone = 7;
// A flush: a single-source packet of kind kSupervisor with comb 7 (a broadcast pushed with
// comb 7 is one; paper: "the control network can be flushed in a manner similar to a broadcast").
constexpr uint8_t kFlushComb = 7;
inline bool is_add(uint8_t comb) { return comb >= kAdd && comb <= kUaddc; }
inline bool is_signed_add(uint8_t comb) { return comb == kAdd || comb == kAddc; }

// Bit positions.
// Bit 0 is the flow-control bit going down and the sender's flush epoch going up; bits 14:12
// the global bits (async OR 0, async OR 1 (privileged), hard-error OR).
constexpr int kFcBit = 0, kTypeLsb = 1, kKindLsb = 3, kCombLsb = 5, kSegdBit = 8, kSegBit = 9,
              kOvfBit = 10, kErrBit = 11, kGlobalLsb = 12, kDataLsb = 15;

struct Packet {
  uint8_t type = kIdle;
  uint8_t kind = 0;
  uint8_t comb = 0;
  bool segd = false;  // a segmented scan
  bool seg = false;   // up: a segment bit is set in the subtree
  bool ovf = false;
  bool err = false;
  bool fc = false;    // down: stop (flow control); up: the sender's flush epoch
  uint8_t g = 0;      // the global bits: 1 async OR 0, 2 async OR 1 (privileged), 4 hard-error OR
  uint64_t data = 0;

  uint64_t pack() const {
    return static_cast<uint64_t>(fc) << kFcBit | static_cast<uint64_t>(type & 3) << kTypeLsb |
           static_cast<uint64_t>(kind & 3) << kKindLsb | static_cast<uint64_t>(comb & 7) << kCombLsb |
           static_cast<uint64_t>(segd) << kSegdBit | static_cast<uint64_t>(seg) << kSegBit |
           static_cast<uint64_t>(ovf) << kOvfBit | static_cast<uint64_t>(err) << kErrBit |
           static_cast<uint64_t>(g & 7) << kGlobalLsb | data << kDataLsb;
  }
  static Packet unpack(uint64_t w, int word_bits) {
    Packet p;
    p.fc = (w >> kFcBit) & 1;
    p.type = (w >> kTypeLsb) & 3;
    p.kind = (w >> kKindLsb) & 3;
    p.comb = (w >> kCombLsb) & 7;
    p.segd = (w >> kSegdBit) & 1;
    p.seg = (w >> kSegBit) & 1;
    p.ovf = (w >> kOvfBit) & 1;
    p.err = (w >> kErrBit) & 1;
    p.g = (w >> kGlobalLsb) & 7;
    p.data = (w >> kDataLsb) & ((1ull << word_bits) - 1);
    return p;
  }
};

// The CM-5's 65-bit packet (config "packet": "cm5"; paper, section 5 and its Figure 5: "a
// fixed length of 65 bits ... broken into two parallel streams, a major stream and a minor
// stream"). The link sends it in 13 cycles: the major stream on wires 0..3 (4 bits a cycle, 52
// bits), the minor stream on wire 4 (1 bit a cycle, 13 bits); wires 5 and up carry 0. Where the
// paper gives no position, the choice is this one (cycle t of the frame, 0 first):
//   major bit  1:0   (t 0)     packet type: 0 idle, 1 single-source, 2 multiple-source, 3 abstain
//   major bits 3:2   (t 0)     operation: kind (reduce / scans / sync OR; the broadcast's kind)
//   major bits 6:4   (t 1)     operation: combiner (7 with a supervisor broadcast: flush)
//   major bit  7     (t 1)     operation: segmented scan
//   major bits 39:8  (t 2..9)  the 32-bit data word
//   major bits 42:40 (t 10)    global synchronization bits: asynchronous OR 0, asynchronous OR 1
//                              (privileged), hard-error OR; bit 43 reserved (0)
//   major bits 51:44 (t 11,12) CRC-8 (x^8 + x^2 + x + 1) of the other 57 bits (major 43:0, then
//                              minor 12:0, bit 0 first): the last information sent
//   minor bit  0     (t 0)     flow control (down: stop; up: the sender's flush epoch)
//   minor bit  1     (t 1)     segment bit
//   minor bit  2     (t 2)     status: overflow
//   minor bit  3     (t 3)     error
//   minor bits 12:4  (t 4..12) reserved (0; covered by the CRC)
// hw/cm5ctl/cm5ctl_link_tx.v and cm5ctl_link_rx.v (F = 1) build and check the same frame; the
// nodes keep the payload layout above (pack / unpack) inside.
struct Frame {
  uint64_t major = 0;  // 52 bits
  uint32_t minor = 0;  // 13 bits
};
constexpr int kFrameCycles = 13, kMajorWires = 4, kMinorWire = 4;
inline uint64_t frame_crc_input(const Frame& f) {
  return (f.major & ((1ull << 44) - 1)) | static_cast<uint64_t>(f.minor & 0x1FFF) << 44;
}
// CRC-8 (x^8 + x^2 + x + 1, initial 0) of the n low bits of `bits`, bit 0 first (as
// hw/cm5ctl/cm5ctl_crc8.v).
inline uint8_t crc8(uint64_t bits, int n) {
  uint8_t crc = 0;
  for (int i = 0; i < n; ++i) {
    const bool fb = ((crc >> 7) & 1) ^ ((bits >> i) & 1);
    crc = static_cast<uint8_t>(crc << 1);
    if (fb) crc ^= 0x07;
  }
  return crc;
}
inline Frame to_frame(const Packet& p) {
  Frame f;
  f.major = static_cast<uint64_t>(p.type & 3) | static_cast<uint64_t>(p.kind & 3) << 2 |
            static_cast<uint64_t>(p.comb & 7) << 4 | static_cast<uint64_t>(p.segd) << 7 |
            (p.data & 0xFFFFFFFFull) << 8 | static_cast<uint64_t>(p.g & 7) << 40;
  f.minor = static_cast<uint32_t>(p.fc) | static_cast<uint32_t>(p.seg) << 1 | static_cast<uint32_t>(p.ovf) << 2 |
            static_cast<uint32_t>(p.err) << 3;
  f.major |= static_cast<uint64_t>(crc8(frame_crc_input(f), 57)) << 44;
  return f;
}
// The packet in a received frame; *crc_ok false (and an idle packet) when the CRC is wrong.
inline Packet from_frame(const Frame& f, bool* crc_ok) {
  *crc_ok = crc8(frame_crc_input(f), 57) == ((f.major >> 44) & 0xFF);
  Packet p;
  if (!*crc_ok) return p;
  p.type = f.major & 3;
  p.kind = (f.major >> 2) & 3;
  p.comb = (f.major >> 4) & 7;
  p.segd = (f.major >> 7) & 1;
  p.data = (f.major >> 8) & 0xFFFFFFFFull;
  p.g = (f.major >> 40) & 7;
  p.fc = f.minor & 1;
  p.seg = (f.minor >> 1) & 1;
  p.ovf = (f.minor >> 2) & 1;
  p.err = (f.minor >> 3) & 1;
  return p;
}

inline const char* kind_name(uint8_t k) {
  static const char* n[] = {"reduce", "scan-fwd", "scan-bwd", "sync-or"};
  return n[k & 3];
}
inline const char* bcast_name(uint8_t k) {
  static const char* n[] = {"user", "supervisor", "interrupt", "utility"};
  return n[k & 3];
}
inline const char* comb_name(uint8_t c) {
  static const char* n[] = {"or", "xor", "max", "add", "uadd", "addc", "uaddc", "router-done"};
  return n[c & 7];
}

}  // namespace cmnet::cm5

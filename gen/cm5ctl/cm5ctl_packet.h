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

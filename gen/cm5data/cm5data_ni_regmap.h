// The register map of the CM-5 data network's network interface as an RTL block (one side of a
// processing node: cm5data_ni.v, emitted by gen/cm5data/cm5data_ni_rtl.h), described once: the
// emitter builds its read decode and write strobes from this table, the documentation table
// (gen/cm5data/README.md) is made from it, and the test's model adapter
// (sim/cm5data/cm5data_ni_regs.h) decodes by it.
//
// The bus: addr (word index), wdata, we, re, rdata; every access takes one cycle (no wait
// states): a read's rdata is the register's value at the start of the cycle, a write (or a
// read's side effect) takes effect at the clock edge that ends it.
#pragma once

#include <array>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <string_view>

namespace cmnet::cm5nimap {

struct Register {
  std::string_view name;
  uint32_t index;           // word address on the bus
  std::string_view access;  // "ro", "wo", "rw", "rc" (read with a side effect)
  std::string_view doc;
};

inline constexpr int kAddrBits = 4;

inline constexpr std::array<Register, 14> kRegisters = {{
    {"SEND_DATA", 0x0, "wo", "append a data word to the message being written (at most max_words; more set STATUS.overflow and are dropped)"},
    {"SEND", 0x1, "wo", "{mark[24], tag[23:20], dst[15:0]}: send the data words written as one message (mark: already marked all-fall-down); accepted only whole (send FIFO room for head, data and CRC), else refused (counted, STATUS.refused); dst or this leaf mapped out (or dst out of range): address error (counted, STATUS.address_error); no data words: ignored. The data words are cleared either way"},
    {"RECV_HEAD", 0x2, "ro", "the front whole message of the receive FIFO: {valid[31], crc_ok[30], fell[24], tag[23:20], len[18:16], next data word[3:0]}; 0 when there is none"},
    {"RECV_DATA", 0x3, "rc", "the front message's next data word, taken; after its last data word the message (with its CRC word) leaves the FIFO; 0 and no effect when there is none"},
    {"STATUS", 0x4, "rw", "r: {refused[31], address_error[30], overflow[29], interrupt[28], receive messages[23:16], send space[15:8], send words[7:0]} (words of the send FIFO; flags sticky); w: clears the three flags"},
    {"RECV_LEVEL", 0x5, "ro", "{whole messages[31:16], flits held[15:0]} of the receive FIFO (a partly arrived message's flits included)"},
    {"TAG_MASK", 0x6, "rw", "bits [15:0]: a message whose tag's bit is set raises the interrupt when it is whole in the receive FIFO"},
    {"INTERRUPT", 0x7, "rw", "r: bit0 the interrupt (sticky); w: clears it"},
    {"CNT_SENT", 0x8, "ro", "messages whose head flit left for the network"},
    {"CNT_RECEIVED", 0x9, "ro", "messages whole in the receive FIFO"},
    {"CNT_REFUSED", 0xA, "ro", "SEND writes refused for want of send FIFO room"},
    {"CNT_INTERRUPTS", 0xB, "ro", "messages that raised the interrupt (their tag's mask bit set)"},
    {"CNT_CRC_ERRORS", 0xC, "ro", "messages whose CRC word was not the CRC of their words"},
    {"CNT_ADDR_ERRORS", 0xD, "ro", "SEND writes refused for an address error"},
}};

consteval uint32_t index(std::string_view name) {
  for (const Register& r : kRegisters)
    if (r.name == name) return r.index;
  throw "no such cm5data NI register";  // not a constant expression: a compile error
}

// The same at run time (the host driver's names): std::invalid_argument for an unknown name.
constexpr uint32_t reg_index(std::string_view name) {
  for (const Register& r : kRegisters)
    if (r.name == name) return r.index;
  throw std::invalid_argument("no cm5data NI register " + std::string(name));
}

// The stream board's bridge registers (gen/cm5data/cm5data_stream.h), per leaf beside its two
// NIs, reached by a register-access unit with its bridge bit set.
inline constexpr std::array<Register, 2> kBridgeRegisters = {{
    {"DRAIN", 0x0, "rw", "bits {right[1], left[0]}: the board reads each whole message out of that side's NI (RECV_HEAD, then RECV_DATA as the host takes them) and sends it to the host as a unit (1 after reset); 0: the message stays in the NI's receive FIFO for the host's own reads"},
    {"PACE", 0x1, "rw", "{enable[31], rate[15:0]}, one for the board (a write from any leaf): while enabled, each NI's next message starts only with a token, a token coming when its leaf's 16-bit accumulator (phase per leaf, + rate a cycle from the write) carries: rate/65536 messages per cycle per NI. A write restarts the accumulators and the board's cycle count (last_arrival); clear disables it"},
}};
constexpr uint32_t bridge_index(std::string_view name) {
  for (const Register& r : kBridgeRegisters)
    if (r.name == name) return r.index;
  throw std::invalid_argument("no cm5data bridge register " + std::string(name));
}

// The table as Markdown (gen/cm5data/README.md carries it; a test checks it is current).
std::string markdown_table();
std::string bridge_markdown_table();  // the stream board's bridge registers

}  // namespace cmnet::cm5nimap

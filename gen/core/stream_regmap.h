// The stream board's register block (hw/common/cmnet_stream_regs.v), described once: the host
// driver's offsets (host/stream_board.h), the documentation table, LiteX's csr.csv and the
// block's Verilog decode (cmnet_stream_regs_decode, gen/core/register_decode.h) are made from
// this table.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "gen/core/register_decode.h"

namespace cmnet::streammap {

using regmap::Register;

inline constexpr uint32_t kBlockBase = 0x100;
inline constexpr uint32_t kBlockType = 0x5354524D;  // 'STRM'
inline constexpr uint32_t kBlockVersion = 1;
inline constexpr uint32_t kBlockSize = 0x100;
inline constexpr uint32_t kIdentifierBase = regmap::kIdentifierBase;
inline constexpr uint32_t kMaxCounters = 512;   // the counter window, 0x800..0x1000
inline constexpr uint32_t kMaxInfoWords = 4096; // the info ROM window from 0x1000

// The block header (+0x0..+0xC) is the shared one (gen/core/register_decode.h); then, in address
// order (the decode's ports are named after the registers: r_leaves, hit_control, in_counters):
inline constexpr std::array<Register, 16> kRegisters = {{
    {"LEAVES", 0x10, 1, "ro", "leaves of the network"},
    {"NCOUNTERS", 0x14, 1, "ro", "counters in the counter window"},
    {"INFO", 0x18, 1, "ro", "byte address of the info ROM", "A_INFO_ROM"},
    {"INFO_WORDS", 0x1C, 1, "ro", "words of the info ROM"},
    {"FIFO_WORDS", 0x20, 1, "ro", "depth of the transmit and the receive FIFO, in words"},
    {"CONTROL", 0x40, 1, "rw", "w: bit0 run (a level), bit1 clear (counters, CYCLES, TX_UNITS, RX_UNITS), bit2 resync (the next TX_STREAM word is a header); r: bit0 run"},
    {"STATUS", 0x44, 1, "ro", "bit0 busy, bit1 active (run and work to do), bit2 rx_valid, bit3 tx_empty"},
    {"CYCLES", 0x48, 1, "ro", "active cycles since the last clear"},
    {"TX_STREAM", 0x4C, 1, "rw", "w (burst, FIFO): unit records: a header {words[31:16], leaf[15:0]}, then the words; r: words the record still expects", {}, true},
    {"TX_FREE", 0x50, 1, "ro", "free words in the transmit FIFO (headers take none)"},
    {"TX_UNITS", 0x54, 1, "ro", "units written since the last clear"},
    {"RX_COUNT", 0x58, 1, "ro", "words in the receive FIFO"},
    {"RX_UNITS", 0x5C, 1, "ro", "units the host took since the last clear"},
    {"RX_PAIRS", 0x60, 1, "ro", "(burst 2 n reads, FIFO) even: {valid[31], last[30], leaf[15:0]} of the head word; odd: the word, taken", {}, true},
    // Windows, at absolute addresses, sized by the network.
    {"COUNTERS", 0x800, 0, "ro", "counter i at word i (named by the info ROM)"},
    {"INFO_ROM", 0x1000, 0, "ro", "the info ROM: text, 4 characters per word, the first in bits 7:0"},
}};

// The offset of register `name` (compile-time lookup: a misspelt name does not compile).
consteval uint32_t offset(std::string_view name) {
  for (const Register& r : kRegisters)
    if (r.name == name) return r.offset;
  throw "no such stream register";  // not a constant expression: a compile error
}
inline constexpr regmap::Block kBlock = {"cmnet_stream_regs_decode", "stream board register block",
                                         "hw/common/cmnet_stream_regs.v", "gen/core/stream_regmap.h", "strm",
                                         kBlockBase, kBlockType, kBlockVersion, kBlockSize, kRegisters};
constexpr uint32_t address(const Register& r) { return regmap::address(kBlock, r); }

// The register table as Markdown, and LiteX's csr.csv, for a board with these window sizes.
std::string markdown_table(uint32_t counters, uint32_t info_words);
std::string csr_csv(uint32_t counters, uint32_t info_words);

}  // namespace cmnet::streammap

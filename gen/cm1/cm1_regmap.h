// The CM-1 register block (hw/cm1/cm1_host_regs.v), described once: the host driver's offsets
// (host/cm1/cm1_board.h), the documentation table, LiteX's csr.csv and the block's Verilog
// decode (cm1_host_regs_decode: the read mux, the write selects, the window bases; made by
// gen/core/register_decode.h) all come from this table.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "gen/cm1/cm1_params.h"
#include "gen/core/register_decode.h"

namespace cmnet::cm1map {

using regmap::Register;

inline constexpr uint32_t kBlockBase = 0x100;        // the CM-1 block in the board's list
inline constexpr uint32_t kBlockType = 0x434D3120;   // 'CM1 '
inline constexpr uint32_t kBlockVersion = 2;
inline constexpr uint32_t kBlockSize = 0x10000;
// LiteX's identifier memory (csr.csv's identifier_mem): one character per word, NUL-terminated.
inline constexpr uint32_t kIdentifierBase = regmap::kIdentifierBase;

// The block header (+0x0..+0xC) is the shared one (gen/core/register_decode.h); then, in address
// order (the decode's ports are named after the registers: r_petit, hit_control, in_counters):
inline constexpr std::array<Register, 24> kRegisters = {{
    {"C", 0x10, 1, "ro", "cube dimensions c (2^c router chips)"},
    {"B", 0x14, 1, "ro", "heart rows b"},
    {"P", 0x18, 1, "ro", "processors per chip"},
    {"V", 0x1C, 1, "ro", "VP-ADDRESS bits"},
    {"D", 0x20, 1, "ro", "DATA bits"},
    {"L", 0x24, 1, "ro", "message length l in bits"},
    {"TP", 0x28, 1, "ro", "petit period in bit-times"},
    {"QUEUE_DEPTH", 0x2C, 1, "ro", "messages each endpoint's queue holds"},
    {"NCOUNTERS", 0x30, 1, "ro", "counters per chip"},
    {"CNT_STRIDE", 0x34, 1, "ro", "counter words per chip in the counter window (a power of two)"},
    {"EP_HIST", 0x38, 1, "ro", "byte address of the per-endpoint delivery histograms", "A_ENDPOINT_HIST"},
    {"CONTROL", 0x40, 1, "rw", "w: bit0 start, bit1 clear, bit2 eject_one; r: bit0 running, bit2 eject_one"},
    {"STATUS", 0x44, 1, "ro", "bit0 running, bit1 pending, bit2 buffered, bit3 load_full, bit4 hist_overrun"},
    {"PETIT", 0x48, 1, "ro", "petit cycles of the last (or current) run"},
    {"CYCLES", 0x4C, 1, "ro", "bit-times since the last start"},
    {"LOAD", 0x50, 1, "rw", "w: SRC, DST, VP, DATA_LO (and DATA_HI if D > 32), pushed after the last word; r: words taken", {}, true},
    {"LOAD_DROPS", 0x54, 1, "ro", "messages dropped because the endpoint's queue was full"},
    {"GEN", 0x58, 1, "rw", "w: bits 2:0 pattern, bit 8 go (on-chip generator); r: bit0 busy"},
    {"GEN_COUNT", 0x5C, 1, "rw", "on-chip generator: messages per processor"},
    {"GEN_SEED", 0x60, 1, "rw", "on-chip generator: seed"},
    {"HIST", 0x80, 16, "ro", "receptions delivered in petit cycle k = 0..15 (15: 15 or later)"},
    // Windows, at absolute addresses, sized by the network (window_words).
    {"COUNTERS", 0x800, 0, "ro", "counter i of chip n at word n * CNT_STRIDE + i (cnt_sel order)"},
    {"ENDPOINTS", 0x8000, 0, "ro", "per processor g, 4 words at 16 g: COUNT, XOR, SUM of delivery petit, INJECTED"},
    {"ENDPOINT_HIST", 0x200000, 0, "ro", "per processor g, 16 words at 64 g: receptions in petit cycle k"},
}};

// The offset of register `name` (compile-time lookup: a misspelt name does not compile).
consteval uint32_t offset(std::string_view name) {
  for (const Register& r : kRegisters)
    if (r.name == name) return r.offset;
  throw "no such CM-1 register";  // not a constant expression: a compile error
}

inline constexpr regmap::Block kBlock = {"cm1_host_regs_decode", "CM-1 register block", "hw/cm1/cm1_host_regs.v",
                                         "gen/cm1/cm1_regmap.h", "cm1", kBlockBase, kBlockType, kBlockVersion,
                                         kBlockSize, kRegisters};

// The absolute address of a register on the board.
constexpr uint32_t address(const Register& r) { return regmap::address(kBlock, r); }
// Words of a register: a window's for this network (COUNTERS, ENDPOINTS, ENDPOINT_HIST).
uint32_t window_words(const Register& r, const Cm1Params& p, uint32_t cnt_stride);

// The register table as Markdown (name, absolute address, words, access, meaning).
std::string markdown_table(const Cm1Params& p, uint32_t cnt_stride);
// LiteX's csr.csv (csr_base / csr_register rows: name, address, size in words, mode), so
// litex_client --regs and RemoteClient find the registers by name.
std::string csr_csv(const Cm1Params& p, uint32_t cnt_stride);

}  // namespace cmnet::cm1map

// A board's register block described once, and its Verilog decode made from that description:
// the read mux (the BOARD block, the family block's header, every register and window, LiteX's
// identifier memory), the write selects and the window bases, with a comment per register. The
// host driver's offsets, csr.csv, the documentation table and this decode all come from one
// table (gen/core/stream_regmap.h, gen/cm1/cm1_regmap.h); the hand-written block around the
// decode (hw/common/cmnet_stream_regs.v, hw/cm1/cm1_host_regs.v) gives each register its value
// and acts on its select.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace cmnet::regmap {

// The self-describing map every board carries: the BOARD block at 0 ('CMNT', v1, SIZE 0x100:
// CLOCK_HZ, LINK, CONFIG_ID), then the family's block; every block starts with TYPE, VERSION,
// NEXT (byte address of the next block, 0 = last) and SIZE. The host reads it through
// host/board_blocks.h.
inline constexpr uint32_t kBoardType = 0x434D4E54;  // 'CMNT'
inline constexpr uint32_t kBoardVersion = 1;
inline constexpr uint32_t kBoardSize = 0x100;
inline constexpr uint32_t kType = 0x0, kVersion = 0x4, kNext = 0x8, kSize = 0xC;
inline constexpr uint32_t kClockHz = 0x10, kLink = 0x14, kConfigId = 0x18;  // in the BOARD block
// LiteX's identifier memory (csr.csv's identifier_mem): one character per word, NUL-terminated.
inline constexpr uint32_t kIdentifierBase = 0x400;
inline constexpr uint32_t kIdentifierWords = 256;

struct Register {
  std::string_view name;    // upper case; the decode's ports are named after it in lower case
  uint32_t offset;          // bytes from the block base; for a window, its absolute address
  uint32_t words;           // consecutive 32-bit words; 0 for a window (sized by the network)
  std::string_view access;  // "ro", "rw", "wo"
  std::string_view doc;
  // A value fixed by the map: a Verilog expression over the decode's own parameters and window
  // bases (A_<WINDOW>); empty: the value comes in on the decode's port r_<name>.
  std::string_view value = {};
  // Accesses have side effects (a FIFO register): the decode gives its select hit_<name> even
  // when it is read-only. A writable register always has one.
  bool fifo = false;
  constexpr bool window() const { return words == 0; }
  constexpr bool writable() const { return access != "ro"; }
};

// A family's register block: where it sits in the list and its registers, in address order.
struct Block {
  std::string_view decode_module;  // the generated module, e.g. "cm1_host_regs_decode"
  std::string_view name;           // "CM-1 register block"
  std::string_view rtl;            // the hand-written block around the decode, "hw/cm1/cm1_host_regs.v"
  std::string_view source;         // the description, e.g. "gen/cm1/cm1_regmap.h"
  std::string_view litex;          // the block's name in csr.csv ("cm1": cm1_control, ...)
  uint32_t base;                   // the block's address (the BOARD block's NEXT)
  uint32_t type;                   // four ASCII characters, the first in the top byte
  uint32_t version;
  uint32_t size;                   // the block's SIZE word
  std::span<const Register> registers;
};

constexpr uint32_t address(const Block& b, const Register& r) { return r.window() ? r.offset : b.base + r.offset; }

// The register's port stem: its name in lower case ("GEN_COUNT" -> "gen_count").
std::string port_name(std::string_view name);

// The decode module of `b` (Verilog-2005, one file, the same bytes for every board of the
// family: window sizes are its parameters <NAME>_WORDS). Ports:
//   addr                     the bus address
//   r_<name> (in, 32 bits)   the value of each readable register without a fixed value, and the
//                            read data of each window and multi-word register at <name>_word
//   in_<name>, <name>_word   (out) addr is in that window or multi-word register, at that word
//   hit_<name> (out)         addr is that writable (or FIFO) register
//   rdata, err (out)         what a read of addr answers; err: addr reads nothing
// It instantiates cmnet_ident_rom for LiteX's identifier memory.
std::string emit_decode(const Block& b);

// A window's words on one board (sized by the network); other registers have their own.
using WindowWords = std::function<uint32_t(const Register&)>;
// The block's registers as Markdown (name, absolute address, words, access, meaning).
std::string markdown_table(const Block& b, const WindowWords& window_words);
// LiteX's csr.csv of a board with this block (gen/core/host_board.h: the BOARD block's rows, the
// identifier memory, then every register as <litex>_<name>), so litex_client --regs and
// RemoteClient find the registers by name.
std::string csr_csv(const Block& b, const WindowWords& window_words);

}  // namespace cmnet::regmap

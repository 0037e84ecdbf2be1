// FPGA boards as data: constraints/boards/NAME.json describes a board (family, device and
// package for the tools, clock, reset, LEDs, UART, FT2232H FIFO, headers, host link,
// openFPGALoader name). The full pin files of each board sit beside it (constraints/*.pcf,
// *.xdc); the flow writes a per-build constraint file with only the ports the top uses.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gen/core/selftest_top.h"

namespace cmnet {

struct BoardPin {
  std::string name;        // the board's own signal name (as in its pin file)
  std::string pin;         // package pin / ball
  bool active_low = false;
  std::string note;
};

struct Board {
  std::string name;             // file stem, e.g. "icebreaker"
  std::string description;
  std::string family;           // "ice40" (placed, routed, packed) or "xc7" (yosys estimate)
  std::string device;           // ice40: "up5k", "hx8k", ...; xc7: the Vivado part
  std::string package;          // ice40: nextpnr --package; xc7: package name
  std::string part;             // human part name, e.g. "iCE40UP5K-SG48"
  std::string pin_file;         // full pin file, relative to the constraints directory
  double clock_mhz = 0;
  BoardPin clock;
  std::optional<BoardPin> reset;
  std::vector<BoardPin> leds;
  std::optional<BoardPin> uart_rx;   // into the FPGA
  std::optional<BoardPin> uart_tx;   // out of the FPGA
  std::string uart_bridge;           // e.g. "FT2232H channel B"
  std::vector<BoardPin> ft2232h_fifo;  // empty when the FIFO is not wired to the FPGA
  std::vector<std::pair<std::string, std::vector<BoardPin>>> headers;  // PMODs etc., in file order
  std::vector<std::string> cube_headers;  // headers carrying cube wires, in order
  std::string host_link;             // "uart", "ft2232h-fifo", ...
  std::string openfpgaloader_board;  // openFPGALoader -b NAME
  std::string source;                // the JSON file it was read from

  // Capacity of the device (ice40: from the datasheet; xc7: Artix-7 35T figures).
  int logic_cells = 0;  // ice40 LCs (LUT4 + DFF) / xc7 LUT6
  int flip_flops = 0;
  int ram_blocks = 0;   // ice40 SB_RAM40_4K / xc7 RAMB36 equivalents
  int io_pins = 0;      // user IOs of this package

  // Pins for cube wires, in order: pairs (out, in) per dimension.
  std::vector<BoardPin> cube_pins() const;
};

// Directory of the board files: $CMNET_BOARDS_DIR, else <source>/constraints/boards.
std::string boards_dir();
// The constraints directory (pin files): the parent of boards_dir().
std::string constraints_dir();
std::vector<std::string> known_boards();
// `name_or_path`: a known board name, or a path to a .json board file. Throws ConfigError
// ("unknown board 'x' (known: a, b)", "FILE: field 'clock.mhz': value -1: must be > 0").
Board load_board(const std::string& name_or_path);
Board parse_board(const std::string& text, const std::string& where);

// Constraint files for a top with the given ports (only those that exist on the board).
// Port names: clk, rst_btn (the board's button, either polarity: the top is told which) or
// btn_n (a top that wants an active-low button), led[i], uart_tx, uart_rx, cube_out[i],
// cube_in[i], and for the multi-board top sync_out, sync_in and chip_id[i] (straps, with the
// FPGA's pull-ups on iCE40). On the cube headers: dimension i on pins (2i, 2i+1), then
// sync_out, sync_in, then the chip_id straps.
struct TopPorts {
  bool reset = false;
  bool reset_n = false;  // btn_n
  int leds = 0;
  bool uart_tx = false;
  bool uart_rx = false;
  int cube_dims = 0;  // chip mode: cube_out/cube_in width
  bool sync = false;  // cube mode: sync_out and sync_in
  int chip_id = 0;    // cube mode: chip_id strap width
};
std::string make_pcf(const Board& b, const TopPorts& t);
// A self-test top's reset button and LEDs (the first 2 or 3: pass, fail, running) on this board;
// the pass LED of a 2-LED board blinks at about 3 Hz while running. ConfigError with fewer than 2 LEDs.
board_parts::SelfTestPins selftest_pins(const Board& b);
std::string make_xdc(const Board& b, const TopPorts& t);

}  // namespace cmnet

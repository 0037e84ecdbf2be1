// Pieces of the self-test board tops (a network with its traffic in a ROM and LEDs for pass,
// fail and running), shared by the families that have one (gen/cm1, gen/cm5data): the reset
// block, the LEDs, sized literals, and adding a top module to a generated design. Each writes
// into the caller's VerilogWriter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/core/design.h"
#include "gen/core/verilog_writer.h"

namespace cmnet::board_parts {

// The board-facing ports of a self-test top: the reset button (if any, and its polarity) and
// the LEDs (2 or 3: pass, fail, running), and the blink period of a 2-LED board's pass LED.
struct SelfTestPins {
  bool reset_port = true;        // a reset button exists (rst_btn)
  bool reset_active_low = true;  // the button reads 0 when pressed
  std::vector<bool> led_active_low = {false, false, false};
  int blink_log2 = 22;           // 2^blink_log2 cycles (0.35 s at 12 MHz)
};

// A little-endian bit vector written as a sized Verilog hex literal.
struct Bits {
  std::vector<bool> b;
  void put(uint64_t v, int width);
  std::string literal() const;
};
std::string hexlit(uint64_t v, int width);

// Per-leaf (or per-node) constants as one vector localparam: entry g at [g*width +: width].
std::string vector_param(const std::string& name, int width, const std::vector<uint64_t>& values);

// `rst`: held by a power-on counter (iCE40 flip-flops start at 0) and, with a button port
// `rst_btn`, by the synchronized button.
void emit_reset(VerilogWriter& v, bool reset_port, bool active_low);

// The top's port list for `pins` (clk, rst_btn, led, uart_tx), each line of a module header.
std::vector<std::string> selftest_port_lines(const SelfTestPins& pins);

// The verdict of a top that counts its cycles in `cyc` (TW bits) up to the localparam LIMIT: once
// `finished` (an expression) or at the limit, `done`; `pass` when finished and `ok`. The caller
// declares cyc, done and pass as registers.
void emit_verdict(VerilogWriter& v, int TW, const std::string& finished, const std::string& ok);

// LEDs from `done` and `pass` (wires the caller declares): with 3 LEDs, {running, fail, pass};
// with 2, {fail, pass-or-blinking}. Active-low LEDs are inverted. Also drives uart_tx idle.
void emit_leds(VerilogWriter& v, const std::vector<bool>& led_active_low, int blink_log2);

// Inserts `name`.v before filelist.f (dropping the file `drop_file` unless it is empty), rebuilds the
// filelist and makes `name` the top.
void add_top(GeneratedDesign& d, const std::string& name, const std::string& text, const std::string& drop_file);

}  // namespace cmnet::board_parts

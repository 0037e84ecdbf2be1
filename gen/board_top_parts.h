// Pieces shared by the self-test board tops (gen/cm1_board_emitter.*, gen/cm1_cube_board_emitter.*):
// the reset block, the reception accumulators, the LEDs, sized literals, and adding a top
// module to a generated design. Each writes into the caller's VerilogWriter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1_emitter.h"
#include "gen/verilog_writer.h"

namespace cmnet::board_parts {

// A little-endian bit vector written as a sized Verilog hex literal.
struct Bits {
  std::vector<bool> b;
  void put(uint64_t v, int width);
  std::string literal() const;
};
std::string hexlit(uint64_t v, int width);

// `rst`: held by a power-on counter (iCE40 flip-flops start at 0) and, with a button port
// `rst_btn`, by the synchronized button.
void emit_reset(VerilogWriter& v, bool reset_port, bool active_low);

// Functions pop_p(x) (TW bits) and xor_p(x, words) (W bits) over P processors; the module
// must declare localparams P, W and TW first.
void emit_reception_functions(VerilogWriter& v);

// LEDs from `done` and `pass` (wires the caller declares): with 3 LEDs, {running, fail, pass};
// with 2, {fail, pass-or-blinking}. Active-low LEDs are inverted. Also drives uart_tx idle.
void emit_leds(VerilogWriter& v, const std::vector<bool>& led_active_low, int blink_log2);

// Inserts `name`.v before filelist.f (optionally dropping cm1_network.v), rebuilds the
// filelist and makes `name` the top.
void add_top(GeneratedDesign& d, const std::string& name, const std::string& text, bool drop_network);

}  // namespace cmnet::board_parts

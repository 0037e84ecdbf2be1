// Pieces shared by the self-test board tops (gen/cm1_board_emitter.*, gen/cm1_cube_board_emitter.*):
// the reset block, the reception accumulators, the LEDs, sized literals, and adding a top
// module to a generated design. Each writes into the caller's VerilogWriter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_emitter.h"
#include "gen/cm1/cm1_config.h"
#include "gen/cm1/cm1_message.h"
#include "gen/core/selftest_top.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
struct BoardTopOptions;
}

namespace cmnet::board_parts {

// The LED count, blink period and messages per processor of a self-test top; `what` names the
// top in the error.
void check_selftest_options(const Cm1Config& cfg, const BoardTopOptions& o, const std::string& what);

// The self-test pattern's ROM layout: entries {data, vp, dst proc, dst chip, src}, LSB first.
struct PatternRom {
  int src_w = 1;           // source field width
  bool src_local = false;  // the source field is the processor on its chip (else global)
  int C = 1, P = 1, proc_field = 1, vp_field = 1, D = 1;
  int width() const { return src_w + C + proc_field + vp_field + D; }
};
// The layout for `p`, with a source field of `src_w` bits (`src_local`: the processor on its chip).
PatternRom pattern_rom_layout(const Cm1Params& p, int src_w, bool src_local);
// `reg [W-1:0] rom [0:depth-1]` initialized with `msgs` in order (entries past them are 0).
void emit_pattern_rom(VerilogWriter& v, const PatternRom& r, const std::vector<Message>& msgs, int depth);
// Wires ld_src, ld_chip, ld_dproc, ld_vp, ld_data slicing rom_q (declared by the caller).
void emit_pattern_fields(VerilogWriter& v, const PatternRom& r);

// How a self-test top drives the chip it tests; the load port, receptions and counters are
// wired to the loader's names (ld_*, rx_*, cnt_*) in every top.
struct ChipHookup {
  std::string rst, ce, phase, my_chip, cube_in;
};
// The one cm1_chip instance of the chip and cube self-test tops.
void emit_chip_instance(VerilogWriter& v, const Cm1Params& p, const ChipHookup& h);

// Functions pop_p(x) (TW bits) and xor_p(x, words) (W bits) over P processors; the module
// must declare localparams P, W and TW first.
void emit_reception_functions(VerilogWriter& v);

}  // namespace cmnet::board_parts

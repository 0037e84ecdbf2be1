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
// `reg [W-1:0] rom [0:depth-1]` initialized with `msgs` in order (entries past them are 0).
void emit_pattern_rom(VerilogWriter& v, const PatternRom& r, const std::vector<Message>& msgs, int depth);
// Wires ld_src, ld_chip, ld_dproc, ld_vp, ld_data slicing rom_q (declared by the caller).
void emit_pattern_fields(VerilogWriter& v, const PatternRom& r);

// Functions pop_p(x) (TW bits) and xor_p(x, words) (W bits) over P processors; the module
// must declare localparams P, W and TW first.
void emit_reception_functions(VerilogWriter& v);

}  // namespace cmnet::board_parts

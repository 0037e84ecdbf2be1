// Pieces shared by the CM-1 self-test board tops (gen/cm1/cm1_board_emitter.*,
// gen/cm1/cm1_cube_board_emitter.*): their sizes, ports, pattern ROM, the chip and its wires, the
// reception counters and the end of the check (the family-neutral pieces are in
// gen/core/selftest_top.h). Each writes into the caller's VerilogWriter.
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

// What every self-test top derives from the chip, its options and its `messages`.
struct SelftestSizes {
  Cm1Widths w{};
  int C = 0, P = 0, D = 0;  // cube dimensions, processors per chip, data bits
  int W = 0;                // a reception's {DATA, VP} word
  int TP = 0, PW = 0;       // the petit period in bit-times, the phase's bits
  int NM = 0, TW = 0;       // messages, the bits of a reception count
  int NCNT = 0;             // counters per chip
  int FLUSH = 0, FW = 0;    // bit-times the flush waits, its counter's bits
  int K = 0;                // LEDs
};
SelftestSizes selftest_sizes(const Cm1Params& p, const BoardTopOptions& o, size_t messages);

// The chip's rows of a top's header: rows, processors, VP and data bits, eject mode.
std::vector<std::pair<std::string, std::string>> chip_header_rows(const Cm1Params& p);
// The port lines `input wire clk` and, with a button, rst_btn (`restarts`: what pressing it
// restarts, for its comment).
void emit_clock_reset_ports(VerilogWriter& v, const SelfTestPins& o, const std::string& restarts);
// The LED port line: K = 2 or 3 LEDs.
void emit_led_port(VerilogWriter& v, int K);
// localparams P, W and TW, which emit_reception_functions and emit_reception_counter read.
void emit_reception_localparams(VerilogWriter& v, const SelftestSizes& s);

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
// rom_q (declared by the caller) reading rom at `addr` every clock, and its fields.
void emit_pattern_read(VerilogWriter& v, const PatternRom& r, const std::string& addr);

// How a self-test top drives the chip it tests; the load port, receptions and counters are
// wired to the loader's names (ld_*, rx_*, cnt_*) in every top.
struct ChipHookup {
  std::string rst, ce, phase, my_chip, cube_in;
};
// The one cm1_chip instance of the chip and cube self-test tops.
void emit_chip_instance(VerilogWriter& v, const Cm1Params& p, const ChipHookup& h);
// The run register and the wires to the design under test of `procs` processors: run, phase
// (`phase_w` bits; 0: declared elsewhere), msgs_present, pending, rx_valid, rx_word, inj_valid
// (unused, for the reason `why_unused`).
void emit_dut_wires(VerilogWriter& v, int procs, int W, int phase_w, const std::string& why_unused);

// Functions pop_p(x) (TW bits) and xor_p(x, words) (W bits) over P processors; the module
// must declare localparams P, W and TW first.
void emit_reception_functions(VerilogWriter& v);
// One chip's reception count rx_n and XOR x_n of its {DATA, VP} words, through pc_q and px_q.
struct ReceptionCounter {
  std::string rst;           // the counter's reset
  std::string valid, words;  // the chip's rx_valid and rx_word
  std::string ce;            // receptions are looked at only when ce is high ("": every clock)
  bool harness_reads = false;  // rx_n and x_n public to the simulation harness
};
void emit_reception_counter(VerilogWriter& v, const ReceptionCounter& r);

// The end of the self-test's run-control block and of the module: the states S_DRAIN and
// S_CHECK (pass is the AND of `pass_terms`, a line each), the lines `more_cases`, the close of the
// case and the always block the caller opened, `done`, the LEDs, endmodule.
void emit_check_and_end(VerilogWriter& v, const std::vector<std::string>& pass_terms,
                        const std::vector<std::string>& more_cases, const SelfTestPins& o);

}  // namespace cmnet::board_parts

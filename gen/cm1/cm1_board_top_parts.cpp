#include "gen/cm1/cm1_board_top_parts.h"

#include <algorithm>

#include "gen/cm1/cm1_board_emitter.h"
#include "gen/core/errors.h"

namespace cmnet::board_parts {

void check_selftest_options(const Cm1Config& cfg, const BoardTopOptions& o, const std::string& what) {
  if (o.led_active_low.size() < 2 || o.led_active_low.size() > 3)
    throw ConfigError(what + ": " + std::to_string(o.led_active_low.size()) +
                      " LEDs given; the self-test top drives 2 or 3 (pass, fail, running)");
  if (o.blink_log2 < 2 || o.blink_log2 > 30)
    throw ConfigError(what + ": blink_log2 = " + std::to_string(o.blink_log2) + " out of range 2..30");
  if (o.per_proc < 1 || o.per_proc > cfg.cm1.queue_depth)
    throw ConfigError(what + ": per_proc = " + std::to_string(o.per_proc) + " out of range 1.." +
                      std::to_string(cfg.cm1.queue_depth) +
                      " (the self-test loads the whole pattern before the run, so each "
                      "endpoint's queue_depth bounds the messages per processor)");
}

SelftestSizes selftest_sizes(const Cm1Params& p, const BoardTopOptions& o, size_t messages) {
  SelftestSizes s;
  s.w = cm1_widths(p);
  s.C = p.cube_dims;
  s.P = p.procs_per_chip;
  s.D = p.data_bits;
  s.W = s.w.rx_word;
  s.TP = p.petit_period();
  s.PW = s.w.phase;
  s.NM = static_cast<int>(messages);
  s.TW = std::max(2, clog2(static_cast<uint64_t>(s.NM) + 1) + 1);
  s.NCNT = static_cast<int>(cm1_counter_names(p).size());
  s.FLUSH = 3 * s.TP + 8;
  s.FW = clog2(static_cast<uint64_t>(s.FLUSH) + 1);
  s.K = static_cast<int>(o.led_active_low.size());
  return s;
}

std::vector<std::pair<std::string, std::string>> chip_header_rows(const Cm1Params& p) {
  return {{"rows b", S(p.rows)},
          {"procs_per_chip P", S(p.procs_per_chip)},
          {"vp_bits v", S(p.vp_bits)},
          {"data_bits d", S(p.data_bits)},
          {"eject mode", to_string(p.eject_mode)}};
}

void emit_clock_reset_ports(VerilogWriter& v, const SelfTestPins& o, const std::string& restarts) {
  v.line("input  wire clk,");
  if (o.reset_port)
    v.line(std::string("input  wire rst_btn,          // reset button, active ") + (o.reset_active_low ? "low" : "high") +
           " (" + restarts + ")");
}

void emit_led_port(VerilogWriter& v, int K) {
  v.line("output wire [" + S(K - 1) + ":0] led,        // " +
         std::string(K >= 3 ? "0: pass, 1: fail, 2: running" : "0: pass (blinks while running), 1: fail"));
}

void emit_reception_localparams(VerilogWriter& v, const SelftestSizes& s) {
  v.line("localparam integer P = " + S(s.P) + ";");
  v.line("localparam integer W = " + S(s.W) + ";");
  v.line("localparam integer TW = " + S(s.TW) + ";");
}

void emit_pattern_rom(VerilogWriter& v, const PatternRom& r, const std::vector<Message>& msgs, int depth) {
  const int n = static_cast<int>(msgs.size());
  v.line("reg [" + std::to_string(r.width() - 1) + ":0] rom [0:" + std::to_string(depth - 1) + "];" +
         (depth > n ? "  // the whole address range: entries past the pattern are 0" : ""));
  v.line("initial begin");
  const int pb = [&] { int b = 0; while ((1 << b) < r.P) ++b; return b; }();
  const uint32_t pmask = static_cast<uint32_t>(r.P - 1);
  for (int i = 0; i < n; ++i) {
    const Message& m = msgs[static_cast<size_t>(i)];
    Bits b;
    b.put(r.src_local ? (m.src & pmask) : m.src, r.src_w);
    b.put(m.dst >> pb, r.C);
    b.put(m.dst & pmask, r.proc_field);
    b.put(m.vp, r.vp_field);
    b.put(m.data, r.D);
    v.line("  rom[" + std::to_string(i) + "] = " + b.literal() + ";");
  }
  for (int i = n; i < depth; ++i) v.line("  rom[" + std::to_string(i) + "] = " + std::to_string(r.width()) + "'d0;");
  v.line("end");
}

void emit_pattern_fields(VerilogWriter& v, const PatternRom& r) {
  int off = 0;
  auto field = [&](const std::string& name, int width) {
    v.line("wire [" + std::to_string(width - 1) + ":0] " + name + " = rom_q[" + std::to_string(off + width - 1) + ":" +
           std::to_string(off) + "];");
    off += width;
  };
  field("ld_src", r.src_w);
  field("ld_chip", r.C);
  field("ld_dproc", r.proc_field);
  field("ld_vp", r.vp_field);
  field("ld_data", r.D);
}

void emit_pattern_read(VerilogWriter& v, const PatternRom& r, const std::string& addr) {
  v.line("always @(posedge clk) rom_q <= rom[" + addr + "];");
  emit_pattern_fields(v, r);
}

void emit_dut_wires(VerilogWriter& v, int procs, int W, int phase_w, const std::string& why_unused) {
  v.line("reg run;");
  if (phase_w > 0) v.line("wire [" + S(phase_w - 1) + ":0] phase;");
  v.line("wire msgs_present;");
  v.line("wire pending;");
  v.line("wire [" + S(procs - 1) + ":0] rx_valid;");
  v.line("wire [" + S(procs * W - 1) + ":0] rx_word;");
  v.line("wire [" + S(procs - 1) + ":0] inj_valid;");
  v.line("wire unused_inj = &{1'b0, inj_valid};  // " + why_unused);
}

void emit_reception_counter(VerilogWriter& v, const ReceptionCounter& r) {
  const std::string pub = r.harness_reads ? " /*verilator public_flat_rd*/" : "";
  const std::string pop = "pop_p(" + r.valid + ")", x = "xor_p(" + r.valid + ", " + r.words + ")";
  v.line("reg [TW-1:0] pc_q;");
  v.line("reg [W-1:0] px_q;");
  v.line("reg [TW-1:0] rx_n" + pub + ";");
  v.line("reg [W-1:0] x_n" + pub + ";");
  v.line("always @(posedge clk) begin");
  v.line("  if (" + r.rst + ") begin");
  v.line("    pc_q <= {TW{1'b0}};");
  v.line("    px_q <= {W{1'b0}};");
  v.line("    rx_n <= {TW{1'b0}};");
  v.line("    x_n <= {W{1'b0}};");
  v.line("  end else begin");
  v.line("    pc_q <= " + (r.ce.empty() ? pop : r.ce + " ? " + pop + " : {TW{1'b0}}") + ";");
  v.line("    px_q <= " + (r.ce.empty() ? x : r.ce + " ? " + x + " : {W{1'b0}}") + ";");
  v.line("    rx_n <= rx_n + pc_q;");
  v.line("    x_n <= x_n ^ px_q;");
  v.line("  end");
  v.line("end");
}

void emit_check_and_end(VerilogWriter& v, const std::vector<std::string>& pass_terms,
                        const std::vector<std::string>& more_cases, const SelfTestPins& o) {
  v.line("      S_DRAIN: state <= S_CHECK;");
  v.line("      S_CHECK: begin");
  for (size_t i = 0; i < pass_terms.size(); ++i)
    v.line((i == 0 ? "        pass <= " : "             && ") + pass_terms[i] + (i + 1 == pass_terms.size() ? ";" : ""));
  v.line("        state <= S_DONE;");
  v.line("      end");
  for (const std::string& l : more_cases) v.line(l);
  v.line("      default: ;");
  v.line("    endcase");
  v.line("  end");
  v.line("end");
  v.line();
  v.line("wire done = (state == S_DONE);");
  emit_leds(v, o.led_active_low, o.blink_log2);
  v.end_module();
}

void emit_reception_functions(VerilogWriter& v) {
  v.line("function [TW-1:0] pop_p;");
  v.line("  input [P-1:0] x;");
  v.line("  integer k;");
  v.line("  begin");
  v.line("    pop_p = {TW{1'b0}};");
  v.line("    for (k = 0; k < P; k = k + 1) pop_p = pop_p + {{TW-1{1'b0}}, x[k]};");
  v.line("  end");
  v.line("endfunction");
  v.line("function [W-1:0] xor_p;");
  v.line("  input [P-1:0] x;");
  v.line("  input [P*W-1:0] words;");
  v.line("  integer k;");
  v.line("  begin");
  v.line("    xor_p = {W{1'b0}};");
  v.line("    for (k = 0; k < P; k = k + 1) if (x[k]) xor_p = xor_p ^ words[k*W +: W];");
  v.line("  end");
  v.line("endfunction");
}

PatternRom pattern_rom_layout(const Cm1Params& p, int src_w, bool src_local) {
  const Cm1Widths w = cm1_widths(p);
  PatternRom r;
  r.src_w = src_w;
  r.src_local = src_local;
  r.C = p.cube_dims;
  r.P = p.procs_per_chip;
  r.proc_field = w.proc_field;
  r.vp_field = w.vp_field;
  r.D = p.data_bits;
  return r;
}

void emit_chip_instance(VerilogWriter& v, const Cm1Params& p, const ChipHookup& h) {
  const std::string eject = p.eject_mode == EjectMode::kOnePerPetit ? "1'b1" : "1'b0";
  v.instance("cm1_chip", "chip", {},
             {{"clk", "clk"}, {"rst", h.rst}, {"ce", h.ce}, {"phase", h.phase}, {"run", "run"},
              {"clear", "1'b0"}, {"eject_one", eject}, {"my_chip", h.my_chip},
              {"load_en", "load_en"}, {"load_local", "ld_src"}, {"load_chip", "ld_chip"},
              {"load_dproc", "ld_dproc"}, {"load_vp", "ld_vp"}, {"load_data", "ld_data"},
              {"load_full", "load_full"}, {"rx_valid", "rx_valid"}, {"rx_word", "rx_word"},
              {"inj_valid", "inj_valid"}, {"msgs_present", "msgs_present"}, {"pending", "pending"},
              {"cube_out", "chip_cube_out"}, {"cube_in", h.cube_in},
              {"cnt_sel", "cnt_sel"}, {"cnt_value", "cnt_value"}});
}

}  // namespace cmnet::board_parts

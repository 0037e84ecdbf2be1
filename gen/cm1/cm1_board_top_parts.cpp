#include "gen/cm1/cm1_board_top_parts.h"

#include <algorithm>

#include "gen/cm1/cm1_board_emitter.h"
#include "gen/core/errors.h"

namespace cmnet::board_parts {

void Bits::put(uint64_t v, int width) {
  for (int i = 0; i < width; ++i) b.push_back(i < 64 && ((v >> i) & 1u));
}

std::string Bits::literal() const {
  std::string hex;
  for (size_t i = 0; i < b.size(); i += 4) {
    int nib = 0;
    for (size_t k = 0; k < 4 && i + k < b.size(); ++k) nib |= b[i + k] ? (1 << k) : 0;
    hex.insert(hex.begin(), "0123456789abcdef"[nib]);
  }
  return std::to_string(b.size()) + "'h" + hex;
}

std::string hexlit(uint64_t v, int width) {
  Bits b;
  b.put(v, width);
  return b.literal();
}

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

void emit_reset(VerilogWriter& v, bool reset_port, bool active_low) {
  v.comment("Reset: power-on counter (iCE40 flip-flops start at 0) and a synchronized button.");
  v.line("reg [3:0] por_cnt = 4'd0;");
  v.line("reg rst = 1'b1;");
  v.line("wire por_done = &por_cnt;");
  if (reset_port) {
    v.line("reg [1:0] btn_sync = 2'b00;");
    v.line("always @(posedge clk) btn_sync <= {btn_sync[0], " +
           std::string(active_low ? "~rst_btn" : "rst_btn") + "};");
  }
  v.line("always @(posedge clk) begin");
  v.line("  if (!por_done) por_cnt <= por_cnt + 4'd1;");
  v.line(std::string("  rst <= !por_done") + (reset_port ? " || btn_sync[1];" : ";"));
  v.line("end");
  v.line();
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

void emit_leds(VerilogWriter& v, const std::vector<bool>& led_active_low, int blink_log2) {
  const int K = static_cast<int>(led_active_low.size());
  const std::string bl = std::to_string(blink_log2);
  v.comment("LEDs and the idle UART.");
  v.line("reg [" + std::to_string(blink_log2 - 1) + ":0] blink;");
  v.line("always @(posedge clk) blink <= blink + " + bl + "'d1;");
  uint32_t inv = 0;
  for (int i = 0; i < K; ++i)
    if (led_active_low[static_cast<size_t>(i)]) inv |= 1u << i;
  if (K >= 3)
    v.line("wire [2:0] led_on = {!done, done && !pass, done && pass};");
  else
    v.line("wire [1:0] led_on = {done && !pass, done ? pass : blink[" + std::to_string(blink_log2 - 1) + "]};");
  v.line("assign led = led_on ^ " + std::to_string(K) + "'d" + std::to_string(inv) +
         ";  // active-low LEDs inverted");
  v.line("assign uart_tx = 1'b1;");
}

void add_top(GeneratedDesign& d, const std::string& name, const std::string& text, bool drop_network) {
  if (drop_network) {
    d.files.erase(std::remove_if(d.files.begin(), d.files.end(),
                                 [](const auto& f) { return f.first == "cm1_network.v"; }),
                  d.files.end());
  }
  auto it = std::find_if(d.files.begin(), d.files.end(),
                         [](const auto& f) { return f.first == "filelist.f"; });
  d.files.insert(it, {name + ".v", text});
  const std::string list = filelist(d);
  for (auto& f : d.files)
    if (f.first == "filelist.f") f.second = list;
  d.top = name;
}

}  // namespace cmnet::board_parts

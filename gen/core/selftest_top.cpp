#include "gen/core/selftest_top.h"

#include <algorithm>

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

std::string vector_param(const std::string& name, int width, const std::vector<uint64_t>& values) {
  std::string s = "localparam [" + std::to_string(static_cast<int64_t>(values.size()) * width - 1) + ":0] " + name + " = {";
  for (size_t k = values.size(); k-- > 0;) s += hexlit(values[k], width) + (k ? ", " : "");
  return s + "};";
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

std::vector<std::string> selftest_port_lines(const SelfTestPins& pins) {
  std::vector<std::string> l = {"input  wire clk,"};
  if (pins.reset_port) l.push_back("input  wire rst_btn,");
  l.push_back("output wire [" + std::to_string(pins.led_active_low.size() - 1) + ":0] led,");
  l.push_back("output wire uart_tx");
  return l;
}

void emit_verdict(VerilogWriter& v, int TW, const std::string& finished, const std::string& ok) {
  const std::string tw = std::to_string(TW);
  v.comment("The verdict, once the counters are read or the limit passed.");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    cyc <= {" + tw + "{1'b0}};");
  v.line("    done <= 1'b0;");
  v.line("    pass <= 1'b0;");
  v.line("  end else if (!done) begin");
  v.line("    cyc <= cyc + " + tw + "'d1;");
  v.line("    if (" + finished + " || cyc == LIMIT) begin");
  v.line("      done <= 1'b1;");
  v.line("      pass <= " + finished + " && " + ok + ";");
  v.line("    end");
  v.line("  end");
  v.line("end");
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

void add_top(GeneratedDesign& d, const std::string& name, const std::string& text, const std::string& drop_file) {
  if (!drop_file.empty()) {
    d.files.erase(std::remove_if(d.files.begin(), d.files.end(),
                                 [&](const auto& f) { return f.first == drop_file; }),
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

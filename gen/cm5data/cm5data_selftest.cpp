#include "gen/cm5data/cm5data_selftest.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {


void emit_cm5_rom_function(VerilogWriter& v, const std::string& name, int LW, int AW, const Cm5LeafRom& rom) {
  v.line("function [31:0] " + name + ";");
  v.line("  input [" + S(LW - 1) + ":0] leaf;");
  v.line("  input [" + S(AW - 1) + ":0] a;");
  v.line("  begin");
  v.line("    case ({leaf, a})");
  for (size_t g = 0; g < rom.size(); ++g)
    for (size_t a = 0; a < rom[g].size(); ++a)
      v.line("      " + board_parts::hexlit((static_cast<uint64_t>(g) << AW) | a, LW + AW) + ": " + name + " = " +
             board_parts::hexlit(rom[g][a].value, 32) + ";  // leaf " + S(static_cast<int64_t>(g)) + ", " + rom[g][a].what);
  v.line("      default: " + name + " = 32'd0;");
  v.line("    endcase");
  v.line("  end");
  v.line("endfunction");
}

std::vector<Cm5RomWord> cm5_message_rom(const std::vector<std::vector<uint32_t>>& messages) {
  std::vector<Cm5RomWord> out;
  for (size_t m = 0; m < messages.size(); ++m)
    for (size_t k = 0; k < messages[m].size(); ++k)
      out.push_back({messages[m][k], "message " + S(static_cast<int64_t>(m)) + ", " +
                                         (k == 0                          ? std::string("head")
                                          : k + 1 == messages[m].size() ? std::string("CRC")
                                                                        : "data " + S(static_cast<int64_t>(k - 1)))});
  return out;
}

// The function exp_counter(k): counter k's {chip, select, value} as the model counts them.
void emit_cm5_counter_rom(VerilogWriter& v, const std::vector<Cm5SelfTestCounter>& counters, int chip_bits, int sel_bits,
                          int KW) {
  const int ew = chip_bits + sel_bits + 32;
  v.comment("Every chip's counters as the model counts them: {chip, select, value}.");
  v.line("function [" + S(ew - 1) + ":0] exp_counter;");
  v.line("  input [" + S(KW - 1) + ":0] k;");
  v.line("  begin");
  v.line("    case (k)");
  for (size_t k = 0; k < counters.size(); ++k) {
    const Cm5SelfTestCounter& c = counters[k];
    v.line("      " + board_parts::hexlit(k, KW) + ": exp_counter = {" + S(chip_bits) + "'d" + S(c.chip) + ", " + S(sel_bits) + "'d" +
           S(c.sel) + ", 32'd" + S(c.value) + "};");
  }
  v.line("      default: exp_counter = {" + S(ew) + "{1'b0}};");
  v.line("    endcase");
  v.line("  end");
  v.line("endfunction");
  v.line();
}

// The network under test, its leaf links on tx_* and rx_* and its counter port on exp and cnt_value
// (declared by the caller; exp = {chip, select, value}).
void emit_cm5_network_instance(VerilogWriter& v, const Cm5DataParams& p, int chip_bits, int sel_bits) {
  const int EW = chip_bits + sel_bits + 32;
  v.instance("cm5data_network", "net", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"clear", "1'b0"}, {"afd_mode", "{" + S(p.total_chips()) + "{1'b0}}"},
              {"leaf_tx_valid", "tx_valid"}, {"leaf_tx_data", "tx_data"}, {"leaf_tx_credit", "tx_credit"},
              {"leaf_rx_valid", "rx_valid"}, {"leaf_rx_data", "rx_data"}, {"leaf_rx_credit", "rx_credit"},
              {"cnt_chip", "exp[" + S(EW - 1) + ":" + S(32 + sel_bits) + "]"}, {"cnt_sel", "exp[" + S(32 + sel_bits - 1) + ":32]"},
              {"cnt_value", "cnt_value"}});
}

// The scan: once `all_done`, a few cycles for the counters (they count a cycle late), then counter
// sk against exp[31:0] a cycle (sk, exp, cnt_value declared by the caller) into cnt_ok and scanned.
void emit_cm5_counter_scan(VerilogWriter& v, int KW, uint64_t NK, const std::string& all_done) {
  v.comment("Once every leaf has its count: a few cycles for the counters (they count a cycle late),");
  v.comment("then every chip counter against the model's, one a cycle.");
  v.line("reg [2:0] settle;");
  v.line("reg scanned, cnt_ok;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    sk <= {" + S(KW) + "{1'b0}};");
  v.line("    settle <= 3'd0;");
  v.line("    scanned <= 1'b0;");
  v.line("    cnt_ok <= 1'b1;");
  v.line("  end else if (" + all_done + " && !scanned) begin");
  v.line("    if (settle != 3'd7) settle <= settle + 3'd1;");
  v.line("    else begin");
  v.line("      if (cnt_value != exp[31:0]) cnt_ok <= 1'b0;");
  v.line("      if (sk == " + S(KW) + "'d" + S(NK - 1) + ") scanned <= 1'b1;");
  v.line("      else sk <= sk + " + S(KW) + "'d1;");
  v.line("    end");
  v.line("  end");
  v.line("end");
}

namespace {

using board_parts::hexlit;

// The self-test top, written section by section: the traffic checked and measured (the widths of
// the ROM index, the counts and the cycles), shared by every section, and the writer they append to.
struct SelfTestTop {
  const Cm5DataParams& p;
  const Cm5SelfTest& t;
  const board_parts::SelfTestPins& pins;
  uint32_t N = 0;
  int W = 0;
  std::vector<uint64_t> totals, counts, xors, lasts;  // per leaf: ROM words; expected count, XOR, last arrival
  uint64_t limit = 0;
  int LW = 0, AW = 0, CNW = 0, TW = 0, CW = 0;
  Cm5DataWidths w0;  // the largest chip's counter select
  uint64_t NK = 0;
  int KW = 0, EW = 0;
  VerilogWriter v;

  SelfTestTop(const Cm5DataParams& p_, const Cm5SelfTest& t_, const board_parts::SelfTestPins& pins_);
  std::string emit();
  void emit_header_and_roms();
  void emit_network();
  void emit_leaf_send();
  void emit_leaf_receive();
  void emit_scan_and_verdict();
};

// Checks the traffic and the pins (ConfigError) and measures the widths.
SelfTestTop::SelfTestTop(const Cm5DataParams& p_, const Cm5SelfTest& t_, const board_parts::SelfTestPins& pins_)
    : p(p_), t(t_), pins(pins_) {
  N = p.leaves();
  W = p.link_bits;
  if (t.leaves.size() != N)
    throw ConfigError("cm5data self-test: traffic for " + S(static_cast<int64_t>(t.leaves.size())) +
                      " leaves, the network has " + S(N));
  if (pins.led_active_low.size() < 2 || pins.led_active_low.size() > 3)
    throw ConfigError("cm5data self-test: " + S(static_cast<int64_t>(pins.led_active_low.size())) +
                      " LEDs; the top drives 2 (pass, fail) or 3 (pass, fail, running)");
  size_t max_words = 1;
  uint64_t max_count = 1;
  for (uint32_t g = 0; g < N; ++g) {
    const Cm5SelfTestLeaf& l = t.leaves[g];
    size_t words = 0;
    for (size_t m = 0; m < l.messages.size(); ++m) {
      const auto& msg = l.messages[m];
      const int len = msg.empty() ? -1 : static_cast<int>(msg[0] & 7u);
      if (len < 1 || len > p.max_words || msg.size() != static_cast<size_t>(p.message_words(len)))
        throw ConfigError("cm5data self-test: leaf " + S(g) + ", message " + S(static_cast<int64_t>(m)) + ": " +
                          S(static_cast<int64_t>(msg.size())) + " words with length field " + S(len) +
                          " (a message is head, 1.." + S(p.max_words) + " data words, CRC)");
      words += msg.size();
    }
    max_words = std::max(max_words, words);
    totals.push_back(words);
    const uint32_t count = l.rx_count + (g == 0 ? static_cast<uint32_t>(t.expect_offset) : 0u);
    max_count = std::max<uint64_t>(max_count, count);
    counts.push_back(count);
    xors.push_back(l.rx_xor);
    lasts.push_back(l.rx_last);
  }
  limit = cm5_selftest_limit(t);
  LW = std::max(1, clog2(N));
  AW = std::max(1, clog2(max_words + 1));      // a leaf's ROM word index (to its total)
  CNW = std::max(1, clog2(max_count + 1));     // messages received
  TW = std::max(1, clog2(limit + 1));          // cycles
  CW = std::max(2, cm5_widths(p, 0).credit);
  w0 = cm5_widths(p, 0);
  for (int l = 1; l <= p.height; ++l) w0.sel = std::max(w0.sel, cm5_widths(p, p.parents_at(l)).sel);
  NK = std::max<size_t>(1, t.counters.size());
  KW = std::max(1, clog2(NK));  // counter scan index
  EW = w0.chip + w0.sel + 32;   // a scan entry: {chip, select, value}
  for (const Cm5SelfTestCounter& c : t.counters)
    if (c.chip >= p.total_chips() || c.sel < 0 || c.sel >= (1 << w0.sel))
      throw ConfigError("cm5data self-test: counter (chip " + S(c.chip) + ", select " + S(c.sel) +
                        ") is not one of the network's");
}

// The whole module, in the order of its sections.
std::string SelfTestTop::emit() {
  emit_header_and_roms();
  emit_network();
  emit_leaf_send();
  emit_leaf_receive();
  emit_scan_and_verdict();
  return v.text();
}

// The header, the ports, the localparams, the reset and the ROMs (messages, expected counters).
void SelfTestTop::emit_header_and_roms() {
  v.header("CM-5 data network SELF-TEST top: cm5data_network with its leaves played from a ROM; pass when every "
           "leaf received the reference model's count, XOR and last-arrival cycle.",
           {{"leaves N", S(N)},
            {"link_bits W", S(W)},
            {"input slots", S(p.slots)},
            {"pattern", t.pattern},
            {"seed", S(static_cast<int64_t>(t.seed))},
            {"messages per leaf", S(t.per_leaf)},
            {"model cycles", S(static_cast<int64_t>(t.model_cycles))},
            {"cycle limit", S(static_cast<int64_t>(limit))}});
  v.open("module cm5data_selftest_top (");
  for (const std::string& l : board_parts::selftest_port_lines(pins)) v.line(l);
  v.end_ports();
  v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam [" + S(TW - 1) + ":0] LIMIT = " + S(TW) + "'d" + S(static_cast<int64_t>(limit)) + ";");
  v.comment("Per leaf (leaf g at [g*width +: width]): ROM words, and the model's count, XOR, last arrival.");
  v.line(board_parts::vector_param("TOTAL", AW, totals));
  v.line(board_parts::vector_param("EXP_COUNT", CNW, counts));
  v.line(board_parts::vector_param("EXP_XOR", 32, xors));
  v.line(board_parts::vector_param("EXP_LAST", TW, lasts));
  v.line();
  board_parts::emit_reset(v, pins.reset_port, pins.reset_active_low);
  v.comment("Each leaf's messages back to back, as a leaf sends them (head, data, CRC).");
  Cm5LeafRom rom;
  for (const Cm5SelfTestLeaf& l : t.leaves) rom.push_back(cm5_message_rom(l.messages));
  emit_cm5_rom_function(v, "rom_word", LW, AW, rom);
  v.line();
  emit_cm5_counter_rom(v, t.counters, w0.chip, w0.sel, KW);
}

// The run's cycle, the shared wires and the network under test.
void SelfTestTop::emit_network() {
  v.comment("The run's cycle: 0 in the first cycle after reset, as the model counts.");
  v.line("reg [" + S(TW - 1) + ":0] cyc;");
  v.line("reg done, pass;");
  v.line("wire [N-1:0] tx_valid, tx_credit, rx_valid, rx_credit;");
  v.line("wire [N*W-1:0] tx_data, rx_data;");
  v.line("wire [N-1:0] leaf_done, leaf_ok;");
  v.line("wire [31:0] cnt_value;");
  v.line("reg [" + S(KW - 1) + ":0] sk;  // the counter being read");
  v.line("wire [" + S(EW - 1) + ":0] exp = exp_counter(sk);");
  emit_cm5_network_instance(v, p, w0.chip, w0.sel);
  v.line();
}

// Per leaf (opens g_leaf): sending its ROM's messages a flit a cycle (hw/cm5data/cm5data_leaf_tx.v).
void SelfTestTop::emit_leaf_send() {
  v.line("genvar g;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_leaf");
  v.line("localparam [" + S(LW - 1) + ":0] LEAF = g;");
  v.comment("Send: a flit a cycle while holding a credit (slots: one per message, taken at its head).");
  v.line("wire [" + S(AW - 1) + ":0] ta;  // ROM word");
  v.line("wire unused_sent;");
  v.instance("cm5data_leaf_tx", "tx",
             {{"W", "W"}, {"AW", S(AW)}, {"CW", S(CW)}, {"CREDITS", S(p.link_credits())}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"total", "TOTAL[g*" + S(AW) + " +: " + S(AW) + "]"}, {"addr", "ta"},
              {"word", "rom_word(LEAF, ta)"}, {"valid", "tx_valid[g]"}, {"data", "tx_data[g*W +: W]"},
              {"credit", "tx_credit[g]"}, {"done", "unused_sent"}});
}

// Per leaf (closes g_leaf): receiving every flit (hw/cm5data/cm5data_leaf_rx.v), the count, XOR and
// last arrival against the model's.
void SelfTestTop::emit_leaf_receive() {
  v.comment("Receive: every flit at once, its credit back the next cycle (slots: at a message's last flit).");
  v.line("wire [" + S(CNW - 1) + ":0] rcount;");
  v.line("wire [31:0] rxor;");
  v.line("wire rend;  // a message's last flit arrives");
  v.instance("cm5data_leaf_rx", "rx", {{"W", "W"}, {"CNW", S(CNW)}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"valid", "rx_valid[g]"}, {"data", "rx_data[g*W +: W]"},
              {"credit", "rx_credit[g]"}, {"count", "rcount"}, {"xsum", "rxor"}, {"msg_end", "rend"}});
  v.line("reg [" + S(TW - 1) + ":0] rlast;");
  v.line("always @(posedge clk)");
  v.line("  if (rst) rlast <= {" + S(TW) + "{1'b0}};");
  v.line("  else if (rend) rlast <= cyc;");
  v.line("assign leaf_done[g] = rcount == EXP_COUNT[g*" + S(CNW) + " +: " + S(CNW) + "];");
  v.line("assign leaf_ok[g] = leaf_done[g] && rxor == EXP_XOR[g*32 +: 32] && rlast == EXP_LAST[g*" + S(TW) + " +: " +
         S(TW) + "];");
  v.close("end");
  v.line("endgenerate");
}

// The chip counter scan, the verdict and the LEDs (ends the module).
void SelfTestTop::emit_scan_and_verdict() {
  v.line();
  emit_cm5_counter_scan(v, KW, NK, "&leaf_done");
  board_parts::emit_verdict(v, TW, "scanned", "cnt_ok && &leaf_ok");
  v.line();
  board_parts::emit_leds(v, pins.led_active_low, pins.blink_log2);
  v.close("endmodule");
}

}  // namespace

uint64_t cm5_selftest_limit(const Cm5SelfTest& t) { return 2 * t.model_cycles + t.counters.size() + 64; }

GeneratedDesign emit_cm5data_selftest(const Cm5DataConfig& cfg, const Cm5SelfTest& t,
                                      const board_parts::SelfTestPins& pins) {
  SelfTestTop top(cfg.cm5, t, pins);
  const std::string text = top.emit();
  const uint32_t N = top.N;
  const uint64_t limit = top.limit;
  const std::vector<uint64_t>& counts = top.counts;
  const std::vector<uint64_t>& xors = top.xors;
  const std::vector<uint64_t>& lasts = top.lasts;
  GeneratedDesign d = emit_cm5data(cfg);
  const auto list = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  const auto at = d.files.insert(list, {"cm5data_leaf_tx.v", read_hw_file("cm5data_leaf_tx.v")});
  d.files.insert(at + 1, {"cm5data_leaf_rx.v", read_hw_file("cm5data_leaf_rx.v")});
  board_parts::add_top(d, "cm5data_selftest_top", text, "");
  // selftest.json: what the top expects, for the report of a board run.
  nlohmann::ordered_json j;
  j["mode"] = "network";
  j["pattern"] = t.pattern;
  j["seed"] = t.seed;
  j["messages_per_leaf"] = t.per_leaf;
  j["model_cycles"] = t.model_cycles;
  j["cycle_limit"] = limit;
  nlohmann::ordered_json leaves = nlohmann::ordered_json::array();
  for (uint32_t g = 0; g < N; ++g)
    leaves.push_back({{"leaf", g},
                      {"messages", t.leaves[g].messages.size()},
                      {"expected_received", counts[g]},
                      {"expected_xor", hexlit(xors[g], 32)},
                      {"expected_last_arrival", lasts[g]}});
  j["leaves"] = leaves;
  j["chip_counters_checked"] = t.counters.size();
  d.files.emplace_back("selftest.json", j.dump(2) + "\n");
  return d;
}

}  // namespace cmnet

#include "gen/clos/clos_selftest.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/clos/clos_emitter.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

namespace {

using board_parts::hexlit;
using board_parts::vector_param;

// Bits for a counter that must show a count up to twice `expected` without wrapping to it.
int count_bits(uint64_t expected) { return std::max(1, clog2(2 * expected + 2)); }

// The self-test top, written section by section from the traffic and the widths it measures.
struct SelfTestTop {
  const ClosParams& p;
  const ClosSelfTest& t;
  const board_parts::SelfTestPins& pins;
  ClosCtrlLayout l;
  int N = 0, H = 0, W = 0, CW = 0;
  int type_lsb = 0, dest_lsb = 0, orig_lsb = 0, to_lsb = 0;
  int LW = 0, KW = 1, AW = 1, CNW = 2, CCW = 1, WCW = 1, EW = 1, TW = 1;
  uint64_t limit = 0;
  std::vector<uint64_t> ncirc, exp_circ, exp_words, exp_xor;
  VerilogWriter v;

  SelfTestTop(const ClosConfig& cfg, const ClosSelfTest& t_, const board_parts::SelfTestPins& pins_);
  std::string emit();
  void emit_header_and_roms();
  void emit_network();
  void emit_leaves();
  void emit_ports();
  void emit_receivers();
  void emit_counts_and_verdict();
};

// Checks the traffic and the pins (ConfigError) and measures the widths.
SelfTestTop::SelfTestTop(const ClosConfig& cfg, const ClosSelfTest& t_, const board_parts::SelfTestPins& pins_)
    : p(cfg.clos), t(t_), pins(pins_) {
  if (p.hnode_dims < 1) throw ConfigError("clos self-test: hnode_dims 0 (the self-test top sets circuits up through the hnodes)");
  if (p.width > 30)
    throw ConfigError("clos self-test: width " + S(p.width) + " (the circuits carry {valid, last, data}: at most 30 data bits)");
  if (pins.led_active_low.size() < 2 || pins.led_active_low.size() > 3)
    throw ConfigError("clos self-test: " + S(static_cast<int64_t>(pins.led_active_low.size())) +
                      " LEDs; the top drives 2 (pass, fail) or 3 (pass, fail, running)");
  l = clos_ctrl_layout(cfg);
  N = p.ports();
  H = p.hnodes();
  W = p.width;
  CW = W + 2;
  dest_lsb = l.M + 1 + l.KW;
  orig_lsb = dest_lsb + l.NW;
  type_lsb = orig_lsb + l.NW;
  to_lsb = type_lsb + 4;
  if (t.leaves.size() != static_cast<size_t>(N))
    throw ConfigError("clos self-test: traffic for " + S(static_cast<int64_t>(t.leaves.size())) + " leaves, the network has " +
                      S(N));
  size_t most_circuits = 1, most_words = 1, longest = 1;
  uint64_t most_rx_circ = 0, most_rx_words = 0;
  for (int g = 0; g < N; ++g) {
    const ClosSelfTestLeaf& leaf = t.leaves[static_cast<size_t>(g)];
    size_t words = 0;
    for (size_t k = 0; k < leaf.circuits.size(); ++k) {
      const ClosSelfTestCircuit& c = leaf.circuits[k];
      const std::string what = "clos self-test: leaf " + S(g) + ", circuit " + S(static_cast<int64_t>(k)) + ": ";
      if (c.dest < 0 || c.dest >= N || c.dest == g)
        throw ConfigError(what + "destination " + S(c.dest) + " (allowed: another leaf, 0.." + S(N - 1) + ")");
      for (uint32_t w : c.words)
        if (W < 32 && (w >> W) != 0) throw ConfigError(what + "word " + hexlit(w, 32) + " wider than " + S(W) + " bits");
      words += c.words.size();
      longest = std::max(longest, c.words.size());
    }
    if (leaf.circuits.size() > static_cast<size_t>(kClosSelfTestMaxCircuits) ||
        words > static_cast<size_t>(kClosSelfTestMaxWords))
      throw ConfigError("clos self-test: leaf " + S(g) + " sends " + S(static_cast<int64_t>(leaf.circuits.size())) +
                        " circuits of " + S(static_cast<int64_t>(words)) + " words; a leaf's ROM holds " +
                        S(kClosSelfTestMaxCircuits) + " circuits and " + S(kClosSelfTestMaxWords) + " words");
    most_circuits = std::max(most_circuits, leaf.circuits.size());
    ncirc.push_back(leaf.circuits.size());
    most_words = std::max(most_words, words);
    most_rx_circ = std::max<uint64_t>(most_rx_circ, leaf.rx_circuits);
    most_rx_words = std::max<uint64_t>(most_rx_words, leaf.rx_words);
    exp_circ.push_back(leaf.rx_circuits);
    exp_words.push_back(leaf.rx_words);
    exp_xor.push_back(W < 32 ? leaf.rx_xor & ((1u << W) - 1) : leaf.rx_xor);
  }
  limit = clos_selftest_limit(t);
  LW = std::max(1, clog2(static_cast<uint64_t>(N)));
  KW = std::max(1, clog2(most_circuits));
  AW = std::max(1, clog2(most_words + 1));
  CNW = std::max(2, clog2(longest + 1));
  CCW = count_bits(most_rx_circ);
  WCW = count_bits(most_rx_words);
  const ClosSelfTestCounts& c = t.counts;
  EW = count_bits(std::max({c.readies, c.handled, c.cancels, c.resends, c.cfg_writes}));
  TW = std::max(1, clog2(limit + 1));
}

std::string SelfTestTop::emit() {
  emit_header_and_roms();
  emit_network();
  emit_leaves();
  emit_ports();
  emit_receivers();
  emit_counts_and_verdict();
  return v.text();
}

// The header, the ports, the localparams, the reset and the ROMs (each leaf's circuits, their words).
void SelfTestTop::emit_header_and_roms() {
  int64_t circuits = 0;
  for (const ClosSelfTestLeaf& leaf : t.leaves) circuits += static_cast<int64_t>(leaf.circuits.size());
  v.header("Clos network SELF-TEST top: clos_network set up by the hnodes' engines (clos_ctrl_top), its leaves played "
           "from a ROM; pass when every output leaf received the expected circuits, words and XOR, the engines' "
           "counts and the cycle the last leaf finished are the reference's.",
           {{"network", clos_name(p)},
            {"data bits", S(W)},
            {"hnodes", S(H)},
            {"workload", t.workload},
            {"seed", S(static_cast<int64_t>(t.seed))},
            {"circuits", S(circuits)},
            {"end cycle", S(static_cast<int64_t>(t.end_cycle))},
            {"cycle limit", S(static_cast<int64_t>(limit))}});
  v.open("module clos_selftest_top (");
  for (const std::string& s : board_parts::selftest_port_lines(pins)) v.line(s);
  v.end_ports();
  v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer H = " + S(H) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam integer CW = W + 2;  // a c-link: {valid, last, data}");
  v.line("localparam integer MW = " + S(l.MW) + ";");
  v.line("localparam integer NW = " + S(l.NW) + ";");
  v.line("localparam integer TYPE_LSB = " + S(type_lsb) + ", DEST_LSB = " + S(dest_lsb) + ", ORIG_LSB = " + S(orig_lsb) +
         ", TO_LSB = " + S(to_lsb) + ";");
  v.line("localparam [3:0] T_CANCEL = 4'd8, T_DDCR = 4'd7, T_RESEND = 4'd9;");
  v.line("localparam [" + S(TW - 1) + ":0] LIMIT = " + S(TW) + "'d" + S(static_cast<int64_t>(limit)) + ";");
  v.line("localparam [" + S(TW - 1) + ":0] EXP_END = " + S(TW) + "'d" + S(static_cast<int64_t>(t.end_cycle)) + ";");
  v.comment("Per leaf (leaf g at [g*width +: width]): the circuits it sends; as an output, the circuits, words and");
  v.comment("the XOR of their data expected.");
  v.line(vector_param("NCIRC", 32, ncirc));
  v.line(vector_param("EXP_CIRC", CCW, exp_circ));
  v.line(vector_param("EXP_WORDS", WCW, exp_words));
  v.line(vector_param("EXP_XOR", W, exp_xor));
  v.line();
  board_parts::emit_reset(v, pins.reset_port, pins.reset_active_low);
  v.comment("Each leaf's circuits in order: {destination, words}.");
  v.line("function [" + S(l.NW + CNW - 1) + ":0] rom_circ;");
  v.line("  input [" + S(LW - 1) + ":0] leaf;");
  v.line("  input [" + S(KW - 1) + ":0] k;");
  v.line("  begin");
  v.line("    case ({leaf, k})");
  for (int g = 0; g < N; ++g) {
    const auto& cs = t.leaves[static_cast<size_t>(g)].circuits;
    for (size_t k = 0; k < cs.size(); ++k)
      v.line("      " + hexlit((static_cast<uint64_t>(g) << KW) | k, LW + KW) + ": rom_circ = {" + S(l.NW) + "'d" +
             S(cs[k].dest) + ", " + S(CNW) + "'d" + S(static_cast<int64_t>(cs[k].words.size())) + "};  // leaf " + S(g) +
             ", circuit " + S(static_cast<int64_t>(k)));
  }
  v.line("      default: rom_circ = {" + S(l.NW + CNW) + "{1'b0}};");
  v.line("    endcase");
  v.line("  end");
  v.line("endfunction");
  v.comment("Each leaf's data words, its circuits' back to back.");
  v.line("function [W-1:0] rom_data;");
  v.line("  input [" + S(LW - 1) + ":0] leaf;");
  v.line("  input [" + S(AW - 1) + ":0] a;");
  v.line("  begin");
  v.line("    case ({leaf, a})");
  for (int g = 0; g < N; ++g) {
    uint64_t a = 0;
    for (const ClosSelfTestCircuit& c : t.leaves[static_cast<size_t>(g)].circuits)
      for (uint32_t w : c.words)
        v.line("      " + hexlit((static_cast<uint64_t>(g) << AW) | a++, LW + AW) + ": rom_data = " + hexlit(w, W) + ";");
  }
  v.line("      default: rom_data = {W{1'b0}};");
  v.line("    endcase");
  v.line("  end");
  v.line("endfunction");
  v.line();
}

// The run's cycle, the shared wires, the engines and the switch.
void SelfTestTop::emit_network() {
  const int CAW = p.cfg_addr_bits(), CDW = p.cfg_sel_bits() + 1;
  v.comment("The run's cycle: 0 in the first cycle after reset, as the reference counts.");
  v.line("reg [" + S(TW - 1) + ":0] cyc;");
  v.line("reg done, pass;");
  v.line("wire [H-1:0] lf_valid, lf_take, ready_valid, handled_valid, overflow;");
  v.line("wire [H*MW-1:0] lf_msg, handled_msg;");
  v.line("/* verilator lint_off UNUSEDSIGNAL */");
  v.line("wire [H-1:0] sent_valid;");
  v.line("wire [H*MW-1:0] sent_msg;  // what the engines send: counted where it is handled");
  v.line("wire [H-1:0] cfg_from;     // which hnode writes: the engines' harness reads it");
  v.line("/* verilator lint_on UNUSEDSIGNAL */");
  v.line("wire [H*NW-1:0] ready_orig;");
  v.line("wire ctrl_busy, cfg_we;");
  v.line("wire [" + S(CAW - 1) + ":0] cfg_addr;");
  v.line("wire [" + S(CDW - 1) + ":0] cfg_data;");
  v.line("wire [N*CW-1:0] c_in, c_out;");
  v.line("wire [N-1:0] push, over, leaf_ok;");
  v.line("wire [N*MW-1:0] lmsg;");
  v.instance("clos_ctrl_top", "ctrl", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"leaf_valid", "lf_valid"}, {"leaf_msg", "lf_msg"}, {"leaf_take", "lf_take"},
              {"ready_valid", "ready_valid"}, {"ready_orig", "ready_orig"}, {"handled_valid", "handled_valid"},
              {"handled_msg", "handled_msg"}, {"sent_valid", "sent_valid"}, {"sent_msg", "sent_msg"},
              {"overflow", "overflow"}, {"busy", "ctrl_busy"}, {"cfg_we", "cfg_we"}, {"cfg_from", "cfg_from"},
              {"cfg_addr", "cfg_addr"}, {"cfg_data", "cfg_data"}});
  v.instance("clos_network", "sw", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"cfg_we", "cfg_we"}, {"cfg_addr", "cfg_addr"}, {"cfg_data", "cfg_data"},
              {"in_data", "c_in"}, {"out_data", "c_out"}});
  v.line();
}

// Per leaf: its player (hw/clos/clos_selftest_leaf.v), its READY (from its hnode) and its DDCR
// (handled at any hnode: h_d's).
void SelfTestTop::emit_leaves() {
  v.line("genvar g;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_leaf");
  v.line("localparam [" + S(LW - 1) + ":0] LEAF = g;");
  v.line("localparam integer HN = (g / " + S(p.n) + ") % H;  // the leaf's hnode");
  v.line("wire [" + S(KW - 1) + ":0] k;");
  v.line("wire [" + S(AW - 1) + ":0] da;");
  v.line("wire [NW+" + S(CNW - 1) + ":0] circ = rom_circ(LEAF, k);");
  std::string ddcr;
  for (int h = 0; h < H; ++h)
    ddcr += std::string(h ? " ||\n      " : "") + "(handled_valid[" + S(h) + "] && handled_msg[" + S(h * l.MW) +
            " + TYPE_LSB +: 4] == T_DDCR && handled_msg[" + S(h * l.MW) + " + ORIG_LSB +: NW] == LEAF[NW-1:0])";
  v.comment("READY and DDCR registered (off the engines' combinational outputs): the reference's think and hold");
  v.comment("cycle (clos_selftest_leaf.v).");
  v.line("reg ddcr, ready;");
  v.line("always @(posedge clk) begin");
  v.line("  ddcr <= !rst && (" + ddcr + ");");
  v.line("  ready <= !rst && ready_valid[HN] && ready_orig[HN*NW +: NW] == LEAF[NW-1:0];");
  v.line("end");
  v.instance("clos_selftest_leaf", "leaf",
             {{"NC", "NCIRC[g*32 +: 32]"}, {"KW", S(KW)}, {"AW", S(AW)}, {"CNW", S(CNW)}, {"W", "W"}, {"NW", "NW"},
              {"D", S(l.D)}, {"MW", "MW"}, {"TYPE_LSB", "TYPE_LSB"}, {"DEST_LSB", "DEST_LSB"}, {"ORIG_LSB", "ORIG_LSB"},
              {"TO_LSB", "TO_LSB"}, {"LEAF", "g"}, {"HNODE", "HN"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"k", "k"}, {"c_dest", "circ[" + S(CNW) + " +: NW]"},
              {"c_words", "circ[" + S(CNW - 1) + ":0]"}, {"da", "da"}, {"d_word", "rom_data(LEAF, da)"},
              {"push", "push[g]"}, {"msg", "lmsg[g*MW +: MW]"}, {"ready", "ready"}, {"ddcr", "ddcr"},
              {"c_in", "c_in[g*CW +: CW]"}, {"over", "over[g]"}});
  v.close("end");
  v.line("endgenerate");
  v.line();
}

// Per hnode: its leaves' port (hw/clos/clos_selftest_port.v), lowest leaf at bit 0.
void SelfTestTop::emit_ports() {
  for (int h = 0; h < H; ++h) {
    std::vector<int> mine;
    for (int g = 0; g < N; ++g)
      if ((g / p.n) % H == h) mine.push_back(g);
    std::string pu, ms;
    for (size_t i = mine.size(); i-- > 0;) {
      pu += "push[" + S(mine[i]) + "]" + (i ? ", " : "");
      ms += "lmsg[" + S(mine[i]) + "*MW +: MW]" + (i ? ", " : "");
    }
    v.instance("clos_selftest_port", "port" + S(h), {{"L", S(static_cast<int64_t>(mine.size()))}, {"MW", "MW"}},
               {{"clk", "clk"}, {"rst", "rst"}, {"push", "{" + pu + "}"}, {"msg", "{" + ms + "}"},
                {"valid", "lf_valid[" + S(h) + "]"}, {"out_msg", "lf_msg[" + S(h) + "*MW +: MW]"},
                {"take", "lf_take[" + S(h) + "]"}});
  }
  v.line();
}

// Per output leaf: its c-link registered, then the circuits (last words), words and XOR.
void SelfTestTop::emit_receivers() {
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_rx");
  v.line("reg [CW-1:0] rx;");
  v.line("reg [" + S(CCW - 1) + ":0] rc;");
  v.line("reg [" + S(WCW - 1) + ":0] rw;");
  v.line("reg [W-1:0] rxor;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    rx <= {CW{1'b0}};");
  v.line("    rc <= {" + S(CCW) + "{1'b0}};");
  v.line("    rw <= {" + S(WCW) + "{1'b0}};");
  v.line("    rxor <= {W{1'b0}};");
  v.line("  end else begin");
  v.line("    rx <= c_out[g*CW +: CW];");
  v.line("    if (rx[W+1]) begin");
  v.line("      rw <= rw + " + S(WCW) + "'d1;");
  v.line("      rxor <= rxor ^ rx[W-1:0];");
  v.line("      if (rx[W]) rc <= rc + " + S(CCW) + "'d1;");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.line("assign leaf_ok[g] = rc == EXP_CIRC[g*" + S(CCW) + " +: " + S(CCW) + "] && rw == EXP_WORDS[g*" + S(WCW) + " +: " +
         S(WCW) + "] && rxor == EXP_XOR[g*W +: W];");
  v.close("end");
  v.line("endgenerate");
  v.line();
}

// The engines' counts, the end cycle, the verdict and the LEDs (ends the module).
void SelfTestTop::emit_counts_and_verdict() {
  const std::string E = S(EW);
  v.comment("How many of `v` are set, and how many handled messages are of type `ty`.");
  v.line("function [" + S(EW - 1) + ":0] ones;");
  v.line("  input [H-1:0] x;");
  v.line("  integer b;");
  v.line("  begin");
  v.line("    ones = {" + E + "{1'b0}};");
  v.line("    for (b = 0; b < H; b = b + 1) ones = ones + {{" + S(EW - 1) + "{1'b0}}, x[b]};");
  v.line("  end");
  v.line("endfunction");
  v.line("function [H-1:0] of_type;");
  v.line("  input [3:0] ty;");
  v.line("  integer b;");
  v.line("  begin");
  v.line("    for (b = 0; b < H; b = b + 1) of_type[b] = handled_valid[b] && handled_msg[b*MW + TYPE_LSB +: 4] == ty;");
  v.line("  end");
  v.line("endfunction");
  v.line("reg [" + S(EW - 1) + ":0] n_ready, n_handled, n_cancel, n_resend, n_cfg;");
  v.line("reg [" + S(TW - 1) + ":0] t_end;");
  v.line("reg ended, ok;");
  v.line("reg [2:0] settle;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  for (const char* r : {"n_ready", "n_handled", "n_cancel", "n_resend", "n_cfg"})
    v.line("    " + std::string(r) + " <= {" + E + "{1'b0}};");
  v.line("    cyc <= {" + S(TW) + "{1'b0}};");
  v.line("    t_end <= {" + S(TW) + "{1'b0}};");
  v.line("    ended <= 1'b0;");
  v.line("    ok <= 1'b0;");
  v.line("    settle <= 3'd0;");
  v.line("    done <= 1'b0;");
  v.line("    pass <= 1'b0;");
  v.line("  end else if (!done) begin");
  v.line("    cyc <= cyc + " + S(TW) + "'d1;");
  v.line("    n_ready <= n_ready + ones(ready_valid);");
  v.line("    n_handled <= n_handled + ones(handled_valid);");
  v.line("    n_cancel <= n_cancel + ones(of_type(T_CANCEL));");
  v.line("    n_resend <= n_resend + ones(of_type(T_RESEND));");
  v.line("    n_cfg <= n_cfg + {{" + S(EW - 1) + "{1'b0}}, cfg_we};");
  v.line("    if (&over && !ended) begin");
  v.line("      ended <= 1'b1;");
  v.line("      t_end <= cyc;");
  v.line("    end");
  v.comment("  Every leaf done and the engines idle for a few cycles (the receivers' register): compare.");
  v.line("    if (ended && !ctrl_busy && settle != 3'd7) settle <= settle + 3'd1;");
  v.line("    ok <= &leaf_ok && t_end == EXP_END && !(|overflow) &&");
  const ClosSelfTestCounts& c = t.counts;
  v.line("          n_ready == " + E + "'d" + S(c.readies) + " && n_handled == " + E + "'d" + S(c.handled) + " && n_cancel == " +
         E + "'d" + S(c.cancels) + " &&");
  v.line("          n_resend == " + E + "'d" + S(c.resends) + " && n_cfg == " + E + "'d" + S(c.cfg_writes) + ";");
  v.line("    if (settle == 3'd7 || cyc == LIMIT) begin");
  v.line("      done <= 1'b1;");
  v.line("      pass <= settle == 3'd7 && ok;");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.line();
  board_parts::emit_leds(v, pins.led_active_low, pins.blink_log2);
  v.end_module();
}

}  // namespace

uint64_t clos_selftest_limit(const ClosSelfTest& t) { return 2 * t.end_cycle + 256; }

GeneratedDesign emit_clos_selftest(const ClosConfig& cfg, const ClosSelfTest& t, const board_parts::SelfTestPins& pins) {
  SelfTestTop top(cfg, t, pins);
  std::string text = top.emit();
  ClosConfig wide = cfg;
  wide.clos.width = top.CW;  // {valid, last, data}
  GeneratedDesign d;
  d.files = emit_clos(wide).verilog_sources();
  for (const auto& f : emit_clos_ctrl(cfg).verilog_sources()) d.files.push_back(f);
  d.files.emplace_back("clos_selftest_leaf.v", read_hw_file("clos_selftest_leaf.v"));
  d.files.emplace_back("clos_selftest_port.v", read_hw_file("clos_selftest_port.v"));
  d.files.emplace_back("filelist.f", "");
  board_parts::add_top(d, "clos_selftest_top", text, "");
  // selftest.json: what the top expects, for the report of a board run.
  nlohmann::ordered_json j;
  j["mode"] = "network";
  j["workload"] = t.workload;
  j["seed"] = t.seed;
  j["end_cycle"] = t.end_cycle;
  j["cycle_limit"] = top.limit;
  j["counts"] = {{"readies", t.counts.readies},
                 {"handled", t.counts.handled},
                 {"cancels", t.counts.cancels},
                 {"resends", t.counts.resends},
                 {"cfg_writes", t.counts.cfg_writes}};
  nlohmann::ordered_json leaves = nlohmann::ordered_json::array();
  for (size_t g = 0; g < t.leaves.size(); ++g)
    leaves.push_back({{"leaf", g},
                      {"circuits_sent", t.leaves[g].circuits.size()},
                      {"expected_circuits", t.leaves[g].rx_circuits},
                      {"expected_words", t.leaves[g].rx_words},
                      {"expected_xor", hexlit(top.exp_xor[g], top.W)}});
  j["leaves"] = leaves;
  d.files.emplace_back("selftest.json", j.dump(2) + "\n");
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

}  // namespace cmnet

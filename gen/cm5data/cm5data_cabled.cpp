#include "gen/cm5data/cm5data_cabled.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

std::vector<Cm5CableWire> cm5_cabled_wiring(uint32_t leaves) {
  // The network board's cube_out/cube_in [2g+1:2g] is leaf g's cable; a leaf board's are [1:0].
  // Bits 0..2N-1 of the sim top's cab_out are the network board's, 2N.. the leaf boards'.
  std::vector<Cm5CableWire> w;
  const int N = static_cast<int>(leaves);
  for (int g = 0; g < N; ++g)
    for (int k = 0; k < 2; ++k) {
      const std::string wire = k ? "S" : "D";
      w.push_back({2 * g + k, 0, 1 + g, "network cube_out[" + S(2 * g + k) + "]", "leaf " + S(g) + " cube_in[" + S(k) + "]"});
      w.push_back({2 * N + 2 * g + k, 1 + g, 0, "leaf " + S(g) + " cube_out[" + S(k) + "]",
                   "network cube_in[" + S(2 * g + k) + "]"});
    }
  std::sort(w.begin(), w.end(), [](const Cm5CableWire& a, const Cm5CableWire& b) { return a.bit < b.bit; });
  return w;
}

namespace {

using board_parts::hexlit;

// What both board tops share: the traffic's sizes and expectations, and the link's.
struct Cabled {
  const Cm5DataParams& p;
  const Cm5SelfTest& t;
  const board_parts::SelfTestPins& pins;
  Cm5CabledOptions o;
  uint32_t N = 0;
  int W = 0, LW = 0, AW = 0, CNW = 0, TW = 0, CW = 0, DEPTH = 0;
  uint64_t limit = 0;
  std::vector<uint64_t> totals, counts, xors;

  Cabled(const Cm5DataParams& p_, const Cm5SelfTest& t_, const board_parts::SelfTestPins& pins_, const Cm5CabledOptions& o_);
  void params(VerilogWriter& v, bool leaf) const;
  void link(VerilogWriter& v, const std::string& name, const std::string& snd_valid, const std::string& snd_data,
            const std::string& snd_credit, const std::string& rcv_valid, const std::string& rcv_data,
            const std::string& rcv_credit, const std::string& out, const std::string& in, const std::string& up,
            const std::string& ovf) const;
  void cycle_and_leds(VerilogWriter& v, const std::string& done, const std::string& pass) const;
  std::string network_top() const;
  std::string leaf_top() const;
};

Cabled::Cabled(const Cm5DataParams& p_, const Cm5SelfTest& t_, const board_parts::SelfTestPins& pins_,
               const Cm5CabledOptions& o_)
    : p(p_), t(t_), pins(pins_), o(o_) {
  if (p.height != 1)
    throw ConfigError("cm5data cabled: height = " + S(p.height) +
                      "; the split covers a network of height 1 (4 leaves, one router chip) on the network "
                      "board, each leaf on its own (a taller network's counters depend on the parents' pick)");
  if (o.bit_clocks < 4 || o.bit_clocks > 64)
    throw ConfigError("cm5data cabled: bit_clocks = " + S(o.bit_clocks) +
                      " out of range 4..64 (a cable bit must outlast the receiver's two-flip-flop synchronizer)");
  N = p.leaves();
  W = p.link_bits;
  if (t.leaves.size() != N)
    throw ConfigError("cm5data cabled: traffic for " + S(static_cast<int64_t>(t.leaves.size())) +
                      " leaves, the network has " + S(N));
  size_t max_words = 1, flits = 0;
  uint64_t max_count = 1;
  for (uint32_t g = 0; g < N; ++g) {
    size_t words = 0;
    for (const auto& m : t.leaves[g].messages) words += m.size();
    flits += words * static_cast<size_t>(p.flits_per_word());
    max_words = std::max(max_words, words);
    totals.push_back(words);
    counts.push_back(t.leaves[g].rx_count + (g == 0 ? static_cast<uint32_t>(t.expect_offset) : 0u));
    max_count = std::max<uint64_t>(max_count, counts.back());
    xors.push_back(t.leaves[g].rx_xor);
  }
  limit = cm5_cabled_limit(p, t, o);
  LW = std::max(1, clog2(N));
  AW = std::max(1, clog2(max_words + 1));
  CNW = std::max(1, clog2(max_count + 2));  // one more: a message too many shows
  TW = std::max(1, clog2(limit + 1));
  CW = std::max(2, cm5_widths(p, 0).credit);
  const int in_flight = p.link_credits() * (p.slots > 0 ? p.slot_flits() : 1);
  DEPTH = 1 << std::max(1, clog2(static_cast<uint64_t>(in_flight)));
}

// The localparams both tops share: the link, the limit, the expectations per leaf.
void Cabled::params(VerilogWriter& v, bool leaf) const {
  if (!leaf) v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam [" + S(TW - 1) + ":0] LIMIT = " + S(TW) + "'d" + S(static_cast<int64_t>(limit)) + ";");
  v.comment("Per leaf (leaf g at [g*width +: width]): " + std::string(leaf ? "ROM words, and " : "") +
            "the model's count and XOR of what it receives.");
  if (leaf) v.line(cm5_vector_param("TOTAL", AW, totals));
  v.line(cm5_vector_param("EXP_COUNT", CNW, counts));
  v.line(cm5_vector_param("EXP_XOR", 32, xors));
  v.line();
}

void Cabled::link(VerilogWriter& v, const std::string& name, const std::string& snd_valid, const std::string& snd_data,
                  const std::string& snd_credit, const std::string& rcv_valid, const std::string& rcv_data,
                  const std::string& rcv_credit, const std::string& out, const std::string& in, const std::string& up,
                  const std::string& ovf) const {
  v.instance("cmnet_ds_link", name, {{"W", S(W)}, {"DEPTH", S(DEPTH)}, {"B", S(o.bit_clocks)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"snd_valid", snd_valid}, {"snd_data", snd_data}, {"snd_credit", snd_credit},
              {"rcv_valid", rcv_valid}, {"rcv_data", rcv_data}, {"rcv_credit", rcv_credit}, {"ds_out", out},
              {"ds_in", in}, {"up", up}, {"overflow", ovf}});
}

// The cycle count to the limit, the verdict registers and the LEDs (ends the module).
void Cabled::cycle_and_leds(VerilogWriter& v, const std::string& done, const std::string& pass) const {
  v.comment("Cycles since reset, to the limit; the verdict is registered (it may turn to fail: a late extra message).");
  v.line("reg [" + S(TW - 1) + ":0] cyc;");
  v.line("reg done, pass;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    cyc <= {" + S(TW) + "{1'b0}};");
  v.line("    done <= 1'b0;");
  v.line("    pass <= 1'b0;");
  v.line("  end else begin");
  v.line("    if (cyc != LIMIT) cyc <= cyc + " + S(TW) + "'d1;");
  v.line("    done <= (" + done + ") || cyc == LIMIT;");
  v.line("    pass <= " + pass + ";");
  v.line("  end");
  v.line("end");
  v.line();
  board_parts::emit_leds(v, pins.led_active_low, pins.blink_log2);
  v.close("endmodule");
}

std::string Cabled::network_top() const {
  VerilogWriter v;
  const Cm5DataWidths w0 = cm5_widths(p, 0);
  const uint64_t NK = std::max<size_t>(1, t.counters.size());
  const int KW = std::max(1, clog2(NK));
  const int EW = w0.chip + w0.sel + 32;
  v.header("CM-5 data network split over boards: the NETWORK board (every router chip), a data-strobe cable per "
           "leaf; pass when each leaf port delivered the model's count and XOR and every chip counter is the model's.",
           {{"leaves N", S(N)}, {"link_bits W", S(W)}, {"input slots", S(p.slots)}, {"pattern", t.pattern},
            {"seed", S(static_cast<int64_t>(t.seed))}, {"messages per leaf", S(t.per_leaf)},
            {"clocks per cable bit", S(o.bit_clocks)}, {"cycle limit", S(static_cast<int64_t>(limit))}});
  v.open("module cm5data_cabled_network (");
  for (const std::string& l : board_parts::selftest_port_lines(pins)) v.line(l == "output wire uart_tx" ? l + "," : l);
  v.line("output wire [" + S(2 * N - 1) + ":0] cube_out,  // leaf g's cable: [2g] D, [2g+1] S");
  v.line("input  wire [" + S(2 * N - 1) + ":0] cube_in");
  v.end_ports();
  params(v, false);
  board_parts::emit_reset(v, pins.reset_port, pins.reset_active_low);
  emit_cm5_counter_rom(v, t.counters, w0.chip, w0.sel, KW);
  v.line("wire [N-1:0] tx_valid, tx_credit, rx_valid, rx_credit, up, ovf, leaf_done, leaf_ok, leaf_over;");
  v.line("wire [N*W-1:0] tx_data, rx_data;");
  v.line("wire [31:0] cnt_value;");
  v.line("reg [" + S(KW - 1) + ":0] sk;  // the counter being read");
  v.line("wire [" + S(EW - 1) + ":0] exp = exp_counter(sk);");
  v.instance("cm5data_network", "net", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"clear", "1'b0"}, {"afd_mode", "{" + S(p.total_chips()) + "{1'b0}}"},
              {"leaf_tx_valid", "tx_valid"}, {"leaf_tx_data", "tx_data"}, {"leaf_tx_credit", "tx_credit"},
              {"leaf_rx_valid", "rx_valid"}, {"leaf_rx_data", "rx_data"}, {"leaf_rx_credit", "rx_credit"},
              {"cnt_chip", "exp[" + S(EW - 1) + ":" + S(32 + w0.sel) + "]"}, {"cnt_sel", "exp[" + S(32 + w0.sel - 1) + ":32]"},
              {"cnt_value", "cnt_value"}});
  v.line("genvar g;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_leaf");
  v.comment("Leaf g's link crosses its cable; what the network delivers to it is counted here too.");
  link(v, "link", "rx_valid[g]", "rx_data[g*W +: W]", "rx_credit[g]", "tx_valid[g]", "tx_data[g*W +: W]", "tx_credit[g]",
       "cube_out[2*g +: 2]", "cube_in[2*g +: 2]", "up[g]", "ovf[g]");
  v.line("wire [" + S(CNW - 1) + ":0] count;");
  v.line("wire [31:0] xsum;");
  v.line("wire unused_credit;");
  v.instance("cm5data_leaf_rx", "mon", {{"W", S(W)}, {"CNW", S(CNW)}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"valid", "rx_valid[g]"}, {"data", "rx_data[g*W +: W]"},
              {"credit", "unused_credit"}, {"count", "count"}, {"xsum", "xsum"}});
  v.line("wire [" + S(CNW - 1) + ":0] expc = EXP_COUNT[g*" + S(CNW) + " +: " + S(CNW) + "];");
  v.line("assign leaf_done[g] = count == expc;");
  v.line("assign leaf_over[g] = count > expc;");
  v.line("assign leaf_ok[g] = leaf_done[g] && xsum == EXP_XOR[g*32 +: 32];");
  v.close("end");
  v.line("endgenerate");
  v.line("wire unused_up = ^up;");
  emit_cm5_counter_scan(v, KW, NK, "&leaf_done");
  cycle_and_leds(v, "scanned || |ovf || |leaf_over", "scanned && cnt_ok && &leaf_ok && !(|ovf) && !(|leaf_over)");
  return v.text();
}

std::string Cabled::leaf_top() const {
  VerilogWriter v;
  v.header("CM-5 data network split over boards: a LEAF board (its number on the chip_id straps), its messages from "
           "a ROM over a data-strobe cable to the network board; pass when it sent them all and received the "
           "model's count and XOR.",
           {{"leaves N", S(N)}, {"link_bits W", S(W)}, {"input slots", S(p.slots)}, {"pattern", t.pattern},
            {"seed", S(static_cast<int64_t>(t.seed))}, {"messages per leaf", S(t.per_leaf)},
            {"clocks per cable bit", S(o.bit_clocks)}, {"cycle limit", S(static_cast<int64_t>(limit))}});
  v.open("module cm5data_cabled_leaf (");
  for (const std::string& l : board_parts::selftest_port_lines(pins)) v.line(l == "output wire uart_tx" ? l + "," : l);
  v.line("output wire [1:0] cube_out,  // the cable: [0] D, [1] S");
  v.line("input  wire [1:0] cube_in,");
  v.line("input  wire [" + S(LW - 1) + ":0] chip_id  // straps: this board's leaf number");
  v.end_ports();
  params(v, true);
  board_parts::emit_reset(v, pins.reset_port, pins.reset_active_low);
  emit_cm5_rom(v, t, LW, AW);
  v.comment("The straps are static; a register keeps them off the logic's timing paths.");
  v.line("reg [" + S(LW - 1) + ":0] leaf;");
  v.line("always @(posedge clk) leaf <= chip_id;");
  v.line("wire [" + S(AW - 1) + ":0] addr;");
  v.line("wire tvalid, tcredit, sent, rvalid, rcredit, up, ovf;");
  v.line("wire [W-1:0] tdata, rdata;");
  v.line("wire [" + S(CNW - 1) + ":0] count;");
  v.line("wire [31:0] xsum;");
  v.instance("cm5data_leaf_tx", "tx",
             {{"W", S(W)}, {"AW", S(AW)}, {"CW", S(CW)}, {"CREDITS", S(p.link_credits())}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"total", "TOTAL[leaf*" + S(AW) + " +: " + S(AW) + "]"}, {"addr", "addr"},
              {"word", "rom_word(leaf, addr)"}, {"valid", "tvalid"}, {"data", "tdata"}, {"credit", "tcredit"},
              {"done", "sent"}});
  link(v, "link", "tvalid", "tdata", "tcredit", "rvalid", "rdata", "rcredit", "cube_out", "cube_in", "up", "ovf");
  v.instance("cm5data_leaf_rx", "rx", {{"W", S(W)}, {"CNW", S(CNW)}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"valid", "rvalid"}, {"data", "rdata"}, {"credit", "rcredit"},
              {"count", "count"}, {"xsum", "xsum"}});
  v.line("wire [" + S(CNW - 1) + ":0] expc = EXP_COUNT[leaf*" + S(CNW) + " +: " + S(CNW) + "];");
  v.line("wire over = count > expc;");
  v.line("wire unused_up = up;");
  cycle_and_leds(v, "(sent && count == expc) || over || ovf",
                 "sent && count == expc && xsum == EXP_XOR[leaf*32 +: 32] && !ovf");
  return v.text();
}

// The simulation top: the network board and N leaf boards, each on its own clock; the C++ harness
// carries cab_out[i] to cab_in[i] through its cable (cm5_cabled_wiring).
std::string sim_top(uint32_t N, int LW) {
  VerilogWriter v;
  const int NB = static_cast<int>(N) + 1, NW = 4 * static_cast<int>(N);
  v.header("CM-5 data network split over boards, SIMULATION ONLY: the network board (board 0) and a leaf board per "
           "leaf (board 1 + g), each with its own clock; the harness drives cab_in[i] from cab_out[i] through a cable.",
           {{"boards", S(NB)}, {"cable wires", S(NW)}});
  v.open("module cm5data_cabled_sim (");
  v.line("input  wire [" + S(NB - 1) + ":0] clk,");
  v.line("output wire [" + S(NW - 1) + ":0] cab_out,");
  v.line("input  wire [" + S(NW - 1) + ":0] cab_in,");
  v.line("output wire [" + S(3 * NB - 1) + ":0] led  // board b: [3b] pass, [3b+1] fail, [3b+2] running");
  v.end_ports();
  v.line("wire [" + S(NB - 1) + ":0] uart_tx;");
  v.line("wire unused_uart = ^uart_tx;");
  v.instance("cm5data_cabled_network", "network", {},
             {{"clk", "clk[0]"}, {"led", "led[2:0]"}, {"uart_tx", "uart_tx[0]"}, {"cube_out", "cab_out[" + S(2 * N - 1) + ":0]"},
              {"cube_in", "cab_in[" + S(4 * N - 1) + ":" + S(2 * N) + "]"}});
  for (uint32_t g = 0; g < N; ++g) {
    const int b = static_cast<int>(g) + 1;
    v.instance("cm5data_cabled_leaf", "leaf" + S(g), {},
               {{"clk", "clk[" + S(b) + "]"}, {"led", "led[" + S(3 * b + 2) + ":" + S(3 * b) + "]"},
                {"uart_tx", "uart_tx[" + S(b) + "]"},
                {"cube_out", "cab_out[" + S(2 * N + 2 * g + 1) + ":" + S(2 * N + 2 * g) + "]"},
                {"cube_in", "cab_in[" + S(2 * g + 1) + ":" + S(2 * g) + "]"}, {"chip_id", S(LW) + "'d" + S(g)}});
  }
  v.close("endmodule");
  return v.text();
}

}  // namespace

uint64_t cm5_cabled_limit(const Cm5DataParams& p, const Cm5SelfTest& t, const Cm5CabledOptions& o) {
  // Every flit crosses two cables of W + 2 bits a flit (each also carrying credits, 2 bits), B
  // clocks a bit; all of them in a row bounds the run, plus the bring-up.
  uint64_t flits = 0;
  for (const auto& l : t.leaves)
    for (const auto& m : l.messages) flits += m.size() * static_cast<uint64_t>(p.flits_per_word());
  return 2 * flits * static_cast<uint64_t>(p.link_bits + 4) * static_cast<uint64_t>(o.bit_clocks) + 16384;
}

GeneratedDesign emit_cm5data_cabled(const Cm5DataConfig& cfg, const Cm5SelfTest& t,
                                    const board_parts::SelfTestPins& pins, Cm5CabledTop top,
                                    const Cm5CabledOptions& o) {
  const Cabled c(cfg.cm5, t, pins, o);
  GeneratedDesign d = emit_cm5data(cfg);
  // The hand-written parts go before filelist.f (add_top rebuilds the list from what precedes it).
  const auto list_at = [&] {
    return std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  };
  for (const char* f : {"cmnet_ds_link.v", "cm5data_leaf_rx.v", "cm5data_leaf_tx.v"})
    if (top != Cm5CabledTop::kNetwork || std::string(f) != "cm5data_leaf_tx.v") d.files.insert(list_at(), {f, read_hw_file(f)});
  if (top != Cm5CabledTop::kLeaf) board_parts::add_top(d, "cm5data_cabled_network", c.network_top(), "");
  if (top != Cm5CabledTop::kNetwork) board_parts::add_top(d, "cm5data_cabled_leaf", c.leaf_top(), "");
  if (top == Cm5CabledTop::kSim) board_parts::add_top(d, "cm5data_cabled_sim", sim_top(c.N, c.LW), "");
  // cabling.json: which pin goes to which, and what each board expects.
  nlohmann::ordered_json j;
  j["mode"] = "cabled";
  j["pattern"] = t.pattern;
  j["seed"] = t.seed;
  j["messages_per_leaf"] = t.per_leaf;
  j["clocks_per_cable_bit"] = o.bit_clocks;
  j["cycle_limit"] = c.limit;
  j["boards"] = {{{"board", 0}, {"top", "cm5data_cabled_network"}}};
  for (uint32_t g = 0; g < c.N; ++g)
    j["boards"].push_back({{"board", 1 + g}, {"top", "cm5data_cabled_leaf"}, {"chip_id straps", g},
                           {"messages", t.leaves[g].messages.size()}, {"expected_received", c.counts[g]},
                           {"expected_xor", hexlit(c.xors[g], 32)}});
  nlohmann::ordered_json wires = nlohmann::ordered_json::array();
  for (const Cm5CableWire& w : cm5_cabled_wiring(c.N)) wires.push_back({{"from", w.from_pin}, {"to", w.to_pin}});
  j["cables"] = wires;
  j["chip_counters_checked"] = t.counters.size();
  d.files.emplace_back("cabling.json", j.dump(2) + "\n");
  return d;
}

}  // namespace cmnet

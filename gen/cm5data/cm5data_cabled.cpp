#include "gen/cm5data/cm5data_cabled.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

// Board 0 and 1: the left and right networks, cube_out/cube_in [2g+1:2g] leaf g's cable. Board
// 2 + g: leaf g, cube_out/cube_in [1:0] to the left network, [3:2] to the right. The sim top's
// cab_out: the left network's at [0, 2N), the right's at [2N, 4N), leaf g's at 4N + 4g.
std::vector<Cm5CableWire> cm5_cabled_wiring(uint32_t leaves) {
  std::vector<Cm5CableWire> w;
  const int N = static_cast<int>(leaves);
  const char* side_name[2] = {"left", "right"};
  for (int s = 0; s < 2; ++s)
    for (int g = 0; g < N; ++g)
      for (int k = 0; k < 2; ++k) {
        const std::string net = std::string(side_name[s]) + " network";
        const std::string leaf = "leaf " + S(g);
        w.push_back({2 * N * s + 2 * g + k, s, 2 + g, net + " cube_out[" + S(2 * g + k) + "]",
                     leaf + " cube_in[" + S(2 * s + k) + "]"});
        w.push_back({4 * N + 4 * g + 2 * s + k, 2 + g, s, leaf + " cube_out[" + S(2 * s + k) + "]",
                     net + " cube_in[" + S(2 * g + k) + "]"});
      }
  std::sort(w.begin(), w.end(), [](const Cm5CableWire& a, const Cm5CableWire& b) { return a.bit < b.bit; });
  return w;
}

namespace {

using board_parts::hexlit;

// What the tops share: the traffic's sizes and expectations, the link's, and the pieces.
struct Cabled {
  const Cm5DataParams& p;
  const Cm5CabledTraffic& t;
  const board_parts::SelfTestPins& pins;
  Cm5CabledOptions o;
  uint32_t N = 0;
  int W = 0, LW = 0, AW = 0, CNW = 0, TW = 0, CW = 0, DEPTH = 0, KW = 0;
  uint64_t limit = 0, NK = 1;
  Cm5LeafRom roms[2];  // per side: the ROM leaf's words, or the NI driver's control and data words

  Cabled(const Cm5DataParams& p_, const Cm5CabledTraffic& t_, const board_parts::SelfTestPins& pins_,
         const Cm5CabledOptions& o_);
  std::string vec(const std::string& name, int width, uint64_t (*of)(const Cabled&, int s, uint32_t g)) const;
  void header(VerilogWriter& v, const std::string& what, const std::string& module, const std::string& param,
              int param_value, int cube_bits) const;
  void link(VerilogWriter& v, const std::string& name, const std::string& snd_valid, const std::string& snd_data,
            const std::string& snd_credit, const std::string& rcv_valid, const std::string& rcv_data,
            const std::string& rcv_credit, const std::string& cable, const std::string& up, const std::string& ovf) const;
  void cycle_and_leds(VerilogWriter& v, const std::string& done, const std::string& pass) const;
  std::string network_top() const;
  std::string leaf_top() const;
  void leaf_side_rom(VerilogWriter& v) const;
  void leaf_side_ni(VerilogWriter& v) const;
};

Cabled::Cabled(const Cm5DataParams& p_, const Cm5CabledTraffic& t_, const board_parts::SelfTestPins& pins_,
               const Cm5CabledOptions& o_)
    : p(p_), t(t_), pins(pins_), o(o_) {
  if (p.height != 1)
    throw ConfigError("cm5data cabled: height = " + S(p.height) +
                      "; the split covers a network of height 1 (4 leaves, one router chip) on each network "
                      "board, each leaf on its own (a taller network's counters depend on the parents' pick)");
  if (o.bit_clocks < 4 || o.bit_clocks > 64)
    throw ConfigError("cm5data cabled: bit_clocks = " + S(o.bit_clocks) +
                      " out of range 4..64 (a cable bit must outlast the receiver's two-flip-flop synchronizer)");
  N = p.leaves();
  W = p.link_bits;
  size_t max_words = 1;
  uint64_t max_count = 1;
  for (int s = 0; s < 2; ++s) {
    const Cm5CabledSide& side = t.sides[static_cast<size_t>(s)];
    if (side.net.leaves.size() != N || side.sends.size() != N || side.data_xor.size() != N)
      throw ConfigError("cm5data cabled: traffic for " + S(static_cast<int64_t>(side.net.leaves.size())) +
                        " leaves, the network has " + S(N));
    roms[s].resize(N);
    for (uint32_t g = 0; g < N; ++g) {
      auto& rom = roms[s][g];
      if (o.interfaces) {
        for (size_t m = 0; m < side.sends[g].size(); ++m) {
          const Cm5NiSend& x = side.sends[g][m];
          if (x.data.empty() || x.data.size() > static_cast<size_t>(p.max_words) || x.dst >= N)
            throw ConfigError("cm5data cabled: leaf " + S(g) + ", message " + S(static_cast<int64_t>(m)) +
                              ": dst " + S(x.dst) + ", " + S(static_cast<int64_t>(x.data.size())) + " data words");
          const std::string msg = "message " + S(static_cast<int64_t>(m));
          rom.push_back({(x.dst << 16) | ((static_cast<uint32_t>(x.tag) & 15u) << 4) | static_cast<uint32_t>(x.data.size()),
                         msg + ": {dst, tag, len}"});
          for (size_t k = 0; k < x.data.size(); ++k) rom.push_back({x.data[k], msg + ", data " + S(static_cast<int64_t>(k))});
        }
      } else {
        rom = cm5_message_rom(side.net.leaves[g].messages);
      }
      max_words = std::max(max_words, rom.size());
      max_count = std::max<uint64_t>(max_count, side.net.leaves[g].rx_count);
    }
    NK = std::max<uint64_t>(NK, side.net.counters.size());
  }
  limit = cm5_cabled_limit(p, t, o);
  LW = std::max(1, clog2(N));
  AW = std::max(1, clog2(max_words + 1));
  CNW = std::max(1, clog2(max_count + 2));  // one more: a message too many shows
  TW = std::max(1, clog2(limit + 1));
  CW = std::max(2, cm5_widths(p, 0).credit);
  KW = std::max(1, clog2(NK));
  const int in_flight = p.link_credits() * (p.slots > 0 ? p.slot_flits() : 1);
  DEPTH = 1 << std::max(1, clog2(static_cast<uint64_t>(in_flight)));
}

// A vector localparam over (side, leaf): entry s*N + g at [(s*N + g)*width +: width].
std::string Cabled::vec(const std::string& name, int width, uint64_t (*of)(const Cabled&, int s, uint32_t g)) const {
  std::vector<uint64_t> values;
  for (int s = 0; s < 2; ++s)
    for (uint32_t g = 0; g < N; ++g) values.push_back(of(*this, s, g));
  return board_parts::vector_param(name, width, values);
}

// The file header, the module's parameter and ports up to the cables, and the reset.
void Cabled::header(VerilogWriter& v, const std::string& what, const std::string& module, const std::string& param,
                    int param_value, int cube_bits) const {
  const Cm5SelfTest& n = t.sides[0].net;
  v.header(what, {{"leaves N", S(N)}, {"link_bits W", S(W)}, {"input slots", S(p.slots)}, {"pattern", n.pattern},
                  {"seed", S(static_cast<int64_t>(n.seed))}, {"messages per leaf", S(n.per_leaf)},
                  {"network interfaces on the leaf boards", o.interfaces ? "yes" : "no (ROM leaves)"},
                  {"clocks per cable bit", S(o.bit_clocks)}, {"cycle limit", S(static_cast<int64_t>(limit))}});
  v.open("module " + module + " #(");
  v.line("parameter integer " + param + " = " + S(param_value));
  v.end_params();
  for (const std::string& l : board_parts::selftest_port_lines(pins)) v.line(l == "output wire uart_tx" ? l + "," : l);
  v.line("output wire [" + S(cube_bits - 1) + ":0] cube_out,  // cable c: [2c] D, [2c+1] S");
  v.line("input  wire [" + S(cube_bits - 1) + ":0] cube_in");
  v.end_ports();
  v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam [" + S(TW - 1) + ":0] LIMIT = " + S(TW) + "'d" + S(static_cast<int64_t>(limit)) + ";");
  board_parts::emit_reset(v, pins.reset_port, pins.reset_active_low);
}

void Cabled::link(VerilogWriter& v, const std::string& name, const std::string& snd_valid, const std::string& snd_data,
                  const std::string& snd_credit, const std::string& rcv_valid, const std::string& rcv_data,
                  const std::string& rcv_credit, const std::string& cable, const std::string& up,
                  const std::string& ovf) const {
  v.instance("cmnet_ds_link", name, {{"W", S(W)}, {"DEPTH", S(DEPTH)}, {"B", S(o.bit_clocks)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"snd_valid", snd_valid}, {"snd_data", snd_data}, {"snd_credit", snd_credit},
              {"rcv_valid", rcv_valid}, {"rcv_data", rcv_data}, {"rcv_credit", rcv_credit},
              {"ds_out", "cube_out[" + cable + " +: 2]"}, {"ds_in", "cube_in[" + cable + " +: 2]"}, {"up", up},
              {"overflow", ovf}});
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

uint64_t rx_count(const Cabled& c, int s, uint32_t g) { return c.t.sides[static_cast<size_t>(s)].net.leaves[g].rx_count; }
uint64_t rx_xor(const Cabled& c, int s, uint32_t g) { return c.t.sides[static_cast<size_t>(s)].net.leaves[g].rx_xor; }
uint64_t data_xor(const Cabled& c, int s, uint32_t g) { return c.t.sides[static_cast<size_t>(s)].data_xor[g]; }
uint64_t rom_total(const Cabled& c, int s, uint32_t g) { return c.roms[s][g].size(); }

std::string Cabled::network_top() const {
  VerilogWriter v;
  const Cm5DataWidths w0 = cm5_widths(p, 0);
  const int EW = w0.chip + w0.sel + 32;
  header(v, "CM-5 data network split over boards: a NETWORK board (SIDE 0 left, 1 right; every router chip of it), a "
            "data-strobe cable per leaf; pass when each leaf port delivered the model's count and XOR and every chip "
            "counter is the model's.",
         "cm5data_cabled_network", "SIDE", o.board, static_cast<int>(2 * N));
  v.comment("Per side and leaf port (side s, leaf g at [(s*N + g)*width +: width]): the model's count and XOR of every word.");
  v.line(vec("EXP_COUNT", CNW, rx_count));
  v.line(vec("EXP_XOR", 32, rx_xor));
  // Both sides' counters in one ROM, side s's at s * 2^KW.
  std::vector<Cm5SelfTestCounter> cnt;
  for (int s = 0; s < 2; ++s) {
    std::vector<Cm5SelfTestCounter> c = t.sides[static_cast<size_t>(s)].net.counters;
    c.resize(size_t{1} << KW);
    cnt.insert(cnt.end(), c.begin(), c.end());
  }
  emit_cm5_counter_rom(v, cnt, w0.chip, w0.sel, KW + 1);
  v.line("localparam integer SIDE_I = SIDE;");
  v.line("localparam [0:0] SIDE_BIT = SIDE_I[0:0];");
  v.line("wire [N-1:0] tx_valid, tx_credit, rx_valid, rx_credit, up, ovf, leaf_done, leaf_ok, leaf_over;");
  v.line("wire [N*W-1:0] tx_data, rx_data;");
  v.line("wire [31:0] cnt_value;");
  v.line("reg [" + S(KW - 1) + ":0] sk;  // the counter being read");
  v.line("wire [" + S(EW - 1) + ":0] exp = exp_counter({SIDE_BIT, sk});");
  emit_cm5_network_instance(v, p, w0.chip, w0.sel);
  v.line("genvar g;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_leaf");
  v.comment("Leaf g's link crosses its cable; what the network delivers to it is counted here too.");
  link(v, "link", "rx_valid[g]", "rx_data[g*W +: W]", "rx_credit[g]", "tx_valid[g]", "tx_data[g*W +: W]", "tx_credit[g]",
       "2*g", "up[g]", "ovf[g]");
  v.line("wire [" + S(CNW - 1) + ":0] count;");
  v.line("wire [31:0] xsum;");
  v.line("wire unused_credit, unused_end;");
  v.instance("cm5data_leaf_rx", "mon", {{"W", S(W)}, {"CNW", S(CNW)}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"valid", "rx_valid[g]"}, {"data", "rx_data[g*W +: W]"},
              {"credit", "unused_credit"}, {"count", "count"}, {"xsum", "xsum"}, {"msg_end", "unused_end"}});
  v.line("localparam integer E = SIDE * N + g;");
  v.line("wire [" + S(CNW - 1) + ":0] expc = EXP_COUNT[E*" + S(CNW) + " +: " + S(CNW) + "];");
  v.line("assign leaf_done[g] = count == expc;");
  v.line("assign leaf_over[g] = count > expc;");
  v.line("assign leaf_ok[g] = leaf_done[g] && xsum == EXP_XOR[E*32 +: 32];");
  v.close("end");
  v.line("endgenerate");
  v.line("wire unused_up = ^up;");
  emit_cm5_counter_scan(v, KW, NK, "&leaf_done");
  cycle_and_leds(v, "scanned || |ovf || |leaf_over", "scanned && cnt_ok && &leaf_ok && !(|ovf) && !(|leaf_over)");
  return v.text();
}

// A leaf's side s without an interface: the ROM's words (head, data, CRC) straight onto the link.
void Cabled::leaf_side_rom(VerilogWriter& v) const {
  v.line("wire [" + S(AW - 1) + ":0] addr;");
  v.line("wire tvalid, tcredit, rvalid, rcredit;");
  v.line("wire [W-1:0] tdata, rdata;");
  v.line("wire [31:0] xall;");
  v.line("wire unused_end;");
  v.instance("cm5data_leaf_tx", "tx",
             {{"W", S(W)}, {"AW", S(AW)}, {"CW", S(CW)}, {"CREDITS", S(p.link_credits())}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"total", "TOTAL[E*" + S(AW) + " +: " + S(AW) + "]"}, {"addr", "addr"},
              {"word", "s == 0 ? rom_l(LEAF_ID, addr) : rom_r(LEAF_ID, addr)"}, {"valid", "tvalid"}, {"data", "tdata"},
              {"credit", "tcredit"}, {"done", "sent[s]"}});
  link(v, "link", "tvalid", "tdata", "tcredit", "rvalid", "rdata", "rcredit", "2*s", "up[s]", "ovf[s]");
  v.instance("cm5data_leaf_rx", "rx", {{"W", S(W)}, {"CNW", S(CNW)}, {"SLOTS", S(p.slots)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"valid", "rvalid"}, {"data", "rdata"}, {"credit", "rcredit"},
              {"count", "count[s*" + S(CNW) + " +: " + S(CNW) + "]"}, {"xsum", "xall"}, {"msg_end", "unused_end"}});
  v.line("assign side_ok[s] = xall == EXP_XOR[E*32 +: 32];");
  v.line("assign crc_bad[s] = 1'b0;");
}

// A leaf's side s with its network interface, driven from the ROM as a node's program would.
void Cabled::leaf_side_ni(VerilogWriter& v) const {
  v.line("wire [" + S(AW - 1) + ":0] addr;");
  v.line("wire [3:0] ni_addr;");
  v.line("wire [31:0] ni_wdata, ni_rdata, xdata;");
  v.line("wire ni_we, ni_re;");
  v.line("wire [7:0] send_free;");
  v.line("wire tvalid, tcredit, rvalid, rcredit;");
  v.line("wire [W-1:0] tdata, rdata;");
  v.line("wire [5:0] unused_ev;");
  v.line("wire unused_irq;");
  v.instance("cm5data_ni_driver", "drv", {{"AW", S(AW)}, {"CNW", S(CNW)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"total", "TOTAL[E*" + S(AW) + " +: " + S(AW) + "]"}, {"rom_addr", "addr"},
              {"rom_word", "s == 0 ? rom_l(LEAF_ID, addr) : rom_r(LEAF_ID, addr)"}, {"addr", "ni_addr"},
              {"wdata", "ni_wdata"}, {"we", "ni_we"}, {"re", "ni_re"}, {"rdata", "ni_rdata"}, {"send_free", "send_free"},
              {"count", "count[s*" + S(CNW) + " +: " + S(CNW) + "]"}, {"xsum", "xdata"}, {"crc_bad", "crc_bad[s]"},
              {"sent", "sent[s]"}});
  v.instance("cm5data_ni", "ni", {{"LEAF", "LEAF"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"addr", "ni_addr"}, {"wdata", "ni_wdata"}, {"we", "ni_we"}, {"re", "ni_re"},
              {"rdata", "ni_rdata"}, {"irq", "unused_irq"}, {"tx_start", "1'b1"}, {"send_free", "send_free"},
              {"ev_accept", "unused_ev[0]"}, {"ev_sent", "unused_ev[1]"}, {"ev_recv", "unused_ev[2]"},
              {"ev_taken", "unused_ev[3]"}, {"ev_intr", "unused_ev[4]"}, {"ev_addr", "unused_ev[5]"},
              {"net_tx_valid", "tvalid"}, {"net_tx_data", "tdata"}, {"net_tx_credit", "tcredit"},
              {"net_rx_valid", "rvalid"}, {"net_rx_data", "rdata"}, {"net_rx_credit", "rcredit"}});
  link(v, "link", "tvalid", "tdata", "tcredit", "rvalid", "rdata", "rcredit", "2*s", "up[s]", "ovf[s]");
  v.line("assign side_ok[s] = xdata == EXP_XOR[E*32 +: 32];");
}

std::string Cabled::leaf_top() const {
  VerilogWriter v;
  header(v, o.interfaces
                ? "CM-5 data network split over boards: a LEAF board (leaf LEAF) with its two network interfaces "
                  "(cm5data_ni), driven from a ROM, each on a data-strobe cable to its network's board; pass when "
                  "every message was handed over and each side received the model's count and XOR of data words, "
                  "every CRC good."
                : "CM-5 data network split over boards: a ROM LEAF board (leaf LEAF): its words (head, data, CRC) "
                  "straight onto a data-strobe cable to each network's board; pass when it sent them all and each "
                  "side received the model's count and XOR of every word.",
         "cm5data_cabled_leaf", "LEAF", o.board, 4);
  v.comment("Per side and leaf (side s, leaf g at [(s*N + g)*width +: width]): ROM words, the model's count and XOR.");
  v.line(vec("TOTAL", AW, rom_total));
  v.line(vec("EXP_COUNT", CNW, rx_count));
  v.line(vec("EXP_XOR", 32, o.interfaces ? data_xor : rx_xor));
  v.comment(o.interfaces ? "Per message: {dst[31:16], tag[7:4], len[2:0]}, then its data words; left, then right."
                         : "The words as the leaf sends them: left, then right.");
  emit_cm5_rom_function(v, "rom_l", LW, AW, roms[0]);
  emit_cm5_rom_function(v, "rom_r", LW, AW, roms[1]);
  v.line("localparam integer LEAF_I = LEAF;");
  v.line("localparam [" + S(LW - 1) + ":0] LEAF_ID = LEAF_I[" + S(LW - 1) + ":0];");
  v.line("wire [1:0] sent, up, ovf, side_ok, crc_bad, over, full;");
  v.line("wire [" + S(2 * CNW - 1) + ":0] count;");
  v.line("genvar s;");
  v.line("generate");
  v.open("for (s = 0; s < 2; s = s + 1) begin : g_side");
  v.line("localparam integer E = s * N + LEAF;");
  if (o.interfaces) leaf_side_ni(v);
  else leaf_side_rom(v);
  v.line("wire [" + S(CNW - 1) + ":0] expc = EXP_COUNT[E*" + S(CNW) + " +: " + S(CNW) + "];");
  v.line("assign over[s] = count[s*" + S(CNW) + " +: " + S(CNW) + "] > expc;");
  v.line("assign full[s] = count[s*" + S(CNW) + " +: " + S(CNW) + "] == expc;");
  v.close("end");
  v.line("endgenerate");
  v.line("wire unused_up = ^up;");
  cycle_and_leds(v, "(&sent && &full) || |over || |ovf || |crc_bad", "&sent && &full && &side_ok && !(|ovf) && !(|crc_bad)");
  return v.text();
}

// The simulation top: both network boards and N leaf boards, each on its own clock; the C++
// harness carries cab_out[i] to cab_in[i] through its cable (cm5_cabled_wiring).
std::string sim_top(uint32_t N) {
  VerilogWriter v;
  const int NB = static_cast<int>(N) + 2, NW = 8 * static_cast<int>(N);
  v.header("CM-5 data network split over boards, SIMULATION ONLY: the left and right network boards (boards 0, 1) "
           "and a leaf board per leaf (board 2 + g), each with its own clock; the harness drives cab_in[i] from "
           "cab_out[i] through a cable.",
           {{"boards", S(NB)}, {"cable wires", S(NW)}});
  v.open("module cm5data_cabled_sim (");
  v.line("input  wire [" + S(NB - 1) + ":0] clk,");
  v.line("output wire [" + S(NW - 1) + ":0] cab_out,");
  v.line("input  wire [" + S(NW - 1) + ":0] cab_in,");
  v.line("output wire [" + S(3 * NB - 1) + ":0] led  // board b: [3b] pass, [3b+1] fail, [3b+2] running");
  v.end_ports();
  v.line("wire [" + S(NB - 1) + ":0] uart_tx;");
  v.line("wire unused_uart = ^uart_tx;");
  const auto bits = [](int hi, int lo) { return "cab_in[" + S(hi) + ":" + S(lo) + "]"; };
  for (int s = 0; s < 2; ++s) {
    std::string in = "{";
    for (int g = static_cast<int>(N) - 1; g >= 0; --g) {
      const int b = 4 * static_cast<int>(N) + 4 * g + 2 * s;
      in += bits(b + 1, b) + (g ? ", " : "}");
    }
    const int lo = 2 * static_cast<int>(N) * s;
    v.instance("cm5data_cabled_network", s ? "right" : "left", {{"SIDE", S(s)}},
               {{"clk", "clk[" + S(s) + "]"}, {"led", "led[" + S(3 * s + 2) + ":" + S(3 * s) + "]"},
                {"uart_tx", "uart_tx[" + S(s) + "]"},
                {"cube_out", "cab_out[" + S(lo + 2 * static_cast<int>(N) - 1) + ":" + S(lo) + "]"}, {"cube_in", in}});
  }
  for (uint32_t g = 0; g < N; ++g) {
    const int b = static_cast<int>(g) + 2, o = 4 * static_cast<int>(N + g), l = 2 * static_cast<int>(g);
    const int r = 2 * static_cast<int>(N + g);
    v.instance("cm5data_cabled_leaf", "leaf" + S(g), {{"LEAF", S(g)}},
               {{"clk", "clk[" + S(b) + "]"}, {"led", "led[" + S(3 * b + 2) + ":" + S(3 * b) + "]"},
                {"uart_tx", "uart_tx[" + S(b) + "]"}, {"cube_out", "cab_out[" + S(o + 3) + ":" + S(o) + "]"},
                {"cube_in", "{" + bits(r + 1, r) + ", " + bits(l + 1, l) + "}"}});
  }
  v.close("endmodule");
  return v.text();
}

}  // namespace

uint64_t cm5_cabled_limit(const Cm5DataParams& p, const Cm5CabledTraffic& t, const Cm5CabledOptions& o) {
  // Every flit crosses two cables of W + 2 bits a flit (each also carrying credits, 2 bits), B
  // clocks a bit; all of them in a row bounds the run, plus the bring-up and the NIs' bus.
  uint64_t flits = 0;
  for (const auto& side : t.sides)
    for (const auto& l : side.net.leaves)
      for (const auto& m : l.messages) flits += m.size() * static_cast<uint64_t>(p.flits_per_word());
  return 2 * flits * static_cast<uint64_t>(p.link_bits + 4) * static_cast<uint64_t>(o.bit_clocks) + 16384;
}

GeneratedDesign emit_cm5data_cabled(const Cm5DataConfig& cfg, const Cm5CabledTraffic& t,
                                    const board_parts::SelfTestPins& pins, Cm5CabledTop top,
                                    const Cm5CabledOptions& o) {
  const Cabled c(cfg.cm5, t, pins, o);
  if (top == Cm5CabledTop::kNetwork && (o.board < 0 || o.board > 1))
    throw ConfigError("cm5data cabled: network board " + S(o.board) + ": its side is 0 (left) or 1 (right)");
  if (top == Cm5CabledTop::kLeaf && (o.board < 0 || o.board >= static_cast<int>(c.N)))
    throw ConfigError("cm5data cabled: leaf board " + S(o.board) + ": the network has leaves 0.." + S(c.N - 1));
  GeneratedDesign d = emit_cm5data(cfg);
  // The parts go before filelist.f (add_top rebuilds the list from the files).
  const auto list_at = [&] {
    return std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  };
  std::vector<std::string> parts = {"cmnet_ds_link.v", "cm5data_leaf_rx.v"};
  if (top != Cm5CabledTop::kNetwork) parts.push_back(o.interfaces ? "cm5data_ni_driver.v" : "cm5data_leaf_tx.v");
  for (const std::string& f : parts) d.files.insert(list_at(), {f, read_hw_file(f)});
  if (top != Cm5CabledTop::kNetwork && o.interfaces)
    d.files.insert(list_at(), {"cm5data_ni.v", emit_cm5data_ni_module(cfg.cm5, cm5_ni_send_words(cfg.cm5))});
  if (top != Cm5CabledTop::kLeaf) board_parts::add_top(d, "cm5data_cabled_network", c.network_top(), "");
  if (top != Cm5CabledTop::kNetwork) board_parts::add_top(d, "cm5data_cabled_leaf", c.leaf_top(), "");
  if (top == Cm5CabledTop::kSim) board_parts::add_top(d, "cm5data_cabled_sim", sim_top(c.N), "");
  // cabling.json: which pin goes to which, and what each board expects.
  nlohmann::ordered_json j;
  const Cm5SelfTest& n = t.sides[0].net;
  j["mode"] = "cabled";
  j["pattern"] = n.pattern;
  j["seed"] = n.seed;
  j["messages_per_leaf"] = n.per_leaf;
  j["interfaces"] = o.interfaces;
  j["clocks_per_cable_bit"] = o.bit_clocks;
  j["cycle_limit"] = c.limit;
  j["boards"] = nlohmann::ordered_json::array();
  for (int s = 0; s < 2; ++s)
    j["boards"].push_back({{"board", s}, {"top", "cm5data_cabled_network"}, {"SIDE", s},
                           {"chip_counters_checked", t.sides[static_cast<size_t>(s)].net.counters.size()}});
  for (uint32_t g = 0; g < c.N; ++g) {
    nlohmann::ordered_json b = {{"board", 2 + g}, {"top", "cm5data_cabled_leaf"}, {"LEAF", g}};
    for (int s = 0; s < 2; ++s) {
      const Cm5CabledSide& side = t.sides[static_cast<size_t>(s)];
      b[s ? "right" : "left"] = {{"messages", side.net.leaves[g].messages.size()},
                                 {"expected_received", side.net.leaves[g].rx_count},
                                 {o.interfaces ? "expected_data_xor" : "expected_xor",
                                  hexlit(o.interfaces ? side.data_xor[g] : side.net.leaves[g].rx_xor, 32)}};
    }
    j["boards"].push_back(b);
  }
  nlohmann::ordered_json wires = nlohmann::ordered_json::array();
  for (const Cm5CableWire& w : cm5_cabled_wiring(c.N)) wires.push_back({{"from", w.from_pin}, {"to", w.to_pin}});
  j["cables"] = wires;
  d.files.emplace_back("cabling.json", j.dump(2) + "\n");
  return d;
}

}  // namespace cmnet

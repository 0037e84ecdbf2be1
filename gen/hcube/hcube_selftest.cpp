#include "gen/hcube/hcube_selftest.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"
#include "gen/hcube/hcube_emitter.h"

namespace cmnet {

using board_parts::hexlit;

void check_hcube_selftest_shape(const HcubeParams& p) {
  validate(p, "config");
  if (p.packet())
    throw ConfigError("hcube self-test (--mode network): scheme = \"packet\"; the self-test top drives wormhole "
                      "networks only (a packet chip's feeders read a whole packet a cycle, from flip-flops)");
  if (p.dims < 2 || p.dims > kHcubeSelfTestMaxDims)
    throw ConfigError("hcube self-test (--mode network): dims = " + S(p.dims) + " out of range 2.." +
                      S(kHcubeSelfTestMaxDims) + " (n = 4 would need 64 feeder block RAMs; the HX8K has 32)");
  if (p.ticks_per_byte < 2)
    throw ConfigError("hcube self-test (--mode network): ticks_per_byte = " + S(p.ticks_per_byte) +
                      "; the feeders' block RAM is read the cycle after their index moves, so a byte may move at most "
                      "every 2 ticks");
}

void check_hcube_selftest_rom(const HcubeParams& p, uint32_t node, size_t messages, uint64_t bytes,
                              const std::string& where) {
  if (node >= static_cast<uint32_t>(p.nodes()))
    throw ConfigError(where + ": node " + S(node) + " is not in the " + S(p.dims) + "-cube");
  if (messages > static_cast<size_t>(kHcubeSelfTestMaxMessages))
    throw ConfigError(where + ": node " + S(node) + " sends " + S(static_cast<long long>(messages)) +
                      " messages; a self-test ROM holds " + S(kHcubeSelfTestMaxMessages) + " a node");
  if (bytes > static_cast<uint64_t>(kHcubeSelfTestRomBytes))
    throw ConfigError(where + ": node " + S(node) + "'s worms are " + S(static_cast<long long>(bytes)) +
                      " bytes (data + 10 header bytes each); a self-test ROM holds " + S(kHcubeSelfTestRomBytes) +
                      " a node");
}

uint64_t hcube_selftest_limit(const HcubeSelfTest& t) { return 2 * t.model_cycles + t.counters.size() + 64; }

namespace {

// The self-test top, written section by section: the traffic and the widths every section uses,
// and the writer they append to.
struct SelfTestTop {
  const HcubeParams& p;
  const HcubeSelfTest& t;
  const board_parts::SelfTestPins& pins;
  HcubeWidths w;
  int N = 0, NN = 0;
  uint64_t limit = 0;
  int AW = 1;      // a node's ROM byte address
  int LW = 1;      // a worm's length
  int MW = 1;      // a node's message index (0 .. count)
  int CNW = 2;     // worms received
  int TW = 1;      // cycles
  int NB = 1;      // a node number
  int MSGW = 0;    // a message table entry
  uint64_t NK = 1;
  int KW = 1;      // the counter scan's step (0 .. NK + 2)
  int EW = 0;      // a scan entry: {node, select, value}
  std::vector<uint64_t> base;  // per node, per message: its worm's first ROM byte (flattened below)
  VerilogWriter v;

  SelfTestTop(const HcubeParams& p_, const HcubeSelfTest& t_, const board_parts::SelfTestPins& pins_);
  std::string emit();
  std::string rom_module(int g) const;
  void emit_header_and_tables();
  void emit_network();
  void emit_node_source(int g);
  void emit_node_feeders(int g);
  void emit_node_receive(int g);
  void emit_scan_and_verdict();
  std::string pfx(int g) const { return "n" + S(g) + "_"; }
};

// Checks the network, the traffic and the pins (ConfigError) and measures the widths.
SelfTestTop::SelfTestTop(const HcubeParams& p_, const HcubeSelfTest& t_, const board_parts::SelfTestPins& pins_)
    : p(p_), t(t_), pins(pins_), w(hcube_widths(p_)), N(p_.dims), NN(p_.nodes()) {
  check_hcube_selftest_shape(p);
  if (t.nodes.size() != static_cast<size_t>(NN))
    throw ConfigError("hcube self-test: traffic for " + S(static_cast<long long>(t.nodes.size())) + " nodes, the " +
                      S(N) + "-cube has " + S(NN));
  if (pins.led_active_low.size() < 2 || pins.led_active_low.size() > 3)
    throw ConfigError("hcube self-test: " + S(static_cast<long long>(pins.led_active_low.size())) +
                      " LEDs; the top drives 2 (pass, fail) or 3 (pass, fail, running)");
  limit = hcube_selftest_limit(t);
  uint64_t max_bytes = 1, max_len = 1, max_count = 1, max_msgs = 1, max_tag = 0;
  for (uint32_t g = 0; g < static_cast<uint32_t>(NN); ++g) {
    const HcubeSelfTestNode& nd = t.nodes[g];
    uint64_t bytes = 0;
    for (size_t m = 0; m < nd.messages.size(); ++m) {
      const HcubeSelfTestMessage& msg = nd.messages[m];
      const std::string at = "hcube self-test: node " + S(g) + ", message " + S(static_cast<long long>(m));
      if (msg.dst >= static_cast<uint32_t>(NN) || msg.dst == g)
        throw ConfigError(at + ": destination " + S(msg.dst) + " (another node of the cube)");
      if (msg.worm.size() < static_cast<size_t>(HcubeParams::kMessageHeaderBytes) + 1)
        throw ConfigError(at + ": a worm of " + S(static_cast<long long>(msg.worm.size())) +
                          " bytes (10 header bytes and at least 1 data byte)");
      if (msg.tag >= (1u << w.tw)) throw ConfigError(at + ": tag " + S(msg.tag) + " beyond the routers' 16 bits");
      if (msg.gen >= limit) throw ConfigError(at + ": generated at " + S(static_cast<long long>(msg.gen)) +
                                              ", after the cycle limit " + S(static_cast<long long>(limit)));
      max_tag = std::max<uint64_t>(max_tag, msg.tag);
      base.push_back(bytes);
      bytes += msg.worm.size();
      max_len = std::max<uint64_t>(max_len, msg.worm.size());
    }
    check_hcube_selftest_rom(p, g, nd.messages.size(), bytes, "hcube self-test");
    max_bytes = std::max(max_bytes, bytes);
    max_count = std::max<uint64_t>(max_count, nd.rx_count);
    max_msgs = std::max<uint64_t>(max_msgs, nd.messages.size());
  }
  AW = std::max(1, clog2(max_bytes));
  LW = std::max(1, clog2(max_len + 1));
  MW = std::max(1, clog2(max_msgs + 1));
  CNW = clog2(max_count + 1) + 1;  // a bit more than the count: a surplus worm never wraps it back
  TW = std::max(1, clog2(limit + 1));
  NB = std::max(1, w.nodew);
  // The network's tags and worm byte indices as wide as this traffic needs (the routers' default
  // widths serve any traffic: 16-bit tags, 25-bit indices): shorter comparisons and counters.
  w.tw = std::max(1, clog2(max_tag + 1));
  w.worm_kw = std::max(AW, LW);
  MSGW = 1 + w.db + LW + AW + w.tw + N + TW;
  NK = std::max<size_t>(1, t.counters.size());
  KW = std::max(1, clog2(NK + 3));
  EW = NB + w.csw + 32;
  for (const HcubeSelfTestCounter& c : t.counters)
    if (c.node >= static_cast<uint32_t>(NN) || c.sel < 0 || c.sel >= 4 * N)
      throw ConfigError("hcube self-test: counter (node " + S(c.node) + ", select " + S(c.sel) +
                        ") is not one of the network's");
}

std::string SelfTestTop::emit() {
  emit_header_and_tables();
  emit_network();
  for (int g = 0; g < NN; ++g) {
    v.comment("Node " + S(g) + "'s host.");
    emit_node_source(g);
    emit_node_feeders(g);
    emit_node_receive(g);
  }
  emit_scan_and_verdict();
  return v.text();
}

// Node g's worm bytes back to back, one block RAM: a feeder's copy reads the byte at `a` a cycle later.
std::string SelfTestTop::rom_module(int g) const {
  VerilogWriter r;
  r.header("hcube_selftest_rom" + S(g) + ": node " + S(g) + "'s worms for the hcube self-test top, back to back "
           "(destination first), read a cycle after the address",
           {{"bytes", S(1 << AW)}});
  r.open("module hcube_selftest_rom" + S(g) + " (");
  r.line("input  wire clk,");
  r.line("input  wire [" + S(AW - 1) + ":0] a,");
  r.line("output reg  [7:0] q");
  r.end_ports();
  r.line("reg [7:0] mem [0:" + S((1 << AW) - 1) + "];");
  r.line("initial begin");
  size_t k = 0;
  const auto& ms = t.nodes[static_cast<size_t>(g)].messages;
  for (size_t m = 0; m < ms.size(); ++m)
    for (size_t i = 0; i < ms[m].worm.size(); ++i, ++k)
      r.line("  mem[" + S(static_cast<long long>(k)) + "] = " + hexlit(ms[m].worm[i], 8) + ";" +
             (i == 0 ? "  // message " + S(static_cast<long long>(m)) : ""));
  for (; k < (size_t{1} << AW); ++k) r.line("  mem[" + S(static_cast<long long>(k)) + "] = 8'h00;");
  r.line("end");
  r.line("always @(posedge clk) q <= mem[a];");
  r.end_module();
  return r.text();
}

// The header, the ports, the localparams, the reset and the tables (messages, expected counters).
void SelfTestTop::emit_header_and_tables() {
  v.header("hcube SELF-TEST top: hcube_network (wormhole) with its nodes' hosts played from a ROM; pass when every "
           "node received the reference model's worms (count, XOR and sum of the bytes, last arrival) and every "
           "port counter is the model's.",
           {{"dims n", S(N)},
            {"nodes", S(NN)},
            {"ticks_per_byte", S(p.ticks_per_byte)},
            {"arb_ticks", S(p.arb_ticks)},
            {"pattern", t.pattern},
            {"seed", S(static_cast<long long>(t.seed))},
            {"messages per node", S(t.per_node)},
            {"model cycles", S(static_cast<long long>(t.model_cycles))},
            {"cycle limit", S(static_cast<long long>(limit))}});
  v.open("module hcube_selftest_top (");
  for (const std::string& l : board_parts::selftest_port_lines(pins)) v.line(l);
  v.end_ports();
  v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer NN = " + S(NN) + ";");
  v.line("localparam [" + S(TW - 1) + ":0] LIMIT = " + S(TW) + "'d" + S(static_cast<long long>(limit)) + ";");
  v.line();
  board_parts::emit_reset(v, pins.reset_port, pins.reset_active_low);
  v.comment("The sources' heads reset asynchronously (below) by rst a cycle later: their own net (rst is the");
  v.comment("network's synchronous reset), and nothing is taken in that cycle (no source is due in the first).");
  v.line("reg hrst = 1'b1;");
  v.line("always @(posedge clk) hrst <= rst;");
  v.line();
  v.comment("Each node's messages: {valid, first channel, worm bytes, ROM base, tag, destination, generation}.");
  v.line("function [" + S(MSGW - 1) + ":0] msg_rom;");
  v.line("  input [" + S(NB - 1) + ":0] node;");
  v.line("  input [" + S(MW - 1) + ":0] m;");
  v.line("  begin");
  v.line("    case ({node, m})");
  size_t flat = 0;
  for (int g = 0; g < NN; ++g) {
    const auto& ms = t.nodes[static_cast<size_t>(g)].messages;
    for (size_t m = 0; m < ms.size(); ++m, ++flat) {
      const HcubeSelfTestMessage& x = ms[m];
      board_parts::Bits b;
      b.put(x.gen, TW);
      b.put(x.dst, N);
      b.put(x.tag, w.tw);
      b.put(base[flat], AW);
      b.put(x.worm.size(), LW);
      b.put(static_cast<uint64_t>(hcube_ecube_dim(static_cast<uint32_t>(g), x.dst)), w.db);
      b.put(1, 1);
      v.line("      " + hexlit((static_cast<uint64_t>(g) << MW) | m, NB + MW) + ": msg_rom = " + b.literal() +
             ";  // node " + S(g) + " message " + S(static_cast<long long>(m)) + " to " + S(x.dst) + ", " +
             S(static_cast<long long>(x.worm.size())) + " bytes, gen " + S(static_cast<long long>(x.gen)));
    }
  }
  v.line("      default: msg_rom = {" + S(MSGW) + "{1'b0}};");
  v.line("    endcase");
  v.line("  end");
  v.line("endfunction");
  v.line();
  v.comment("Every port counter as the model counts it: {node, select, value}.");
  v.line("function [" + S(EW - 1) + ":0] exp_counter;");
  v.line("  input [" + S(KW - 1) + ":0] k;");
  v.line("  begin");
  v.line("    case (k)");
  for (size_t k = 0; k < t.counters.size(); ++k) {
    const HcubeSelfTestCounter& c = t.counters[k];
    v.line("      " + hexlit(k, KW) + ": exp_counter = {" + S(NB) + "'d" + S(c.node) + ", " + S(w.csw) + "'d" +
           S(c.sel) + ", 32'd" + S(c.value) + "};");
  }
  v.line("      default: exp_counter = {" + S(EW) + "{1'b0}};");
  v.line("    endcase");
  v.line("  end");
  v.line("endfunction");
  v.line();
}

// The run's cycle, the network's ports and the network under test.
void SelfTestTop::emit_network() {
  const int TG = w.tw, KI = w.worm_kw;
  v.comment("The run's cycle: 0 in the first cycle after reset, as the model counts.");
  v.line("reg [" + S(TW - 1) + ":0] cyc;");
  v.line("reg done, pass;");
  v.line("wire [NN-1:0] src_valid, src_take;");
  v.line("wire [NN*N-1:0] src_dst;");
  v.line("wire [NN*" + S(TG) + "-1:0] src_tag;");
  v.line("wire [NN*N-1:0] fd_active, fd_last, ej_hdr, ej_bvalid, ej_last;");
  v.line("wire [NN*N*" + S(TG) + "-1:0] fd_tag;");
  v.line("wire [NN*N*" + S(KI) + "-1:0] fd_idx;");
  v.line("wire [NN*N*8-1:0] fd_byte, ej_byte;");
  v.line("wire [NN-1:0] node_done, node_ok;");
  v.line("wire [31:0] cnt_value;");
  v.line("reg [" + S(EW - 1) + ":0] ek;  // the counter being read: {node, select, value}");
  v.comment("The feeders are told their worm at the grant (below), not by tag; the headers are not counted.");
  v.line("wire unused_net = ^{fd_active, fd_tag, ej_hdr};");
  v.instance("hcube_network", "net", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"en", "1'b1"}, {"clear", "1'b0"},
              {"src_valid", "src_valid"}, {"src_dst", "src_dst"}, {"src_tag", "src_tag"},
              {"fd_byte", "fd_byte"}, {"fd_last", "fd_last"},
              {"cnt_node", "ek[" + S(EW - 1) + ":" + S(32 + w.csw) + "]"},
              {"cnt_sel", "ek[" + S(32 + w.csw - 1) + ":32]"},
              {"src_take", "src_take"}, {"fd_active", "fd_active"}, {"fd_tag", "fd_tag"}, {"fd_idx", "fd_idx"},
              {"ej_hdr", "ej_hdr"}, {"ej_bvalid", "ej_bvalid"}, {"ej_byte", "ej_byte"}, {"ej_last", "ej_last"},
              {"cnt_value", "cnt_value"}});
  v.line();
}

// Node g's source: the head of its queue, offered from the cycle after its generation (due:
// computed a cycle ahead for the head after this cycle's take, or not), its destination and tag
// registered.
void SelfTestTop::emit_node_source(int g) {
  const std::string n = pfx(g), id = S(NB) + "'d" + S(g);
  const int dst0 = TW, tag0 = TW + N, base0 = tag0 + w.tw, len0 = base0 + AW, ch0 = len0 + LW;
  auto field = [&](const std::string& e, int lo, int width) { return e + "[" + S(lo + width - 1) + ":" + S(lo) + "]"; };
  const std::string ok = "[" + S(MSGW - 1) + "]", gen = "[" + S(TW - 1) + ":0]";
  const auto& ms = t.nodes[static_cast<size_t>(g)].messages;
  const HcubeSelfTestMessage* first = ms.empty() ? nullptr : &ms[0];
  v.line("reg [" + S(MW - 1) + ":0] " + n + "head;");
  v.line("reg [" + S(N - 1) + ":0] " + n + "hdst;");
  v.line("reg [" + S(w.tw - 1) + ":0] " + n + "htag;");
  v.line("reg " + n + "due;");
  v.line("wire [" + S(MW - 1) + ":0] " + n + "head1 = " + n + "head + " + S(MW) + "'d1;");
  v.line("wire [" + S(MSGW - 1) + ":0] " + n + "cur = msg_rom(" + id + ", " + n + "head);");
  v.line("wire [" + S(MSGW - 1) + ":0] " + n + "nx = msg_rom(" + id + ", " + n + "head1);");
  v.comment("What the router reads of the head (destination, tag) in registers the take alone enables: reset");
  v.comment("asynchronously (an iCE40 flip-flop's synchronous reset acts only when it is enabled).");
  v.line("always @(posedge clk or posedge hrst) begin");
  v.line("  if (hrst) begin");
  v.line("    " + n + "head <= {" + S(MW) + "{1'b0}};");
  v.line("    " + n + "hdst <= " + hexlit(first ? first->dst : 0, N) + ";  // message 0's");
  v.line("    " + n + "htag <= " + hexlit(first ? first->tag : 0, w.tw) + ";");
  v.line("  end else if (src_take[" + S(g) + "]) begin");
  v.line("    " + n + "head <= " + n + "head1;");
  v.line("    " + n + "hdst <= " + field(n + "nx", dst0, N) + ";");
  v.line("    " + n + "htag <= " + field(n + "nx", tag0, w.tw) + ";");
  v.line("  end");
  v.line("end");
  v.line("always @(posedge clk)");
  v.line("  if (rst) " + n + "due <= 1'b0;");
  v.line("  else if (src_take[" + S(g) + "]) " + n + "due <= " + n + "nx" + ok + " && " + n + "nx" + gen + " <= cyc;");
  v.line("  else " + n + "due <= " + n + "cur" + ok + " && " + n + "cur" + gen + " <= cyc;");
  v.line("assign src_valid[" + S(g) + "] = " + n + "due;");
  v.line("assign src_dst[" + S(g * N) + " +: N] = " + n + "hdst;");
  v.line("assign src_tag[" + S(g * w.tw) + " +: " + S(w.tw) + "] = " + n + "htag;");
  v.comment("The message taken, a cycle later (the head's entry of the cycle before): its ROM base, length");
  v.comment("and first channel.");
  v.line("reg " + n + "took;");
  v.line("reg [" + S(AW - 1) + ":0] " + n + "tbase;");
  v.line("reg [" + S(LW - 1) + ":0] " + n + "tlen;");
  v.line("reg [" + S(w.db - 1) + ":0] " + n + "tch;");
  v.line("always @(posedge clk) begin");
  v.line("  " + n + "took <= !rst && src_take[" + S(g) + "];");
  v.line("  " + n + "tbase <= " + field(n + "cur", base0, AW) + ";");
  v.line("  " + n + "tlen <= " + field(n + "cur", len0, LW) + ";");
  v.line("  " + n + "tch <= " + field(n + "cur", ch0, w.db) + ";");
  v.line("end");
  v.line("wire unused_" + n + "cur = ^" + field(n + "cur", dst0, N + w.tw) + ";");
  v.line("wire unused_" + n + "nx = ^" + field(n + "nx", base0, AW + LW + w.db) + ";");
}

// Node g's feeders: the worm granted on channel d read from a block-RAM copy of the node's ROM at
// its base plus the index the router asks for. The base is set the cycle after the grant and read
// the cycle after that: the first byte leaves after arbitration and the header's 2 bytes (A + 2T
// >= 4 cycles after the grant), so it is on time.
void SelfTestTop::emit_node_feeders(int g) {
  const std::string n = pfx(g);
  for (int d = 0; d < N; ++d) {
    const int F = g * N + d;
    const std::string f = n + "f" + S(d) + "_";
    v.line("reg [" + S(AW - 1) + ":0] " + f + "base;");
    v.line("reg [" + S(LW - 1) + ":0] " + f + "len;");
    v.line("always @(posedge clk)");
    v.line("  if (rst) begin");
    v.line("    " + f + "base <= {" + S(AW) + "{1'b0}};");
    v.line("    " + f + "len <= {" + S(LW) + "{1'b0}};");
    v.line("  end else if (" + n + "took && " + n + "tch == " + S(w.db) + "'d" + S(d) + ") begin");
    v.line("    " + f + "base <= " + n + "tbase;");
    v.line("    " + f + "len <= " + n + "tlen;");
    v.line("  end");
    v.line("wire [" + S(w.worm_kw - 1) + ":0] " + f + "idx = fd_idx[" + S(F * w.worm_kw) + " +: " + S(w.worm_kw) + "];");
    v.instance("hcube_selftest_rom" + S(g), f + "rom", {},
               {{"clk", "clk"}, {"a", f + "base + " + f + "idx[" + S(AW - 1) + ":0]"},
                {"q", "fd_byte[" + S(F * 8) + " +: 8]"}});
    v.line("assign fd_last[" + S(F) + "] = " + f + "idx[" + S(LW - 1) + ":0] + " + S(LW) + "'d1 == " + f + "len;");
  }
}

// Node g's receive side: worms ending here counted, every ejected byte XORed and summed, the cycle
// of the last arrival; checked against the model's.
void SelfTestTop::emit_node_receive(int g) {
  const std::string n = pfx(g);
  const HcubeSelfTestNode& nd = t.nodes[static_cast<size_t>(g)];
  std::string inc, x, s;
  for (int d = 0; d < N; ++d) {
    const int F = g * N + d;
    const std::string b = "ej_byte[" + S(F * 8) + " +: 8]", ok = "ej_bvalid[" + S(F) + "]";
    inc += std::string(d ? " + " : "") + "{{" + S(CNW - 1) + "{1'b0}}, " + ok + " && ej_last[" + S(F) + "]}";
    x += std::string(d ? " ^ " : "") + "(" + ok + " ? " + b + " : 8'd0)";
    s += std::string(d ? " + " : "") + "{16'd0, (" + ok + " ? " + b + " : 8'd0)}";
  }
  v.line("reg [" + S(CNW - 1) + ":0] " + n + "count;");
  v.line("reg [7:0] " + n + "xor;");
  v.line("reg [23:0] " + n + "sum;");
  v.line("reg [" + S(TW - 1) + ":0] " + n + "last;");
  v.line("wire [" + S(N - 1) + ":0] " + n + "ends = ej_bvalid[" + S(g * N) + " +: N] & ej_last[" + S(g * N) +
         " +: N];");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    " + n + "count <= {" + S(CNW) + "{1'b0}};");
  v.line("    " + n + "xor <= 8'd0;");
  v.line("    " + n + "sum <= 24'd0;");
  v.line("    " + n + "last <= {" + S(TW) + "{1'b0}};");
  v.line("  end else begin");
  v.line("    " + n + "count <= " + n + "count + " + inc + ";");
  v.line("    " + n + "xor <= " + n + "xor ^ " + x + ";");
  v.line("    " + n + "sum <= " + n + "sum + " + s + ";");
  v.line("    if (|" + n + "ends) " + n + "last <= cyc;");
  v.line("  end");
  v.line("end");
  v.line("assign node_done[" + S(g) + "] = " + n + "count == " + S(CNW) + "'d" + S(nd.rx_count) + ";");
  v.line("assign node_ok[" + S(g) + "] = node_done[" + S(g) + "] && " + n + "xor == " + hexlit(nd.rx_xor & 0xFFu, 8) +
         " && " + n + "sum == " + hexlit(nd.rx_sum & kHcubeSelfTestSumMask, 24) + " && " + n + "last == " + S(TW) +
         "'d" + S(static_cast<long long>(nd.rx_last)) + ";");
  v.line();
}

// The counter scan (pipelined: the entry, the counter read through the network's mux, the
// comparison), the verdict and the LEDs (ends the module).
void SelfTestTop::emit_scan_and_verdict() {
  v.comment("Once every node has its count: a few cycles for the counters (they count a cycle late), then");
  v.comment("every port counter against the model's, one a cycle, in three stages: the entry, the counter");
  v.comment("read through the network's mux, the comparison. The stages' data registers run free (no enable");
  v.comment("fanning out to a hundred flip-flops); their valid bits say when a comparison counts.");
  v.line("reg [" + S(KW - 1) + ":0] sk;");
  v.line("reg [2:0] settle;");
  v.line("reg [31:0] cv, ev;");
  v.line("reg v1, v2, scanned, cnt_ok;");
  v.line("wire scan = &node_done && !scanned && settle == 3'd7;");
  v.line("always @(posedge clk) begin");
  v.line("  ek <= exp_counter(sk);");
  v.line("  cv <= cnt_value;");
  v.line("  ev <= ek[31:0];");
  v.line("end");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    sk <= {" + S(KW) + "{1'b0}};");
  v.line("    settle <= 3'd0;");
  v.line("    v1 <= 1'b0;");
  v.line("    v2 <= 1'b0;");
  v.line("    scanned <= 1'b0;");
  v.line("    cnt_ok <= 1'b1;");
  v.line("  end else begin");
  v.line("    if (&node_done && settle != 3'd7) settle <= settle + 3'd1;");
  v.line("    v1 <= scan && sk < " + S(KW) + "'d" + S(static_cast<long long>(NK)) + ";");
  v.line("    v2 <= v1;");
  v.line("    if (v2 && cv != ev) cnt_ok <= 1'b0;");
  v.line("    if (scan) begin");
  v.line("      if (sk == " + S(KW) + "'d" + S(static_cast<long long>(NK + 2)) + ") scanned <= 1'b1;");
  v.line("      else sk <= sk + " + S(KW) + "'d1;");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.line();
  board_parts::emit_verdict(v, TW, "scanned", "cnt_ok && &node_ok");
  v.line();
  board_parts::emit_leds(v, pins.led_active_low, pins.blink_log2);
  v.end_module();
}

// selftest.json: what the top expects, for the report of a board run.
std::string selftest_json(const HcubeSelfTest& t, uint64_t limit) {
  nlohmann::ordered_json j;
  j["mode"] = "network";
  j["pattern"] = t.pattern;
  j["seed"] = t.seed;
  j["messages_per_node"] = t.per_node;
  j["model_cycles"] = t.model_cycles;
  j["cycle_limit"] = limit;
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (size_t g = 0; g < t.nodes.size(); ++g) {
    const HcubeSelfTestNode& n = t.nodes[g];
    nodes.push_back({{"node", g},
                     {"messages", n.messages.size()},
                     {"expected_received", n.rx_count},
                     {"expected_xor", hexlit(n.rx_xor & 0xFFu, 8)},
                     {"expected_sum", hexlit(n.rx_sum & kHcubeSelfTestSumMask, 24)},
                     {"expected_last_arrival", n.rx_last}});
  }
  j["nodes"] = nodes;
  j["port_counters_checked"] = t.counters.size();
  return j.dump(2) + "\n";
}

}  // namespace

GeneratedDesign emit_hcube_selftest(const HcubeConfig& cfg, const HcubeSelfTest& t, const board_parts::SelfTestPins& pins) {
  SelfTestTop top(cfg.hc, t, pins);
  const std::string text = top.emit();
  GeneratedDesign d = emit_hcube(cfg, top.w);
  const auto list = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  auto at = list;
  for (int g = 0; g < top.NN; ++g) at = d.files.insert(at, {"hcube_selftest_rom" + S(g) + ".v", top.rom_module(g)}) + 1;
  board_parts::add_top(d, "hcube_selftest_top", text, "");
  d.files.emplace_back("selftest.json", selftest_json(t, top.limit));
  return d;
}

}  // namespace cmnet

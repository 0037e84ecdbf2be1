#include "gen/cm5data/cm5data_ni_rtl.h"

#include <algorithm>
#include <map>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/cm5data/cm5data_ni_regmap.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

namespace cm5nimap {
namespace {
template <size_t K>
std::string table_of(const std::array<Register, K>& regs) {
  std::string s = "| addr | register | access | meaning |\n| --- | --- | --- | --- |\n";
  for (const Register& r : regs)
    s += "| " + std::to_string(r.index) + " | `" + std::string(r.name) + "` | " + std::string(r.access) + " | " +
         std::string(r.doc) + " |\n";
  return s;
}
}  // namespace
std::string markdown_table() { return table_of(kRegisters); }
std::string bridge_markdown_table() { return table_of(kBridgeRegisters); }
}  // namespace cm5nimap

std::string cm5_head_word_verilog(int height, const std::string& me, const std::string& dst, const std::string& tag,
                                  const std::string& mark, const std::string& len) {
  const int DB = 2 * height;
  std::string e = "{";  // (appends: GCC 12's -Wrestrict false positive on "x" + string)
  if (DB < 20) e.append(S(20 - DB)).append("'d0, ");
  e.append(dst).append(", ").append(tag).append(", climb(").append(me).append(", ").append(dst).append("), ");
  return e.append(mark).append(", ").append(len).append("}");
}

namespace {

// The MAPPED localparam's bits: leaf x at bit x.
std::string mapped_leaves(const Cm5DataParams& p) {
  std::string mapped(p.leaves(), '0');
  for (uint32_t x : p.mapped_out_leaves) mapped[p.leaves() - 1 - x] = '1';
  return mapped;
}

// The module cm5data_ni, written section by section: its dimensions, shared by every section, and
// the writer they all append to.
struct NiEmitter {
  const Cm5DataParams& p;
  const int SW;  // send FIFO words
  const int W = p.link_bits, FPW = p.flits_per_word(), H = p.height, D = p.buffer_flits();
  const uint32_t N = p.leaves();
  const int MAXW = p.max_words;
  const Cm5DataWidths w = cm5_widths(p, 0);
  const int RC = p.ni_recv_words;
  const int SA = clog2(SW), RA = clog2(RC);
  const int OW = clog2(static_cast<uint64_t>(RC * FPW) + 1);
  const int FPWL = clog2(static_cast<uint64_t>(FPW)), WL = clog2(static_cast<uint64_t>(W));
  const int SB = std::max(1, clog2(static_cast<uint64_t>(FPW) + 1));  // bits of the receive CRC's steps
  const int DB = 2 * H;  // destination bits
  const int XW = std::max(SA, 4);
  const std::string mapped = mapped_leaves(p);
  VerilogWriter v{};

  // A 4-bit signal as `bits` bits (the send FIFO's indices and counts are clog2(SW) wide).
  static std::string fit(const std::string& sig, int bits) {
    return bits < 4 ? sig + "[" + S(bits - 1) + ":0]" : bits == 4 ? sig : "{" + S(bits - 4) + "'d0, " + sig + "}";
  }
  // A 3-bit signal as RA bits (RA >= 3: the receive FIFO holds at least 8 words).
  std::string ra3(const std::string& sig) const { return RA > 3 ? "{{" + S(RA - 3) + "{1'b0}}, " + sig + "}" : sig; }

  std::string emit();
  void emit_ports();
  void emit_localparams_and_decode();
  void emit_send();
  void emit_send_staging();
  void emit_send_front();
  void emit_send_crc();
  void emit_send_fifo();
  void emit_send_registers();
  void emit_receive();
  void emit_flags_and_counters();
  void emit_read_mux();
};

// The whole module, in the order of its sections.
std::string NiEmitter::emit() {
  if (SW < 8 || SW > 64 || (SW & (SW - 1)) != 0 || SW < p.message_words(p.max_words))
    throw ConfigError("cm5data NI: send FIFO of " + std::to_string(SW) +
                      " words (a power of 2, 8..64, holding the longest message)");
  emit_ports();
  emit_localparams_and_decode();
  emit_send();
  emit_receive();
  emit_flags_and_counters();
  emit_read_mux();
  return v.text();
}

// The header and the port list (the processor's bus, the events beside it, the leaf link).
void NiEmitter::emit_ports() {
  std::vector<std::pair<std::string, std::string>> hp = {
      {"height h", S(H)}, {"leaves N", S(N)}, {"link_bits W", S(W)}, {"max_words", S(MAXW)},
      {"buffer_words", S(p.buffer_words)}, {"send FIFO words", S(SW)}, {"receive FIFO words", S(RC)}};
  if (!p.partitions.empty()) {
    std::string parts;
    for (size_t k = 0; k < p.partitions.size(); ++k)
      parts += (k ? ", " : "") + S(p.partition_base(k)) + ".." + S(p.partition_base(k) + p.partition_size(k) - 1);
    hp.emplace_back("partitions (leaves)", parts);
  }
  v.header("CM-5 data network: the network interface of one side of a processing node, memory-mapped "
           "(register map: gen/cm5data/cm5data_ni_regmap.h).",
           hp);
  v.open("module cm5data_ni #(parameter integer LEAF = 0) (  // LEAF: the leaf this interface sits at");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("// The processor's bus (one access per cycle; rdata is combinational).");
  v.line("input  wire [" + S(cm5nimap::kAddrBits - 1) + ":0] addr,");
  v.line("input  wire [31:0] wdata,");
  v.line("input  wire we,");
  v.line("input  wire re,");
  v.line("output reg  [31:0] rdata,");
  v.line("output wire irq,  // the interrupt (sticky until INTERRUPT is written)");
  v.line("// Beside the bus, for what sits around the NI (the stream board's bridge, pacer and counters):");
  v.line("input  wire tx_start,       // the next message's head flit may leave (1: as soon as it can)");
  v.line("output wire [7:0] send_free, // send FIFO words free");
  v.line("output wire ev_accept,      // pulses: a SEND put a message into the send FIFO,");
  v.line("output wire ev_sent,        //   a message's head flit left, a message is whole in the receive FIFO,");
  v.line("output wire ev_recv,");
  v.line("output wire ev_taken,       //   a message left the receive FIFO (its last data word read),");
  v.line("output wire ev_intr,        //   it raised the interrupt, a SEND was an address error");
  v.line("output wire ev_addr,");
  v.line("// The leaf link of cm5data_network.");
  v.line("output wire net_tx_valid,");
  v.line("output wire [" + S(W - 1) + ":0] net_tx_data,");
  v.line("input  wire net_tx_credit,");
  v.line("input  wire net_rx_valid,");
  v.line("input  wire [" + S(W - 1) + ":0] net_rx_data,");
  v.line("output wire net_rx_credit");
  v.end_ports();
}

// The localparams, the Verilog functions (crc32w, climb, crc32f) and the register decode.
void NiEmitter::emit_localparams_and_decode() {
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam [3:0] MAXW4 = 4'd" + S(MAXW) + ";");
  v.line("localparam integer SW = " + S(SW) + ";    // send FIFO words");
  {
    const int lqa = std::max(1, clog2(static_cast<uint64_t>(SW / 3)));
    v.line("localparam integer LQA = " + S(lqa) + ";    // index bits of the length queue");
    v.line("localparam integer LQ = " + S(1 << lqa) + ";     // its entries: messages the FIFO can hold (3 words each at least)");
  }
  v.line("localparam integer RW = " + S(w.remain) + ";    // flit index bits of a message");
  v.line("localparam integer CW = " + S(w.credit) + ";");
  v.line("localparam integer OW = " + S(OW) + ";");
  v.line("localparam [CW-1:0] CREDITS = " + S(w.credit) + "'d" + S(D) + ";");
  v.line("localparam [OW-1:0] RXCAP = " + S(OW) + "'d" + S(RC * FPW) + ";  // receive FIFO flits");
  v.line("localparam [RW-1:0] FPW_R = " + S(w.remain) + "'d" + S(FPW) + ";");
  v.line("localparam [RW-1:0] TWO_R = " + S(w.remain) + "'d2;");
  v.line("localparam [RW-1:0] POS_M = " + S(w.remain) + "'d" + S(FPW - 1) + ";  // flit within its word");
  v.line("localparam [OW-1:0] FPW_O = " + S(OW) + "'d" + S(FPW) + ";");
  v.line("localparam [31:0] HMASK = 32'hFFFFFF07;  // the head as the CRC sees it: U and the mark zeroed");
  v.line("localparam [" + S(N - 1) + ":0] MAPPED = " + S(N) + "'b" + mapped + ";  // leaves mapped out of the address space");
  v.line("localparam [" + S(DB - 1) + ":0] ME = LEAF[" + S(DB - 1) + ":0];");
  v.line();
  emit_cm5data_functions(v, H, true);
  v.comment("CRC-32 (0x04C11DB7, MSB first) of W more bits (a flit's worth of a word, MSB first).");
  v.line("function [31:0] crc32f;");
  v.line("  input [31:0] c;");
  v.line("  input [W-1:0] d;");
  v.line("  integer b;");
  v.line("  reg [31:0] x;");
  v.line("  begin");
  v.line("    x = c;");
  v.line("    for (b = W - 1; b >= 0; b = b - 1) x = {x[30:0], 1'b0} ^ ((d[b] ^ x[31]) ? 32'h04C11DB7 : 32'h00000000);");
  v.line("    crc32f = x;");
  v.line("  end");
  v.line("endfunction");
  v.line();
  // Register decode from the table.
  v.comment("Register decode (gen/cm5data/cm5data_ni_regmap.h).");
  for (const auto& r : cm5nimap::kRegisters)
    v.line("localparam [" + S(cm5nimap::kAddrBits - 1) + ":0] A_" + std::string(r.name) + " = " + S(cm5nimap::kAddrBits) +
           "'d" + S(r.index) + ";");
  v.line("wire wr_send_data = we && addr == A_SEND_DATA;");
  v.line("wire wr_send = we && addr == A_SEND;");
  v.line("wire wr_status = we && addr == A_STATUS;");
  v.line("wire wr_mask = we && addr == A_TAG_MASK;");
  v.line("wire wr_intr = we && addr == A_INTERRUPT;");
  v.line("wire rd_data = re && addr == A_RECV_DATA;");
  v.line();
}

// Send: the staging buffer, the address check, the send FIFO and the flits leaving with their CRC.
void NiEmitter::emit_send() {
  emit_send_staging();
  emit_send_front();
  emit_send_crc();
  emit_send_fifo();
  emit_send_registers();
}

// The send side's registers, the staging buffer's destination and its address check (the
// mapped-out leaves, the user partitions).
void NiEmitter::emit_send_staging() {
  v.comment("Send: the staging buffer, then head, data and CRC into the send FIFO in one cycle.");
  v.line("reg [31:0] stg [0:SW-1];  // entries max_words.. are never written nor chosen");
  v.line("reg [3:0] scnt;           // data words written");
  v.line("reg [" + S(SA) + ":0] scount;      // words in the send FIFO");
  v.line("reg [" + S(SA - 1) + ":0] swp, srp;");
  v.line("reg [RW-1:0] tflit;");
  v.line("reg [CW-1:0] tcred;");
  v.line("reg f_refused, f_addr, f_ovf, intr;");
  v.line("reg [15:0] mask;");
  v.line("reg [31:0] c_sent, c_recv, c_refused, c_intr, c_crc, c_addr;");
  v.line("wire [" + S(DB - 1) + ":0] dst = wdata[" + S(DB - 1) + ":0];");
  v.line(DB < 16 ? "wire dst_in = wdata[15:" + S(DB) + "] == " + S(16 - DB) + "'d0 && MAPPED[dst] == 1'b0;"
                 : "wire dst_in = MAPPED[dst] == 1'b0;");
  if (p.partitions.empty()) {
    v.line("wire addr_err = MAPPED[ME] || !dst_in;");
  } else {
    // The bounds check of a user partition: a subtree at level l holds the leaves whose digits
    // above level l are its node's; a leaf in no partition may address every leaf.
    std::string part = "1'b1";
    for (size_t k = p.partitions.size(); k-- > 0;) {
      const Cm5DataPartition& q = p.partitions[k];
      if (q.level == H) {
        part = "1'b1";
        continue;
      }
      const std::string bits = "[" + S(DB - 1) + ":" + S(2 * q.level) + "]", node = S(DB - 2 * q.level) + "'d" + S(q.node);
      part = "ME" + bits + " == " + node + " ? dst" + bits + " == " + node + " :\n    " + part;
    }
    v.line("wire dst_part =  // dst in this leaf's partition (config partitions)");
    v.line("    " + part + ";");
    v.line("wire addr_err = MAPPED[ME] || !dst_in || !dst_part;");
  }
}

// The send FIFO's front message and the flit of it that leaves now (a credit and tx_start allowing).
void NiEmitter::emit_send_front() {
  v.line("wire [31:0] nethead = " + cm5_head_word_verilog(H, "ME", "dst", "wdata[23:20]", "wdata[24]", "scnt[2:0]") + ";");
  v.line("wire [3:0] slen = scnt + 4'd2;  // the message's words");
  v.line("wire [" + S(32 * SW - 1) + ":0] sflat;");
  v.comment("The front message's length field, kept in a register beside a queue of the lengths of the");
  v.comment("messages behind it (a message is at least 3 words), so that the room a SEND needs comes from");
  v.comment("registers, not through the FIFO's read mux: the same value as the front head word's [2:0].");
  v.line("reg [2:0] fl;");
  v.line("reg [2:0] lenq [0:LQ-1];");
  v.line("reg [LQA-1:0] lwp, lrp;");
  v.line("reg [LQA:0] msgs;  // messages in the send FIFO");
  v.line("wire [3:0] flen = {1'b0, fl} + 4'd2;  // the front message's words");
  v.line("wire [RW-1:0] ftotal = ({{(RW-3){1'b0}}, fl} + TWO_R) * FPW_R;");
  v.line("reg [RW-1:0] fend;  // ftotal - 1, the front message's last flit, kept with fl");
  v.line("reg at_end;         // tflit == fend, a cycle ahead");
  v.line("function [RW-1:0] last_flit;");
  v.line("  input [2:0] len;");
  v.line("  last_flit = ({{(RW-3){1'b0}}, len} + TWO_R) * FPW_R - 1'b1;");
  v.line("endfunction");
  v.line("wire has = scount != 0;");
  v.line("reg thead;  // tflit == 0: the front message's head flit is next");
  v.line("wire send = has && (tcred != {CW{1'b0}} || net_tx_credit) && (!thead || tx_start);  // a credit arriving now counts");
  v.line("wire [RW-1:0] twi = tflit >> " + S(FPWL) + ";");
  v.line("wire [" + S(SA - 1) + ":0] tslot = srp + " +
         (w.remain >= SA ? "twi[" + S(SA - 1) + ":0]" : "{" + S(SA - w.remain) + "'d0, twi}") + ";");
  if (w.remain > SA) v.line("wire unused_twi = ^twi[RW-1:" + S(SA) + "];");
  v.line("wire [31:0] tword = sflat[tslot*32 +: 32];");
  v.line("wire [RW-1:0] tpos = tflit & POS_M;");
}

// The CRC word, stepped flit by flit as the message leaves.
void NiEmitter::emit_send_crc() {
  v.comment("The CRC word is made as the message leaves (the send FIFO keeps its place, unwritten): each");
  v.comment("flit of the head and data words steps the CRC by W bits of its word, MSB first (the word is");
  v.comment("in hand, its flits go LSB first), so the CRC is whole when the CRC word's first flit leaves.");
  v.line("reg [31:0] tcrc;");
  v.line("wire tin_crc = tflit >= ftotal - FPW_R;  // the front message's CRC word");
  v.line("wire [31:0] tcw = tflit < FPW_R ? (tword & HMASK) : tword;");
  v.line("wire [31:0] tmsb = tcw >> {POS_M - tpos, " + S(WL) + "'d0};");
  v.line("wire [31:0] tsh = (tin_crc ? tcrc : tword) >> {tpos, " + S(WL) + "'d0};");
  if (W < 32) v.line("wire unused_tmsb = ^tmsb[31:W];");
  if (W < 32) v.line("wire unused_tsh = ^tsh[31:W];");
  v.line("always @(posedge clk)");
  v.line("  if (send && !tin_crc) tcrc <= crc32f(thead ? 32'hFFFFFFFF : tcrc, tmsb[W-1:0]);");
}

// Room, the SEND that commits, and the FIFO's slots taking the head word and the staged data.
void NiEmitter::emit_send_fifo() {
  v.line("wire tlast = send && at_end;");
  v.comment("Room counts the words of a message whose last flit leaves in this cycle as free: both");
  v.comment("cases compared from registers at once, the leaving flit only choosing between them.");
  v.line("wire [" + S(SA + 1) + ":0] sneed = {1'b0, scount} + {" + S(SA - 2) + "'d0, slen};");
  v.line("wire room = sneed <= " + S(SA + 2) + "'d" + S(SW) + " + (tlast ? {" + S(SA - 2) + "'d0, flen} : " + S(SA + 2) + "'d0);");
  v.line("wire go = wr_send && scnt != 4'd0;");
  v.line("wire commit = go && !addr_err && room;");
  v.line("genvar gi;");
  v.line("generate");
  v.open("for (gi = 0; gi < SW; gi = gi + 1) begin : g_slot");
  v.line("localparam [" + S(SA - 1) + ":0] I = gi;");
  v.line("reg [31:0] word;");
  v.line("wire [" + S(SA - 1) + ":0] off = I - swp;");
  v.line("wire [" + S(XW - 1) + ":0] offx = " + (SA < 4 ? "{" + S(4 - SA) + "'d0, off}" : std::string("off")) + ";");
  v.line("wire [" + S(XW - 1) + ":0] slenx = " + fit("slen", XW) + ";");
  v.line("wire [" + S(SA - 1) + ":0] di = off - 1'b1;");
  v.line("always @(posedge clk)");
  v.line("  if (commit && offx < slenx - 1'b1) word <= offx == " + S(XW) + "'d0 ? nethead : stg[di];");
  v.line("assign sflat[gi*32 +: 32] = word;");
  v.close("end");
  v.line("endgenerate");
}

// The link and event outputs, and the send side's registers (staging, FIFO pointers, flit, credits).
void NiEmitter::emit_send_registers() {
  v.line("assign net_tx_valid = send;");
  v.line("assign send_free = 8'd" + std::to_string(SW) + " - {" + S(7 - SA) + "'d0, scount};");
  v.line("assign ev_accept = commit;");
  v.line("assign ev_sent = send && thead;");
  v.line("assign ev_addr = go && addr_err;");
  v.line("assign net_tx_data = tsh[W-1:0];");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    scnt <= 4'd0;");
  v.line("    scount <= 0;");
  v.line("    swp <= 0;");
  v.line("    srp <= 0;");
  v.line("    lwp <= {LQA{1'b0}};");
  v.line("    lrp <= {LQA{1'b0}};");
  v.line("    msgs <= {(LQA+1){1'b0}};");
  v.line("    fl <= 3'd0;");
  v.line("    fend <= last_flit(3'd0);");
  v.line("    at_end <= 1'b0;");
  v.line("    thead <= 1'b1;");
  v.line("    tflit <= {RW{1'b0}};");
  v.line("    tcred <= CREDITS;");
  v.line("  end else begin");
  v.line("    tcred <= tcred + {{(CW-1){1'b0}}, net_tx_credit} - {{(CW-1){1'b0}}, send};");
  v.line("    if (wr_send_data && scnt < MAXW4) begin");
  v.line("      stg[" + fit("scnt", SA) + "] <= wdata;");
  v.line("      scnt <= scnt + 4'd1;");
  v.line("    end");
  v.line("    if (wr_send) scnt <= 4'd0;");
  v.line("    if (commit) swp <= swp + " + fit("slen", SA) + ";");
  v.line("    scount <= scount + (commit ? " + fit("slen", SA + 1) + " : 0) - (tlast ? " + fit("flen", SA + 1) + " : 0);");
  v.line("    if (send) tflit <= tlast ? {RW{1'b0}} : tflit + 1'b1;");
  v.line("    // A new front message starts at flit 0, never its last (it has at least 3 words).");
  v.line("    if (send) at_end <= !tlast && tflit + 1'b1 == fend;");
  v.line("    else if (commit && msgs == {(LQA+1){1'b0}}) at_end <= 1'b0;");
  v.line("    if (send) thead <= tlast;");
  v.line("    if (tlast) srp <= srp + " + fit("flen", SA) + ";");
  v.line("    if (commit) begin");
  v.line("      lenq[lwp] <= scnt[2:0];");
  v.line("      lwp <= lwp + 1'b1;");
  v.line("    end");
  v.line("    if (tlast) lrp <= lrp + 1'b1;");
  v.line("    msgs <= msgs + {{LQA{1'b0}}, commit} - {{LQA{1'b0}}, tlast};");
  v.line("    // The next front: the one behind the leaving message, else the message committed now.");
  v.line("    if (tlast ? msgs == {{LQA{1'b0}}, 1'b1} : msgs == {(LQA+1){1'b0}}) begin");
  v.line("      if (commit) begin");
  v.line("        fl <= scnt[2:0];");
  v.line("        fend <= last_flit(scnt[2:0]);");
  v.line("      end");
  v.line("    end else if (tlast) begin");
  v.line("      fl <= lenq[lrp + 1'b1];");
  v.line("      fend <= last_flit(lenq[lrp + 1'b1]);");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.line();
}

// Receive: flits into words into the receive FIFO, credits, the CRC check, reading a message out.
void NiEmitter::emit_receive() {
  v.comment("Receive: flits into words into the FIFO; a credit goes back in the cycle while every flit");
  v.comment("the network may still send has room (held + credits out <= the FIFO); a message leaves");
  v.comment("when the processor has read its last data word.");
  v.comment("The words in a memory with one write port and one registered read port (block RAM): rnext_q");
  v.comment("is always the word at rdi, read a cycle ahead; a word is whole in it before its message can be");
  v.comment("read (the CRC word comes after it). Each head word's fields (tag, mark, length) also go to hmem,");
  v.comment("8 bits a word, read at rrel.");
  v.line("reg [31:0] rmem [0:" + S(RC - 1) + "];");
  v.line("reg [31:0] rnext_q;");
  v.line("reg [7:0] hmem [0:" + S(RC - 1) + "];");
  v.line("reg [" + S(RC - 1) + ":0] okmem;  // at a message's head word: its CRC was right");
  v.line("reg [" + S(RA - 1) + ":0] rwp, rrel, rhpos;");
  v.line("reg [2:0] ridx;      // data words of the front message read");
  v.line("reg [OW-1:0] occ;    // flits held, the partial word's included");
  v.line("reg [CW-1:0] ncred;  // flits the network may still send");
  v.line("reg [RW-1:0] rflit, rtotal;");
  v.line("reg [7:0] units;     // whole messages held");
  v.line("reg [3:0] rtag;");
  v.comment("The CRC check steps each finished head or data word into rcrc W bits a cycle, MSB first,");
  v.comment("while the next word's flits arrive (a word takes at least FPW cycles), so the CRC is whole");
  v.comment("when the CRC word is in: one W-bit step instead of a word-wide CRC per word.");
  v.line("reg [31:0] rcrc;   // the CRC of the words stepped in so far");
  v.line("reg [31:0] rpend;  // the last finished head or data word");
  v.line("reg [" + S(SB - 1) + ":0] rsteps;  // its steps still to go");
  v.line("localparam [" + S(SB - 1) + ":0] FPW_S = " + S(SB) + "'d" + S(FPW) + ";");
  v.line("wire [31:0] rchunk = rpend >> {rsteps - 1'b1, " + S(WL) + "'d0};");
  if (W < 32) v.line("wire unused_rchunk = ^rchunk[31:W];");
  v.line("wire [31:0] rstep = crc32f(rcrc, rchunk[W-1:0]);");
  v.line("wire [31:0] rcrc_now = rsteps != " + S(SB) + "'d0 ? rstep : rcrc;  // whole when the CRC word is in");
  if (W < 32) v.line("reg [31-W:0] racc;");
  v.line("wire rin = net_rx_valid;");
  v.line(W < 32 ? "wire [31:0] rword = {net_rx_data, racc};" : "wire [31:0] rword = net_rx_data;");
  v.line("wire rword_end = rin && ((rflit & POS_M) == POS_M);");
  v.line("wire rhead_end = rword_end && rflit < FPW_R;");
  v.line("wire [RW-1:0] total_now = (rflit == {RW{1'b0}}) ? ({{(RW-3){1'b0}}, net_rx_data[2:0]} + TWO_R) * FPW_R : rtotal;");
  v.line("wire rmsg_end = rin && rflit + 1'b1 == total_now;");
  v.line("wire [OW-1:0] occ_in = occ + {{(OW-1){1'b0}}, rin};");
  v.line("wire [CW-1:0] ncred_in = ncred - {{(CW-1){1'b0}}, rin};");
  v.line("wire give = ncred_in != CREDITS && ({{(OW-CW){1'b0}}, ncred_in} + occ_in + 1'b1 <= RXCAP);");
  v.line("assign net_rx_credit = give;");
  v.line("wire [7:0] rhead = hmem[rrel];  // {tag, mark, length} of the front message's head word");
  v.line("wire rvalid = units != 8'd0;");
  v.line("wire [" + S(RA - 1) + ":0] rdi = rrel + " + ra3("ridx") + " + 1'b1;");
  v.line("wire rlast = ridx + 3'd1 == rhead[2:0];");
  v.line("wire release_msg = rd_data && rvalid && rlast;");
  v.line("wire [" + S(RA - 1) + ":0] rlen = " + ra3("rhead[2:0]") + " + " + S(RA) + "'d2;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    rwp <= 0;");
  v.line("    rrel <= 0;");
  v.line("    rhpos <= 0;");
  v.line("    ridx <= 3'd0;");
  v.line("    okmem <= 0;");
  v.line("    occ <= {OW{1'b0}};");
  v.line("    ncred <= CREDITS;");
  v.line("    rflit <= {RW{1'b0}};");
  v.line("    rtotal <= {RW{1'b0}};");
  v.line("    units <= 8'd0;");
  v.line("    rtag <= 4'd0;");
  v.line("    rcrc <= 32'd0;");
  v.line("    rpend <= 32'd0;");
  v.line("    rsteps <= " + S(SB) + "'d0;");
  if (W < 32) v.line("    racc <= {(32-W){1'b0}};");
  v.line("  end else begin");
  v.line("    occ <= occ_in - (release_msg ? {{(OW-" + S(RA) + "){1'b0}}, rlen} * FPW_O : {OW{1'b0}});");
  v.line("    ncred <= ncred_in + {{(CW-1){1'b0}}, give};");
  v.line("    if (rin) begin");
  if (W < 32) v.line("      racc <= rword[31:W];");
  v.line("      rtotal <= total_now;");
  v.line("      rflit <= rmsg_end ? {RW{1'b0}} : rflit + 1'b1;");
  v.line("    end");
  v.line("    if (rsteps != " + S(SB) + "'d0) begin");
  v.line("      rcrc <= rstep;");
  v.line("      rsteps <= rsteps - 1'b1;");
  v.line("    end");
  v.line("    if (rhead_end) begin");
  v.line("      rtag <= rword[11:8];");
  v.line("      rhpos <= rwp;");
  v.line("      rcrc <= 32'hFFFFFFFF;");
  v.line("      rpend <= rword & HMASK;");
  v.line("      rsteps <= FPW_S;");
  v.line("    end else if (rword_end && !rmsg_end) begin");
  v.line("      rpend <= rword;");
  v.line("      rsteps <= FPW_S;");
  v.line("    end");
  v.line("    if (rmsg_end) okmem[rhpos] <= rword == rcrc_now;");
  v.line("    if (rword_end) rwp <= rwp + 1'b1;");
  v.line("    if (rhead_end) hmem[rwp] <= {rword[11:8], rword[3:0]};");
  v.line("    if (rd_data && rvalid) begin");
  v.line("      ridx <= rlast ? 3'd0 : ridx + 3'd1;");
  v.line("      if (rlast) rrel <= rrel + rlen;");
  v.line("    end");
  v.line("    units <= units + {7'd0, rmsg_end} - {7'd0, release_msg};");
  v.line("  end");
  v.line("end");
  v.line("wire [" + S(RA - 1) + ":0] rdi_next = (rd_data && rvalid) ? (rlast ? rrel + rlen + 1'b1 : rdi + 1'b1) : rdi;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rword_end && !rst) rmem[rwp] <= rword;");
  v.line("  rnext_q <= rmem[rdi_next];");
  v.line("end");
  v.line();
}

// The flags, the tag mask and the interrupt, the counters.
void NiEmitter::emit_flags_and_counters() {
  v.comment("Flags, the tag mask and the interrupt, the counters.");
  v.line("wire raise = rmsg_end && mask[rtag];");
  v.line("assign irq = intr;");
  v.line("assign ev_recv = rmsg_end;");
  v.line("assign ev_taken = release_msg;");
  v.line("assign ev_intr = raise;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    f_refused <= 1'b0;");
  v.line("    f_addr <= 1'b0;");
  v.line("    f_ovf <= 1'b0;");
  v.line("    intr <= 1'b0;");
  v.line("    mask <= 16'd0;");
  v.line("    c_sent <= 32'd0;");
  v.line("    c_recv <= 32'd0;");
  v.line("    c_refused <= 32'd0;");
  v.line("    c_intr <= 32'd0;");
  v.line("    c_crc <= 32'd0;");
  v.line("    c_addr <= 32'd0;");
  v.line("  end else begin");
  v.line("    if (wr_status) begin");
  v.line("      f_refused <= 1'b0;");
  v.line("      f_addr <= 1'b0;");
  v.line("      f_ovf <= 1'b0;");
  v.line("    end");
  v.line("    if (wr_send_data && scnt >= MAXW4) f_ovf <= 1'b1;");
  v.line("    if (go && addr_err) begin");
  v.line("      f_addr <= 1'b1;");
  v.line("      c_addr <= c_addr + 32'd1;");
  v.line("    end");
  v.line("    if (go && !addr_err && !room) begin");
  v.line("      f_refused <= 1'b1;");
  v.line("      c_refused <= c_refused + 32'd1;");
  v.line("    end");
  v.line("    if (wr_mask) mask <= wdata[15:0];");
  v.line("    if (wr_intr) intr <= 1'b0;");
  v.line("    if (raise) begin");
  v.line("      intr <= 1'b1;");
  v.line("      c_intr <= c_intr + 32'd1;");
  v.line("    end");
  v.line("    if (send && thead) c_sent <= c_sent + 32'd1;");
  v.line("    if (rmsg_end) c_recv <= c_recv + 32'd1;");
  v.line("    if (rmsg_end && rword != rcrc_now) c_crc <= c_crc + 32'd1;");
  v.line("  end");
  v.line("end");
  v.line();
}

// The read mux: every readable register of the table has its value here.
void NiEmitter::emit_read_mux() {
  const std::map<std::string, std::string> value = {
      {"RECV_HEAD", "rvalid ? {1'b1, okmem[rrel], 5'd0, rhead[3], rhead[7:4], 1'b0, rhead[2:0], 13'd0, ridx} : 32'd0"},
      {"RECV_DATA", "rvalid ? rnext_q : 32'd0"},
      {"STATUS", "{f_refused, f_addr, f_ovf, intr, 4'd0, units, " + S(7 - SA) + "'d0, " + S(SA + 1) + "'d" + S(SW) +
                     " - scount, " + S(7 - SA) + "'d0, scount}"},
      {"RECV_LEVEL", "{8'd0, units, " + S(16 - OW) + "'d0, occ}"},
      {"TAG_MASK", "{16'd0, mask}"},
      {"INTERRUPT", "{31'd0, intr}"},
      {"CNT_SENT", "c_sent"},
      {"CNT_RECEIVED", "c_recv"},
      {"CNT_REFUSED", "c_refused"},
      {"CNT_INTERRUPTS", "c_intr"},
      {"CNT_CRC_ERRORS", "c_crc"},
      {"CNT_ADDR_ERRORS", "c_addr"},
  };
  v.line("always @(*) begin");
  v.line("  case (addr)");
  for (const auto& r : cm5nimap::kRegisters) {
    if (r.access == "wo") continue;
    auto it = value.find(std::string(r.name));
    if (it == value.end()) throw std::logic_error("cm5data NI: register " + std::string(r.name) + " has no value");
    v.line("    A_" + std::string(r.name) + ": rdata = " + it->second + ";");
  }
  v.line("    default: rdata = 32'd0;");
  v.line("  endcase");
  v.line("end");
  v.close("endmodule");
}

}  // namespace

std::string emit_cm5data_ni_module(const Cm5DataParams& p, int send_words) { return NiEmitter{p, send_words}.emit(); }

GeneratedDesign emit_cm5data_ni(const Cm5DataConfig& cfg) {
  const Cm5DataParams& p = cfg.cm5;
  if (p.height > 8) throw ConfigError("config: cm5data: the NI takes at most 16-bit leaf numbers");
  const uint32_t N = p.leaves();
  const int W = p.link_bits;
  const Cm5DataWidths w0 = cm5_widths(p, 0);
  GeneratedDesign d = emit_cm5data(cfg);
  VerilogWriter v;
  v.header("CM-5 data network with a memory-mapped network interface (cm5data_ni) at every leaf.",
           {{"height h", S(p.height)}, {"leaves N", S(N)}, {"link_bits W", S(W)}});
  v.open("module cm5data_ni_net (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire [" + S(4 * N - 1) + ":0] addr,    // leaf x's bus at x*4, x*32, x");
  v.line("input  wire [" + S(32 * N - 1) + ":0] wdata,");
  v.line("input  wire [" + S(N - 1) + ":0] we,");
  v.line("input  wire [" + S(N - 1) + ":0] re,");
  v.line("output wire [" + S(32 * N - 1) + ":0] rdata,");
  v.line("output wire [" + S(N - 1) + ":0] irq");
  v.end_ports();
  v.line("wire [" + S(N - 1) + ":0] tx_valid, tx_credit, rx_valid, rx_credit;");
  v.line("wire [" + S(N * W - 1) + ":0] tx_data, rx_data;");
  v.line("wire [31:0] unused_cnt;");
  v.line("wire [" + S(8 * N - 1) + ":0] unused_free;  // the bus says it all here");
  v.line("wire [" + S(6 * N - 1) + ":0] unused_ev;");
  v.instance("cm5data_network", "net", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"clear", "1'b0"}, {"afd_mode", "{" + S(p.total_chips()) + "{1'b0}}"},
              {"leaf_tx_valid", "tx_valid"}, {"leaf_tx_data", "tx_data"}, {"leaf_tx_credit", "tx_credit"},
              {"leaf_rx_valid", "rx_valid"}, {"leaf_rx_data", "rx_data"}, {"leaf_rx_credit", "rx_credit"},
              {"cnt_chip", S(w0.chip) + "'d0"}, {"cnt_sel", S(w0.sel) + "'d0"}, {"cnt_value", "unused_cnt"}});
  v.line("genvar x;");
  v.line("generate");
  v.open("for (x = 0; x < " + S(N) + "; x = x + 1) begin : g_ni");
  v.instance("cm5data_ni", "ni", {{"LEAF", "x"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"addr", "addr[x*4 +: 4]"}, {"wdata", "wdata[x*32 +: 32]"}, {"we", "we[x]"},
              {"re", "re[x]"}, {"rdata", "rdata[x*32 +: 32]"}, {"irq", "irq[x]"}, {"net_tx_valid", "tx_valid[x]"},
              {"net_tx_data", "tx_data[x*" + S(W) + " +: " + S(W) + "]"}, {"net_tx_credit", "tx_credit[x]"},
              {"net_rx_valid", "rx_valid[x]"}, {"net_rx_data", "rx_data[x*" + S(W) + " +: " + S(W) + "]"},
              {"net_rx_credit", "rx_credit[x]"}, {"tx_start", "1'b1"}, {"send_free", "unused_free[x*8 +: 8]"},
              {"ev_accept", "unused_ev[x*6]"}, {"ev_sent", "unused_ev[x*6+1]"}, {"ev_recv", "unused_ev[x*6+2]"},
              {"ev_taken", "unused_ev[x*6+3]"}, {"ev_intr", "unused_ev[x*6+4]"}, {"ev_addr", "unused_ev[x*6+5]"}});
  v.close("end");
  v.line("endgenerate");
  v.close("endmodule");
  auto it = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  it = d.files.insert(it, {"cm5data_ni.v", emit_cm5data_ni_module(p, cm5_ni_send_words(p))});
  d.files.insert(it + 1, {"cm5data_ni_net.v", v.text()});
  d.top = "cm5data_ni_net";
  for (auto& f : d.files)
    if (f.first == "filelist.f") f.second = filelist(d);
  return d;
}

void emit_cm5data_networks(VerilogWriter& v, const Cm5DataParams& p, const Cm5NiBankHooks& h) {
  for (int side = 0; side < 2; ++side) {
    // (appends, not string + "x": GCC 12's -Wrestrict false positive)
    std::string lo = std::to_string(side), lw = lo;
    lo.append("*N");
    lw.append("*N*W");
    std::string afd = "{";
    afd.append(std::to_string(p.total_chips())).append("{1'b0}}");
    v.instance(side == 0 ? "cm5data_network" : "cm5data_network_r", side == 0 ? "net_left" : "net_right", {},
               {{"clk", "clk"}, {"rst", "rst"}, {"clear", h.clear},
                {"afd_mode", afd},
                {"leaf_tx_valid", "leaf_tx_valid[" + lo + " +: N]"}, {"leaf_tx_data", "leaf_tx_data[" + lw + " +: N*W]"},
                {"leaf_tx_credit", "leaf_tx_credit[" + lo + " +: N]"}, {"leaf_rx_valid", "leaf_rx_valid[" + lo + " +: N]"},
                {"leaf_rx_data", "leaf_rx_data[" + lw + " +: N*W]"}, {"leaf_rx_credit", "leaf_rx_credit[" + lo + " +: N]"},
                {"cnt_chip", h.cnt_chip}, {"cnt_sel", h.cnt_sel}, {"cnt_value", side == 0 ? h.cnt_left : h.cnt_right}});
  }
}

void emit_cm5data_ni_bank(VerilogWriter& v, const Cm5NiBankHooks& h) {
  v.open("for (s = 0; s < 2; s = s + 1) begin : g_ni_side");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_ni");
  v.instance("cm5data_ni", "ni", {{"LEAF", "g"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"addr", "ni_addr[(s*N+g)*4 +: 4]"}, {"wdata", "ni_wdata[(s*N+g)*32 +: 32]"},
              {"we", "ni_we[s*N+g]"}, {"re", "ni_re[s*N+g]"}, {"rdata", "ni_rdata[(s*N+g)*32 +: 32]"},
              {"irq", "ni_irq[s*N+g]"}, {"tx_start", h.tx_start.empty() ? "1'b1" : h.tx_start + "[s*N+g]"},
              {"send_free", h.send_free + "[(s*N+g)*8 +: 8]"},
              {"ev_accept", "ev_accept[s*N+g]"}, {"ev_sent", h.ev_sent + "[s*N+g]"}, {"ev_recv", "ev_recv[s*N+g]"},
              {"ev_taken", h.ev_taken + "[s*N+g]"}, {"ev_intr", h.ev_intr + "[s*N+g]"}, {"ev_addr", h.ev_addr + "[s*N+g]"},
              {"net_tx_valid", "leaf_tx_valid[s*N+g]"}, {"net_tx_data", "leaf_tx_data[(s*N+g)*W +: W]"},
              {"net_tx_credit", "leaf_tx_credit[s*N+g]"}, {"net_rx_valid", "leaf_rx_valid[s*N+g]"},
              {"net_rx_data", "leaf_rx_data[(s*N+g)*W +: W]"}, {"net_rx_credit", "leaf_rx_credit[s*N+g]"}});
  v.close("end");
  v.close("end");
}

}  // namespace cmnet

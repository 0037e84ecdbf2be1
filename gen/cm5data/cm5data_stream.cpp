#include "gen/cm5data/cm5data_stream.h"

#include <algorithm>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/cm5data/cm5data_ni_regmap.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {


// The widths of the largest chip's counter select (the scan covers every chip with it).
Cm5DataWidths widest_widths(const Cm5DataParams& p) {
  Cm5DataWidths wmax = cm5_widths(p, 0);
  for (int l = 1; l <= p.height; ++l) wmax.sel = std::max(wmax.sel, cm5_widths(p, p.parents_at(l)).sel);
  return wmax;
}

// The module cm5data_stream, written section by section: its dimensions, shared by every section,
// and the writer they all append to.
struct StreamEmitter {
  const Cm5DataParams& p;
  const int W = p.link_bits, H = p.height;
  const uint32_t N = p.leaves();
  const Cm5DataWidths w = cm5_widths(p, 0);
  const Cm5DataWidths wmax = widest_widths(p);
  const int LW = std::max(1, clog2(N));
  const int QW = clog2(2 * static_cast<uint64_t>(N));  // NI index bits (side * N + leaf)
  const int KW = clog2(3 * static_cast<uint64_t>(N));  // output source index bits
  const int NC = static_cast<int>(p.total_chips());
  const int SELN = 1 << wmax.sel;  // counter selects scanned per chip (the largest chip's)
  const int SW = cm5_stream_send_words(p);
  const std::vector<Cm5StreamChipCounter> chip_cnt = cm5_stream_chip_counters(p);
  const int NCNT = 4 * static_cast<int>(N) + 2 + static_cast<int>(chip_cnt.size());
  VerilogWriter v{};

  // An NI register's address as a Verilog literal.
  static std::string A(std::string_view r) { return "4'd" + std::to_string(cm5nimap::reg_index(r)); }

  std::string emit();
  void emit_ports();
  void emit_networks();
  void emit_output();
  void emit_pacer();
  void emit_leaf_bridges();
  void emit_counters();
  void emit_chip_scan();
};

// The whole module, in the order of its sections.
std::string StreamEmitter::emit() {
  emit_ports();
  emit_networks();
  emit_output();
  emit_pacer();
  emit_leaf_bridges();
  emit_counters();
  emit_chip_scan();
  return v.text();
}

// The header, the stream port and the localparams.
void StreamEmitter::emit_ports() {
  v.header("CM-5 data network on the stream board: cm5data_network (left) and cm5data_network_r (right), "
           "a cm5data_ni per leaf and side, and the bridge that reaches them from the host "
           "(units as gen/cm5data/cm5data_stream.h describes).",
           {{"height h", S(H)}, {"leaves N", S(N)}, {"link_bits W", S(W)}, {"max_words", S(p.max_words)},
            {"buffer_words", S(p.buffer_words)}, {"NI send FIFO words", S(SW)},
            {"NI receive FIFO words", S(p.ni_recv_words)}});
  v.open("module cm5data_stream (");
  for (const std::string& d : stream_port_declarations(
           NCNT, "leaf x: accepted, delivered, interrupts, address errors at 128x; held; last arrival; the chips'"))
    v.line(d);
  v.end_ports();
  v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam [3:0] MAXW = 4'd" + S(p.max_words) + ";  // data words of the longest message");
}

// The leaf links of both networks, the two networks and a cm5data_ni per leaf and side.
void StreamEmitter::emit_networks() {
  v.line();
  v.comment("Leaf links of both networks, and the NIs: side s of leaf g at index q = s*N + g.");
  v.line("wire [2*N-1:0] leaf_tx_valid, leaf_tx_credit, leaf_rx_valid, leaf_rx_credit;");
  v.line("wire [2*N*W-1:0] leaf_tx_data, leaf_rx_data;");
  v.line("wire [31:0] cnt_l, cnt_r;");
  v.line("reg [" + S(w.chip - 1) + ":0] scan_chip;  // the chips' counters, read one (chip, select) a cycle");
  v.line("reg [" + S(wmax.sel - 1) + ":0] scan_sel;");
  const Cm5NiBankHooks hooks{.clear = "clear", .cnt_chip = "scan_chip", .cnt_sel = "scan_sel", .cnt_left = "cnt_l",
                             .cnt_right = "cnt_r", .tx_start = "ni_start", .send_free = "ni_free", .ev_sent = "ev_sent",
                             .ev_taken = "ev_taken", .ev_intr = "ev_intr", .ev_addr = "ev_addr"};
  emit_cm5data_networks(v, p, hooks);
  v.line("wire [2*N*4-1:0] ni_addr;");
  v.line("wire [2*N*32-1:0] ni_wdata, ni_rdata;");
  v.line("wire [2*N-1:0] ni_we, ni_re, ni_irq, ni_start;");
  v.line("wire [2*N*8-1:0] ni_free;");
  v.line("wire [2*N-1:0] ev_accept, ev_sent, ev_recv, ev_taken, ev_intr, ev_addr;");
  v.line("genvar g, s;");
  v.line("generate");
  emit_cm5data_ni_bank(v, hooks);
  v.line("endgenerate");
  v.line("wire unused_irq = ^ni_irq;  // the host reads INTERRUPT; the counters count ev_intr");
}

// The output to the host: the source pick and the unit being read out of an NI.
void StreamEmitter::emit_output() {
  v.line();
  v.comment("The output to the host: one unit at a time, from source k = 3*g + {0: leaf g's read reply,");
  v.comment("1: a whole message in its left NI's receive FIFO, 2: in its right one's} (messages only while");
  v.comment("that NI's DRAIN bit is set), the lowest k first. A message is read out of its NI through the");
  v.comment("NI's bus: RECV_HEAD (with the side at bit 29), then RECV_DATA for each data word as the host");
  v.comment("takes it. A reply: {0, side[29], bridge[28], addr[3:0]}, then the value, read as it is taken.");
  v.line("reg out_busy, out_first;");
  v.line("reg [" + S(LW - 1) + ":0] out_leaf;");
  v.line("reg [1:0] out_kind;   // 0 reply, 1 left message, 2 right message");
  v.line("reg [3:0] out_left;   // data words still to go");
  v.line("wire give_word = out_busy && rx_ready;");
  v.line("wire [N-1:0] rd_side, rd_bridge;   // ... on this side, of a bridge register");
  v.line("wire [4*N-1:0] rd_addr;");
  v.line("wire [32*N-1:0] bridge_val;        // leaf g's bridge register at rd_addr");
  v.line("wire [3*N-1:0] has;");
  v.line("wire [2*N-1:0] drain;              // leaf g's DRAIN register {right, left} at 2g");
  v.line("wire [2*N-1:0] ready_msg;          // NI q holds a whole message and its leaf drains that side");
  v.line("wire [N-1:0] pend_send;            // leaf g: a SEND waits for room");
  v.line("wire out_side = out_kind == 2'd0 ? rd_side[out_leaf] : out_kind == 2'd2;");
  v.line("wire [" + S(QW - 1) + ":0] out_q = {out_side, out_leaf};");
  v.line("wire out_ni = out_busy && !(out_kind == 2'd0 && rd_bridge[out_leaf]);  // the output uses NI out_q's bus");
  v.line("wire [3:0] out_addr = out_kind == 2'd0 ? rd_addr[out_leaf*4 +: 4] : out_first ? " + A("RECV_HEAD") + " : " +
         A("RECV_DATA") + ";");
  v.line("wire out_re = give_word && !out_first;  // a unit's first word reads nothing with an effect");
  v.line("wire [31:0] out_val = ni_rdata[out_q*32 +: 32];");
  v.line("wire [31:0] reply_head = {2'b00, rd_side[out_leaf], rd_bridge[out_leaf], 24'd0, rd_addr[out_leaf*4 +: 4]};");
  v.line("wire [31:0] reply_val = rd_bridge[out_leaf] ? bridge_val[out_leaf*32 +: 32] : out_val;");
  v.line("assign rx_valid = out_busy;");
  v.line("assign rx_leaf = {" + (LW < 16 ? S(16 - LW) + "'d0, " : "") + "out_leaf};");
  v.line("assign rx_data = out_kind == 2'd0 ? (out_first ? reply_head : reply_val)");
  v.line("                                  : (out_first ? (out_val | {2'b00, out_side, 29'd0}) : out_val);");
  v.line("wire [3:0] head_left = {1'b0, out_val[18:16]} - out_val[3:0];  // the message's data words not yet read");
  v.line("assign rx_last = out_kind == 2'd0 ? !out_first : out_first ? head_left == 4'd0 : out_left == 4'd1;");
  v.line("reg pick_any;");
  v.line("reg [" + S(KW - 1) + ":0] pick;");
  v.line("integer k;");
  v.line("always @(*) begin");
  v.line("  pick_any = 1'b0;");
  v.line("  pick = 0;");
  v.line("  for (k = 3 * N - 1; k >= 0; k = k - 1)");
  v.line("    if (has[k]) begin");
  v.line("      pick_any = 1'b1;");
  v.line("      pick = k[" + S(KW - 1) + ":0];");
  v.line("    end");
  v.line("end");
  v.line("wire [" + S(KW - 1) + ":0] pick_leaf = pick / 3;");
  v.line("wire [" + S(KW - 1) + ":0] pick_kind = pick % 3;");
  if (KW > LW) v.line("wire unused_pick = ^{pick_leaf[" + S(KW - 1) + ":" + S(LW) + "], pick_kind[" + S(KW - 1) + ":2]};");
  else v.line("wire unused_pick = ^pick_kind[" + S(KW - 1) + ":2];");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    out_busy <= 1'b0;");
  v.line("    out_first <= 1'b0;");
  v.line("    out_leaf <= 0;");
  v.line("    out_kind <= 2'd0;");
  v.line("    out_left <= 4'd0;");
  v.line("  end else if (!out_busy) begin");
  v.line("    if (pick_any) begin");
  v.line("      out_busy <= 1'b1;");
  v.line("      out_first <= 1'b1;");
  v.line("      out_leaf <= pick_leaf[" + S(LW - 1) + ":0];");
  v.line("      out_kind <= pick_kind[1:0];");
  v.line("    end");
  v.line("  end else if (give_word) begin");
  v.line("    out_first <= 1'b0;");
  v.line("    if (out_first) out_left <= head_left;");
  v.line("    else out_left <= out_left - 4'd1;");
  v.line("    if (rx_last) out_busy <= 1'b0;");
  v.line("  end");
  v.line("end");
}

// The pacer: a token per NI at PACE's rate, the cycle count.
void StreamEmitter::emit_pacer() {
  v.line();
  v.comment("The pacer: while PACE.enable, NI q's next message may start only with a token; a token");
  v.comment("comes when the leaf's 16-bit accumulator (+ rate a cycle, from the leaf's phase when PACE");
  v.comment("is written) carries: rate/65536 messages per cycle per NI. Otherwise a message starts as");
  v.comment("soon as it can. Nothing starts while run is 0. tcount: cycles since clear or the PACE write.");
  v.line("reg pace_en;");
  v.line("reg [15:0] pace_rate;");
  v.line("reg [31:0] tcount, last_arr;");
  v.line("wire [N-1:0] pace_wr;  // leaf g's unit writes PACE");
  v.line("wire [32*N-1:0] pace_wdata;");
  v.line("wire pace_write = |pace_wr;");
  v.line("reg [31:0] pace_word;");
  v.line("integer pw;");
  v.line("always @(*) begin");
  v.line("  pace_word = 32'd0;");
  v.line("  for (pw = 0; pw < N; pw = pw + 1)");
  v.line("    if (pace_wr[pw]) pace_word = pace_wdata[pw*32 +: 32];");
  v.line("end");
  v.line("wire unused_pace = ^pace_word[30:16];");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || clear) begin");
  v.line("    pace_en <= 1'b0;");
  v.line("    pace_rate <= 16'd0;");
  v.line("    tcount <= 32'd0;");
  v.line("    last_arr <= 32'd0;");
  v.line("  end else begin");
  v.line("    if (pace_write) begin");
  v.line("      pace_en <= pace_word[31];");
  v.line("      pace_rate <= pace_word[15:0];");
  v.line("      tcount <= 32'd0;");
  v.line("    end else if (run) begin");
  v.line("      tcount <= tcount + 32'd1;");
  v.line("    end");
  v.line("    if (|ev_recv) last_arr <= tcount + 32'd1;");
  v.line("  end");
  v.line("end");
}

// The host's bus and the bridge per leaf: units into NI writes, each NI's bus.
void StreamEmitter::emit_leaf_bridges() {
  v.line();
  v.comment("The host's bus: units for leaf tx_leaf (out of range: taken and dropped). A unit's head");
  v.comment("word: bit 31 = 0: a message {side[25], mark[24], tag[23:20], len[18:16], dst[15:0]}, then its");
  v.comment("data words: each is written to that side's NI's SEND_DATA as it comes, then SEND");
  v.comment("{mark, tag, dst} once the NI's send FIFO has room for it; bit 31 = 1: a register access");
  v.comment("{1, write[30], bridge[29], side[25], addr[3:0]}, a write's data in the next word: NI");
  v.comment("registers (gen/cm5data/cm5data_ni_regmap.h), or the bridge's (DRAIN, PACE). A leaf takes");
  v.comment("nothing while it waits to issue a SEND or a read's reply, or while the output reads its NIs.");
  v.line("wire [N-1:0] ready;");
  for (const std::string& l : stream_leaf_select(N, LW)) v.line(l);
  v.line("assign tx_ready = !tx_in_range || ready[tx_sel];");
  v.line("wire [2*N-1:0] h_we;");
  v.line("wire [2*N*4-1:0] h_addr;");
  v.line("wire [2*N*32-1:0] h_wdata;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_leaf");
  v.line("localparam integer PH = g * " + S(kCm5PacePhaseStep) + ";");
  v.line("localparam [15:0] PHASE = PH[15:0];  // the pacer's phase (cm5_pace_phase)");
  v.line("reg inunit, ufirst;  // in a unit's words after its head; the next is the first of them");
  v.line("reg uacc, uwrite, ubridge, uside, umark;");
  v.line("reg [3:0] uaddr, utag, udn;");
  v.line("reg [15:0] udst;");
  v.line("reg psend, pread;    // a SEND to issue; a read waiting for its reply");
  v.line("wire out_here = out_busy && out_leaf == g;");
  v.line("assign ready[g] = !psend && !pread && !out_here;");
  v.line("wire take = tx_valid && tx_in_range && tx_sel == g && ready[g];");
  v.line("wire head = take && !inunit;");
  v.line("wire dataw = take && inunit && !uacc;                     // a message's data word");
  v.line("wire accw = take && inunit && uacc && uwrite && ufirst;  // an access's write data");
  v.line("wire [3:0] nwords = (udn > MAXW ? MAXW : udn) + 4'd2;    // the message's words in the send FIFO");
  v.line("wire [7:0] free_here = ni_free[(uside ? N + g : g)*8 +: 8];");
  v.line("wire issue = psend && !out_here && free_here >= {4'd0, nwords};");
  v.line("assign rd_side[g] = uside;");
  v.line("assign rd_bridge[g] = ubridge;");
  v.line("assign rd_addr[g*4 +: 4] = uaddr;");
  v.line("assign pace_wr[g] = accw && ubridge && uaddr == 4'd" + S(cm5nimap::bridge_index("PACE")) + ";");
  v.line("assign pace_wdata[g*32 +: 32] = tx_data;");
  v.line("assign bridge_val[g*32 +: 32] = uaddr == 4'd" + S(cm5nimap::bridge_index("DRAIN")) + " ? {30'd0, drain[2*g +: 2]} : uaddr == 4'd" +
         S(cm5nimap::bridge_index("PACE")) + " ? {pace_en, 15'd0, pace_rate} : 32'd0;");
  v.line("assign has[3*g] = pread;");
  v.line("assign has[3*g+1] = ready_msg[g];");
  v.line("assign has[3*g+2] = ready_msg[N+g];");
  v.line("assign pend_send[g] = psend;");
  v.line("reg [1:0] dr;");
  v.line("assign drain[2*g +: 2] = dr;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    inunit <= 1'b0;");
  v.line("    ufirst <= 1'b0;");
  v.line("    uacc <= 1'b0;");
  v.line("    uwrite <= 1'b0;");
  v.line("    ubridge <= 1'b0;");
  v.line("    uside <= 1'b0;");
  v.line("    umark <= 1'b0;");
  v.line("    uaddr <= 4'd0;");
  v.line("    utag <= 4'd0;");
  v.line("    udn <= 4'd0;");
  v.line("    udst <= 16'd0;");
  v.line("    psend <= 1'b0;");
  v.line("    pread <= 1'b0;");
  v.line("    dr <= 2'b11;");
  v.line("  end else begin");
  v.line("    if (take) inunit <= !tx_last;");
  v.line("    if (head) begin");
  v.line("      ufirst <= 1'b1;");
  v.line("      uacc <= tx_data[31];");
  v.line("      uwrite <= tx_data[30];");
  v.line("      ubridge <= tx_data[29];");
  v.line("      uside <= tx_data[25];");
  v.line("      umark <= tx_data[24];");
  v.line("      utag <= tx_data[23:20];");
  v.line("      udst <= tx_data[15:0];");
  v.line("      uaddr <= tx_data[3:0];");
  v.line("      udn <= 4'd0;");
  v.line("      if (tx_data[31] && !tx_data[30]) pread <= 1'b1;");
  v.line("    end else if (take) begin");
  v.line("      ufirst <= 1'b0;");
  v.line("      if (dataw && udn != 4'd15) udn <= udn + 4'd1;");
  v.line("      if (dataw && tx_last) psend <= 1'b1;");
  v.line("    end");
  v.line("    if (issue) psend <= 1'b0;");
  v.line("    if (give_word && out_leaf == g && out_kind == 2'd0 && !out_first) pread <= 1'b0;");
  v.line("    if (accw && ubridge && uaddr == 4'd" + S(cm5nimap::bridge_index("DRAIN")) + ") dr <= tx_data[1:0];");
  v.line("  end");
  v.line("end");
  v.line("wire unused_head = ^tx_data[28:26];");
  v.open("for (s = 0; s < 2; s = s + 1) begin : g_side");
  v.line("localparam integer Q = s * N + g;");
  v.line("localparam [0:0] SIDE = s;");
  v.comment("The NI's bus: the output's reads while it serves this leaf, else the host's writes.");
  v.line("wire on_out = out_ni && out_q == Q[" + S(QW - 1) + ":0];");
  v.line("assign h_we[Q] = uside == SIDE[0] && (dataw || (accw && !ubridge) || issue);");
  v.line("assign h_addr[Q*4 +: 4] = issue ? " + A("SEND") + " : dataw ? " + A("SEND_DATA") + " : uaddr;");
  v.line("assign h_wdata[Q*32 +: 32] = issue ? {7'd0, umark, utag, 4'd0, udst} : tx_data;");
  v.line("assign ni_addr[Q*4 +: 4] = on_out ? out_addr : h_addr[Q*4 +: 4];");
  v.line("assign ni_we[Q] = !on_out && h_we[Q];");
  v.line("assign ni_re[Q] = on_out && out_re;");
  v.line("assign ni_wdata[Q*32 +: 32] = h_wdata[Q*32 +: 32];");
  v.line("reg [15:0] acc;");
  v.line("reg [7:0] tok;");
  v.line("wire [16:0] acc_next = {1'b0, acc} + {1'b0, pace_rate};");
  v.line("assign ni_start[Q] = run && (!pace_en || tok != 8'd0);");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || clear || pace_write) begin");
  v.line("    acc <= PHASE;");
  v.line("    tok <= 8'd0;");
  v.line("  end else if (run && pace_en) begin");
  v.line("    acc <= acc_next[15:0];");
  v.line("    tok <= tok + {7'd0, acc_next[16] && tok != 8'hFF} - {7'd0, ev_sent[Q]};");
  v.line("  end");
  v.line("end");
  v.line("reg [7:0] whole;  // whole messages in the NI's receive FIFO");
  v.line("always @(posedge clk)");
  v.line("  if (rst) whole <= 8'd0;");
  v.line("  else whole <= whole + {7'd0, ev_recv[Q]} - {7'd0, ev_taken[Q]};");
  v.line("assign ready_msg[Q] = drain[2*g + s] && whole != 8'd0;");
  v.close("end");
  v.close("end");
  v.line("endgenerate");
}

// The per-leaf counters, held, last arrival and busy.
void StreamEmitter::emit_counters() {
  v.line();
  v.comment("Counters: per leaf messages accepted into its NIs' send FIFOs (In) and taken out of their");
  v.comment("receive FIFOs (Out), both sides; the messages that raised an interrupt; SENDs that were");
  v.comment("address errors. Held: accepted, not yet taken. Busy while a message is on its way (accepted,");
  v.comment("not yet whole at its receiver), the output or a leaf has work, or the chips' scan is not fresh.");
  v.line("reg [31:0] held, inflight;");
  v.line("integer c;");
  v.line("reg [15:0] n_acc, n_recv, n_taken;");
  v.line("always @(*) begin");
  v.line("  n_acc = 16'd0;");
  v.line("  n_recv = 16'd0;");
  v.line("  n_taken = 16'd0;");
  v.line("  for (c = 0; c < 2 * N; c = c + 1) begin");
  v.line("    n_acc = n_acc + {15'd0, ev_accept[c]};");
  v.line("    n_recv = n_recv + {15'd0, ev_recv[c]};");
  v.line("    n_taken = n_taken + {15'd0, ev_taken[c]};");
  v.line("  end");
  v.line("end");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || clear) begin");
  v.line("    held <= 32'd0;");
  v.line("    inflight <= 32'd0;");
  v.line("  end else begin");
  v.line("    held <= held + {16'd0, n_acc} - {16'd0, n_taken};");
  v.line("    inflight <= inflight + {16'd0, n_acc} - {16'd0, n_recv};");
  v.line("  end");
  v.line("end");
  v.line("assign busy = inflight != 32'd0 || out_busy || |has || |pend_send || !fresh;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_cnt");
  v.line("reg [31:0] acc_n, del_n, int_n, adr_n;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || clear) begin");
  v.line("    acc_n <= 32'd0;");
  v.line("    del_n <= 32'd0;");
  v.line("    int_n <= 32'd0;");
  v.line("    adr_n <= 32'd0;");
  v.line("  end else begin");
  v.line("    acc_n <= acc_n + {31'd0, ev_accept[g]} + {31'd0, ev_accept[N + g]};");
  v.line("    del_n <= del_n + {31'd0, ev_taken[g]} + {31'd0, ev_taken[N + g]};");
  v.line("    int_n <= int_n + {31'd0, ev_intr[g]} + {31'd0, ev_intr[N + g]};");
  v.line("    adr_n <= adr_n + {31'd0, ev_addr[g]} + {31'd0, ev_addr[N + g]};");
  v.line("  end");
  v.line("end");
  v.line("assign counters[128*g +: 32] = acc_n;");
  v.line("assign counters[128*g + 32 +: 32] = del_n;");
  v.line("assign counters[128*g + 64 +: 32] = int_n;");
  v.line("assign counters[128*g + 96 +: 32] = adr_n;");
  v.close("end");
  v.line("endgenerate");
  v.line("assign counters[128*N +: 32] = held;");
  v.line("assign counters[128*N + 32 +: 32] = last_arr;");
}

// The scan of the chips' counters into shadow registers on the bus (ends the module).
void StreamEmitter::emit_chip_scan() {
  v.line();
  v.comment("The chips' counters on the bus: a scan reads every (chip, select) of both networks in turn");
  v.comment("into a shadow register per counter (the chips' own counters are behind a read mux). busy stays 1 until a");
  v.comment("whole pass has begun and ended after the last cycle with messages inside, so when the host");
  v.comment("reads an idle board the shadows equal the chips' counters. clear zeroes both.");
  v.line("wire [" + S(w.chip + wmax.sel - 1) + ":0] sh_at = {scan_chip, scan_sel};");
  v.line("wire scan_end = scan_chip == " + S(w.chip) + "'d" + S(NC - 1) + " && scan_sel == {" + S(wmax.sel) + "{1'b1}};");
  v.line("wire act = inflight != 32'd0 || n_acc != 16'd0;");
  v.line("reg seen;    // messages inside since the current pass began");
  v.line("reg fresh;   // the last whole pass saw no messages inside: the shadows are current");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    scan_chip <= 0;");
  v.line("    scan_sel <= 0;");
  v.line("    seen <= 1'b0;");
  v.line("    fresh <= 1'b1;");
  v.line("  end else begin");
  v.line("    scan_sel <= scan_sel + 1'b1;");
  v.line("    if (scan_sel == {" + S(wmax.sel) + "{1'b1}}) scan_chip <= scan_end ? 0 : scan_chip + 1'b1;");
  v.line("    if (scan_end) begin");
  v.line("      fresh <= !seen && !act;");
  v.line("      seen <= act;");
  v.line("    end else begin");
  v.line("      seen <= seen || act;");
  v.line("      if (act) fresh <= 1'b0;");
  v.line("    end");
  v.line("  end");
  v.line("end");
  const int64_t base = 4 * static_cast<int64_t>(N) + 2;
  for (size_t i = 0; i < chip_cnt.size(); ++i) {
    const Cm5StreamChipCounter& c = chip_cnt[i];
    const std::string r = "sh" + S(static_cast<int64_t>(i));
    v.line("reg [31:0] " + r + ";  // " + c.name);
    v.line("always @(posedge clk)");
    v.line("  if (rst || clear) " + r + " <= 32'd0;");
    v.line("  else if (sh_at == " + S(w.chip + wmax.sel) + "'d" + S(static_cast<int64_t>(c.chip) * SELN + c.sel) + ") " + r +
           " <= " + (c.side ? "cnt_r" : "cnt_l") + ";");
    v.line("assign counters[" + S((base + static_cast<int64_t>(i)) * 32) + " +: 32] = " + r + ";");
  }
  v.end_module();
}

std::string emit_stream_module(const Cm5DataParams& p) { return StreamEmitter{p}.emit(); }

}  // namespace

std::vector<Cm5StreamChipCounter> cm5_stream_chip_counters(const Cm5DataParams& p) {
  std::vector<Cm5StreamChipCounter> v;
  for (int side = 0; side < 2; ++side)
    for (uint32_t c = 0; c < p.total_chips(); ++c) {
      const Cm5DataChipPos pos = cm5_chip_pos(p, c);
      const std::vector<std::string> names = cm5_counter_names(p.parents_at(pos.level));
      for (size_t k = 0; k < names.size(); ++k) {
        Cm5StreamChipCounter x;
        x.side = side;
        x.chip = c;
        x.sel = static_cast<int>(k);
        x.region = cm5_stream_chip_region(side, c);
        x.name = x.region + "." + names[k];
        x.kind = names[k].rfind("in_", 0) == 0 ? CounterKind::In : names[k].rfind("out_", 0) == 0 ? CounterKind::Out
                                                                                                  : CounterKind::Other;
        v.push_back(std::move(x));
      }
    }
  return v;
}

std::string cm5_stream_chip_region(int side, uint32_t chip) { return (side ? "right.c" : "left.c") + S(chip); }

uint32_t cm5_stream_unit_head(uint32_t dst, int len, int tag, bool mark, int side) {
  return (dst & 0xFFFFu) | (static_cast<uint32_t>(len & 7) << 16) | (static_cast<uint32_t>(tag & 15) << 20) |
         (mark ? 1u << 24 : 0u) | (side ? 1u << 25 : 0u);
}

std::vector<uint32_t> cm5_stream_access_unit(uint32_t reg, int side, bool write, uint32_t data, bool bridge) {
  std::vector<uint32_t> w{0x80000000u | (write ? 1u << 30 : 0u) | (bridge ? 1u << 29 : 0u) | (side ? 1u << 25 : 0u) | (reg & 15u)};
  if (write) w.push_back(data);
  return w;
}

uint32_t cm5_stream_recv_head(bool crc_ok, bool fell, int tag, int len, int side) {
  return 0x80000000u | (crc_ok ? 1u << 30 : 0u) | (side ? 1u << 29 : 0u) | (fell ? 1u << 24 : 0u) |
         (static_cast<uint32_t>(tag & 15) << 20) | (static_cast<uint32_t>(len & 7) << 16);
}

int cm5_stream_send_words(const Cm5DataParams& p) {
  if (p.ni_send_words) return p.ni_send_words;
  int w = 8;
  while (w < 8 * p.message_words(p.max_words) && w < 64) w *= 2;
  return w;
}

uint64_t cm5_pace_start(uint32_t rate, uint32_t phase, uint64_t k) {
  if (rate == 0 || rate > 0xFFFFu) throw std::invalid_argument("cm5_pace_start: rate out of range 1..65535");
  // Token k comes in the cycle c in which phase + rate * (c + 1) first reaches (k + 1) * 2^16; the
  // message may start in the cycle after it.
  const uint64_t need = (k + 1) * 65536u - phase;
  return (need + rate - 1) / rate;
}

GeneratedDesign emit_cm5data_stream(const Cm5DataConfig& cfg) {
  GeneratedDesign d = emit_cm5data(cfg);
  if (cfg.cm5.height > 8) throw ConfigError("config: cm5data: the stream board takes at most 16-bit leaf numbers");
  // The stream module goes before the filelist and the JSON files, after the network.
  auto it = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  // The right network: the same tree and routers, its own LFSR seeds (seed + 1).
  Cm5DataParams right = cfg.cm5;
  right.seed = (right.seed + 1) & 0xFFFFu;
  it = d.files.insert(it, {"cm5data_network_r.v", emit_cm5data_network_module(right, "cm5data_network_r")});
  it = d.files.insert(it + 1, {"cm5data_ni.v", emit_cm5data_ni_module(cfg.cm5, cm5_stream_send_words(cfg.cm5))});
  d.files.insert(it + 1, {"cm5data_stream.v", emit_stream_module(cfg.cm5)});
  d.top = "cm5data_stream";
  for (auto& f : d.files)
    if (f.first == "filelist.f") f.second = filelist(d);
  return d;
}

StreamBoardSpec cm5data_stream_spec(const Cm5DataConfig& cfg) {
  const Cm5DataParams& p = cfg.cm5;
  StreamBoardSpec s;
  s.info.family = "cm5data";
  s.info.name = cfg.name;
  s.info.leaves = p.leaves();
  s.info.params = {{"height", S(p.height)},
                   {"leaves", S(p.leaves())},
                   {"link_bits", S(p.link_bits)},
                   {"max_words", S(p.max_words)},
                   {"buffer_words", S(p.buffer_words)},
                   {"seed", S(p.seed)},
                   {"chips", S(p.total_chips())},
                   {"ni_send_words", S(cm5_stream_send_words(p))}};
  if (p.ni_recv_words != kCm5NiRecvWords) s.info.params.push_back({"ni_recv_words", S(p.ni_recv_words)});
  s.info.regions = {"network"};
  for (uint32_t x = 0; x < p.leaves(); ++x) {
    s.info.counters.push_back({"leaf" + S(x) + ".accepted", CounterKind::In, 0});
    s.info.counters.push_back({"leaf" + S(x) + ".delivered", CounterKind::Out, 0});
    s.info.counters.push_back({"leaf" + S(x) + ".interrupts", CounterKind::Other, 0});
    s.info.counters.push_back({"leaf" + S(x) + ".address_errors", CounterKind::Other, 0});
  }
  s.info.counters.push_back({"network.held", CounterKind::Held, 0});
  s.info.counters.push_back({"network.last_arrival", CounterKind::Other, 0});
  // The chips': a region per chip (Kirchhoff per chip: a chip holds nothing when the board is idle).
  for (int side = 0; side < 2; ++side)
    for (uint32_t c = 0; c < p.total_chips(); ++c) s.info.regions.push_back(cm5_stream_chip_region(side, c));
  for (const Cm5StreamChipCounter& c : cm5_stream_chip_counters(p))
    s.info.counters.push_back({c.name, c.kind, 1 + static_cast<uint32_t>(c.side) * p.total_chips() + c.chip});
  s.title = "CM-5 data network";
  s.canonical_json = config_to_json(cfg);
  s.network = emit_cm5data_stream(cfg);
  s.stream_module = "cm5data_stream";
  s.fifo_log2 = 9;
  return s;
}

}  // namespace cmnet

#include "gen/cm5data/cm5data_stream.h"

#include <algorithm>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {

std::string S(int64_t x) { return std::to_string(x); }

std::string emit_stream_module(const Cm5DataParams& p) {
  const int W = p.link_bits, FPW = p.flits_per_word(), H = p.height, D = p.buffer_flits();
  const uint32_t N = p.leaves();
  const int MW = p.message_words(p.max_words);
  const Cm5DataWidths w = cm5_widths(p, 0);
  Cm5DataWidths wmax = w;
  for (int l = 1; l <= H; ++l) wmax.sel = std::max(wmax.sel, cm5_widths(p, p.parents_at(l)).sel);
  const int RC = kCm5StreamRxWords, RCW = clog2(static_cast<uint64_t>(RC));
  const int OW = clog2(static_cast<uint64_t>(RC * FPW) + 1);  // receive occupancy in flits
  const int LW = std::max(1, clog2(N));
  const int NC = static_cast<int>(p.total_chips());
  const int SELN = 1 << wmax.sel;  // counter selects scanned per chip (the largest chip's)
  const std::vector<Cm5StreamChipCounter> chip_cnt = cm5_stream_chip_counters(p);
  const int NCNT = 4 * static_cast<int>(N) + 1 + static_cast<int>(chip_cnt.size());
  std::string mapped(N, '0');  // bit x: leaf x is mapped out of the address space
  for (uint32_t x : p.mapped_out_leaves) mapped[N - 1 - x] = '1';
  VerilogWriter v;
  v.header("CM-5 data network on the stream board: cm5data_network and one network interface per leaf "
           "(units in and out as gen/cm5data/cm5data_stream.h describes).",
           {{"height h", S(H)}, {"leaves N", S(N)}, {"link_bits W", S(W)}, {"max_words", S(p.max_words)},
            {"buffer_words", S(p.buffer_words)}, {"receive FIFO words per leaf", S(RC)}});
  v.open("module cm5data_stream (");
  for (const std::string& d :
       stream_port_declarations(NCNT, "leaf x: accepted, delivered, interrupts, refused at 128x; held; the chips'"))
    v.line(d);
  v.end_ports();
  v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  const int IW = clog2(static_cast<uint64_t>(MW)), FPWL = clog2(static_cast<uint64_t>(FPW)), WL = clog2(static_cast<uint64_t>(W));
  v.line("localparam integer IW = " + S(IW) + ";     // message word index bits");
  v.line("localparam integer MW = " + S(MW) + ";     // words of the longest message (head, data, CRC)");
  v.line("localparam integer RW = " + S(w.remain) + ";");
  v.line("localparam integer CW = " + S(w.credit) + ";");
  v.line("localparam [CW-1:0] CREDITS = " + S(w.credit) + "'d" + S(D) + ";");
  v.line("localparam integer OW = " + S(OW) + ";");
  v.line("localparam [OW-1:0] RXCAP = " + S(OW) + "'d" + S(RC * FPW) + ";  // receive FIFO flits");
  v.line("localparam [RW-1:0] FPW_R = " + S(w.remain) + "'d" + S(FPW) + ";");
  v.line("localparam [RW-1:0] TWO_R = " + S(w.remain) + "'d2;");
  v.line("localparam [RW-1:0] POS_M = " + S(w.remain) + "'d" + S(FPW - 1) + ";  // flit within its word");
  v.line("localparam [OW-1:0] FPW_O = " + S(OW) + "'d" + S(FPW) + ";");
  v.line("localparam [31:0] HMASK = 32'hFFFFFF07;");
  v.line("localparam [N-1:0] MAPPED = " + S(N) + "'b" + mapped + ";  // leaves mapped out of the address space");
  v.line();
  emit_cm5data_functions(v, H, true);
  v.line();
  v.comment("Leaf links of both networks: side s of leaf g at index s*N + g (left 0, right 1).");
  v.line("wire [2*N-1:0] leaf_tx_valid, leaf_tx_credit, leaf_rx_valid, leaf_rx_credit;");
  v.line("wire [2*N*W-1:0] leaf_tx_data, leaf_rx_data;");
  v.line("wire [31:0] cnt_l, cnt_r;");
  v.line("reg [" + S(w.chip - 1) + ":0] scan_chip;  // the chips' counters, read one (chip, select) a cycle");
  v.line("reg [" + S(wmax.sel - 1) + ":0] scan_sel;");
  for (int side = 0; side < 2; ++side) {
    const std::string lo = S(side) + "*N", lw = S(side) + "*N*W";
    v.instance(side == 0 ? "cm5data_network" : "cm5data_network_r", side == 0 ? "net_left" : "net_right", {},
               {{"clk", "clk"}, {"rst", "rst"}, {"clear", "clear"}, {"afd_mode", "{" + S(p.total_chips()) + "{1'b0}}"},
                {"leaf_tx_valid", "leaf_tx_valid[" + lo + " +: N]"}, {"leaf_tx_data", "leaf_tx_data[" + lw + " +: N*W]"},
                {"leaf_tx_credit", "leaf_tx_credit[" + lo + " +: N]"}, {"leaf_rx_valid", "leaf_rx_valid[" + lo + " +: N]"},
                {"leaf_rx_data", "leaf_rx_data[" + lw + " +: N*W]"}, {"leaf_rx_credit", "leaf_rx_credit[" + lo + " +: N]"},
                {"cnt_chip", "scan_chip"}, {"cnt_sel", "scan_sel"}, {"cnt_value", side == 0 ? "cnt_l" : "cnt_r"}});
  }
  v.line();
  v.comment("The host's bus: a unit for leaf tx_leaf. Its head word says control (bit 31: set the");
  v.comment("tag mask to bits [15:0]) or a message for side bit 25; a message's words are taken while");
  v.comment("that side's message buffer is not full. A message to a leaf mapped out of the address space,");
  v.comment("or any message at a mapped-out leaf, is refused: its words are taken and dropped, counted.");
  v.line("wire [N-1:0] ready;");
  v.line("wire tx_in_range = tx_leaf < " + S(N) + ";");
  v.line("wire [" + S(LW - 1) + ":0] tx_sel = tx_leaf[" + S(LW - 1) + ":0];");
  if (16 > LW) v.line("wire unused_tx_leaf = ^tx_leaf[15:" + S(LW) + "];");
  v.line("assign tx_ready = !tx_in_range || ready[tx_sel];  // out of range: taken and dropped");
  v.line("wire [2*N-1:0] pop;          // the output takes the front word of source q = s*N + g");
  v.line("wire [2*N-1:0] has_unit;     // source q holds a whole message");
  v.line("wire [2*N*32-1:0] front;     // source q's front word");
  v.line("wire [2*N*4-1:0] front_len;  // its message's words (at the head word)");
  v.line("wire [2*N-1:0] accepted, delivered;");
  v.line("wire [2*N-1:0] intr;        // source q: a message whose tag's mask bit is set is complete");
  v.line("wire [N-1:0] refused;       // leaf g: a message unit refused (mapped-out leaf)");
  v.line("reg out_busy, out_first;");
  v.line("reg [" + S(LW) + ":0] out_src;");
  v.line("reg [3:0] out_left;");
  v.line();
  v.line("genvar g, s;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_leaf");
  v.line("localparam [" + S(2 * H - 1) + ":0] ME = g;");
  v.line("reg inunit;          // the words after a unit's head");
  v.line("reg uctl, uside;     // the unit in progress: control, side");
  v.line("reg udrop;           // ... refused (a mapped-out leaf)");
  v.line("reg [15:0] mask;     // the tag mask register");
  v.line("wire ctl_now = inunit ? uctl : tx_data[31];");
  v.line("wire side_now = inunit ? uside : tx_data[25];");
  v.line("wire drop_now = inunit ? udrop : !tx_data[31] && (MAPPED[g] || MAPPED[tx_data[" + S(2 * H - 1) + ":0]]);");
  v.line("wire [1:0] sfull;");
  v.line("assign ready[g] = ctl_now || drop_now || !sfull[side_now];");
  v.line("wire take_any = tx_valid && tx_in_range && tx_sel == g && ready[g];");
  v.line("assign refused[g] = take_any && !inunit && drop_now;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    inunit <= 1'b0;");
  v.line("    uctl <= 1'b0;");
  v.line("    uside <= 1'b0;");
  v.line("    udrop <= 1'b0;");
  v.line("    mask <= 16'd0;");
  v.line("  end else if (take_any) begin");
  v.line("    if (!inunit) begin");
  v.line("      uctl <= tx_data[31];");
  v.line("      uside <= tx_data[25];");
  v.line("      udrop <= drop_now;");
  v.line("      if (tx_data[31]) mask <= tx_data[15:0];");
  v.line("    end");
  v.line("    inunit <= !tx_last;");
  v.line("  end");
  v.line("end");
  v.open("for (s = 0; s < 2; s = s + 1) begin : g_side");
  v.line("localparam integer Q = s * N + g;");
  v.comment("Send side: the whole message, then its flits.");
  v.line("reg [31:0] tmem [0:MW-1];");
  v.line("reg [IW-1:0] tw;");
  v.line("reg full;");
  v.line("reg [31:0] tcrc;");
  v.line("reg [RW-1:0] tflit, ttotal;");
  v.line("reg [CW-1:0] tcred;");
  v.line("wire take = take_any && !ctl_now && !drop_now && side_now == s;");
  v.line("wire [" + S(2 * H - 1) + ":0] dst = tx_data[" + S(2 * H - 1) + ":0];");
  v.line("wire [31:0] nethead = {" + (H < 10 ? S(20 - 2 * H) + "'d0, " : "") + "dst, tx_data[23:20], climb(ME, dst), tx_data[24], tx_data[18:16]};");
  v.line("wire first_word = tw == {IW{1'b0}};");
  v.line("wire [31:0] word_in = first_word ? nethead : tx_data;");
  v.line("wire [31:0] crc_in = crc32w(first_word ? 32'hFFFFFFFF : tcrc, first_word ? (nethead & HMASK) : tx_data);");
  v.line("wire send = full && run && tcred != {CW{1'b0}};");
  v.line("wire [RW-1:0] twi = tflit >> " + S(FPWL) + ";");
  if (w.remain > IW) v.line("wire unused_twi = ^twi[RW-1:IW];");
  v.line("wire [31:0] tword = tmem[twi[IW-1:0]];");
  v.line("wire [RW-1:0] tpos = tflit & POS_M;");
  v.line("wire [31:0] tsh = tword >> {tpos, " + S(WL) + "'d0};");
  if (W < 32) v.line("wire unused_tsh = ^tsh[31:W];");
  v.line("assign leaf_tx_valid[Q] = send;");
  v.line("assign leaf_tx_data[Q*W +: W] = tsh[W-1:0];");
  v.line("assign sfull[s] = full;");
  v.line("assign accepted[Q] = take && tx_last && !first_word;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    tw <= {IW{1'b0}};");
  v.line("    full <= 1'b0;");
  v.line("    tcrc <= 32'd0;");
  v.line("    tflit <= {RW{1'b0}};");
  v.line("    ttotal <= {RW{1'b0}};");
  v.line("    tcred <= CREDITS;");
  v.line("  end else begin");
  v.line("    tcred <= tcred - {{(CW-1){1'b0}}, send} + {{(CW-1){1'b0}}, leaf_tx_credit[Q]};");
  v.line("    if (take) begin");
  v.line("      tmem[tw] <= word_in;");
  v.line("      tcrc <= crc_in;");
  v.line("      tw <= tw + 1'b1;");
  v.line("      if (first_word) ttotal <= ({{(RW-3){1'b0}}, tx_data[18:16]} + TWO_R) * FPW_R;");
  v.comment("  The last word: the CRC goes after it and the message is ready (a head alone is dropped).");
  v.line("      if (tx_last) begin");
  v.line("        if (!first_word) begin");
  v.line("          tmem[tw + 1'b1] <= crc_in;");
  v.line("          full <= 1'b1;");
  v.line("        end else begin");
  v.line("          tw <= {IW{1'b0}};");
  v.line("        end");
  v.line("      end");
  v.line("    end");
  v.line("    if (send) begin");
  v.line("      if (tflit + 1'b1 == ttotal) begin");
  v.line("        tflit <= {RW{1'b0}};");
  v.line("        full <= 1'b0;");
  v.line("        tw <= {IW{1'b0}};");
  v.line("      end else begin");
  v.line("        tflit <= tflit + 1'b1;");
  v.line("      end");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.comment("Receive side: flits into words into the FIFO; a credit goes back while every flit the");
  v.comment("network may still send has room (occupancy + its credits <= the FIFO).");
  v.line("reg [31:0] rmem [0:" + S(RC - 1) + "];");
  v.line("reg [" + S(RCW - 1) + ":0] rwp, rrp;");
  v.line("reg [OW-1:0] occ;      // flits held, the partial word's included");
  v.line("reg [CW-1:0] ncred;    // flits the network may still send");
  v.line("reg [RW-1:0] rflit;    // flit index in the arriving message");
  v.line("reg [RW-1:0] rtotal;");
  v.line("reg [3:0] units;       // whole messages held");
  v.line("reg [3:0] rtag;        // the arriving message's tag");
  if (W < 32) v.line("reg [31-W:0] racc;");
  v.line("wire rin = leaf_rx_valid[Q];");
  v.line("wire [W-1:0] rf = leaf_rx_data[Q*W +: W];");
  v.line(W < 32 ? "wire [31:0] rword = {rf, racc};" : "wire [31:0] rword = rf;");
  v.line("wire rword_end = rin && ((rflit & POS_M) == POS_M);");
  v.line("wire rhead_end = rword_end && rflit < FPW_R;");
  v.line("wire [RW-1:0] total_now = (rflit == {RW{1'b0}}) ? ({{(RW-3){1'b0}}, rf[2:0]} + TWO_R) * FPW_R : rtotal;");
  v.line("wire rmsg_end = rin && rflit + 1'b1 == total_now;");
  v.line("assign intr[Q] = rmsg_end && mask[rtag];");
  v.line("wire [OW-1:0] occ_next = occ + {{(OW-1){1'b0}}, rin} - (pop[Q] ? FPW_O : {OW{1'b0}});");
  v.line("wire [CW-1:0] ncred_in = ncred - {{(CW-1){1'b0}}, rin};");
  v.line("wire give = ncred_in != CREDITS && ({{(OW-CW){1'b0}}, ncred_in} + occ_next + 1'b1 <= RXCAP);");
  v.line("reg give_q;");
  v.line("assign leaf_rx_credit[Q] = give_q;");
  v.line("wire [31:0] fr = rmem[rrp];");
  v.line("assign front[Q*32 +: 32] = fr;");
  v.line("wire unused_fr = ^fr[31:3];");
  v.line("assign front_len[Q*4 +: 4] = {1'b0, fr[2:0]} + 4'd2;");
  v.line("assign has_unit[Q] = units != 4'd0;");
  v.line("wire unit_out = pop[Q] && out_left == 4'd1;");
  v.line("assign delivered[Q] = unit_out;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    rwp <= 0;");
  v.line("    rrp <= 0;");
  v.line("    occ <= {OW{1'b0}};");
  v.line("    ncred <= CREDITS;");
  v.line("    rflit <= {RW{1'b0}};");
  v.line("    rtotal <= {RW{1'b0}};");
  v.line("    units <= 4'd0;");
  v.line("    rtag <= 4'd0;");
  v.line("    give_q <= 1'b0;");
  if (W < 32) v.line("    racc <= {(32-W){1'b0}};");
  v.line("  end else begin");
  v.line("    occ <= occ_next;");
  v.line("    ncred <= ncred_in + {{(CW-1){1'b0}}, give};");
  v.line("    give_q <= give;");
  v.line("    if (rin) begin");
  if (W < 32) v.line("      racc <= rword[31:W];");
  v.line("      rtotal <= total_now;");
  v.line("      rflit <= rmsg_end ? {RW{1'b0}} : rflit + 1'b1;");
  v.line("    end");
  v.line("    if (rhead_end) rtag <= rword[11:8];");
  v.line("    if (rword_end) begin");
  v.line("      rmem[rwp] <= rword;");
  v.line("      rwp <= rwp + 1'b1;");
  v.line("    end");
  v.line("    if (pop[Q]) rrp <= rrp + 1'b1;");
  v.line("    units <= units + {3'd0, rmsg_end} - {3'd0, unit_out};");
  v.line("  end");
  v.line("end");
  v.close("end");
  v.close("end");
  v.line("endgenerate");
  v.line();
  v.comment("Output: one whole message at a time, the lowest source first (left leaves, then right);");
  v.comment("the head word's bit 31 says the side (the host clears it before checking the CRC).");
  v.line("reg pick_any;");
  v.line("reg [" + S(LW) + ":0] pick;");
  v.line("integer k;");
  v.line("always @(*) begin");
  v.line("  pick_any = 1'b0;");
  v.line("  pick = 0;");
  v.line("  for (k = 2 * N - 1; k >= 0; k = k - 1)");
  v.line("    if (has_unit[k]) begin");
  v.line("      pick_any = 1'b1;");
  v.line("      pick = k[" + S(LW) + ":0];");
  v.line("    end");
  v.line("end");
  v.line("wire give_word = out_busy && rx_ready;");
  v.line("assign pop = give_word ? ({{(2*N-1){1'b0}}, 1'b1} << out_src) : {2*N{1'b0}};");
  v.line("assign rx_valid = out_busy;");
  v.line("assign rx_leaf = {" + (LW < 16 ? S(16 - LW) + "'d0, " : "") + "out_src[" + S(LW - 1) + ":0]};");
  v.line("assign rx_data = front[out_src*32 +: 32] | {out_first && out_src[" + S(LW) + "], 31'd0};");
  v.line("assign rx_last = out_left == 4'd1;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    out_busy <= 1'b0;");
  v.line("    out_first <= 1'b0;");
  v.line("    out_src <= 0;");
  v.line("    out_left <= 4'd0;");
  v.line("  end else if (!out_busy) begin");
  v.line("    if (pick_any) begin");
  v.line("      out_busy <= 1'b1;");
  v.line("      out_first <= 1'b1;");
  v.line("      out_src <= pick;");
  v.line("      out_left <= front_len[pick*4 +: 4];");
  v.line("    end");
  v.line("  end else if (give_word) begin");
  v.line("    out_first <= 1'b0;");
  v.line("    out_left <= out_left - 4'd1;");
  v.line("    if (out_left == 4'd1) out_busy <= 1'b0;");
  v.line("  end");
  v.line("end");
  v.line();
  v.comment("Counters: per leaf units accepted whole (In) and delivered whole (Out), both sides; the");
  v.comment("messages that raised the interrupt (the tag mask); units inside (Held).");
  v.line("reg [31:0] held;");
  v.line("integer c;");
  v.line("reg [15:0] n_acc, n_del;");
  v.line("always @(*) begin");
  v.line("  n_acc = 16'd0;");
  v.line("  n_del = 16'd0;");
  v.line("  for (c = 0; c < 2 * N; c = c + 1) begin");
  v.line("    n_acc = n_acc + {15'd0, accepted[c]};");
  v.line("    n_del = n_del + {15'd0, delivered[c]};");
  v.line("  end");
  v.line("end");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || clear) held <= 32'd0;");
  v.line("  else held <= held + {16'd0, n_acc} - {16'd0, n_del};");
  v.line("end");
  v.line("assign busy = held != 32'd0 || !fresh;");
  v.line("generate");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_cnt");
  v.line("reg [31:0] acc_n, del_n, int_n, ref_n;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || clear) begin");
  v.line("    acc_n <= 32'd0;");
  v.line("    del_n <= 32'd0;");
  v.line("    int_n <= 32'd0;");
  v.line("    ref_n <= 32'd0;");
  v.line("  end else begin");
  v.line("    acc_n <= acc_n + {31'd0, accepted[g]} + {31'd0, accepted[N + g]};");
  v.line("    del_n <= del_n + {31'd0, delivered[g]} + {31'd0, delivered[N + g]};");
  v.line("    int_n <= int_n + {31'd0, intr[g]} + {31'd0, intr[N + g]};");
  v.line("    ref_n <= ref_n + {31'd0, refused[g]};");
  v.line("  end");
  v.line("end");
  v.line("assign counters[128*g +: 32] = acc_n;");
  v.line("assign counters[128*g + 32 +: 32] = del_n;");
  v.line("assign counters[128*g + 64 +: 32] = int_n;");
  v.line("assign counters[128*g + 96 +: 32] = ref_n;");
  v.close("end");
  v.line("endgenerate");
  v.line("assign counters[128*N +: 32] = held;");
  v.line();
  v.comment("The chips' counters on the bus: a scan reads every (chip, select) of both networks in turn");
  v.comment("into a shadow register per counter (the chips' own counters are behind a read mux). busy stays 1 until a");
  v.comment("whole pass has begun and ended after the last cycle with messages inside, so when the host");
  v.comment("reads an idle board the shadows equal the chips' counters. clear zeroes both.");
  v.line("wire [" + S(w.chip + wmax.sel - 1) + ":0] sh_at = {scan_chip, scan_sel};");
  v.line("wire scan_end = scan_chip == " + S(w.chip) + "'d" + S(NC - 1) + " && scan_sel == {" + S(wmax.sel) + "{1'b1}};");
  v.line("wire act = held != 32'd0 || n_acc != 16'd0;");
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
  for (size_t i = 0; i < chip_cnt.size(); ++i) {
    const Cm5StreamChipCounter& c = chip_cnt[i];
    const std::string r = "sh" + S(static_cast<int64_t>(i));
    v.line("reg [31:0] " + r + ";  // " + c.name);
    v.line("always @(posedge clk)");
    v.line("  if (rst || clear) " + r + " <= 32'd0;");
    v.line("  else if (sh_at == " + S(w.chip + wmax.sel) + "'d" + S(static_cast<int64_t>(c.chip) * SELN + c.sel) + ") " + r +
           " <= " + (c.side ? "cnt_r" : "cnt_l") + ";");
    v.line("assign counters[" + S((4 * static_cast<int64_t>(N) + 1 + static_cast<int64_t>(i)) * 32) + " +: 32] = " + r + ";");
  }
  v.close("endmodule");
  v.line("`default_nettype wire");
  return v.text();
}

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

uint32_t cm5_stream_mask_unit(uint16_t mask) { return 0x80000000u | mask; }

GeneratedDesign emit_cm5data_stream(const Cm5DataConfig& cfg) {
  GeneratedDesign d = emit_cm5data(cfg);
  if (cfg.cm5.height > 8) throw ConfigError("config: cm5data: the stream board takes at most 16-bit leaf numbers");
  // The stream module goes before the filelist and the JSON files, after the network.
  auto it = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  // The right network: the same tree and routers, its own LFSR seeds (seed + 1).
  Cm5DataParams right = cfg.cm5;
  right.seed = (right.seed + 1) & 0xFFFFu;
  it = d.files.insert(it, {"cm5data_network_r.v", emit_cm5data_network_module(right, "cm5data_network_r")});
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
                   {"chips", S(p.total_chips())}};
  s.info.regions = {"network"};
  for (uint32_t x = 0; x < p.leaves(); ++x) {
    s.info.counters.push_back({"leaf" + S(x) + ".accepted", CounterKind::In, 0});
    s.info.counters.push_back({"leaf" + S(x) + ".delivered", CounterKind::Out, 0});
    s.info.counters.push_back({"leaf" + S(x) + ".interrupts", CounterKind::Other, 0});
    s.info.counters.push_back({"leaf" + S(x) + ".refused", CounterKind::Other, 0});
  }
  s.info.counters.push_back({"network.held", CounterKind::Held, 0});
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

// The up half of a CM-5 control network node (paper, section 5): in the last cycle of each up
// frame, the packets arriving from the two children (`pl`, `pr`, whole in that cycle) and the
// queues of multiple-source packets waiting for their sibling decide what goes up next frame.
// - A single-source packet from a child goes up at once, ahead of any waiting packet, without
//   buffering (`ss`, `sspkt`); two at once set its error bit (the left one survives).
// - Otherwise, when each child has a multiple-source or abstain packet (the head of its queue,
//   or arriving now when the queue is empty) and the caller has `room` (put-aside space, no
//   stop from the parent), the two combine (`fire`, `cpkt`, `centry`).
// - A multiple-source packet that arrives and is not combined at once waits in its child's
//   queue (QD deep; `qcl`, `qcr` are the counts the flow-control bits are made from).
// - Flush: a multiple-source packet whose bit 0 (the sender's flush epoch) differs from `ep`
//   was sent before the sender saw the flush: it is dropped. `clr` (the flush passes this node)
//   empties the queues, fires nothing and restores the carry to `rcarry` (that of the last
//   operation that completed here).
// - Map-out (OUT_L, OUT_R): a mapped-out child is ignored; it counts as a child that always
//   abstains (from the other child's operation), so the node proceeds with the other one alone.
// `overflow` (a queue full: flow control failed) is for the node's fault flag.
// LATE = 1 (a node that registers its decision): the tick decides (ss, fire, the queues) and
// latches the two packets to combine; the cycle after, `lss` / `lfire` say what it decided and
// `lpkt` is the packet going up (single-source, combined or idle), `centry`, `fcarry` and the
// kept carry are the combination's: the adder gets a cycle of its own. LATE = 0: all at the tick
// (`lss` = `ss`, `lfire` = `fire`). PIPE = 1 (with LATE): the adder over two cycles
// (cm5ctl_alu2.v): in the cycle after the tick, `lpkt`'s header (the overflow bit too), `fcarry`
// and the kept carry; the cycle after that, `lpkt2`, the whole packet going up, its word
// from the second cycle (lpkt's word is then not in use). The adder's operands are taken at
// every tick, a combination or not; when there is none, the result is zero (the word of an idle
// packet is 0): `fire` drives no operand, only whether the result is wanted.
// EARLY = 1 (links without a CRC): `pl_e`, `pr_e` are the packets a cycle before the tick
// (cm5ctl_link_rx `early`): whether each is a single-source packet is registered then, not
// decoded at the tick. HPRE = 1 (with LATE and EARLY, frames of 3 cycles or more): the fields of the
// two packets to combine that the combination decodes (type, kind, combiner, segment bits) are
// registered in the cycle before the tick, as they will be at the tick (the queues' heads then,
// or `pl_e`, `pr_e` where a queue is empty or a flush empties it then).
`default_nettype none
module cm5ctl_upmerge #(
  parameter integer W = 32,
  parameter integer PB = W + 15,
  parameter integer AEW = W + 7,
  parameter integer QD = 5,
  parameter integer QCW = 3,
  parameter integer OUT_L = 0,
  parameter integer OUT_R = 0,
  parameter integer QRAM = 0,     // 1: the child queues in block RAM (cm5ctl_fifo RAM)
  parameter integer LATE = 0,
  parameter integer PIPE = 0,
  parameter integer EARLY = 0,
  parameter integer HPRE = 0
) (
  input  wire clk,
  input  wire rst,
  input  wire tick,
  input  wire [PB-1:0] pl,
  input  wire [PB-1:0] pr,
  input  wire [PB-1:0] pl_e,   // EARLY: pl and pr a cycle before the tick
  input  wire [PB-1:0] pr_e,
  input  wire room,
  input  wire ep,
  input  wire clr,
  input  wire rcarry,
  output wire ss,
  output wire [PB-1:0] sspkt,
  output wire fire,
  output wire [PB-1:0] cpkt,
  output wire [AEW-1:0] centry,
  output wire fcarry,   // the carry this combination leaves (kept with its put-aside entry)
  output wire lss,
  output wire lfire,
  output wire [PB-1:0] lpkt,
  output wire [PB-1:0] lpkt2,  // PIPE: the packet going up, two cycles after the tick
  output wire [QCW-1:0] qcl,
  output wire [QCW-1:0] qcr,
  output wire overflow
);
  wire ssl, ssr;
  generate
    if (EARLY != 0) begin : g_early
      reg ssl_r, ssr_r;  // pl, pr single-source as they will be (valid at the tick)
      always @(posedge clk) begin
        ssl_r <= OUT_L == 0 && pl_e[2:1] == 2'd1;
        ssr_r <= OUT_R == 0 && pr_e[2:1] == 2'd1;
      end
      assign ssl = ssl_r;
      assign ssr = ssr_r;
      wire unused = &{1'b0, pl_e[PB-1:3], pl_e[0], pr_e[PB-1:3], pr_e[0]};
    end else begin : g_dec
      assign ssl = OUT_L == 0 && pl[2:1] == 2'd1;
      assign ssr = OUT_R == 0 && pr[2:1] == 2'd1;
      wire unused = &{1'b0, pl_e, pr_e};
    end
  endgenerate
  wire msl = OUT_L == 0 && pl[2] && pl[0] == ep;
  wire msr = OUT_R == 0 && pr[2] && pr[0] == ep;
  wire qel, qer, qfl, qfr;  // the queues empty, full
  wire hasl = !qel;
  wire hasr = !qer;
  wire [PB-1:0] ql, qr;
  assign ss = tick && (ssl || ssr);
  assign sspkt = ssl ? {pl[PB-1:12], pl[11] | ssr, pl[10:1], 1'b0} : {pr[PB-1:1], 1'b0};
  wire avl = OUT_L != 0 || hasl || msl;
  wire avr = OUT_R != 0 || hasr || msr;
  assign fire = tick && !clr && !ssl && !ssr && avl && avr && room;
  // A mapped-out child abstains from the other child's operation (its kind and combiner, so
  // that a subtree where everyone abstains still says which operation it abstained from).
  wire [PB-1:0] ql_or_pl = hasl ? ql : pl;
  wire [PB-1:0] qr_or_pr = hasr ? qr : pr;
  wire [PB-1:0] hl = OUT_L != 0 ? {qr_or_pr[PB-1:3], 2'd3, 1'b0} : ql_or_pl;
  wire [PB-1:0] hr = OUT_R != 0 ? {ql_or_pl[PB-1:3], 2'd3, 1'b0} : qr_or_pr;
  wire [PB-1:0] hlc, hrc;  // hl, hr for the combination
  generate
    if (HPRE != 0) begin : g_pre
      wire [9:1] pl9 = qel || clr ? pl_e[9:1] : ql[9:1];
      wire [9:1] pr9 = qer || clr ? pr_e[9:1] : qr[9:1];
      reg [9:1] hl9, hr9;
      always @(posedge clk) begin
        hl9 <= OUT_L != 0 ? {pr9[9:3], 2'd3} : pl9;
        hr9 <= OUT_R != 0 ? {pl9[9:3], 2'd3} : pr9;
      end
      assign hlc = {hl[PB-1:10], hl9, hl[0]};
      assign hrc = {hr[PB-1:10], hr9, hr[0]};
      wire unused = &{1'b0, hl[9:1], hr[9:1]};
    end else begin : g_pnow
      assign hlc = hl;
      assign hrc = hr;
    end
  endgenerate
  // The carry of this node's last addition, for the next word of a multi-word addition.
  reg carry;
  wire [PB-1:0] now_o;
  wire [AEW-1:0] now_e;
  wire now_c;
  wire [W-1:0] now_a, now_b;
  wire [2:0] now_comb;
  wire now_ovf;
  cm5ctl_combine #(.W(W), .PB(PB), .AEW(AEW)) u_comb (
    .l(hlc), .r(hrc), .cin(carry), .o(now_o), .e(now_e), .cout(now_c), .oa(now_a), .ob(now_b), .ocomb(now_comb),
    .oovf(now_ovf));
  generate
    if (LATE != 0) begin : g_late
      // Latched at the tick: the two packets (for the header and the put-aside entry) and the
      // adder's operands, decoded; a single-source packet's word goes through the adder as
      // OR with zero, an idle packet's is zero.
      reg [PB-1:0] xl, xr;
      reg [W-1:0] xa, xb;
      reg [2:0] xcomb;
      reg xovf, ss_r, fire_r;
      always @(posedge clk) begin
        if (tick) begin
          xl <= ss ? sspkt : hl;
          xr <= hr;
          xa <= ss ? sspkt[15 +: W] : (fire ? now_a : {W{1'b0}});
          xb <= ss || !fire ? {W{1'b0}} : now_b;
          xcomb <= ss || !fire ? 3'd0 : now_comb;
          xovf <= now_ovf;
        end
        ss_r <= !rst && ss;
        fire_r <= !rst && fire;
      end
      wire [PB-1:0] late_o;
      wire [W-1:0] y;
      wire yovf, late_c, late_ovf;
      wire [W-1:0] late_a, late_b;
      wire [2:0] late_comb;
      // The put-aside entry, as the tick made it (of xl and xr only the headers are used).
      reg [AEW-1:0] xe;
      always @(posedge clk) if (tick) xe <= now_e;
      assign centry = xe;
      wire [AEW-1:0] late_e;
      cm5ctl_combine #(.W(W), .PB(PB), .AEW(AEW)) u_late (
        .l(xl), .r(xr), .cin(carry), .o(late_o), .e(late_e), .cout(late_c), .oa(late_a), .ob(late_b),
        .ocomb(late_comb), .oovf(late_ovf));
      // The packet going up: its header now, its word straight from the adder. PIPE: the
      // adder over two cycles, given the operands at the tick (its own registers): the header
      // a cycle after the tick, its overflow bit the children's (or the single-source packet's)
      // ORed with the adder's; the word a cycle later, with the header as it was.
      wire [14:0] lhdr;
      if (PIPE != 0) begin : g_pipe
        reg xo10;
        always @(posedge clk) if (tick) xo10 <= ss ? sspkt[10] : fire && now_ovf;
        wire [W-1:0] ya;
        cm5ctl_alu2 #(.W(W)) alu (
          .clk(clk), .load(tick), .live(ss || fire), .comb(ss ? 3'd0 : now_comb), .a(ss ? sspkt[15 +: W] : now_a),
          .b(ss ? {W{1'b0}} : now_b), .pass(1'b0), .cin(carry), .ovf(yovf), .cout(fcarry), .a_r(ya), .y(y));
        // The overflow bit: 0 unless a single-source packet or a combination (xo10, yovf 0).
        wire [14:0] h = ss_r ? xl[14:0] : (fire_r ? late_o[14:0] : 15'd0);
        assign lhdr = {h[14:11], xo10 || yovf, h[9:0]};
        reg [14:0] lhdr_r;
        always @(posedge clk) lhdr_r <= lhdr;
        assign lpkt2 = {y, lhdr_r};
        wire unused = &{1'b0, xa, xb, xcomb, xovf, h[10], ya};
      end else begin : g_one
        cm5ctl_alu #(.W(W)) alu (.comb(xcomb), .a(xa), .b(xb), .cin(carry), .y(y), .ovf(yovf), .cout(fcarry));
        assign lhdr = ss_r ? xl[14:0] : (fire_r ? {late_o[14:11], xovf || yovf, late_o[9:0]} : 15'd0);
        assign lpkt2 = {y, lhdr};
      end
      assign lpkt = {y, lhdr};
      assign lss = ss_r;
      assign lfire = fire_r;
      wire unused = &{1'b0, now_c, late_o[PB-1:15], late_o[10], late_e, late_c, late_a, late_b, late_comb, late_ovf};
    end else begin : g_now
      assign lpkt = ss ? sspkt : (fire ? now_o : {PB{1'b0}});
      assign lpkt2 = lpkt;
      assign lss = ss;
      assign lfire = fire;
      assign centry = now_e;
      assign fcarry = now_c;
      wire unused = &{1'b0, now_a, now_b, now_comb, now_ovf};
    end
  endgenerate
  assign cpkt = now_o;
  always @(posedge clk)
    if (rst) carry <= 1'b0;
    else if (clr) carry <= rcarry;
    else if (lfire) carry <= fcarry;
  wire push_l = tick && msl && !(fire && !hasl);
  wire push_r = tick && msr && !(fire && !hasr);
  wire ovl, ovr;
  cm5ctl_fifo #(.WIDTH(PB), .DEPTH(QD), .CW(QCW), .RAM(QRAM)) q_l (
    .clk(clk), .rst(rst), .clr(clr), .push(push_l), .din(pl), .pop(fire && hasl), .head(ql), .count(qcl), .empty(qel), .full(qfl),
    .overflow(ovl));
  cm5ctl_fifo #(.WIDTH(PB), .DEPTH(QD), .CW(QCW), .RAM(QRAM)) q_r (
    .clk(clk), .rst(rst), .clr(clr), .push(push_r), .din(pr), .pop(fire && hasr), .head(qr), .count(qcr), .empty(qer), .full(qfr),
    .overflow(ovr));
  assign overflow = ovl || ovr;
  wire unused = &{1'b0, qfl, qfr};
endmodule
`default_nettype wire

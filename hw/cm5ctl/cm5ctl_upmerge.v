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
// (`lss` = `ss`, `lfire` = `fire`).
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
  parameter integer LATE = 0
) (
  input  wire clk,
  input  wire rst,
  input  wire tick,
  input  wire [PB-1:0] pl,
  input  wire [PB-1:0] pr,
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
  output wire [QCW-1:0] qcl,
  output wire [QCW-1:0] qcr,
  output wire overflow
);
  wire ssl = OUT_L == 0 && pl[2:1] == 2'd1;
  wire ssr = OUT_R == 0 && pr[2:1] == 2'd1;
  wire msl = OUT_L == 0 && pl[2] && pl[0] == ep;
  wire msr = OUT_R == 0 && pr[2] && pr[0] == ep;
  wire hasl = qcl != {QCW{1'b0}};
  wire hasr = qcr != {QCW{1'b0}};
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
  // The carry of this node's last addition, for the next word of a multi-word addition.
  reg carry;
  wire [PB-1:0] now_o;
  wire [AEW-1:0] now_e;
  wire now_c;
  wire [W-1:0] now_a, now_b;
  wire [2:0] now_comb;
  wire now_ovf;
  cm5ctl_combine #(.W(W), .PB(PB), .AEW(AEW)) u_comb (
    .l(hl), .r(hr), .cin(carry), .o(now_o), .e(now_e), .cout(now_c), .oa(now_a), .ob(now_b), .ocomb(now_comb),
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
      cm5ctl_combine #(.W(W), .PB(PB), .AEW(AEW)) u_late (
        .l(xl), .r(xr), .cin(carry), .o(late_o), .e(centry), .cout(late_c), .oa(late_a), .ob(late_b),
        .ocomb(late_comb), .oovf(late_ovf));
      cm5ctl_alu #(.W(W)) alu (.comb(xcomb), .a(xa), .b(xb), .cin(carry), .y(y), .ovf(yovf), .cout(fcarry));
      // The packet going up, its word straight from the adder.
      wire [14:0] lhdr = ss_r ? xl[14:0] : (fire_r ? {late_o[14:11], xovf || yovf, late_o[9:0]} : 15'd0);
      assign lpkt = {y, lhdr};
      assign lss = ss_r;
      assign lfire = fire_r;
      wire unused = &{1'b0, now_e, now_c, late_o[PB-1:15], late_o[10], late_c, late_a, late_b, late_comb, late_ovf};
    end else begin : g_now
      assign lpkt = ss ? sspkt : (fire ? now_o : {PB{1'b0}});
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
    .clk(clk), .rst(rst), .clr(clr), .push(push_l), .din(pl), .pop(fire && hasl), .head(ql), .count(qcl), .overflow(ovl));
  cm5ctl_fifo #(.WIDTH(PB), .DEPTH(QD), .CW(QCW), .RAM(QRAM)) q_r (
    .clk(clk), .rst(rst), .clr(clr), .push(push_r), .din(pr), .pop(fire && hasr), .head(qr), .count(qcr), .overflow(ovr));
  assign overflow = ovl || ovr;
endmodule
`default_nettype wire

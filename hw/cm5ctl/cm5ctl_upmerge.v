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
// `overflow` (a queue full: flow control failed) is for the node's fault flag.
`default_nettype none
module cm5ctl_upmerge #(
  parameter integer W = 32,
  parameter integer PB = W + 12,
  parameter integer AEW = W + 7,
  parameter integer QD = 5,
  parameter integer QCW = 3
) (
  input  wire clk,
  input  wire rst,
  input  wire tick,
  input  wire [PB-1:0] pl,
  input  wire [PB-1:0] pr,
  input  wire room,
  output wire ss,
  output wire [PB-1:0] sspkt,
  output wire fire,
  output wire [PB-1:0] cpkt,
  output wire [AEW-1:0] centry,
  output wire [QCW-1:0] qcl,
  output wire [QCW-1:0] qcr,
  output wire overflow
);
  wire ssl = pl[2:1] == 2'd1;
  wire ssr = pr[2:1] == 2'd1;
  wire msl = pl[2];
  wire msr = pr[2];
  wire hasl = qcl != {QCW{1'b0}};
  wire hasr = qcr != {QCW{1'b0}};
  wire [PB-1:0] ql, qr;
  assign ss = tick && (ssl || ssr);
  assign sspkt = ssl ? {pl[PB-1:12], pl[11] | ssr, pl[10:1], 1'b0} : {pr[PB-1:1], 1'b0};
  assign fire = tick && !ssl && !ssr && (hasl || msl) && (hasr || msr) && room;
  wire [PB-1:0] hl = hasl ? ql : pl;
  wire [PB-1:0] hr = hasr ? qr : pr;
  // The carry of this node's last addition, for the next word of a multi-word addition.
  reg carry;
  wire ncarry;
  cm5ctl_combine #(.W(W), .PB(PB), .AEW(AEW)) u_comb (
    .l(hl), .r(hr), .cin(carry), .o(cpkt), .e(centry), .cout(ncarry));
  always @(posedge clk) if (rst) carry <= 1'b0; else if (fire) carry <= ncarry;
  wire push_l = tick && msl && !(fire && !hasl);
  wire push_r = tick && msr && !(fire && !hasr);
  wire ovl, ovr;
  cm5ctl_fifo #(.WIDTH(PB), .DEPTH(QD), .CW(QCW)) q_l (
    .clk(clk), .rst(rst), .push(push_l), .din(pl), .pop(fire && hasl), .head(ql), .count(qcl), .overflow(ovl));
  cm5ctl_fifo #(.WIDTH(PB), .DEPTH(QD), .CW(QCW)) q_r (
    .clk(clk), .rst(rst), .push(push_r), .din(pr), .pop(fire && hasr), .head(qr), .count(qcr), .overflow(ovr));
  assign overflow = ovl || ovr;
endmodule
`default_nettype wire

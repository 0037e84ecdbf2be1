// A CM-5 control network node (paper, section 5): one binary-tree node with its links, the
// unit the tree is made of (the CM-5 packs three per chip). Up: cm5ctl_upmerge, the combined
// packet or a single-source packet or an idle packet to the parent each up frame; the value a
// combination puts aside waits (AD deep) for the result coming down. A node whose put-aside
// buffer is full, or whose parent's last packet said stop, does not combine. Down: each down
// frame the parent's packet is replicated (single-source, idle) or split with the oldest value
// put aside (multiple-source) into the two children's packets, each carrying the stop bit of
// that child's queue (queue count >= STOP_AT). `fault` (sticky): a queue overflowed or a
// result came down with nothing put aside; neither happens in a correct network.
`default_nettype none
module cm5ctl_node #(
  parameter integer W = 32,
  parameter integer PB = W + 12,
  parameter integer C = 0,        // CRC bits per packet: 0 or 8
  parameter integer WU = 6,
  parameter integer WD = 5,
  parameter integer TU = 8,
  parameter integer TD = 9,
  parameter integer QD = 5,
  parameter integer QCW = 3,
  parameter integer STOP_AT = 2,
  parameter integer AD = 8,
  parameter integer ACW = 4
) (
  input  wire clk,
  input  wire rst,
  input  wire [WU-1:0] up_l,     // from the left child
  input  wire [WU-1:0] up_r,     // from the right child
  output wire [WU-1:0] up_out,   // to the parent
  input  wire [WD-1:0] down_in,  // from the parent
  output wire [WD-1:0] down_l,   // to the left child
  output wire [WD-1:0] down_r,   // to the right child
  output reg  fault,
  output reg  link_error  // sticky: a packet arrived with a wrong CRC (and was taken as idle)
);
  localparam integer AEW = W + 7;
  wire ut, dt;
  cm5ctl_frame #(.T(TU)) fu (.clk(clk), .rst(rst), .last(ut));
  cm5ctl_frame #(.T(TD)) fd (.clk(clk), .rst(rst), .last(dt));
  wire [PB-1:0] pl, pr, pp;
  wire rx_l_crc, rx_r_crc, rx_p_crc;
  cm5ctl_link_rx #(.PB(PB), .C(C), .WIDTH(WU), .T(TU)) rx_l (.clk(clk), .rst(rst), .last(ut), .wires(up_l), .pkt(pl), .crc_err(rx_l_crc));
  cm5ctl_link_rx #(.PB(PB), .C(C), .WIDTH(WU), .T(TU)) rx_r (.clk(clk), .rst(rst), .last(ut), .wires(up_r), .pkt(pr), .crc_err(rx_r_crc));
  cm5ctl_link_rx #(.PB(PB), .C(C), .WIDTH(WD), .T(TD)) rx_p (.clk(clk), .rst(rst), .last(dt), .wires(down_in), .pkt(pp), .crc_err(rx_p_crc));

  reg stop;  // the parent's flow-control bit, from its last packet
  wire [ACW-1:0] acount;
  wire room = acount < AD[ACW-1:0] && !stop;
  wire ss, fire, qovf;
  wire [PB-1:0] sspkt, cpkt;
  wire [AEW-1:0] centry, ahead;
  wire [QCW-1:0] qcl, qcr;
  cm5ctl_upmerge #(.W(W), .PB(PB), .AEW(AEW), .QD(QD), .QCW(QCW)) up (
    .clk(clk), .rst(rst), .tick(ut), .pl(pl), .pr(pr), .room(room), .ss(ss), .sspkt(sspkt),
    .fire(fire), .cpkt(cpkt), .centry(centry), .qcl(qcl), .qcr(qcr), .overflow(qovf));
  cm5ctl_link_tx #(.PB(PB), .C(C), .WIDTH(WU), .T(TU)) tx_up (
    .clk(clk), .rst(rst), .load(ut), .pkt(ss ? sspkt : (fire ? cpkt : {PB{1'b0}})), .wires(up_out));

  wire pmulti = pp[2];
  wire pop = dt && pmulti;
  wire under = acount == {ACW{1'b0}};
  wire aovf;
  cm5ctl_fifo #(.WIDTH(AEW), .DEPTH(AD), .CW(ACW)) aside (
    .clk(clk), .rst(rst), .push(fire && !ss), .din(centry), .pop(pop), .head(ahead), .count(acount),
    .overflow(aovf));
  wire [PB-1:0] sl, sr;
  // The carry of this node's last addition on the way down (multi-word scans).
  reg dcarry;
  wire ndcarry;
  cm5ctl_split #(.W(W), .PB(PB), .AEW(AEW)) split (
    .p(pp), .e(under ? {AEW{1'b0}} : ahead), .under(under), .cin(dcarry), .l(sl), .r(sr), .cout(ndcarry));
  // Above the flow-control bit: the split result, the broadcast replicated, or idle.
  wire [PB-1:1] dl = pmulti ? sl[PB-1:1] : (pp[2:1] == 2'd1 ? pp[PB-1:1] : {(PB-1){1'b0}});
  wire [PB-1:1] dr = pmulti ? sr[PB-1:1] : (pp[2:1] == 2'd1 ? pp[PB-1:1] : {(PB-1){1'b0}});
  cm5ctl_link_tx #(.PB(PB), .C(C), .WIDTH(WD), .T(TD)) tx_l (
    .clk(clk), .rst(rst), .load(dt), .pkt({dl, qcl >= STOP_AT[QCW-1:0]}), .wires(down_l));
  cm5ctl_link_tx #(.PB(PB), .C(C), .WIDTH(WD), .T(TD)) tx_r (
    .clk(clk), .rst(rst), .load(dt), .pkt({dr, qcr >= STOP_AT[QCW-1:0]}), .wires(down_r));

  wire unused = &{1'b0, sl[0], sr[0]};  // flow-control bits: set above, per child
  always @(posedge clk) begin
    if (rst) begin
      stop <= 1'b0;
      dcarry <= 1'b0;
      fault <= 1'b0;
      link_error <= 1'b0;
    end else begin
      if (rx_l_crc || rx_r_crc || rx_p_crc) link_error <= 1'b1;
      if (dt) stop <= pp[0];
      if (pop) dcarry <= ndcarry;
      if (qovf || aovf || (pop && under)) fault <= 1'b1;
    end
  end
endmodule
`default_nettype wire

// The root of a CM-5 control network partition (paper, section 5): where packets turn
// around. Up: as every node (cm5ctl_upmerge), but a single-source packet goes into the
// broadcast queue (BW deep, the broadcasters' end-to-end window; a packet that finds it full is
// dropped and sets the sticky `bcast_drop`), and a combination, with room in the result queue
// (RQ deep), becomes the result to send down: the total for a reduction or a sync OR, the
// identity as the prefix of a scan, with the value put aside. Down: one packet per down frame
// to both children, broadcasts first (single-source packets have priority), then results, split
// as every node does; each carries its child's stop bit.
`default_nettype none
module cm5ctl_root #(
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
  parameter integer BW = 4,
  parameter integer BCW = 3,
  parameter integer RQ = 2,
  parameter integer RCW = 2
) (
  input  wire clk,
  input  wire rst,
  input  wire [WU-1:0] up_l,
  input  wire [WU-1:0] up_r,
  output wire [WD-1:0] down_l,
  output wire [WD-1:0] down_r,
  output reg  fault,
  output reg  bcast_drop,
  output reg  link_error  // sticky: a packet arrived with a wrong CRC (and was taken as idle)
);
  localparam integer AEW = W + 7;
  wire ut, dt;
  cm5ctl_frame #(.T(TU)) fu (.clk(clk), .rst(rst), .last(ut));
  cm5ctl_frame #(.T(TD)) fd (.clk(clk), .rst(rst), .last(dt));
  wire [PB-1:0] pl, pr;
  wire rx_l_crc, rx_r_crc;
  cm5ctl_link_rx #(.PB(PB), .C(C), .WIDTH(WU), .T(TU)) rx_l (.clk(clk), .rst(rst), .last(ut), .wires(up_l), .pkt(pl), .crc_err(rx_l_crc));
  cm5ctl_link_rx #(.PB(PB), .C(C), .WIDTH(WU), .T(TU)) rx_r (.clk(clk), .rst(rst), .last(ut), .wires(up_r), .pkt(pr), .crc_err(rx_r_crc));

  wire [RCW-1:0] rcount;
  wire [BCW-1:0] bcount;
  wire ss, fire, qovf;
  wire [PB-1:0] sspkt, cpkt;
  wire [AEW-1:0] centry;
  wire [QCW-1:0] qcl, qcr;
  cm5ctl_upmerge #(.W(W), .PB(PB), .AEW(AEW), .QD(QD), .QCW(QCW)) up (
    .clk(clk), .rst(rst), .tick(ut), .pl(pl), .pr(pr), .room(rcount < RQ[RCW-1:0]), .ss(ss), .sspkt(sspkt),
    .fire(fire), .cpkt(cpkt), .centry(centry), .qcl(qcl), .qcr(qcr), .overflow(qovf));

  // The result sent down: type multiple-source, no segment flag, the total (reduce, sync) or
  // the identity (scans: nothing comes before the first leaf or after the last).
  wire [1:0] kind = cpkt[4:3];
  wire [2:0] comb = kind == 2'd3 ? 3'd0 : cpkt[7:5];
  wire [W-1:0] id = comb == 3'd2 ? {1'b1, {(W-1){1'b0}}} : {W{1'b0}};
  wire total = kind == 2'd0 || kind == 2'd3;
  wire [PB-1:0] rp = {total ? cpkt[PB-1:12] : id, cpkt[11:10], 1'b0, cpkt[8:3], 2'd2, 1'b0};

  wire bs_push = ss && bcount < BW[BCW-1:0];
  wire bpop = dt && bcount != {BCW{1'b0}};
  wire rpop = dt && !bpop && rcount != {RCW{1'b0}};
  wire [PB-1:0] bhead;
  wire [PB+AEW-1:0] rhead;
  wire bovf, rovf;
  cm5ctl_fifo #(.WIDTH(PB), .DEPTH(BW), .CW(BCW)) bq (
    .clk(clk), .rst(rst), .push(bs_push), .din(sspkt), .pop(bpop), .head(bhead), .count(bcount), .overflow(bovf));
  cm5ctl_fifo #(.WIDTH(PB + AEW), .DEPTH(RQ), .CW(RCW)) rq (
    .clk(clk), .rst(rst), .push(fire), .din({centry, rp}), .pop(rpop), .head(rhead), .count(rcount), .overflow(rovf));
  wire [PB-1:0] sl, sr;
  // The carry of this node's last addition on the way down (multi-word scans).
  reg dcarry;
  wire ndcarry;
  cm5ctl_split #(.W(W), .PB(PB), .AEW(AEW)) split (
    .p(rhead[PB-1:0]), .e(rhead[PB +: AEW]), .under(1'b0), .cin(dcarry), .l(sl), .r(sr), .cout(ndcarry));
  wire [PB-1:1] dl = bpop ? bhead[PB-1:1] : (rpop ? sl[PB-1:1] : {(PB-1){1'b0}});
  wire [PB-1:1] dr = bpop ? bhead[PB-1:1] : (rpop ? sr[PB-1:1] : {(PB-1){1'b0}});
  cm5ctl_link_tx #(.PB(PB), .C(C), .WIDTH(WD), .T(TD)) tx_l (
    .clk(clk), .rst(rst), .load(dt), .pkt({dl, qcl >= STOP_AT[QCW-1:0]}), .wires(down_l));
  cm5ctl_link_tx #(.PB(PB), .C(C), .WIDTH(WD), .T(TD)) tx_r (
    .clk(clk), .rst(rst), .load(dt), .pkt({dr, qcr >= STOP_AT[QCW-1:0]}), .wires(down_r));

  always @(posedge clk) begin
    if (rst) begin
      fault <= 1'b0;
      link_error <= 1'b0;
      bcast_drop <= 1'b0;
      dcarry <= 1'b0;
    end else begin
      if (rx_l_crc || rx_r_crc) link_error <= 1'b1;
      if (rpop) dcarry <= ndcarry;
      if (qovf || rovf) fault <= 1'b1;
      if (ss && !bs_push) bcast_drop <= 1'b1;
    end
  end
  wire unused = &{1'b0, bovf, cpkt[9], cpkt[2:0], sl[0], sr[0], bhead[0]};
endmodule
`default_nettype wire

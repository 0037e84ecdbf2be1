// The root of a CM-5 control network partition (paper, section 5): where packets turn
// around. Up: as every node (cm5ctl_upmerge), but a single-source packet goes into the
// broadcast queue (BW deep, the broadcasters' end-to-end window; a packet that finds it full is
// dropped and sets the sticky `bcast_drop`), and a combination, with room in the result queue
// (RQ deep), becomes the result to send down: the total for a reduction or a sync OR, the
// identity as the prefix of a scan, with the value put aside. Down: one packet per down frame
// to both children, broadcasts first (single-source packets have priority), then results, split
// as every node does; each carries its child's stop bit and the partition's global bits (the
// ORs of what came up last). A flush (a broadcast of kind supervisor, comb 7) empties the
// queues and the results not yet sent down as it goes down (those operations did not complete:
// the leaves send them again after a restart), restores the carry of the last completed
// operation and toggles the flush epoch. OUT_L / OUT_R: that child is mapped out.
`default_nettype none
module cm5ctl_root #(
  parameter integer W = 32,
  parameter integer PB = W + 15,
  parameter integer C = 0,        // CRC bits per packet: 0 or 8
  parameter integer F = 0,        // 1: the CM-5's 65-bit frame on the links (cm5ctl_link_tx.v)
  parameter integer WU = 6,
  parameter integer WD = 5,
  parameter integer TU = 8,
  parameter integer TD = 10,
  parameter integer QD = 5,
  parameter integer QCW = 3,
  parameter integer STOP_AT = 2,
  parameter integer BW = 4,
  parameter integer BCW = 3,
  parameter integer RQ = 2,
  parameter integer RCW = 2,
  parameter integer OUT_L = 0,
  parameter integer OUT_R = 0,
  parameter integer ALIGN = 0,    // 1: send the alignment packet down in cycles 0..4
  parameter integer L = 40,
  parameter integer LPW = 6,
  parameter integer QRAM = 0      // 1: the child queues in block RAM
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
  localparam integer AEW = W + 8;
  wire ut, dt, go, aligned, pat;
  cm5ctl_align #(.EN(ALIGN), .ROOT(1), .L(L), .LPW(LPW)) al (
    .clk(clk), .rst(rst), .wire0(1'b0), .go(go), .aligned(aligned), .pat(pat));
  cm5ctl_frame #(.T(TU)) fu (.clk(clk), .rst(rst), .go(1'b0), .last(ut));
  cm5ctl_frame #(.T(TD)) fd (.clk(clk), .rst(rst), .go(1'b0), .last(dt));
  wire [WD-1:0] patw = {{(WD-1){1'b0}}, pat};
  wire [WD-1:0] txw_l, txw_r;
  assign down_l = txw_l | (OUT_L != 0 ? {WD{1'b0}} : patw);
  assign down_r = txw_r | (OUT_R != 0 ? {WD{1'b0}} : patw);
  wire [PB-1:0] pl, pr;
  wire rx_l_crc, rx_r_crc;
  wire [PB-1:0] pl_e, pr_e;
  cm5ctl_link_rx #(.PB(PB), .C(C), .F(F), .WIDTH(WU), .T(TU)) rx_l (.clk(clk), .rst(rst), .last(ut), .wires(up_l), .pkt(pl), .early(pl_e), .crc_err(rx_l_crc));
  cm5ctl_link_rx #(.PB(PB), .C(C), .F(F), .WIDTH(WU), .T(TU)) rx_r (.clk(clk), .rst(rst), .last(ut), .wires(up_r), .pkt(pr), .early(pr_e), .crc_err(rx_r_crc));

  wire [RCW-1:0] rcount;
  wire [BCW-1:0] bcount;
  wire bempty, bfull, rempty, rfull;
  wire ss, fire, qovf, fcarry, lss, lfire;
  wire [PB-1:0] sspkt, cpkt, lpkt, lpkt2;
  wire [AEW-2:0] centry;
  wire [QCW-1:0] qcl, qcr;
  reg ep, ccarry;
  wire bpop = dt && !bempty;
  wire [PB-1:0] bhead;
  wire flushing = bpop && bhead[7:5] == 3'd7;
  cm5ctl_upmerge #(.W(W), .PB(PB), .AEW(AEW - 1), .QD(QD), .QCW(QCW), .OUT_L(OUT_L), .OUT_R(OUT_R), .QRAM(QRAM)) up (
    .clk(clk), .rst(rst), .tick(ut), .pl(pl), .pr(pr), .pl_e(pl_e), .pr_e(pr_e), .room(!rfull), .ep(ep), .clr(flushing),
    .rcarry(ccarry), .ss(ss), .sspkt(sspkt), .fire(fire), .cpkt(cpkt), .centry(centry), .fcarry(fcarry), .qcl(qcl),
    .qcr(qcr), .overflow(qovf), .lss(lss), .lfire(lfire), .lpkt(lpkt), .lpkt2(lpkt2));

  // The result sent down: type multiple-source, no segment flag, the total (reduce, sync) or
  // the identity (scans: nothing comes before the first leaf or after the last).
  wire [1:0] kind = cpkt[4:3];
  wire [2:0] comb = kind == 2'd3 ? 3'd0 : cpkt[7:5];
  wire [W-1:0] id = comb == 3'd2 ? {1'b1, {(W-1){1'b0}}} : {W{1'b0}};
  wire total = kind == 2'd0 || kind == 2'd3;
  wire [PB-1:0] rp = {total ? cpkt[PB-1:15] : id, 3'b000, cpkt[11:10], 1'b0, cpkt[8:3], 2'd2, 1'b0};

  wire bs_push = ss && !bfull;
  wire rpop = dt && !bpop && !rempty;
  wire [PB+AEW-1:0] rhead;
  wire bovf, rovf;
  cm5ctl_fifo #(.WIDTH(PB), .DEPTH(BW), .CW(BCW)) bq (
    .clk(clk), .rst(rst), .clr(1'b0), .push(bs_push), .din(sspkt), .pop(bpop), .head(bhead), .count(bcount), .empty(bempty), .full(bfull),
    .overflow(bovf));
  cm5ctl_fifo #(.WIDTH(PB + AEW), .DEPTH(RQ), .CW(RCW)) rq (
    .clk(clk), .rst(rst), .clr(flushing), .push(fire), .din({fcarry, centry, rp}), .pop(rpop), .head(rhead),
    .count(rcount), .empty(rempty), .full(rfull), .overflow(rovf));
  wire [PB-1:0] sl, sr;
  // The carry of this node's last addition on the way down (multi-word scans).
  reg dcarry;
  wire ndcarry;
  cm5ctl_split #(.W(W), .PB(PB), .AEW(AEW)) split (
    .p(rhead[PB-1:0]), .e(rhead[PB +: AEW]), .under(1'b0), .cin(dcarry), .l(sl), .r(sr), .cout(ndcarry));
  // The partition's global bits: the ORs of the last good ones from each child and the root's
  // own hard errors, sent down in every packet.
  reg [2:0] gl_r, gr_r;
  wire [2:0] gl = OUT_L != 0 ? 3'b000 : (rx_l_crc ? gl_r : pl[14:12]);
  wire [2:0] gr = OUT_R != 0 ? 3'b000 : (rx_r_crc ? gr_r : pr[14:12]);
  wire [2:0] gdn = gl_r | gr_r | {fault || link_error, 2'b00};
  wire [PB-1:15] dl = bpop ? bhead[PB-1:15] : (rpop ? sl[PB-1:15] : {(PB-15){1'b0}});
  wire [PB-1:15] dr = bpop ? bhead[PB-1:15] : (rpop ? sr[PB-1:15] : {(PB-15){1'b0}});
  wire [11:1] hl = bpop ? bhead[11:1] : (rpop ? sl[11:1] : 11'd0);
  wire [11:1] hr = bpop ? bhead[11:1] : (rpop ? sr[11:1] : 11'd0);
  wire [PB-1:0] pkl = OUT_L != 0 ? {PB{1'b0}} : {dl, gdn, hl, qcl >= STOP_AT[QCW-1:0]};
  wire [PB-1:0] pkr = OUT_R != 0 ? {PB{1'b0}} : {dr, gdn, hr, qcr >= STOP_AT[QCW-1:0]};
  cm5ctl_link_tx #(.PB(PB), .C(C), .F(F), .WIDTH(WD), .T(TD)) tx_l (
    .clk(clk), .rst(rst), .load(dt), .pkt(pkl), .late({PB{1'b0}}), .late2({PB{1'b0}}), .wires(txw_l));
  cm5ctl_link_tx #(.PB(PB), .C(C), .F(F), .WIDTH(WD), .T(TD)) tx_r (
    .clk(clk), .rst(rst), .load(dt), .pkt(pkr), .late({PB{1'b0}}), .late2({PB{1'b0}}), .wires(txw_r));

  always @(posedge clk) begin
    if (rst) begin
      fault <= 1'b0;
      link_error <= 1'b0;
      bcast_drop <= 1'b0;
      dcarry <= 1'b0;
      ep <= 1'b0;
      ccarry <= 1'b0;
      gl_r <= 3'b000;
      gr_r <= 3'b000;
    end else begin
      if ((rx_l_crc && OUT_L == 0) || (rx_r_crc && OUT_R == 0)) link_error <= 1'b1;
      if (ut) begin
        gl_r <= gl;
        gr_r <= gr;
      end
      if (flushing) ep <= !ep;
      if (rpop) begin
        dcarry <= ndcarry;
        ccarry <= rhead[PB + AEW - 1];
      end
      if (qovf || rovf) fault <= 1'b1;
      if (ss && !bs_push) bcast_drop <= 1'b1;
    end
  end
  wire unused = &{1'b0, go, aligned, rcount, bcount, lss, lfire, lpkt, lpkt2, bovf, cpkt[14:12], cpkt[9], cpkt[2:0], sl[0], sr[0], sl[14:12], sr[14:12], bhead[14:12],
                  bhead[0]};
endmodule
`default_nettype wire

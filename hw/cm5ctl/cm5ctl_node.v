// A CM-5 control network node (paper, section 5): one binary-tree node with its links, the
// unit the tree is made of (cm5ctl_chip packs three). Up: cm5ctl_upmerge, the combined
// packet or a single-source packet or an idle packet to the parent each up frame; the value a
// combination puts aside waits (AD deep) for the result coming down. A node whose put-aside
// buffer is full, or whose parent's last packet said stop, does not combine. Down: each down
// frame the parent's packet is replicated (single-source, idle) or split with the oldest value
// put aside (multiple-source) into the two children's packets, each carrying the stop bit of
// that child's queue (queue count >= STOP_AT).
// Global bits (14:12: asynchronous OR 0, asynchronous OR 1 (privileged), hard-error OR): every
// up packet carries the OR of what the children's last good packets carried (and this node's
// own hard errors); every down packet carries the parent's (the partition's ORs).
// Flush (a single-source packet, kind supervisor, comb 7, coming down): the node empties its
// queues and put-aside buffer, restores the carry of its last completed operation and toggles
// its flush epoch (bit 0 of what it sends up), so that packets sent up before its children saw
// the flush are dropped. OUT_L / OUT_R: that child is mapped out (ignored; sent idle packets).
// `fault` (sticky): a queue overflowed or a result came down with nothing put aside; neither
// happens in a correct network.
// Registered decisions (frames of 2 cycles or more): in a frame's last cycle the node decides
// and sends the first chunk of each outgoing packet; the adders work in the next cycle, on what
// it latched, and give the rest of the packet while the first chunk is on the wires
// (cm5ctl_link_tx LATE). The wires carry the same chunks in the same cycles: no hop gets longer.
// Where the word starts in the third chunk or later (the CM-5's links: the third going up, the
// fourth going down), the arithmetic takes two cycles (cm5ctl_alu2: carry-select, chains of
// W/2 bits): the overflow bit and the kept carries in the first, the word in the second, sent
// from the third chunk on (cm5ctl_link_tx K2); the way down has its operands decoded and
// folded at the decision, as the way up has. Again the same chunks in the same cycles.
`default_nettype none
module cm5ctl_node #(
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
  parameter integer AD = 8,
  parameter integer ACW = 4,
  parameter integer OUT_L = 0,
  parameter integer OUT_R = 0,
  parameter integer ALIGN = 0,    // 1: frames start from the alignment packet (cm5ctl_align.v)
  parameter integer L = 40,       // lcm(TU, TD)
  parameter integer LPW = 6,
  parameter integer QRAM = 0      // 1: the child queues in block RAM
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
  localparam integer AEW = W + 8;  // put-aside entry: the combine's W + 7 bits and the carry
  localparam integer LATE = TU > 1 && TD > 1 ? 1 : 0;
  // The first chunk holding a bit of the word (cm5ctl_link_tx.v: bit 15 on, or the CM-5's
  // frame, whose word starts in the third chunk), up and down; from the third chunk on, the
  // word is computed over two cycles.
  localparam integer KU = F != 0 ? 2 : 15 / WU;
  localparam integer KD = F != 0 ? 2 : 15 / WD;
  localparam integer PIPEU = LATE != 0 && TU > 2 && KU >= 2 ? 1 : 0;
  localparam integer PIPED = LATE != 0 && TD > 2 && KD >= 2 ? 1 : 0;
  // Links without a CRC, frames of 2 cycles or more: what the decisions read of the packets'
  // first chunks (type up; type and combiner down: a flush) is registered a cycle ahead
  // (cm5ctl_link_rx `early`), where those bits are not in the last chunk.
  localparam integer EARLYU = C == 0 && F == 0 && TU >= 2 && 2 / WU <= TU - 2 ? 1 : 0;
  localparam integer EARLYD = C == 0 && F == 0 && TD >= 2 && 7 / WD <= TD - 2 ? 1 : 0;
  wire ut, dt, go, aligned, pat;
  cm5ctl_align #(.EN(ALIGN), .ROOT(0), .L(L), .LPW(LPW)) al (
    .clk(clk), .rst(rst), .wire0(down_in[0]), .go(go), .aligned(aligned), .pat(pat));
  cm5ctl_frame #(.T(TU), .ALIGN(ALIGN)) fu (.clk(clk), .rst(rst), .go(go), .last(ut));
  cm5ctl_frame #(.T(TD), .ALIGN(ALIGN)) fd (.clk(clk), .rst(rst), .go(go), .last(dt));
  // The alignment packet goes on to the children (those in use) on wire 0.
  wire [WD-1:0] patw = {{(WD-1){1'b0}}, pat};
  wire [WD-1:0] txw_l, txw_r;
  assign down_l = txw_l | (OUT_L != 0 ? {WD{1'b0}} : patw);
  assign down_r = txw_r | (OUT_R != 0 ? {WD{1'b0}} : patw);
  wire [PB-1:0] pl, pr, pp, pl_e, pr_e, pp_e;
  wire rx_l_crc, rx_r_crc, rx_p_crc;
  cm5ctl_link_rx #(.PB(PB), .C(C), .F(F), .WIDTH(WU), .T(TU)) rx_l (.clk(clk), .rst(rst), .last(ut), .wires(up_l), .pkt(pl), .early(pl_e), .crc_err(rx_l_crc));
  cm5ctl_link_rx #(.PB(PB), .C(C), .F(F), .WIDTH(WU), .T(TU)) rx_r (.clk(clk), .rst(rst), .last(ut), .wires(up_r), .pkt(pr), .early(pr_e), .crc_err(rx_r_crc));
  cm5ctl_link_rx #(.PB(PB), .C(C), .F(F), .WIDTH(WD), .T(TD)) rx_p (.clk(clk), .rst(rst), .last(dt), .wires(down_in), .pkt(pp), .early(pp_e), .crc_err(rx_p_crc));

  reg stop;  // the parent's flow-control bit, from its last packet
  reg ep;    // flush epoch
  reg ccarry;  // the up carry after the last operation completed here (restored by a flush)
  wire flushing;
  generate
    if (EARLYD != 0) begin : g_fl_early
      reg fl;  // pp a flush, as it will be (valid when dt)
      always @(posedge clk) fl <= pp_e[2:1] == 2'd1 && pp_e[7:5] == 3'd7;
      assign flushing = dt && fl;
    end else begin : g_fl_now
      assign flushing = dt && pp[2:1] == 2'd1 && pp[7:5] == 3'd7;
    end
  endgenerate
  wire [ACW-1:0] acount;
  wire aempty, afull;
  wire room = !afull && !stop;
  wire ss, fire, qovf, fcarry, lss, lfire;
  wire [PB-1:0] sspkt, cpkt, lpkt, lpkt2;
  wire [AEW-2:0] centry;
  wire [AEW-1:0] ahead;
  wire [QCW-1:0] qcl, qcr;
  cm5ctl_upmerge #(.W(W), .PB(PB), .AEW(AEW - 1), .QD(QD), .QCW(QCW), .OUT_L(OUT_L), .OUT_R(OUT_R), .QRAM(QRAM),
                 .LATE(LATE), .PIPE(PIPEU), .EARLY(EARLYU),
                 .HPRE(LATE != 0 && EARLYU != 0 && TU >= 3 ? 1 : 0)) up (
    .clk(clk), .rst(rst), .tick(ut), .pl(pl), .pr(pr), .pl_e(pl_e), .pr_e(pr_e), .room(room), .ep(ep), .clr(flushing), .rcarry(ccarry),
    .ss(ss), .sspkt(sspkt), .fire(fire), .cpkt(cpkt), .centry(centry), .fcarry(fcarry), .qcl(qcl), .qcr(qcr),
    .overflow(qovf), .lss(lss), .lfire(lfire), .lpkt(lpkt), .lpkt2(lpkt2));
  // The global bits: the last good ones from each child, ORed with this node's hard errors.
  reg [2:0] gl_r, gr_r, gp_r;
  wire [2:0] gl = OUT_L != 0 ? 3'b000 : (rx_l_crc ? gl_r : pl[14:12]);
  wire [2:0] gr = OUT_R != 0 ? 3'b000 : (rx_r_crc ? gr_r : pr[14:12]);
  wire [2:0] gp = rx_p_crc ? gp_r : pp[14:12];
  wire [2:0] gup = gl | gr | {fault || link_error, 2'b00};
  wire [PB-1:0] upk = ss ? sspkt : (fire ? cpkt : {PB{1'b0}});
  // gup and ep as the tick saw them, for the rest of the packet (with a CRC, over all of it).
  reg [2:0] gup_r;
  reg ep_r;
  wire [2:0] lgup = LATE != 0 ? gup_r : gup;
  wire lep = LATE != 0 ? ep_r : ep;
  cm5ctl_link_tx #(.PB(PB), .C(C), .F(F), .WIDTH(WU), .T(TU), .LATE(LATE), .K2(PIPEU != 0 ? KU : 0),
                  .FIRST(PIPEU)) tx_up (
    .clk(clk), .rst(rst), .load(ut), .pkt({upk[PB-1:15], gup, upk[11:1], ep}),
    .late({lpkt[PB-1:15], lgup, lpkt[11:1], lep}), .late2({lpkt2[PB-1:15], lgup, lpkt2[11:1], lep}), .wires(up_out));

  wire pmulti = pp[2];
  wire pop = dt && pmulti;
  wire under = aempty;
  wire aovf;
  cm5ctl_fifo #(.WIDTH(AEW), .DEPTH(AD), .CW(ACW)) aside (
    .clk(clk), .rst(rst), .clr(flushing), .push(lfire && !lss), .din({fcarry, centry}), .pop(pop), .head(ahead),
    .count(acount), .empty(aempty), .full(afull), .overflow(aovf));
  // The way down, from the parent's packet and the oldest put-aside value: g_dn[0] as they are
  // in the frame's last cycle (all of it with LATE = 0, else the first chunk), g_dn[1] as
  // latched then (the rest, a cycle later).
  reg [PB-1:0] pp_r;
  reg [AEW-1:0] e_r;
  reg under_r, pop_r;
  reg [1:0] stop_r;  // the stop bits as sent in the first chunk
  wire [AEW-1:0] e_now = under ? {AEW{1'b0}} : ahead;
  // The carry of this node's last addition on the way down (multi-word scans).
  reg dcarry;
  genvar k;
  generate
    for (k = 0; k < 2; k = k + 1) begin : g_dn
      wire [PB-1:0] p = k == 0 ? pp : pp_r;
      wire multi = p[2];
      wire bcast = p[2:1] == 2'd1;
      wire [2:0] g = k == 0 ? gp : gp_r;
      wire [PB-1:0] sl, sr;
      wire cout;
      cm5ctl_split #(.W(W), .PB(PB), .AEW(AEW)) split (
        .p(p), .e(k == 0 ? e_now : e_r), .under(k == 0 ? under : under_r), .cin(dcarry), .l(sl), .r(sr), .cout(cout));
      // Above the global bits: the split result, the broadcast replicated, or idle.
      wire [PB-1:15] dl = multi ? sl[PB-1:15] : (bcast ? p[PB-1:15] : {(PB-15){1'b0}});
      wire [PB-1:15] dr = multi ? sr[PB-1:15] : (bcast ? p[PB-1:15] : {(PB-15){1'b0}});
      wire [11:1] hl = multi ? sl[11:1] : (bcast ? p[11:1] : 11'd0);
      wire [11:1] hr = multi ? sr[11:1] : (bcast ? p[11:1] : 11'd0);
      wire [1:0] st = k == 0 ? {qcr >= STOP_AT[QCW-1:0], qcl >= STOP_AT[QCW-1:0]} : stop_r;
      wire [PB-1:0] pkl = OUT_L != 0 ? {PB{1'b0}} : {dl, g, hl, st[0]};
      wire [PB-1:0] pkr = OUT_R != 0 ? {PB{1'b0}} : {dr, g, hr, st[1]};
      wire unused = &{1'b0, pkl, pkr, cout, sl[0], sr[0], sl[14:12], sr[14:12]};  // one of the two unused
    end
  endgenerate
  localparam integer LD = LATE != 0 ? 1 : 0;  // which of g_dn gives the rest of the packet
  wire dpop = LATE != 0 ? pop_r : pop;
  // PIPED: the split's arithmetic over two cycles. At the decision, its operands decoded (the
  // parent's word and the put-aside value; a segment cut passes the latter) and which child
  // gets the result, which the parent's word (the adder's first operand, as it took it); the
  // cycle after, the kept carry; the cycle after that, the word (late2, with g_dn[1]'s header).
  wire [1:0] nkind = pp[4:3];
  wire ncut = pp[8] && e_now[6];
  wire [W-1:0] nev = e_now[7 +: W];
  reg dscan, dres_l, dres_r, dpar_l, dpar_r;
  always @(posedge clk)
    if (dt) begin
      dscan <= nkind == 2'd1 || nkind == 2'd2;
      dres_l <= pmulti && nkind == 2'd2;
      dres_r <= pmulti && nkind == 2'd1;
      dpar_l <= pmulti ? nkind != 2'd2 : pp[2:1] == 2'd1;
      dpar_r <= pmulti ? nkind != 2'd1 : pp[2:1] == 2'd1;
    end
  wire [W-1:0] dy, dpv;
  wire dcout, dovf;
  wire ndcarry;
  wire [PB-1:0] pkl2, pkr2;
  generate
    if (PIPED != 0) begin : g_dpipe
      cm5ctl_alu2 #(.W(W)) alu (
        .clk(clk), .load(dt), .live(1'b1), .pass(ncut), .comb(nkind == 2'd3 ? 3'd0 : pp[7:5]), .a(pp[15 +: W]),
        .b(nev), .cin(dcarry), .ovf(dovf), .cout(dcout), .a_r(dpv), .y(dy));
      assign ndcarry = dscan && dcout;
      wire [W-1:0] wl = dres_l ? dy : (dpar_l ? dpv : {W{1'b0}});
      wire [W-1:0] wr = dres_r ? dy : (dpar_r ? dpv : {W{1'b0}});
      assign pkl2 = OUT_L != 0 ? {PB{1'b0}} : {wl, g_dn[1].pkl[14:0]};
      assign pkr2 = OUT_R != 0 ? {PB{1'b0}} : {wr, g_dn[1].pkr[14:0]};
      wire unused = &{1'b0, dovf};
    end else begin : g_done
      assign dy = {W{1'b0}};
      assign dpv = {W{1'b0}};
      assign {dcout, dovf} = 2'b00;
      assign ndcarry = g_dn[LD].cout;
      assign pkl2 = g_dn[LD].pkl;
      assign pkr2 = g_dn[LD].pkr;
      wire unused = &{1'b0, ncut, nev, dscan, dres_l, dres_r, dpar_l, dpar_r, dy, dpv, dcout, dovf};
    end
  endgenerate
  cm5ctl_link_tx #(.PB(PB), .C(C), .F(F), .WIDTH(WD), .T(TD), .LATE(LATE), .K2(PIPED != 0 ? KD : 0)) tx_l (
    .clk(clk), .rst(rst), .load(dt), .pkt(g_dn[0].pkl), .late(g_dn[LD].pkl), .late2(pkl2), .wires(txw_l));
  cm5ctl_link_tx #(.PB(PB), .C(C), .F(F), .WIDTH(WD), .T(TD), .LATE(LATE), .K2(PIPED != 0 ? KD : 0)) tx_r (
    .clk(clk), .rst(rst), .load(dt), .pkt(g_dn[0].pkr), .late(g_dn[LD].pkr), .late2(pkr2), .wires(txw_r));

  wire unused = &{1'b0, aligned, acount, pp_e, upk[14:12], upk[0], lss, lfire, lpkt[14:12], lpkt[0], lpkt2[14:12], lpkt2[0]};
  always @(posedge clk) begin
    if (rst) begin
      stop <= 1'b0;
      ep <= 1'b0;
      ccarry <= 1'b0;
      dcarry <= 1'b0;
      fault <= 1'b0;
      link_error <= 1'b0;
      gl_r <= 3'b000;
      gr_r <= 3'b000;
      gp_r <= 3'b000;
      gup_r <= 3'b000;
      ep_r <= 1'b0;
      stop_r <= 2'b00;
      pp_r <= {PB{1'b0}};
      e_r <= {AEW{1'b0}};
      under_r <= 1'b0;
      pop_r <= 1'b0;
    end else begin
      pop_r <= pop;
      if (ut) begin
        gup_r <= gup;
        ep_r <= ep;
      end
      if (dt) begin
        stop_r <= g_dn[0].st;
        pp_r <= pp;
        e_r <= e_now;
        under_r <= under;
      end
      if ((rx_l_crc && OUT_L == 0) || (rx_r_crc && OUT_R == 0) || rx_p_crc) link_error <= 1'b1;
      if (ut) begin
        gl_r <= gl;
        gr_r <= gr;
      end
      if (dt) begin
        gp_r <= gp;
        stop <= pp[0];
      end
      if (flushing) ep <= !ep;
      if (pop && !under) ccarry <= ahead[AEW-1];
      if (dpop) dcarry <= ndcarry;
      if (qovf || aovf || (pop && under)) fault <= 1'b1;
    end
  end
endmodule
`default_nettype wire

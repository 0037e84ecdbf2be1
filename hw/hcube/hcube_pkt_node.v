// One node's chip of the packet scheme (the seed-004 paper, section 5; the reference model is
// sim/hcube/hcube_packet_model.cpp and this follows its tick order cycle for cycle):
//   - N output ports, each with B packet buffers of P bytes, a queue of the buffers whose
//     packets wait for the channel (oldest first) and a sender (hcube_link_tx);
//   - admission of the packets its N neighbours want to send here: in the order of the
//     neighbours' node numbers, each idle neighbour port gets its oldest packet whose next port
//     here has a free buffer (or that ends here), and the buffer is reserved at once;
//   - the source: the head of the node's message queue starts on a port not taking another of
//     its messages (fixed: the e-cube port; QUASI: the productive one with the fewest buffers
//     in use), and every port taking a message takes one packet per cycle while it has a free
//     buffer; with RULE, a contrary packet (a first hop other than e-cube's) only while fewer than
//     B - 1 buffers of the port hold contrary packets (the paper's deadlock-avoidance rule);
//   - ejection: the bytes of packets arriving here go out by incoming dimension;
//   - counters per port: packets, first packets (messages), bytes, blocked cycles.
// A cycle's order: transfers ending now free their buffer; packets whose destination bytes
// arrive now join their queue; admission (starts); the source. Packet metadata (bytes on the wire,
// first, destination) travels beside the bytes when a transfer starts.
`default_nettype none
module hcube_pkt_node #(
    parameter integer N     = 3,   // dimensions
    parameter integer NODE  = 0,   // this node's number
    parameter integer B     = 16,  // buffers per output port
    parameter integer P     = 20,  // bytes per packet
    parameter integer A     = 4,   // arbitration cycles per transfer
    parameter integer T     = 2,   // cycles per byte
    parameter integer QUASI = 0,
    parameter integer RULE  = 1,
    parameter integer DB    = 2,   // bits of a dimension or N (N = "ends here")
    parameter integer SB    = 4,   // bits of a buffer index
    parameter integer QB    = 5,   // bits of a count 0..B
    parameter integer WL    = 5,   // bits of a byte count 0..P
    parameter integer TW    = 16,  // bits of a message tag
    parameter integer KW    = 16,  // bits of a packet index in a message
    parameter integer CSW   = 4,   // bits of a counter select (4N counters)
    parameter integer CW    = 16,  // bits of a channel's cycle counter
    parameter [N*DB-1:0] ORDER = 0 // incoming dimensions by their sender's node number, first in [DB-1:0]
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              en,    // clock enable: every register holds while it is low
    // outgoing channel d, to NODE ^ 2^d
    output wire [N-1:0]      o_hdr,
    output wire [N-1:0]      o_bvalid,
    output wire [N-1:0]      o_end,
    output wire [N*8-1:0]    o_byte,
    output wire [N*WL-1:0]   o_k,
    output reg  [N*WL-1:0]   o_w,
    output reg  [N-1:0]      o_first,
    output reg  [N*N-1:0]    o_dst,
    output wire [N-1:0]      o_free,
    output reg  [N*QB-1:0]   o_qlen,
    output reg  [N*B*DB-1:0] o_qnd,
    input  wire [N-1:0]      o_grant,
    input  wire [N*SB-1:0]   o_gidx,
    // incoming channel d, from NODE ^ 2^d: that neighbour's outgoing channel d
    input  wire [N-1:0]      i_hdr,
    input  wire [N-1:0]      i_bvalid,
    input  wire [N-1:0]      i_end,
    input  wire [N*8-1:0]    i_byte,
    input  wire [N*WL-1:0]   i_k,
    input  wire [N*WL-1:0]   i_w,
    input  wire [N-1:0]      i_first,
    input  wire [N*N-1:0]    i_dst,
    input  wire [N-1:0]      i_free,
    input  wire [N*QB-1:0]   i_qlen,
    input  wire [N*B*DB-1:0] i_qnd,
    output reg  [N-1:0]      i_grant,
    output reg  [N*SB-1:0]   i_gidx,
    // ejection, by incoming dimension
    output wire [N-1:0]      ej_bvalid,
    output wire [N-1:0]      ej_end,
    output wire [N*8-1:0]    ej_byte,
    // the head of the message queue (src_valid: there is one and it has been generated)
    input  wire              src_valid,
    input  wire [N-1:0]      src_dst,
    input  wire [TW-1:0]     src_tag,
    input  wire [KW-1:0]     src_npk,
    input  wire [P*8-1:0]    src_pkt,
    input  wire [WL-1:0]     src_w,
    output reg               src_take,
    // the message each port is taking and its next packet (registered), and that packet
    output wire [N-1:0]      fd_active,
    output wire [N*TW-1:0]   fd_tag,
    output wire [N*KW-1:0]   fd_k,
    input  wire [N*P*8-1:0]  fd_pkt,
    input  wire [N*WL-1:0]   fd_w,
    // counters: select port * 4 + (0 packets, 1 messages, 2 bytes, 3 blocked cycles)
    input  wire              clear,
    input  wire [CSW-1:0]    cnt_sel,
    output wire [31:0]       cnt_value
);
  localparam integer NB = N * B;

  // The lowest dimension in which a and b differ; N when they are equal.
  function [DB-1:0] ecube;
    input [N-1:0] a, b;
    integer f;
    begin
      ecube = N[DB-1:0];
      for (f = N - 1; f >= 0; f = f - 1)
        if (a[f] != b[f]) ecube = f[DB-1:0];
    end
  endfunction

  // Index of buffer s of port p in the per-buffer arrays, and a dimension as an integer.
  function integer bi;
    input integer p;
    input [SB-1:0] s;
    bi = p * B + {{(32 - SB){1'b0}}, s};
  endfunction
  function integer ord;  // the o-th incoming dimension in admission order
    input integer o;
    ord = {{(32 - DB){1'b0}}, ORDER[o*DB +: DB]};
  endfunction
  function [N-1:0] flip;  // this node's neighbour in dimension d
    input integer d;
    flip = NODE[N-1:0] ^ ({{(N-1){1'b0}}, 1'b1} << d);
  endfunction
  function integer si;
    input [SB-1:0] v;
    si = {{(32 - SB){1'b0}}, v};
  endfunction
  function integer di;
    input [DB-1:0] d;
    di = {{(32 - DB){1'b0}}, d};
  endfunction

  // Registered state.
  reg  [SB-1:0]  q      [0:NB-1];  // port p's queue: q[p*B + i], oldest first
  reg  [QB-1:0]  qlen   [0:N-1];
  reg  [B-1:0]   held   [0:N-1];   // buffers reserved or holding a packet
  reg  [QB-1:0]  used   [0:N-1];
  reg  [QB-1:0]  ccnt   [0:N-1];   // buffers holding contrary packets
  reg  [WL-1:0]  sw     [0:NB-1];  // per buffer: bytes on the wire
  reg  [NB-1:0]  sfirst, scontr;
  reg  [N-1:0]   sdst   [0:NB-1];
  reg  [DB-1:0]  snd    [0:NB-1];  // the next node's port it goes to (N: it ends there)
  reg  [P*8-1:0] mem    [0:NB-1];
  reg  [SB-1:0]  txslot [0:N-1];   // the buffer a port is sending
  reg  [DB-1:0]  rxport [0:N-1];   // where incoming channel d's packet goes (N: ends here)
  reg  [SB-1:0]  rxslot [0:N-1];
  reg  [N-1:0]   fa, fcontr;       // feeders: active, contrary
  reg  [TW-1:0]  ftag   [0:N-1];
  reg  [KW-1:0]  fk     [0:N-1];
  reg  [KW-1:0]  fnpk   [0:N-1];
  reg  [N-1:0]   fdst   [0:N-1];
  // Writes a cycle late (nothing reads them sooner): a reserved buffer's metadata (read once its
  // header bytes arrive, A + 2T cycles on) and an injected packet's bytes (sent A + T on at the
  // earliest), so the admission's result does not drive their many write enables.
  reg  [N-1:0]   rxpend;           // incoming channel d reserved a buffer last cycle
  reg  [WL-1:0]  rxw    [0:N-1];   // and what the sender said of its packet then
  reg  [N-1:0]   rxfirst;
  reg  [N-1:0]   rxdst  [0:N-1];
  reg  [N-1:0]   injpend;          // port d took a packet from the source last cycle
  reg  [SB-1:0]  injslot_r [0:N-1];
  reg  [P*8-1:0] injpkt [0:N-1];

  // The senders.
  wire [N-1:0]    txfree, txend;
  wire [N*WL-1:0] txk;
  genvar gd;
  generate
    for (gd = 0; gd < N; gd = gd + 1) begin : g_tx
      hcube_link_tx #(.A(A), .T(T), .WL(WL), .CW(CW)) u_tx (
          .clk     (clk),
          .rst     (rst),
          .en      (en),
          .start   (o_grant[gd]),
          .w       (o_w[gd*WL +: WL]),
          .free    (txfree[gd]),
          .hdr_now (o_hdr[gd]),
          .byte_now(o_bvalid[gd]),
          .k       (txk[gd*WL +: WL]),
          .end_now (txend[gd]));
      assign o_byte[gd*8 +: 8] = mem[bi(gd, txslot[gd])][8*{{(32 - WL){1'b0}}, txk[gd*WL +: WL]} +: 8];
    end
  endgenerate
  assign o_end   = txend;
  assign o_k     = txk;
  assign o_free  = txfree;

  // Stage 1: the queues with this cycle's arrivals (by sender order), as the neighbours see them.
  reg [SB-1:0] qe   [0:NB-1];
  reg [QB-1:0] qel  [0:N-1];
  integer p1, i1, o1;
  always @* begin
    for (p1 = 0; p1 < N; p1 = p1 + 1) begin
      qel[p1] = qlen[p1];
      for (i1 = 0; i1 < B; i1 = i1 + 1) qe[p1*B + i1] = q[p1*B + i1];
      for (o1 = 0; o1 < N; o1 = o1 + 1)
        if (i_hdr[ord(o1)] && rxport[ord(o1)] == p1[DB-1:0]) begin
          qe[p1*B + {{(32 - QB){1'b0}}, qel[p1]}] = rxslot[ord(o1)];
          qel[p1] = qel[p1] + 1'b1;
        end
      o_qlen[p1*QB +: QB] = qel[p1];
      for (i1 = 0; i1 < B; i1 = i1 + 1) o_qnd[(p1*B + i1)*DB +: DB] = snd[bi(p1, qe[p1*B + i1])];
    end
  end

  // Stage 2: admission of the neighbours' packets, then the source; buffers taken in order.
  reg [QB-1:0] ue [0:N-1];
  reg [B-1:0]  fe [0:N-1];    // free buffers
  reg [QB-1:0] ce [0:N-1];
  reg [DB-1:0] rsv_port [0:N-1];
  reg [SB-1:0] rsv_slot [0:N-1];
  reg [N-1:0]  fnew, inj, injcontr;
  reg [SB-1:0] injslot [0:N-1];
  reg          newcontr;
  reg [DB-1:0] e2, dim2, nd2;
  reg          found;
  reg [SB-1:0] pick;
  integer p2, o2, j2, i2, s2, d2;
  reg [DB-1:0] cand;
  always @* begin
    cand = {DB{1'b0}};
    fnew = {N{1'b0}};
    newcontr = 1'b0;
    e2 = N[DB-1:0];
    dim2 = N[DB-1:0];
    inj = {N{1'b0}};
    injcontr = {N{1'b0}};
    for (p2 = 0; p2 < N; p2 = p2 + 1) begin
      ue[p2] = used[p2] - {{(QB-1){1'b0}}, txend[p2]};
      fe[p2] = ~held[p2];
      if (txend[p2]) fe[p2][si(txslot[p2])] = 1'b1;
      ce[p2] = ccnt[p2] - {{(QB-1){1'b0}}, txend[p2] & scontr[bi(p2, txslot[p2])]};
      rsv_port[p2] = N[DB-1:0];
      rsv_slot[p2] = {SB{1'b0}};
      injslot[p2] = {SB{1'b0}};
    end
    i_grant = {N{1'b0}};
    i_gidx = {N*SB{1'b0}};
    for (o2 = 0; o2 < N; o2 = o2 + 1) begin
      j2 = ord(o2);
      found = 1'b0;
      pick = {SB{1'b0}};
      nd2 = N[DB-1:0];
      if (i_free[j2]) begin
        for (i2 = 0; i2 < B; i2 = i2 + 1)
          if (!found && i2 < {{(32 - QB){1'b0}}, i_qlen[j2*QB +: QB]}) begin
            cand = i_qnd[(j2*B + i2)*DB +: DB];
            if (cand == N[DB-1:0] || ue[di(cand)] < B[QB-1:0]) begin
              found = 1'b1;
              pick = i2[SB-1:0];
              nd2 = cand;
            end
          end
      end
      if (found) begin
        i_grant[j2] = 1'b1;
        i_gidx[j2*SB +: SB] = pick;
        rsv_port[j2] = nd2;
        if (nd2 != N[DB-1:0]) begin
          for (s2 = B - 1; s2 >= 0; s2 = s2 - 1)
            if (fe[di(nd2)][s2]) rsv_slot[j2] = s2[SB-1:0];
          fe[di(nd2)][si(rsv_slot[j2])] = 1'b0;
          ue[di(nd2)] = ue[di(nd2)] + 1'b1;
        end
      end
    end
    // The head of the message queue.
    src_take = 1'b0;
    fnew = {N{1'b0}};
    newcontr = 1'b0;
    e2 = ecube(NODE[N-1:0], src_dst);
    dim2 = N[DB-1:0];
    if (src_valid && e2 != N[DB-1:0]) begin
      if (!fa[di(e2)]) dim2 = e2;
      if (QUASI != 0)
        for (d2 = 0; d2 < N; d2 = d2 + 1)
          if ((NODE[d2] != src_dst[d2]) && !fa[d2] && (dim2 == N[DB-1:0] || ue[d2] < ue[di(dim2)])) dim2 = d2[DB-1:0];
      if (dim2 != N[DB-1:0]) begin
        src_take = 1'b1;
        fnew[di(dim2)] = 1'b1;
        newcontr = dim2 != e2;
      end
    end
    // Every port taking a message takes a packet of it.
    inj = {N{1'b0}};
    injcontr = {N{1'b0}};
    for (d2 = 0; d2 < N; d2 = d2 + 1) begin
      injcontr[d2] = fnew[d2] ? newcontr : fcontr[d2];
      if ((fa[d2] || fnew[d2]) && ue[d2] < B[QB-1:0] &&
          (!injcontr[d2] || RULE == 0 || ce[d2] < B[QB-1:0] - 1'b1)) begin
        inj[d2] = 1'b1;
        for (s2 = B - 1; s2 >= 0; s2 = s2 - 1)
          if (fe[d2][s2]) injslot[d2] = s2[SB-1:0];
        fe[d2][si(injslot[d2])] = 1'b0;
        ue[d2] = ue[d2] + 1'b1;
        if (injcontr[d2]) ce[d2] = ce[d2] + 1'b1;
      end
    end
  end

  // Stage 3: what each granted port sends.
  reg [SB-1:0] pslot [0:N-1];
  integer p3;
  always @* begin
    for (p3 = 0; p3 < N; p3 = p3 + 1) begin
      pslot[p3] = qe[bi(p3, o_gidx[p3*SB +: SB])];
      o_w[p3*WL +: WL] = sw[bi(p3, pslot[p3])];
      o_first[p3] = sfirst[bi(p3, pslot[p3])];
      o_dst[p3*N +: N] = sdst[bi(p3, pslot[p3])];
    end
  end

  // Stage 4: the queues' next contents: the granted entry out, the injected packet in at the tail.
  reg [SB-1:0] qn  [0:NB-1];
  reg [QB-1:0] qnl [0:N-1];
  integer p6, i6;
  always @* begin
    for (p6 = 0; p6 < N; p6 = p6 + 1) begin
      qnl[p6] = {QB{1'b0}};
      for (i6 = 0; i6 < B; i6 = i6 + 1) qn[p6*B + i6] = {SB{1'b0}};
      for (i6 = 0; i6 < B; i6 = i6 + 1)
        if (i6 < {{(32 - QB){1'b0}}, qel[p6]} && !(o_grant[p6] && i6[SB-1:0] == o_gidx[p6*SB +: SB])) begin
          qn[p6*B + {{(32 - QB){1'b0}}, qnl[p6]}] = qe[p6*B + i6];
          qnl[p6] = qnl[p6] + 1'b1;
        end
      if (inj[p6]) begin
        qn[p6*B + {{(32 - QB){1'b0}}, qnl[p6]}] = injslot[p6];
        qnl[p6] = qnl[p6] + 1'b1;
      end
    end
  end

  // Registers.
  integer p4, i4;
  always @(posedge clk) begin
    if (rst) begin
      for (p4 = 0; p4 < N; p4 = p4 + 1) begin
        qlen[p4] <= {QB{1'b0}};
        held[p4] <= {B{1'b0}};
        used[p4] <= {QB{1'b0}};
        ccnt[p4] <= {QB{1'b0}};
        txslot[p4] <= {SB{1'b0}};
        rxport[p4] <= N[DB-1:0];
        rxslot[p4] <= {SB{1'b0}};
        ftag[p4] <= {TW{1'b0}};
        fk[p4] <= {KW{1'b0}};
        fnpk[p4] <= {KW{1'b0}};
        fdst[p4] <= {N{1'b0}};
      end
      fa <= {N{1'b0}};
      fcontr <= {N{1'b0}};
      rxpend <= {N{1'b0}};
      injpend <= {N{1'b0}};
    end else if (en) begin
      for (p4 = 0; p4 < N; p4 = p4 + 1) begin
        used[p4] <= ue[p4];
        ccnt[p4] <= ce[p4];
        held[p4] <= ~fe[p4];
        for (i4 = 0; i4 < B; i4 = i4 + 1) q[p4*B + i4] <= qn[p4*B + i4];
        qlen[p4] <= qnl[p4];
        if (o_grant[p4]) txslot[p4] <= pslot[p4];
        // Incoming channel p4: a packet starting, its bytes arriving.
        if (i_grant[p4]) begin
          rxport[p4] <= rsv_port[p4];
          rxslot[p4] <= rsv_slot[p4];
        end
        rxpend[p4] <= i_grant[p4] && rsv_port[p4] != N[DB-1:0];
        rxw[p4] <= i_w[p4*WL +: WL];
        rxfirst[p4] <= i_first[p4];
        rxdst[p4] <= i_dst[p4*N +: N];
        if (rxpend[p4]) begin
          sw[bi(di(rxport[p4]), rxslot[p4])] <= rxw[p4];
          sfirst[bi(di(rxport[p4]), rxslot[p4])] <= rxfirst[p4];
          scontr[bi(di(rxport[p4]), rxslot[p4])] <= 1'b0;
          sdst[bi(di(rxport[p4]), rxslot[p4])] <= rxdst[p4];
          snd[bi(di(rxport[p4]), rxslot[p4])] <= ecube(flip(di(rxport[p4])), rxdst[p4]);
        end
        if (i_bvalid[p4] && rxport[p4] != N[DB-1:0])
          mem[bi(di(rxport[p4]), rxslot[p4])][8*{{(32 - WL){1'b0}}, i_k[p4*WL +: WL]} +: 8] <= i_byte[p4*8 +: 8];
        // The source's packet for port p4.
        if (inj[p4]) begin
          sw[bi(p4, injslot[p4])] <= fnew[p4] ? src_w : fd_w[p4*WL +: WL];
          sfirst[bi(p4, injslot[p4])] <= fnew[p4] || fk[p4] == {KW{1'b0}};
          scontr[bi(p4, injslot[p4])] <= injcontr[p4];
          sdst[bi(p4, injslot[p4])] <= fnew[p4] ? src_dst : fdst[p4];
          snd[bi(p4, injslot[p4])] <= ecube(flip(p4), fnew[p4] ? src_dst : fdst[p4]);
        end
        injpend[p4] <= inj[p4];
        injslot_r[p4] <= injslot[p4];
        // Its bytes, a cycle late. The source field's top 4 bits carry the first hop's dimension:
        // the port that took it.
        injpkt[p4] <= fnew[p4] ? src_pkt : fd_pkt[p4*P*8 +: P*8];
        injpkt[p4][31:28] <= p4[3:0];
        if (injpend[p4]) mem[bi(p4, injslot_r[p4])] <= injpkt[p4];
        if (fnew[p4]) begin
          ftag[p4] <= src_tag;
          fnpk[p4] <= src_npk;
          fdst[p4] <= src_dst;
          fcontr[p4] <= newcontr;
          fk[p4] <= inj[p4] ? {{(KW-1){1'b0}}, 1'b1} : {KW{1'b0}};
          fa[p4] <= !(inj[p4] && src_npk == {{(KW-1){1'b0}}, 1'b1});
        end else if (fa[p4] && inj[p4]) begin
          fk[p4] <= fk[p4] + 1'b1;
          if (fk[p4] + 1'b1 == fnpk[p4]) fa[p4] <= 1'b0;
        end
      end
    end
  end

  genvar ge;
  generate
    for (ge = 0; ge < N; ge = ge + 1) begin : g_io
      assign ej_bvalid[ge] = i_bvalid[ge] && rxport[ge] == N[DB-1:0];
      assign ej_end[ge] = i_end[ge] && rxport[ge] == N[DB-1:0];
      assign fd_tag[ge*TW +: TW] = ftag[ge];
      assign fd_k[ge*KW +: KW] = fk[ge];
    end
  endgenerate
  assign ej_byte = i_byte;
  assign fd_active = fa;

  // Counters: per port packets, messages (first packets), bytes, blocked cycles.
  reg [N*8-1:0] cbytes;
  reg [N-1:0]   cblk;
  integer p5;
  always @* begin
    for (p5 = 0; p5 < N; p5 = p5 + 1) begin
      cbytes[p5*8 +: 8] = o_grant[p5] ? {{(8-WL){1'b0}}, o_w[p5*WL +: WL]} : 8'd0;
      cblk[p5] = txfree[p5] && qel[p5] != {QB{1'b0}} && !o_grant[p5];
    end
  end
  hcube_port_counters #(.N(N), .IW(8), .CSW(CSW)) u_cnt (
      .clk(clk), .rst(rst), .en(en), .clear(clear), .pkt(o_grant), .msg(o_grant & o_first), .bytes(cbytes),
      .blk(cblk), .sel(cnt_sel), .value(cnt_value));
endmodule
`default_nettype wire

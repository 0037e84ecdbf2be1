// One node's router of the wormhole baseline (the seed-004 paper, sections 4 and 6; the reference
// model is sim/hcube/hcube_wormhole_model.cpp and this follows its tick order cycle for cycle):
//   - e-cube routing; a worm is a 2-byte header (the destination) followed by its other bytes;
//   - one message per channel: a header takes an output channel (after A arbitration cycles the
//     header's 2 bytes cross it, hcube_link_tx), the channel stays the worm's until its tail has
//     crossed it; a free channel goes to the oldest header waiting for it (the smallest tag: the
//     host numbers messages by generation, the paper's creation-order priority); headers wait
//     at the node they have reached, holding every channel behind them;
//   - flit-level flow control with one-byte flit buffers: per incoming channel one byte; a byte
//     crosses a channel (T cycles, one at a time) once the worm's header has crossed it and the
//     next node's buffer is empty or its byte leaves in the same cycle (o_acc, combinational
//     along the worm: the bytes of a worm whose path is complete all move together, so the data
//     follows the header at the link rate, as in the model);
//   - the source: the head of the message queue (src_*) competes for its e-cube channel like a
//     waiting header; once granted, that channel's feeder streams the worm's bytes from the host
//     (fd_*) and the next message may compete;
//   - ejection by incoming dimension; counters per port: worms, headers, bytes, blocked cycles.
// A cycle's order: channels whose tail arrives downstream now are free; headers arriving now
// join the waiters; grants; bytes move.
`default_nettype none
module hcube_worm_node #(
    parameter integer N    = 3,   // dimensions
    parameter integer NODE = 0,   // this node's number
    parameter integer A    = 4,   // arbitration cycles per hop
    parameter integer T    = 2,   // cycles per byte
    parameter integer DB   = 2,   // bits of a dimension or N (N = the source / "ends here")
    parameter integer TW   = 16,  // bits of a message tag (its age: smaller is older)
    parameter integer KW   = 20,  // bits of a byte index within a worm
    parameter integer CSW  = 4,   // bits of a counter select (4N counters)
    parameter integer CW   = 16   // bits of a channel's cycle counter
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            en,    // clock enable: every register holds while it is low
    // outgoing channel d, to NODE ^ 2^d
    output wire [N-1:0]    o_hdr,    // the header arrives downstream this cycle
    output reg  [N*N-1:0]  o_dst,    // its destination (the header's bytes) and tag
    output reg  [N*TW-1:0] o_tag,
    output wire [N-1:0]    o_dend,   // a data byte arrives downstream this cycle
    output reg  [N*8-1:0]  o_byte,
    output reg  [N-1:0]    o_dlast,  // and it is the worm's tail
    input  wire [N-1:0]    o_acc,    // the next node's flit buffer takes a byte sent this cycle
    // incoming channel d, from NODE ^ 2^d: that neighbour's outgoing channel d
    input  wire [N-1:0]    i_hdr,
    input  wire [N*N-1:0]  i_dst,
    input  wire [N*TW-1:0] i_tag,
    input  wire [N-1:0]    i_dend,
    input  wire [N*8-1:0]  i_byte,
    input  wire [N-1:0]    i_dlast,
    output reg  [N-1:0]    i_acc,
    // ejection, by incoming dimension: the header, then the other bytes (the tail flagged)
    output wire [N-1:0]    ej_hdr,
    output wire [N-1:0]    ej_bvalid,
    output wire [N*8-1:0]  ej_byte,
    output wire [N-1:0]    ej_last,
    // the head of the message queue (src_valid: there is one and it may compete this cycle)
    input  wire            src_valid,
    input  wire [N-1:0]    src_dst,
    input  wire [TW-1:0]   src_tag,
    output reg             src_take,
    // per output channel, the worm its feeder streams from the host: tag and next byte index
    // (registered), and that byte (bytes 2.. of the worm; fd_last on its tail)
    output wire [N-1:0]    fd_active,
    output wire [N*TW-1:0] fd_tag,
    output wire [N*KW-1:0] fd_idx,
    input  wire [N*8-1:0]  fd_byte,
    input  wire [N-1:0]    fd_last,
    // counters: select port * 4 + (0 worms, 1 headers, 2 bytes, 3 blocked cycles)
    input  wire            clear,
    input  wire [CSW-1:0]  cnt_sel,
    output wire [31:0]     cnt_value
);
  localparam [DB-1:0] NONE = N[DB-1:0];

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
  function integer di;
    input [DB-1:0] d;
    di = {{(32 - DB){1'b0}}, d};
  endfunction

  // Output channels.
  reg  [N-1:0]  held, hdone;          // the worm holding it; its header has crossed it
  reg  [DB-1:0] owner [0:N-1];        // the input it is connected to (N: the source's feeder)
  // Incoming channels: the worm's header and the one-byte flit buffer.
  reg  [N-1:0]  hv, hrt;              // a worm is here; it has its next channel
  reg  [DB-1:0] hout [0:N-1];         // its next channel (N: it ends here)
  reg  [N-1:0]  hdst [0:N-1];
  reg  [TW-1:0] htag [0:N-1];
  reg  [N-1:0]  sv, slast;
  reg  [7:0]    sbyte [0:N-1];
  // Feeders.
  reg  [N-1:0]  fa;
  reg  [TW-1:0] ftag [0:N-1];
  reg  [KW-1:0] fidx [0:N-1];

  wire [N-1:0] hend, dfree, dend;  // from the senders (below)
  reg  [N-1:0] grant, go;


  // Inputs: whether the worm ends here, the byte in the flit buffer (stored or arriving now).
  reg [N-1:0] endh, present, plast, arrive;
  reg [7:0]   pbyte [0:N-1];
  reg [N-1:0] wv;                     // a header waiting for a channel (arriving now or before)
  reg [DB-1:0] want [0:N-1];
  integer d1;
  always @* begin
    for (d1 = 0; d1 < N; d1 = d1 + 1) begin
      endh[d1] = hv[d1] && hout[d1] == NONE;
      present[d1] = (sv[d1] || i_dend[d1]) && !endh[d1];
      pbyte[d1] = sv[d1] ? sbyte[d1] : i_byte[d1*8 +: 8];
      plast[d1] = sv[d1] ? slast[d1] : i_dlast[d1];
      arrive[d1] = i_hdr[d1] && i_dst[d1*N +: N] != NODE[N-1:0];
      wv[d1] = arrive[d1] || (hv[d1] && !hrt[d1] && hout[d1] != NONE);
      want[d1] = arrive[d1] ? ecube(NODE[N-1:0], i_dst[d1*N +: N]) : hout[d1];
    end
  end

  // The waiters' relative age, registered: ctag[d] is the tag of input d's header this cycle
  // (waiting since before, or arriving now: an arriving header's tag has been on i_tag since its
  // channel was granted upstream, A + 2T >= 2 cycles ago), and older[hi*N + lo] (hi > lo) says
  // input hi's is strictly older than input lo's; both are computed in the cycle before, so a
  // grant is an AND-OR of these bits and not a chain of tag comparisons. Ties go to the lower
  // input, then to the waiters over the source (the order the oldest was picked in before).
  reg [TW-1:0]  ctag [0:N-1];
  reg [N*N-1:0] older;
  reg [TW-1:0]  ntag [0:N-1];       // input d's tag next cycle, if it has a waiter then
  // and its destination likewise (cdst: this cycle's), so a granted channel's o_dst is an AND-OR.
  reg [N-1:0]   cdst [0:N-1];
  reg [N-1:0]   ndst [0:N-1];
  integer d0;
  always @* begin
    for (d0 = 0; d0 < N; d0 = d0 + 1) begin
      ntag[d0] = (hv[d0] && !hrt[d0] && hout[d0] != NONE) ? htag[d0] : i_tag[d0*TW +: TW];
      ndst[d0] = (hv[d0] && !hrt[d0] && hout[d0] != NONE) ? hdst[d0] : i_dst[d0*N +: N];
    end
  end

  // Grants: every free channel (or one whose tail arrives downstream now) to its oldest waiter.
  reg [N-1:0]  freeg, blocked, found, more, comp, beaten, gsel;
  reg [N-1:0]  sold;                 // the source is strictly older than input d's header
  reg [N*N-1:0] gs;                  // gs[e*N + d]: channel e goes to input d's header
  reg [N-1:0]  swin;                 // channel e goes to the source
  reg [N-1:0]  wdst [0:N-1];         // the header channel e goes to: destination, tag
  reg [TW-1:0] wtg  [0:N-1];
  reg [DB-1:0] gwho [0:N-1];
  reg [DB-1:0] se;
  reg          scomp, sbeaten;
  integer e2, d2, f2;
  always @* begin
    se = ecube(NODE[N-1:0], src_dst);
    src_take = 1'b0;
    for (d2 = 0; d2 < N; d2 = d2 + 1) sold[d2] = src_tag < ctag[d2];
    for (e2 = 0; e2 < N; e2 = e2 + 1) begin
      freeg[e2] = !held[e2] || (dend[e2] && o_dlast[e2]);
      for (d2 = 0; d2 < N; d2 = d2 + 1) comp[d2] = wv[d2] && want[d2] == e2[DB-1:0];
      scomp = src_valid && se == e2[DB-1:0];
      // Input d's header wins unless another competitor is older (or as old and before it).
      sbeaten = 1'b0;
      for (d2 = 0; d2 < N; d2 = d2 + 1) begin
        beaten[d2] = scomp && sold[d2];
        for (f2 = 0; f2 < N; f2 = f2 + 1)
          if (f2 < d2) beaten[d2] = beaten[d2] | (comp[f2] && !older[d2*N + f2]);
          else if (f2 > d2) beaten[d2] = beaten[d2] | (comp[f2] && older[f2*N + d2]);
        gsel[d2] = comp[d2] && !beaten[d2];
        sbeaten = sbeaten | (comp[d2] && !sold[d2]);
      end
      gwho[e2] = NONE;
      for (d2 = N - 1; d2 >= 0; d2 = d2 - 1)
        if (gsel[d2]) gwho[e2] = d2[DB-1:0];
      swin[e2] = scomp && !sbeaten;
      wdst[e2] = swin[e2] ? src_dst : {N{1'b0}};
      wtg[e2] = swin[e2] ? src_tag : {TW{1'b0}};
      for (d2 = 0; d2 < N; d2 = d2 + 1) begin
        gs[e2*N + d2] = gsel[d2];
        if (gsel[d2]) begin
          wdst[e2] = wdst[e2] | cdst[d2];
          wtg[e2] = wtg[e2] | ctag[d2];
        end
      end
      found[e2] = |comp || scomp;
      more[e2] = 1'b0;
      for (d2 = 0; d2 < N; d2 = d2 + 1)
        for (f2 = 0; f2 < N; f2 = f2 + 1)
          if (f2 < d2) more[e2] = more[e2] | (comp[d2] && comp[f2]);
      more[e2] = more[e2] | (scomp && |comp);
      grant[e2] = found[e2] && freeg[e2];
      // Held after this cycle with a header still waiting for it.
      blocked[e2] = more[e2] || (found[e2] && !freeg[e2]);
      if (grant[e2] && swin[e2]) src_take = 1'b1;
    end
  end

  // Bytes: a channel's byte moves when its worm's header has crossed it, the channel is free,
  // its input has a byte and the next buffer takes it; an input's buffer takes a byte when it is
  // empty or its byte leaves now.
  reg [N-1:0] op, ol, leave;
  reg [7:0]   ob [0:N-1];
  integer e3, d3;
  always @* begin
    leave = {N{1'b0}};
    for (e3 = 0; e3 < N; e3 = e3 + 1) begin
      if (owner[e3] == NONE) begin
        op[e3] = fa[e3];
        ob[e3] = fd_byte[e3*8 +: 8];
        // The source field's top 4 bits carry the first hop's dimension (as in the packet chip).
        if (fidx[e3] == 3) ob[e3][7:4] = e3[3:0];
        ol[e3] = fd_last[e3];
      end else begin
        op[e3] = present[di(owner[e3])];
        ob[e3] = pbyte[di(owner[e3])];
        ol[e3] = plast[di(owner[e3])];
      end
      go[e3] = held[e3] && (hdone[e3] || hend[e3]) && dfree[e3] && op[e3] && o_acc[e3];
      for (d3 = 0; d3 < N; d3 = d3 + 1)
        if (go[e3] && owner[e3] == d3[DB-1:0]) leave[d3] = 1'b1;
    end
    i_acc = ~present | leave;
  end

  // Per channel two senders on the shared timing: the header (arbitration, then 2 bytes) and
  // the data bytes (one at a time, no arbitration).
  genvar gd;
  generate
    for (gd = 0; gd < N; gd = gd + 1) begin : g_tx
      // verilator lint_off UNUSED
      wire       h_free, h_hdr, h_byte, d_hdr, d_byte;
      wire [1:0] h_k, d_k;
      // verilator lint_on UNUSED
      hcube_link_tx #(.A(A), .T(T), .WL(2), .CW(CW)) u_hdr (
          .clk(clk), .rst(rst), .en(en), .start(grant[gd]), .w(2'd2), .free(h_free), .hdr_now(h_hdr),
          .byte_now(h_byte), .k(h_k), .end_now(hend[gd]));
      hcube_link_tx #(.A(0), .T(T), .WL(2), .CW(CW)) u_data (
          .clk(clk), .rst(rst), .en(en), .start(go[gd]), .w(2'd1), .free(dfree[gd]), .hdr_now(d_hdr),
          .byte_now(d_byte), .k(d_k), .end_now(dend[gd]));
    end
  endgenerate
  assign o_hdr  = hend;
  assign o_dend = dend;

  integer p4, q4;
  always @(posedge clk) begin
    if (rst) begin
      older <= {N*N{1'b0}};
      held <= {N{1'b0}};
      hdone <= {N{1'b0}};
      hv <= {N{1'b0}};
      hrt <= {N{1'b0}};
      sv <= {N{1'b0}};
      slast <= {N{1'b0}};
      fa <= {N{1'b0}};
      o_dst <= {N*N{1'b0}};
      o_tag <= {N*TW{1'b0}};
      o_byte <= {N*8{1'b0}};
      o_dlast <= {N{1'b0}};
      for (p4 = 0; p4 < N; p4 = p4 + 1) begin
        owner[p4] <= NONE;
        hout[p4] <= NONE;
        hdst[p4] <= {N{1'b0}};
        htag[p4] <= {TW{1'b0}};
        sbyte[p4] <= 8'd0;
        ftag[p4] <= {TW{1'b0}};
        fidx[p4] <= {KW{1'b0}};
        ctag[p4] <= {TW{1'b0}};
        cdst[p4] <= {N{1'b0}};
      end
    end else if (en) begin
      for (p4 = 0; p4 < N; p4 = p4 + 1) begin
        ctag[p4] <= ntag[p4];
        cdst[p4] <= ndst[p4];
        for (q4 = 0; q4 < N; q4 = q4 + 1)
          older[p4*N + q4] <= q4 < p4 && ntag[p4] < ntag[q4];
      end
      for (p4 = 0; p4 < N; p4 = p4 + 1) begin
        // Output channel p4.
        if (hend[p4]) hdone[p4] <= 1'b1;
        if (grant[p4]) begin
          held[p4] <= 1'b1;
          hdone[p4] <= 1'b0;
          owner[p4] <= gwho[p4];
          o_dst[p4*N +: N] <= wdst[p4];
          o_tag[p4*TW +: TW] <= wtg[p4];
          if (swin[p4]) begin
            fa[p4] <= 1'b1;
            ftag[p4] <= src_tag;
            fidx[p4] <= 2;
          end
        end else if (dend[p4] && o_dlast[p4]) begin
          held[p4] <= 1'b0;  // the tail is downstream: the channel is free
        end
        if (go[p4]) begin
          o_byte[p4*8 +: 8] <= ob[p4];
          o_dlast[p4] <= ol[p4];
          if (owner[p4] == NONE) begin
            fidx[p4] <= fidx[p4] + 1'b1;
            if (fd_last[p4]) fa[p4] <= 1'b0;
          end
        end
        // Incoming channel p4.
        if (i_hdr[p4]) begin
          hv[p4] <= 1'b1;
          hrt[p4] <= 1'b0;
          hdst[p4] <= i_dst[p4*N +: N];
          htag[p4] <= i_tag[p4*TW +: TW];
          hout[p4] <= arrive[p4] ? want[p4] : NONE;
        end
        if (leave[p4] && plast[p4]) begin
          hv[p4] <= 1'b0;
          hrt[p4] <= 1'b0;
        end
        if (endh[p4] && i_dend[p4] && i_dlast[p4]) hv[p4] <= 1'b0;
        if (i_dend[p4] && !endh[p4]) begin
          if (!leave[p4]) begin
            sv[p4] <= 1'b1;
            sbyte[p4] <= i_byte[p4*8 +: 8];
            slast[p4] <= i_dlast[p4];
          end
        end else if (sv[p4] && leave[p4]) begin
          sv[p4] <= 1'b0;
        end
      end
      for (p4 = 0; p4 < N; p4 = p4 + 1)
        for (q4 = 0; q4 < N; q4 = q4 + 1)
          if (grant[q4] && gs[q4*N + p4]) hrt[p4] <= 1'b1;
    end
  end

  genvar ge;
  generate
    for (ge = 0; ge < N; ge = ge + 1) begin : g_io
      assign ej_hdr[ge] = i_hdr[ge] && i_dst[ge*N +: N] == NODE[N-1:0];
      assign ej_bvalid[ge] = i_dend[ge] && endh[ge];
      assign fd_tag[ge*TW +: TW] = ftag[ge];
      assign fd_idx[ge*KW +: KW] = fidx[ge];
    end
  endgenerate
  assign ej_byte = i_byte;
  assign ej_last = i_dlast;
  assign fd_active = fa;

  // Counters: per port worms, headers, bytes (2 per header, 1 per data byte), blocked cycles.
  reg [N*2-1:0] cbytes;
  integer p5;
  always @* begin
    for (p5 = 0; p5 < N; p5 = p5 + 1) cbytes[p5*2 +: 2] = grant[p5] ? 2'd2 : {1'b0, go[p5]};
  end
  hcube_port_counters #(.N(N), .IW(2), .CSW(CSW)) u_cnt (
      .clk(clk), .rst(rst), .en(en), .clear(clear), .pkt(grant), .msg(grant), .bytes(cbytes), .blk(blocked),
      .sel(cnt_sel), .value(cnt_value));
endmodule
`default_nettype wire

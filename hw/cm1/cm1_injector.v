// CM-1 injector (3.2): a concentrator that fills the B heart rows, first with the buffered
// messages in their row order, then with the processors' messages in increasing processor
// index. The switch is set when all MSGP bits are present (phase 0) and held for the rest
// of the petit cycle; processors that got a row are acknowledged at phase 0.
//
// Timing (all of it chosen so that no path needs more than a few LUT levels):
// - The processors' ranks (how many requesting processors are below each one) are counted
//   from the endpoints' `pending` flags in a two-cycle pipeline that runs all the time and
//   adds the processors that fill up meanwhile (`proc_fill`: an empty endpoint gets a
//   message), so at phase 0 the registered ranks are those of the cycle before, corrected
//   by that cycle's fills. Pending flags only fall at phase 1 (messages leave at phase 0).
// - At phase 0 only the buffered MSGP bits are new: their count nb shifts the processors
//   to rows nb, nb + 1, ... The switch is stored as the buffers' rows (bsel), the rank
//   one-hots of the processors (rsel) and nb (one-hot); after phase 0 a row's bit is
//   taken from its buffer or from the processor stream of rank (row - nb).
// - The MSGP bits sent at phase 0 are the thermometer of nb + (number of processors
//   offering), which is all the heart needs from them (rows are packed).
// `run` gates the processors at phase 0 exactly as it gates their offers (a processor that
// does not offer sends zeros after phase 0, so its stream contributes nothing).
// A bit-time is one ce cycle: every flip-flop (the rank pipeline too) updates only when ce is
// high (rst regardless), so "cycle" below means ce cycle.
module cm1_injector #(
    parameter integer B  = 7,
    parameter integer P  = 16,
    parameter integer PW = 5,
    parameter integer TP = 18   // petit period: phase counts 0 .. TP-1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          ce,             // clock enable: one bit-time per cycle with ce high
    input  wire [PW-1:0] phase,          // advances by one every ce cycle, 0 at the first after rst
    input  wire          run,            // processors offer at phase 0 only while high
    input  wire [B-1:0]  buf_in,         // buffered messages (MSGP at phase 0)
    input  wire [P-1:0]  proc_ahead,     // each processor's message bit of the next cycle (after phase 0)
    input  wire [P-1:0]  proc_a0,        // the first CUBE-ADDRESS bit of each processor's head message
    input  wire [P-1:0]  proc_pend,      // endpoint p has a message to offer
    input  wire [P-1:0]  proc_fill,      // endpoint p is empty and gets a message now
    output wire [B-1:0]  slot_out,       // to heart column 0
    output wire [B-1:0]  slot_body,      // slot_out except at phase 0 (without the MSGP logic)
    output wire [P-1:0]  ack             // valid at phase 0
);
  // at0: phase == 0, registered from the phase of the ce cycle before.
  localparam integer LAST_I = TP - 1;
  localparam [PW-1:0] LAST = LAST_I[PW-1:0];
  reg at0;
  always @(posedge clk)
    if (rst || ce) at0 <= rst || (phase == LAST);

  localparam integer PLG = $clog2(P);            // prefix levels over the processors
  localparam integer PSPLIT = (PLG + 1) / 2;    // levels before the pipeline register

  // The processors' ranks, pipelined over two cycles. Stage A counts the pending flags in
  // windows of 2^PSPLIT processors; stage B completes the prefix counts, turns them into
  // one-hot ranks (rank of p = count of p - 1) and adds the processors that became pending
  // meanwhile (proc_fill of the cycle of stage A, which pinc_q holds in stage B), so the
  // ranks registered by stage B are those of the flags of stage B's own cycle. At phase 0
  // pinc_q holds the fills of the cycle before, added the same way.
  integer p;
  integer j;
  reg [P*B-1:0] pleaf;
  reg [P-1:0]   fill_below;    // some processor below p fills up now
  always @* begin
    for (p = 0; p < P; p = p + 1) begin
      pleaf[p*B +: B] = {{B-1{1'b0}}, proc_pend[p]};
      fill_below[p] = |(proc_fill & ({P{1'b1}} >> (P - p)));
    end
  end
  wire [P*B-1:0] pwin_c;
  cm1_prefix #(.N(P), .T(B), .FROM(0), .TO(PSPLIT)) u_pwin (.win_in(pleaf), .win_out(pwin_c));
  reg  [P*B-1:0] pwin_q;       // stage A: window counts
  reg  [P-1:0]   pinc_q;       // a processor below p filled up in the cycle before
  reg            tinc_q;       // some processor filled up in the cycle before
  always @(posedge clk) begin
    if (rst) begin   // the pending flags are all clear after reset
      pwin_q <= {P*B{1'b0}};
      pinc_q <= {P{1'b0}};
      tinc_q <= 1'b0;
    end else if (ce) begin
      pwin_q <= pwin_c;
      pinc_q <= fill_below;
      tinc_q <= |proc_fill;
    end
  end
  wire [P*B-1:0] pcount;       // stage B: inclusive prefix counts
  cm1_prefix #(.N(P), .T(B), .FROM(PSPLIT), .TO(PLG)) u_pcount (.win_in(pwin_q), .win_out(pcount));
  reg  [P*B-1:0] prank_c;      // prank[p*B + j]: exactly j pending processors below p
  reg  [B:0]     ge;           // ge[j]: at least j pending processors below p
  reg  [B-1:0]   rk;
  always @* begin
    for (p = 0; p < P; p = p + 1) begin
      ge = (p == 0) ? {{B{1'b0}}, 1'b1} : {pcount[(p - 1)*B +: B], 1'b1};
      for (j = 0; j < B; j = j + 1) rk[j] = ge[j] & ~ge[j + 1];
      prank_c[p*B +: B] = pinc_q[p] ? {rk[B-2:0], 1'b0} : rk;
    end
  end
  wire [B-1:0] ptotal_c = pcount[(P - 1)*B +: B];
  reg  [P*B-1:0] prank_q;      // ranks of the pending flags of the cycle before
  reg  [B-1:0]   ptotal_q;     // thermometer of their number
  always @(posedge clk) begin
    if (rst) begin
      for (p = 0; p < P; p = p + 1) prank_q[p*B +: B] <= {{B-1{1'b0}}, 1'b1};
      ptotal_q <= {B{1'b0}};
    end else if (ce) begin
      prank_q <= prank_c;
      ptotal_q <= tinc_q ? {ptotal_c[B-2:0], 1'b1} : ptotal_c;
    end
  end
  // The ranks at phase 0: one higher above a processor that filled up in the cycle before.
  reg [P*B-1:0] prank;
  always @* begin
    for (p = 0; p < P; p = p + 1)
      prank[p*B +: B] = pinc_q[p] ? {prank_q[p*B +: B-1], 1'b0} : prank_q[p*B +: B];
  end
  wire [B-1:0] ptotal = tinc_q ? {ptotal_q[B-2:0], 1'b1} : ptotal_q;

  // The buffered messages at phase 0: their ranks and their number nb.
  localparam integer BLG = $clog2(B);
  reg  [B*B-1:0] bleaf;
  always @* begin
    for (j = 0; j < B; j = j + 1) bleaf[j*B +: B] = {{B-1{1'b0}}, buf_in[j]};
  end
  wire [B*B-1:0] bcount;   // inclusive prefix counts of buf_in
  cm1_prefix #(.N(B), .T(B), .FROM(0), .TO(BLG)) u_bcount (.win_in(bleaf), .win_out(bcount));
  wire [B:0] nb_ge = {bcount[(B - 1)*B +: B], 1'b1};   // nb_ge[k]: nb >= k
  reg  [B:0] nb_1;                                     // one-hot: nb == k
  reg  [B*B-1:0] bsel_c;   // bsel[s*B + r]: row s takes buffer r
  reg  [B:0] bge;          // bge[s]: at least s buffered messages below r
  integer r;
  integer s;
  always @* begin
    for (s = 0; s < B; s = s + 1) nb_1[s] = nb_ge[s] & ~nb_ge[s + 1];
    nb_1[B] = nb_ge[B];
    for (r = 0; r < B; r = r + 1) begin
      bge = (r == 0) ? {{B{1'b0}}, 1'b1} : {bcount[(r - 1)*B +: B], 1'b1};
      for (s = 0; s < B; s = s + 1) bsel_c[s*B + r] = buf_in[r] & bge[s] & ~bge[s + 1];
    end
  end

  // Phase 0: row s has a message when nb > s, or (run and) nb = k <= s and more than s - k
  // processors are pending. A processor of rank j gets a row when nb + j < B.
  reg [B-1:0] msgp;
  reg [B-1:0] fits;
  reg [P-1:0] ack_c;
  integer k;
  always @* begin
    for (s = 0; s < B; s = s + 1) begin
      msgp[s] = nb_ge[s + 1];
      for (k = 0; k <= s; k = k + 1) msgp[s] = msgp[s] | (run & nb_1[k] & ptotal[s - k]);
    end
    for (j = 0; j < B; j = j + 1) fits[j] = ~nb_ge[B - j];
    for (p = 0; p < P; p = p + 1)
      ack_c[p] = run & proc_pend[p] & |(prank[p*B +: B] & fits);
  end

  // The switch, stored at phase 0.
  reg [B*B-1:0] bsel_q;
  reg [B*P-1:0] rsel_q;   // rsel[j*P + p]: processor p has rank j
  reg [B-1:0]   nb_q;     // one-hot nb (all zero for nb = B: no processor gets a row)
  always @(posedge clk) begin
    if (rst) begin
      bsel_q <= {B*B{1'b0}};
      rsel_q <= {B*P{1'b0}};
      nb_q <= {B{1'b0}};
    end else if (ce && at0) begin
      bsel_q <= bsel_c;
      for (j = 0; j < B; j = j + 1)
        for (p = 0; p < P; p = p + 1) rsel_q[j*P + p] <= prank[p*B + j];
      nb_q <= nb_1[B-1:0];
    end
  end

  // The processor streams are selected a cycle ahead: pstream_q[j] is the bit of the
  // processor of rank j. At phase 0 (new ranks, not yet in rsel_q) that is the first address
  // bit of the message it offers; later, its next message bit.
  reg [P-1:0] pnext;
  reg [P-1:0] rank_j;      // the processors of rank j
  reg [B-1:0] pstream_c;
  reg [B-1:0] pstream_q;
  always @* begin
    pnext = at0 ? (proc_a0 & proc_pend & {P{run}}) : proc_ahead;
    for (j = 0; j < B; j = j + 1) begin
      for (p = 0; p < P; p = p + 1) rank_j[p] = at0 ? prank[p*B + j] : rsel_q[j*P + p];
      pstream_c[j] = |(rank_j & pnext);
    end
  end
  always @(posedge clk) begin
    if (rst) pstream_q <= {B{1'b0}};
    else if (ce) pstream_q <= pstream_c;
  end

  // After phase 0: row s carries its buffer's bit or the bit of the processor of rank s - nb.
  reg [B-1:0] row_bit;
  always @* begin
    for (s = 0; s < B; s = s + 1) begin
      row_bit[s] = |(bsel_q[s*B +: B] & buf_in);
      for (k = 0; k <= s; k = k + 1) row_bit[s] = row_bit[s] | (nb_q[k] & pstream_q[s - k]);
    end
  end
  assign slot_out = at0 ? msgp : row_bit;
  assign slot_body = row_bit;
  assign ack = at0 ? ack_c : {P{1'b0}};
endmodule

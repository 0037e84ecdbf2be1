// CONNECT on the stream board (hw/common/STREAM_BOARD.md): the Clos switch (clos_network, circuits
// 34 bits wide: {valid, last, word}) set up and torn down by the hnodes' message engines
// (clos_ctrl_top), and a leaf unit per data processor.
//
// A unit the host sends to leaf L is a circuit command: its first word is the destination leaf,
// the rest are the data words. Leaf L keeps the unit in its buffer, sends a CSR to its hnode,
// waits for READY, sends its own number and the data words through the circuit, one per cycle,
// then an ODCR, and takes its next unit once the DDCR has been handled at the destination's
// hnode (a leaf has one request at a time). The destination leaf collects what its circuit
// brings and delivers it as one unit {source leaf, data words...}. A circuit has no flow
// control (the switch is passive): a unit may carry at most RXQ - 2 data words (the host keeps to
// that; `dropped` counts words a full receive buffer lost, and must stay 0).
// Counters: per leaf units sent (In) and units delivered (Out), units inside (Held), region 0;
// then READYs, CANCELs and dropped words (Other).
`default_nettype none
module clos_stream_core #(
  parameter integer NL = 4,          // leaves (n * r)
  parameter integer NP = 2,          // leaves per switch (n)
  parameter integer H = 2,           // hnodes
  parameter integer D = 1,
  parameter integer NW = 2,          // bits of a leaf number
  parameter integer MW = 16,         // the engines' message bits
  parameter integer TYPE_LSB = 8, DEST_LSB = 4, ORIG_LSB = 6, TO_LSB = 12,
  parameter integer CAW = 4, CDW = 3,
  parameter integer TXQ_W = 4,       // a leaf's unit buffer: 2^TXQ_W words
  parameter integer RXQ_W = 4,       // a leaf's receive buffer: 2^RXQ_W words
  parameter integer NCNT = 2 * NL + 4
) (
  input  wire        clk,
  input  wire        rst,
  input  wire        run,
  input  wire        clear,
  input  wire        tx_valid,
  output wire        tx_ready,
  input  wire [15:0] tx_leaf,
  input  wire [31:0] tx_data,
  input  wire        tx_last,
  output wire        rx_valid,
  input  wire        rx_ready,
  output wire [15:0] rx_leaf,
  output wire [31:0] rx_data,
  output wire        rx_last,
  output wire        busy,
  output wire [NCNT*32-1:0] counters
);
  localparam integer CW = 34;
  localparam [3:0] T_CSR = 4'd0, T_ODCR = 4'd5, T_CANCEL = 4'd8, T_DDCR = 4'd7;
  localparam integer TXQ = 1 << TXQ_W, RXQ = 1 << RXQ_W;

  // ---- the control network and the switch
  reg  [H-1:0] lf_valid;
  reg  [H*MW-1:0] lf_msg;
  wire [H-1:0] lf_take, ready_valid, handled_valid, sent_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [H-1:0] overflow;             // the tests check the engines never lose a request
  /* verilator lint_on UNUSEDSIGNAL */
  wire [H*NW-1:0] ready_orig;
  wire [H*MW-1:0] handled_msg, sent_msg;
  wire ctrl_busy, cfg_we;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [H-1:0] cfg_from;             // which hnode writes: only the harness of clos_ctrl_top reads it
  /* verilator lint_on UNUSEDSIGNAL */
  wire [CAW-1:0] cfg_addr;
  wire [CDW-1:0] cfg_data;
  clos_ctrl_top ctrl (
    .clk(clk), .rst(rst), .leaf_valid(lf_valid), .leaf_msg(lf_msg), .leaf_take(lf_take),
    .ready_valid(ready_valid), .ready_orig(ready_orig), .handled_valid(handled_valid), .handled_msg(handled_msg),
    .sent_valid(sent_valid), .sent_msg(sent_msg), .overflow(overflow), .busy(ctrl_busy), .cfg_we(cfg_we),
    .cfg_from(cfg_from), .cfg_addr(cfg_addr), .cfg_data(cfg_data));
  reg  [NL*CW-1:0] c_in;
  wire [NL*CW-1:0] c_out;
  clos_network sw (.clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_data(cfg_data),
                   .in_data(c_in), .out_data(c_out));

  // ---- the leaves
  localparam [2:0] L_IDLE = 3'd0, L_CSR = 3'd1, L_WAIT_READY = 3'd2, L_SRC = 3'd3, L_DATA = 3'd4, L_ODCR = 3'd5,
                   L_WAIT_DONE = 3'd6;
  reg [2:0] st [0:NL-1];
  reg [NW-1:0] dest [0:NL-1];
  reg hdr_last [0:NL-1];
  reg [32:0] txq [0:NL*TXQ-1];       // {last, word}
  reg [TXQ_W-1:0] tx_head [0:NL-1], tx_tail [0:NL-1];
  reg [TXQ_W:0] tx_cnt [0:NL-1];
  reg [32:0] rxq [0:NL*RXQ-1];
  reg [RXQ_W-1:0] rx_head [0:NL-1], rx_tail [0:NL-1];
  reg [RXQ_W:0] rx_cnt [0:NL-1];
  reg [RXQ_W:0] rx_units [0:NL-1];   // whole units in the receive buffer
  reg [31:0] sent [0:NL-1], recv [0:NL-1];
  reg [31:0] held, readies, cancels, dropped;

  // A leaf's hnode, its CSR and ODCR.
  /* verilator lint_off UNUSEDSIGNAL */
  function integer hnode_of(input integer l);
    hnode_of = (l / NP) % H;
  endfunction
  function [MW-1:0] leaf_msg(input [3:0] ty, input integer l, input [NW-1:0] d);
    reg [MW-1:0] m;
    integer o, t;
    begin
      o = l;
      t = hnode_of(l);
      m = {MW{1'b0}};
      m[TYPE_LSB +: 4] = ty;
      m[ORIG_LSB +: NW] = o[NW-1:0];
      m[DEST_LSB +: NW] = d;
      m[TO_LSB +: D] = t[D-1:0];
      leaf_msg = m;
    end
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // The host's words go to the addressed leaf's buffer (leaf numbers above NL never come: the
  // host driver checks them against the board's leaf count).
  /* verilator lint_off UNUSEDSIGNAL */
  wire [15:0] tx_leaf_all = tx_leaf;
  /* verilator lint_on UNUSEDSIGNAL */
  wire [NW-1:0] txl = tx_leaf_all[NW-1:0];
  wire tx_space = !tx_cnt[txl][TXQ_W];
  assign tx_ready = tx_space;
  wire tx_take = tx_valid && tx_space;

  // Requests for the hnodes' leaf ports: the lowest leaf of each hnode first.
  reg [NL-1:0] wants;
  reg [NL-1:0] granted;
  integer i, h;
  always @* begin
    lf_valid = {H{1'b0}};
    lf_msg = {H*MW{1'b0}};
    for (i = 0; i < NL; i = i + 1) wants[i] = st[i] == L_CSR || st[i] == L_ODCR;
    for (h = 0; h < H; h = h + 1)
      for (i = NL - 1; i >= 0; i = i - 1)
        if (wants[i] && hnode_of(i) == h) begin
          lf_valid[h] = 1'b1;
          lf_msg[h*MW +: MW] = leaf_msg(st[i] == L_CSR ? T_CSR : T_ODCR, i, dest[i]);
        end
  end
  integer gi, gh;
  always @* begin
    granted = {NL{1'b0}};
    for (gh = 0; gh < H; gh = gh + 1)
      for (gi = 0; gi < NL; gi = gi + 1)
        if (wants[gi] && hnode_of(gi) == gh && lf_take[gh] && lf_msg[gh*MW + ORIG_LSB +: NW] == gi[NW-1:0])
          granted[gi] = 1'b1;
  end

  // READY and the end of a request (its DDCR handled at the destination's hnode), per leaf.
  reg [NL-1:0] got_ready, got_done;
  reg [NW-1:0] o;
  always @* begin
    got_ready = {NL{1'b0}};
    got_done = {NL{1'b0}};
    o = {NW{1'b0}};
    for (h = 0; h < H; h = h + 1) begin
      if (ready_valid[h]) begin
        o = ready_orig[h*NW +: NW];
        got_ready[o] = 1'b1;
      end
      if (handled_valid[h] && handled_msg[h*MW + TYPE_LSB +: 4] == T_DDCR) begin
        o = handled_msg[h*MW + ORIG_LSB +: NW];
        got_done[o] = 1'b1;
      end
    end
  end

  // ---- delivery to the host: one leaf's whole unit at a time, the lowest leaf with one first
  reg rx_busy;
  reg [NW-1:0] rx_cur;
  reg [NW-1:0] rx_pick;
  reg rx_any;
  always @* begin
    rx_any = 1'b0;
    rx_pick = {NW{1'b0}};
    for (i = NL - 1; i >= 0; i = i - 1)
      if (rx_units[i] != {(RXQ_W+1){1'b0}}) begin
        rx_any = 1'b1;
        rx_pick = i[NW-1:0];
      end
  end
  wire [32:0] rx_word = rxq[{rx_cur, rx_head[rx_cur]}];
  assign rx_valid = rx_busy;
  assign rx_leaf = {{(16-NW){1'b0}}, rx_cur};
  assign rx_data = rx_word[31:0];
  assign rx_last = rx_word[32];
  wire rx_give = rx_busy && rx_ready;

  reg [NL-1:0] leaf_busy, rx_full;
  always @* begin
    for (i = 0; i < NL; i = i + 1) rx_full[i] = rx_cnt[i][RXQ_W];
    for (i = 0; i < NL; i = i + 1)
      leaf_busy[i] = (st[i] != L_IDLE && st[i] != L_DATA) || (st[i] == L_DATA && tx_cnt[i] != {(TXQ_W+1){1'b0}}) ||
                     (st[i] == L_IDLE && run && tx_cnt[i] != {(TXQ_W+1){1'b0}}) || rx_cnt[i] != {(RXQ_W+1){1'b0}};
  end
  assign busy = ctrl_busy || |leaf_busy;

  // Each leaf's buffer head.
  wire [32:0] head_w [0:NL-1];
  genvar hg;
  generate
    for (hg = 0; hg < NL; hg = hg + 1) begin : g_head
      localparam [31:0] HG = hg;
      assign head_w[hg] = txq[{HG[NW-1:0], tx_head[hg]}];
    end
  endgenerate

  integer l;
  always @(posedge clk) begin
    if (rst) begin
      for (l = 0; l < NL; l = l + 1) begin
        st[l] <= L_IDLE;
        dest[l] <= {NW{1'b0}};
        hdr_last[l] <= 1'b0;
        tx_head[l] <= {TXQ_W{1'b0}};
        tx_tail[l] <= {TXQ_W{1'b0}};
        tx_cnt[l] <= {(TXQ_W+1){1'b0}};
        rx_head[l] <= {RXQ_W{1'b0}};
        rx_tail[l] <= {RXQ_W{1'b0}};
        rx_cnt[l] <= {(RXQ_W+1){1'b0}};
        rx_units[l] <= {(RXQ_W+1){1'b0}};
      end
      c_in <= {NL*CW{1'b0}};
      rx_busy <= 1'b0;
      rx_cur <= {NW{1'b0}};
    end else begin
      if (!rx_busy && rx_any) begin
        rx_busy <= 1'b1;
        rx_cur <= rx_pick;
      end
      for (l = 0; l < NL; l = l + 1) begin
        // the host's words into the buffer, the buffer's head out by the leaf
        if (tx_take && txl == l[NW-1:0]) begin
          txq[{l[NW-1:0], tx_tail[l]}] <= {tx_last, tx_data};
          tx_tail[l] <= tx_tail[l] + 1'b1;
        end
        c_in[l*CW +: CW] <= {CW{1'b0}};
        case (st[l])
          L_IDLE: if (run && tx_cnt[l] != {(TXQ_W+1){1'b0}}) begin
            dest[l] <= head_w[l][NW-1:0];
            hdr_last[l] <= head_w[l][32];
            tx_head[l] <= tx_head[l] + 1'b1;
            st[l] <= L_CSR;
          end
          L_CSR: if (granted[l]) st[l] <= L_WAIT_READY;
          L_WAIT_READY: if (got_ready[l]) st[l] <= L_SRC;
          L_SRC: begin
            c_in[l*CW +: CW] <= {1'b1, hdr_last[l], l[31:0]};
            st[l] <= hdr_last[l] ? L_ODCR : L_DATA;
          end
          L_DATA: if (tx_cnt[l] != {(TXQ_W+1){1'b0}}) begin
            c_in[l*CW +: CW] <= {1'b1, head_w[l]};
            tx_head[l] <= tx_head[l] + 1'b1;
            if (head_w[l][32]) st[l] <= L_ODCR;
          end
          L_ODCR: if (granted[l]) st[l] <= L_WAIT_DONE;
          L_WAIT_DONE: if (got_done[l]) st[l] <= L_IDLE;
          default: st[l] <= L_IDLE;
        endcase
        tx_cnt[l] <= tx_cnt[l] + {{TXQ_W{1'b0}}, tx_take && txl == l[NW-1:0]}
                     - {{TXQ_W{1'b0}}, (st[l] == L_IDLE && run && tx_cnt[l] != {(TXQ_W+1){1'b0}}) ||
                                        (st[l] == L_DATA && tx_cnt[l] != {(TXQ_W+1){1'b0}})};
        // what the leaf's circuit brings, into its receive buffer
        if (c_out[l*CW + 33] && !rx_cnt[l][RXQ_W]) begin
          rxq[{l[NW-1:0], rx_tail[l]}] <= c_out[l*CW +: 33];
          rx_tail[l] <= rx_tail[l] + 1'b1;
        end
        rx_cnt[l] <= rx_cnt[l] + {{RXQ_W{1'b0}}, c_out[l*CW + 33] && !rx_cnt[l][RXQ_W]}
                     - {{RXQ_W{1'b0}}, rx_give && rx_cur == l[NW-1:0]};
        rx_units[l] <= rx_units[l] + {{RXQ_W{1'b0}}, c_out[l*CW + 33] && c_out[l*CW + 32] && !rx_cnt[l][RXQ_W]}
                       - {{RXQ_W{1'b0}}, rx_give && rx_last && rx_cur == l[NW-1:0]};
        if (rx_give && rx_cur == l[NW-1:0]) rx_head[l] <= rx_head[l] + 1'b1;
      end
      if (rx_give && rx_last) rx_busy <= 1'b0;
    end
  end

  // ---- counters
  integer k;
  always @(posedge clk) begin
    if (rst || clear) begin
      for (k = 0; k < NL; k = k + 1) begin
        sent[k] <= 32'd0;
        recv[k] <= 32'd0;
      end
      held <= 32'd0;
      readies <= 32'd0;
      cancels <= 32'd0;
      dropped <= 32'd0;
    end else begin
      for (k = 0; k < NL; k = k + 1) begin
        if (tx_take && tx_last && txl == k[NW-1:0]) sent[k] <= sent[k] + 32'd1;
        if (rx_give && rx_last && rx_cur == k[NW-1:0]) recv[k] <= recv[k] + 32'd1;
      end
      held <= held + {31'd0, tx_take && tx_last} - {31'd0, rx_give && rx_last};
      readies <= readies + count_h(ready_valid);
      cancels <= cancels + count_h(sent_cancels(sent_valid, sent_msg));
      dropped <= dropped + count_l(drops(c_out, rx_full));
    end
  end
  function [31:0] count_h(input [H-1:0] v);
    integer b;
    begin
      count_h = 32'd0;
      for (b = 0; b < H; b = b + 1) count_h = count_h + {31'd0, v[b]};
    end
  endfunction
  function [31:0] count_l(input [NL-1:0] v);
    integer b;
    begin
      count_l = 32'd0;
      for (b = 0; b < NL; b = b + 1) count_l = count_l + {31'd0, v[b]};
    end
  endfunction
  function [H-1:0] sent_cancels(input [H-1:0] v, input [H*MW-1:0] m);
    integer b;
    begin
      for (b = 0; b < H; b = b + 1) sent_cancels[b] = v[b] && m[b*MW + TYPE_LSB +: 4] == T_CANCEL;
    end
  endfunction
  function [NL-1:0] drops(input [NL*CW-1:0] c, input [NL-1:0] full);
    integer b;
    begin
      for (b = 0; b < NL; b = b + 1) drops[b] = c[b*CW + 33] && full[b];
    end
  endfunction

  genvar g;
  generate
    for (g = 0; g < NL; g = g + 1) begin : g_cnt
      assign counters[64*g +: 32] = sent[g];
      assign counters[64*g + 32 +: 32] = recv[g];
    end
  endgenerate
  assign counters[64*NL +: 32] = held;
  assign counters[64*NL + 32 +: 32] = readies;
  assign counters[64*NL + 64 +: 32] = cancels;
  assign counters[64*NL + 96 +: 32] = dropped;
endmodule
`default_nettype wire

// A CM-5 network interface's control-network side (paper, section 2; section 5): the leaf of
// the tree. The processor pushes operations into an outgoing FIFO per function (broadcast,
// combine; LF deep each; `inj_ready` tells whether the one it names has room) and receives
// every result on `res_*`, valid for one cycle (`res_valid`; the other `res_*` hold until the
// next down frame: cm5ctl_stream writes a result from them over several cycles).
// Each up frame the leaf sends: the next broadcast word as a single-source packet, unless BW
// of its broadcasts have not come back yet (end-to-end flow control: single-source packets
// are not buffered in the tree); else the next combining operation as a multiple-source packet
// (an abstain packet if the processor abstains), unless its parent said stop, AD operations
// are unfinished or the leaf is halted by a flush; else an idle packet. The result of a
// segmented scan at a leaf whose segment bit is set is the identity (the scan starts over
// there); otherwise the value that came down.
// The interface keeps every combining operation until its result comes back (paper: "the
// network interfaces retain the values that the user has pushed ... until the corresponding
// operation has completed"): one buffer of LF + AD entries, read at `rdp` (the oldest
// unfinished, whose result comes next), sent at `snd`, written at `wrp`. A flush (a broadcast of
// kind supervisor, comb 7, a privileged one) arriving moves `snd` back to `rdp`, halts the
// leaf and toggles its flush epoch; `restart` (the supervisor resuming the user) lets it send
// the kept operations again, in their order.
// Router-done (kind reduce, comb 7): the leaf sends rounds of ADD reductions of `rd_count`
// (its data network counter: messages put in minus taken out), one at a time and nothing else
// combining meanwhile, until a round sums to zero or below; that round's result is the one the
// processor gets (comb 7; the error bit when the sum is below zero: a duplicated message).
// Global bits: `async_in` (bit 0: the user's asynchronous OR, bit 1: the privileged one) and
// the hard errors (`hard_error_in`, this leaf's fault and link errors) go up in every packet;
// `async_out` and `hard_error_out` are the partition's ORs from the last good packet down.
`default_nettype none
module cm5ctl_leaf #(
  parameter integer W = 32,
  parameter integer PB = W + 15,
  parameter integer C = 0,        // CRC bits per packet: 0 or 8
  parameter integer F = 0,        // 1: the CM-5's 65-bit frame on the links (cm5ctl_link_tx.v)
  parameter integer WU = 6,
  parameter integer WD = 5,
  parameter integer TU = 8,
  parameter integer TD = 10,
  parameter integer LF = 4,
  parameter integer LCW = 3,
  parameter integer AD = 8,
  parameter integer ACW = 4,
  parameter integer BW = 4,
  parameter integer BCW = 3,
  parameter integer ALIGN = 0,    // 1: frames start from the alignment packet (cm5ctl_align.v)
  parameter integer L = 40,
  parameter integer LPW = 6,
  parameter integer INIT = 0,     // sends nothing (idle packets without global bits) before this cycle
  parameter integer ICW = 1
) (
  input  wire clk,
  input  wire rst,
  // the processor's side
  input  wire inj_valid,
  output wire inj_ready,
  input  wire inj_bcast,      // 1: broadcast (single-source), 0: combining operation
  input  wire inj_abstain,
  input  wire [1:0] inj_kind, // combining: 0 reduce, 1 forward scan, 2 backward scan, 3 sync OR; broadcast: its kind
  input  wire [2:0] inj_comb, // 0 OR, 1 XOR, 2 MAX, 3 ADD, 4 UADD, 5 ADDC, 6 UADDC, 7 router-done; broadcast: 7 = flush
  input  wire inj_segmented,
  input  wire inj_seg,
  input  wire [W-1:0] inj_data,
  input  wire [W-1:0] rd_count,  // the data network counter router-done sums (signed)
  input  wire restart,           // resume after a flush
  input  wire [1:0] async_in,
  input  wire hard_error_in,
  output reg  res_valid,
  output reg  res_bcast,
  output reg  [1:0] res_kind,
  output reg  [2:0] res_comb,
  output reg  [W-1:0] res_data,
  output reg  res_ovf,
  output reg  res_err,
  output reg  res_abstained,
  output reg  [1:0] async_out,
  output reg  hard_error_out,
  output reg  halted,           // a flush stopped this interface; `restart` resumes it
  output wire aligned,          // the alignment packet has come (always, without one)
  // the network's side
  output wire [WU-1:0] up_out,
  input  wire [WD-1:0] down_in,
  output reg  fault,
  output reg  link_error  // sticky: a packet arrived with a wrong CRC (and was taken as idle)
);
  localparam integer DL = 15;
  localparam integer D = LF + AD;            // the combine buffer
  localparam integer PW = $clog2(D);
  localparam integer DCW = $clog2(D + 1);
  wire ut, dt, go, pat;
  cm5ctl_align #(.EN(ALIGN), .ROOT(0), .L(L), .LPW(LPW)) al (
    .clk(clk), .rst(rst), .wire0(down_in[0]), .go(go), .aligned(aligned), .pat(pat));
  cm5ctl_frame #(.T(TU), .ALIGN(ALIGN)) fu (.clk(clk), .rst(rst), .go(go), .last(ut));
  cm5ctl_frame #(.T(TD), .ALIGN(ALIGN)) fd (.clk(clk), .rst(rst), .go(go), .last(dt));
  // Initialization: the alignment packet reaches every leaf of the partition before INIT; until
  // then a leaf sends nothing but idle packets without global bits (all zero on the wires, so
  // that nothing looks like an alignment packet to a node not aligned yet).
  reg init_done;
  generate
    if (INIT == 0) begin : g_no_init
      always @(posedge clk) init_done <= 1'b1;
    end else begin : g_init
      reg [ICW-1:0] ic;
      localparam integer LASTI = INIT - 1;
      always @(posedge clk)
        if (rst) begin
          ic <= {ICW{1'b0}};
          init_done <= 1'b0;
        end else if (!init_done) begin
          ic <= ic + 1'b1;
          init_done <= ic == LASTI[ICW-1:0];
        end
    end
  endgenerate

  // What comes down.
  wire [PB-1:0] pp;
  wire rx_crc;
  wire [PB-1:0] pp_e;
  cm5ctl_link_rx #(.PB(PB), .C(C), .F(F), .WIDTH(WD), .T(TD)) rx (.clk(clk), .rst(rst), .last(dt), .wires(down_in), .pkt(pp), .early(pp_e), .crc_err(rx_crc));
  wire p_ss = pp[2:1] == 2'd1;
  wire p_ms = pp[2];
  wire flushing = dt && p_ss && pp[7:5] == 3'd7;

  // The combine buffer: {data, seg, segmented, comb, kind, abstain} per entry. The data is
  // read only where a packet is sent (snd), so it fits one block RAM read port; the 8 header
  // bits are also read where a result comes back (rdp), from flip-flops: one memory read at
  // both would be a block RAM copy per port (4 blocks of 40 bits where 2 do).
  reg [W-1:0] cdat [0:D-1];
  (* ram_style = "logic" *) reg [7:0] chdr [0:D-1];
  reg [PW-1:0] rdp, snd, wrp;
  reg [DCW-1:0] nq;   // pushed, not sent
  reg [ACW-1:0] nfl;  // sent, result not back
  // The broadcast FIFO: {data, kind, flush}.
  wire [LCW-1:0] bcount;
  wire bempty, bfull;
  wire [W+2:0] bhead;
  assign inj_ready = inj_bcast ? !bfull : nq < LF[DCW-1:0];
  wire push = inj_valid && inj_ready;
  reg [BCW-1:0] ss_out;
  reg stop, ep;
  reg rd_wait;  // a router-done round is in the tree
  wire send_ss = ut && init_done && !bempty && ss_out < BW[BCW-1:0];
  wire send_ms = ut && init_done && !send_ss && nq != {DCW{1'b0}} && !stop && nfl < AD[ACW-1:0] && !rd_wait && !halted && !flushing;
  wire ovb;
  cm5ctl_fifo #(.WIDTH(W + 3), .DEPTH(LF), .CW(LCW)) bq (
    .clk(clk), .rst(rst), .clr(1'b0), .push(push && inj_bcast),
    .din({inj_data, inj_kind, inj_comb == 3'd7}), .pop(send_ss), .head(bhead), .count(bcount), .empty(bempty), .full(bfull),
    .overflow(ovb));

  // An entry's multiple-source packet (router-done: an ADD reduction of the counter) and what
  // its result needs: {router-done, abstained, seg, segd, comb, kind}.
  function [W+13:0] ms_of;  // the packet's bits PB-1..1: {data, global 000, err/ovf 00, seg, segd, comb, kind, type}
    input [W+7:0] h;
    input [W-1:0] cnt;
    reg is_rd, abs, segd;
    reg [1:0] kind;
    reg [2:0] comb;
    begin
      is_rd = h[2:1] == 2'd0 && h[5:3] == 3'd7;
      abs = h[0] && !is_rd;
      kind = h[2:1];
      comb = is_rd ? 3'd3 : (kind == 2'd3 ? 3'd0 : h[5:3]);
      segd = (kind == 2'd1 || kind == 2'd2) && h[6];
      ms_of = {is_rd ? cnt : (abs ? {W{1'b0}} : (kind == 2'd3 ? {{(W-1){1'b0}}, h[8]} : h[8 +: W])),
               3'b000, 2'b00, segd && h[7] && !abs, segd, comb, kind, abs ? 2'd3 : 2'd2};
    end
  endfunction
  wire [W+7:0] shead = {cdat[snd], chdr[snd]};
  wire [W+7:0] rhead = {{W{1'b0}}, chdr[rdp]};  // a result needs the header only
  wire s_rd = shead[2:1] == 2'd0 && shead[5:3] == 3'd7;
  wire [W+13:0] ms = ms_of(shead, rd_count);
  wire [W+13:0] rm = ms_of(rhead, rd_count);
  wire r_rd = rhead[2:1] == 2'd0 && rhead[5:3] == 3'd7;
  wire r_abs = rhead[0] && !r_rd;
  wire [PB-1:1] ss_pkt = {bhead[3 +: W], 3'b000, 2'b00, 1'b0, 1'b0, bhead[0] ? 3'd7 : 3'd0,
                          bhead[0] ? 2'd1 : bhead[2:1], 2'd1};
  wire [2:0] gup = init_done ? {hard_error_in || fault || link_error, async_in} : 3'b000;
  wire [PB-1:1] upk = send_ss ? ss_pkt : (send_ms ? ms[PB-2:0] : {(PB-1){1'b0}});
  cm5ctl_link_tx #(.PB(PB), .C(C), .F(F), .WIDTH(WU), .T(TU)) tx (
    .clk(clk), .rst(rst), .load(ut), .pkt({upk[PB-1:15], gup, upk[11:1], ep}), .late({PB{1'b0}}),
    .late2({PB{1'b0}}), .wires(up_out));

  // A result: the entry at rdp is the operation it belongs to.
  wire under = nfl == {ACW{1'b0}};
  wire [5:0] e = under ? 6'd0 : rm[7:2];   // {segd, comb, kind} as sent (packet bits 8:3)
  wire e_seg = !under && rm[8];
  wire [1:0] p_kind = pp[4:3];
  wire [2:0] p_comb = p_kind == 2'd3 ? 3'd0 : pp[7:5];
  wire [W-1:0] id = p_comb == 3'd2 ? {1'b1, {(W-1){1'b0}}} : {W{1'b0}};
  wire restart_scan = (p_kind == 2'd1 || p_kind == 2'd2) && pp[8] && e_seg;
  wire mismatch = e != pp[8:3] || under;
  wire ms_err = pp[11] || mismatch;
  // A router-done round ends on an error, a zero sum or a negative one (a duplicated message).
  wire rd_round = p_ms && !under && r_rd;
  wire rd_neg = pp[DL + W - 1];
  wire rd_end = ms_err || rd_neg || pp[DL +: W] == {W{1'b0}};
  wire done = dt && p_ms && !under && (!rd_round || rd_end);  // the operation at rdp completes
  wire again = dt && rd_round && !rd_end;                      // another router-done round
  wire sent = send_ms;

  always @(posedge clk)
    if (!rst && push && !inj_bcast) begin
      cdat[wrp] <= inj_data;
      chdr[wrp] <= {inj_seg, inj_segmented, inj_comb, inj_kind, inj_abstain};
    end

  function [PW-1:0] inc;
    input [PW-1:0] p;
    begin
      inc = p == D[PW-1:0] - 1'b1 ? {PW{1'b0}} : p + 1'b1;
    end
  endfunction

  always @(posedge clk) begin
    if (rst) begin
      res_valid <= 1'b0;
      res_bcast <= 1'b0;
      res_kind <= 2'd0;
      res_comb <= 3'd0;
      res_data <= {W{1'b0}};
      res_ovf <= 1'b0;
      res_err <= 1'b0;
      res_abstained <= 1'b0;
      async_out <= 2'b00;
      hard_error_out <= 1'b0;
      halted <= 1'b0;
      ss_out <= {BCW{1'b0}};
      stop <= 1'b0;
      ep <= 1'b0;
      rd_wait <= 1'b0;
      fault <= 1'b0;
      link_error <= 1'b0;
      rdp <= {PW{1'b0}};
      snd <= {PW{1'b0}};
      wrp <= {PW{1'b0}};
      nq <= {DCW{1'b0}};
      nfl <= {ACW{1'b0}};
    end else begin
      if (rx_crc) link_error <= 1'b1;
      res_valid <= dt && (p_ss || (p_ms && (!rd_round || rd_end)));
      if (dt) begin
        stop <= pp[0];
        if (!rx_crc) {hard_error_out, async_out} <= pp[14:12];
        res_bcast <= p_ss;
        res_kind <= p_kind;
        res_comb <= rd_round ? 3'd7 : pp[7:5];
        res_data <= (p_ms && restart_scan) ? id : pp[DL +: W];
        res_ovf <= pp[10];
        res_err <= pp[11] || (p_ms && (mismatch || (rd_round && rd_neg)));
        res_abstained <= p_ms && !under && r_abs;
      end
      if (push && !inj_bcast) wrp <= inc(wrp);
      if (flushing) begin
        // Every operation not completed is sent again after the restart, in its order.
        snd <= rdp;
        nq <= nq + {{(DCW-ACW){1'b0}}, nfl} + {{(DCW-1){1'b0}}, push && !inj_bcast};
        nfl <= {ACW{1'b0}};
        halted <= 1'b1;
        ep <= !ep;
        rd_wait <= 1'b0;
      end else begin
        if (restart) halted <= 1'b0;
        if (done) rdp <= inc(rdp);
        if (again) snd <= rdp;
        else if (sent) snd <= inc(snd);
        nq <= nq + {{(DCW-1){1'b0}}, push && !inj_bcast} + {{(DCW-1){1'b0}}, again} - {{(DCW-1){1'b0}}, sent};
        nfl <= nfl + {{(ACW-1){1'b0}}, sent} - {{(ACW-1){1'b0}}, done || again};
        if (sent && s_rd) rd_wait <= 1'b1;
        else if (dt && rd_round) rd_wait <= 1'b0;
      end
      ss_out <= ss_out - {{(BCW-1){1'b0}}, dt && p_ss && ss_out != {BCW{1'b0}}} + {{(BCW-1){1'b0}}, send_ss};
      if (ovb || (dt && p_ms && under)) fault <= 1'b1;
    end
  end
  wire unused = &{1'b0, pat, bcount, pp_e, pp[9], rm[W+13:9], rm[1:0], upk[14:12]};
endmodule
`default_nettype wire

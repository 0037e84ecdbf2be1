// A CM-5 network interface's control-network side (paper, section 2; section 5): the leaf of
// the tree. The processor pushes operations into an outgoing FIFO per function (broadcast,
// combine; LF deep each; `inj_ready` tells whether the one it names has room) and receives
// every result on `res_*`, valid for one cycle.
// Each up frame the leaf sends: the next broadcast word as a single-source packet, unless BW
// of its broadcasts have not come back yet (end-to-end flow control: single-source packets
// are not buffered in the tree); else the next combining operation as a multiple-source packet
// (an abstain packet if the processor abstains), unless its parent said stop or AD operations
// are unfinished; else an idle packet. It keeps each operation's kind and segment bit for the
// way down. The result of a segmented scan at a leaf whose segment bit is set is the identity
// (the scan starts over there); otherwise the value that came down.
// Router-done (kind reduce, comb 7): the leaf sends rounds of ADD reductions of `rd_count`
// (its data network counter: messages put in minus taken out), one at a time and nothing else
// combining meanwhile, until a round sums to zero or below; that round's result is the one the
// processor gets (comb 7; the error bit when the sum is below zero: a duplicated message).
`default_nettype none
module cm5ctl_leaf #(
  parameter integer W = 32,
  parameter integer PB = W + 12,
  parameter integer C = 0,        // CRC bits per packet: 0 or 8
  parameter integer WU = 6,
  parameter integer WD = 5,
  parameter integer TU = 8,
  parameter integer TD = 9,
  parameter integer LF = 4,
  parameter integer LCW = 3,
  parameter integer AD = 8,
  parameter integer ACW = 4,
  parameter integer BW = 4,
  parameter integer BCW = 3
) (
  input  wire clk,
  input  wire rst,
  // the processor's side
  input  wire inj_valid,
  output wire inj_ready,
  input  wire inj_bcast,      // 1: broadcast (single-source), 0: combining operation
  input  wire inj_abstain,
  input  wire [1:0] inj_kind, // combining: 0 reduce, 1 forward scan, 2 backward scan, 3 sync OR; broadcast: its kind
  input  wire [2:0] inj_comb, // 0 OR, 1 XOR, 2 MAX, 3 ADD, 4 UADD
  input  wire inj_segmented,
  input  wire inj_seg,
  input  wire [W-1:0] inj_data,
  input  wire [W-1:0] rd_count,  // the data network counter router-done sums (signed)
  output reg  res_valid,
  output reg  res_bcast,
  output reg  [1:0] res_kind,
  output reg  [2:0] res_comb,
  output reg  [W-1:0] res_data,
  output reg  res_ovf,
  output reg  res_err,
  output reg  res_abstained,
  // the network's side
  output wire [WU-1:0] up_out,
  input  wire [WD-1:0] down_in,
  output reg  fault,
  output reg  link_error  // sticky: a packet arrived with a wrong CRC (and was taken as idle)
);
  wire ut, dt;
  cm5ctl_frame #(.T(TU)) fu (.clk(clk), .rst(rst), .last(ut));
  cm5ctl_frame #(.T(TD)) fd (.clk(clk), .rst(rst), .last(dt));

  // Outgoing FIFOs.
  wire [LCW-1:0] ccount, bcount;
  wire [W+7:0] chead;
  wire [W+1:0] bhead;
  assign inj_ready = inj_bcast ? bcount < LF[LCW-1:0] : ccount < LF[LCW-1:0];
  wire push = inj_valid && inj_ready;
  reg [BCW-1:0] ss_out;
  reg stop;
  wire [ACW-1:0] acount;
  wire send_ss = ut && bcount != {LCW{1'b0}} && ss_out < BW[BCW-1:0];
  reg rd_wait;  // a router-done round is in the tree
  wire c_rd;    // the head operation is router-done
  wire send_ms = ut && !send_ss && ccount != {LCW{1'b0}} && !stop && acount < AD[ACW-1:0] && !rd_wait;
  wire rd_pop;
  wire ovc, ovb;
  cm5ctl_fifo #(.WIDTH(W + 8), .DEPTH(LF), .CW(LCW)) cq (
    .clk(clk), .rst(rst), .push(push && !inj_bcast),
    .din({inj_data, inj_seg, inj_segmented, inj_comb, inj_kind, inj_abstain}),
    .pop((send_ms && !c_rd) || rd_pop), .head(chead), .count(ccount), .overflow(ovc));
  cm5ctl_fifo #(.WIDTH(W + 2), .DEPTH(LF), .CW(LCW)) bq (
    .clk(clk), .rst(rst), .push(push && inj_bcast), .din({inj_data, inj_kind}),
    .pop(send_ss), .head(bhead), .count(bcount), .overflow(ovb));

  // The multiple-source packet of the head operation (router-done: an ADD reduction of the
  // counter; it stays at the head until a round ends it).
  assign c_rd = chead[2:1] == 2'd0 && chead[5:3] == 3'd7;
  wire c_abs = chead[0] && !c_rd;
  wire [1:0] c_kind = chead[2:1];
  wire [2:0] c_comb = c_rd ? 3'd3 : (c_kind == 2'd3 ? 3'd0 : chead[5:3]);
  wire c_segd = (c_kind == 2'd1 || c_kind == 2'd2) && chead[6];
  wire c_seg = c_segd && chead[7] && !c_abs;
  wire [W-1:0] c_data = c_rd ? rd_count : (c_abs ? {W{1'b0}} : (c_kind == 2'd3 ? {{(W-1){1'b0}}, chead[8]} : chead[8 +: W]));
  wire [PB-1:0] ms_pkt = {c_data, 2'b00, c_seg, c_segd, c_comb, c_kind, c_abs ? 2'd3 : 2'd2, 1'b0};
  wire [PB-1:0] ss_pkt = {bhead[2 +: W], 2'b00, 1'b0, 1'b0, 3'd0, bhead[1:0], 2'd1, 1'b0};
  cm5ctl_link_tx #(.PB(PB), .C(C), .WIDTH(WU), .T(TU)) tx (
    .clk(clk), .rst(rst), .load(ut), .pkt(send_ss ? ss_pkt : (send_ms ? ms_pkt : {PB{1'b0}})), .wires(up_out));

  // What comes down.
  wire [PB-1:0] pp;
  wire rx_crc;
  cm5ctl_link_rx #(.PB(PB), .C(C), .WIDTH(WD), .T(TD)) rx (.clk(clk), .rst(rst), .last(dt), .wires(down_in), .pkt(pp), .crc_err(rx_crc));
  wire p_ss = pp[2:1] == 2'd1;
  wire p_ms = pp[2];
  wire pop = dt && p_ms;
  wire under = acount == {ACW{1'b0}};
  wire [8:0] ahead, e;
  wire aovf;
  // Put aside: {router-done round, abstained, seg, segd, comb, kind}.
  cm5ctl_fifo #(.WIDTH(9), .DEPTH(AD), .CW(ACW)) aside (
    .clk(clk), .rst(rst), .push(send_ms), .din({c_rd, c_abs, c_seg, c_segd, c_comb, c_kind}), .pop(pop),
    .head(ahead), .count(acount), .overflow(aovf));
  assign e = under ? 9'd0 : ahead;
  wire [1:0] p_kind = pp[4:3];
  wire [2:0] p_comb = p_kind == 2'd3 ? 3'd0 : pp[7:5];
  wire [W-1:0] id = p_comb == 3'd2 ? {1'b1, {(W-1){1'b0}}} : {W{1'b0}};
  wire restart = (p_kind == 2'd1 || p_kind == 2'd2) && pp[8] && e[6];
  wire mismatch = e[5:0] != pp[8:3];
  wire ms_err = pp[11] || under || mismatch;
  // A router-done round ends on an error, a zero sum or a negative one (a duplicated message).
  wire rd_round = p_ms && e[8];
  wire rd_neg = pp[12 + W - 1];
  wire rd_end = ms_err || rd_neg || pp[12 +: W] == {W{1'b0}};
  assign rd_pop = dt && rd_round && rd_end;

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
      ss_out <= {BCW{1'b0}};
      stop <= 1'b0;
      rd_wait <= 1'b0;
      fault <= 1'b0;
      link_error <= 1'b0;
    end else begin
      if (rx_crc) link_error <= 1'b1;
      res_valid <= dt && (p_ss || (p_ms && (!rd_round || rd_end)));
      if (dt) begin
        stop <= pp[0];
        res_bcast <= p_ss;
        res_kind <= p_kind;
        res_comb <= rd_round ? 3'd7 : pp[7:5];
        res_data <= (p_ms && restart) ? id : pp[12 +: W];
        res_ovf <= pp[10];
        res_err <= pp[11] || (p_ms && (under || mismatch || (rd_round && rd_neg)));
        res_abstained <= p_ms && e[7];
      end
      if (send_ms && c_rd) rd_wait <= 1'b1;
      else if (dt && rd_round) rd_wait <= 1'b0;
      ss_out <= ss_out - {{(BCW-1){1'b0}}, dt && p_ss && ss_out != {BCW{1'b0}}} + {{(BCW-1){1'b0}}, send_ss};
      if (ovc || ovb || aovf || (pop && under)) fault <= 1'b1;
    end
  end
  wire unused = &{1'b0, pp[9]};
endmodule
`default_nettype wire

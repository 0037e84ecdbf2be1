// A CM-1 processor endpoint for the network top: it holds a queue of messages written by
// the host (its part of the routing pattern), offers the head message to the injector every
// petit cycle until it is acknowledged, and collects the VP and DATA bits it receives.
// Message bits on the wire, LSB first within each field: MSGP, CUBE-ADDRESS (relative to this
// chip), PROC-ADDRESS, VP-ADDRESS, DATA, PARITY (even over CUBE, PROC and DATA, as in 3.1).
module cm1_endpoint #(
    parameter integer C    = 4,
    parameter integer PA   = 4,
    parameter integer V    = 0,
    parameter integer D    = 8,
    parameter integer L    = 18,
    parameter integer PW   = 5,
    parameter integer QW   = 2,   // log2(queue depth)
    parameter integer PAW  = (PA > 0) ? PA : 1,  // derived widths (zero-width fields are 1)
    parameter integer VW   = (V > 0) ? V : 1,
    parameter integer W    = V + D
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [PW-1:0]     phase,
    input  wire              run,
    input  wire [C-1:0]      my_chip,   // this endpoint's chip number (a port, not a parameter,
                                        // so every endpoint is the same module)
    // host load port: push one message (dst chip, dst proc, vp, data)
    input  wire              load_en,
    input  wire [C-1:0]      load_chip,
    // load_proc and load_vp keep width 1 and go unused when P = 1 or v = 0
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [PAW-1:0]    load_proc,
    input  wire [VW-1:0]     load_vp,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [D-1:0]      load_data,
    output wire              full,
    output wire              pending,   // messages waiting to be injected
    // router side
    output wire              tx,
    input  wire              ack,
    output wire              injected,  // one cycle at phase 0: the head message went into the router
    input  wire              rx,
    input  wire              rx_start,
    output reg               rx_valid,  // one cycle: rx_word holds the received VP/DATA
    output wire [W-1:0]      rx_word
);
  // Thousands of identical endpoints: keep them one Verilator class instead of inlining each.
  /*verilator no_inline_module*/
  localparam integer FW = C + PA + V + D;   // queued fields: chip, proc, vp, data
  localparam integer QD = 1 << QW;

  reg [FW-1:0] queue [0:QD-1];
  reg [QW-1:0] rd_ptr;
  reg [QW-1:0] wr_ptr;
  reg [QW:0]   count;
  assign full = (count == QD[QW:0]);
  assign pending = (count != 0);

  wire [FW-1:0] head = queue[rd_ptr];
  wire [C-1:0]  rel = head[C-1:0] ^ my_chip;
  wire [D-1:0]  h_data = head[FW-1 -: D];
  wire [FW-1:0] load_word;
  // The whole message as it goes on the wire, bit 0 first. Fields absent at this size
  // (P = 1 or v = 0) are left out, not zero-filled.
  wire [L-1:0] word;
  generate
    if (PA > 0 && V > 0) begin : g_pv
      wire [PA-1:0] h_proc = head[C +: PA];
      wire [V-1:0] h_vp = head[C + PA +: V];
      assign load_word = {load_data, load_vp, load_proc, load_chip};
      assign word = {^{rel, h_proc, h_data}, h_data, h_vp, h_proc, rel, 1'b1};
    end else if (PA > 0) begin : g_p
      wire [PA-1:0] h_proc = head[C +: PA];
      assign load_word = {load_data, load_proc, load_chip};
      assign word = {^{rel, h_proc, h_data}, h_data, h_proc, rel, 1'b1};
    end else if (V > 0) begin : g_v
      wire [V-1:0] h_vp = head[C +: V];
      assign load_word = {load_data, load_vp, load_chip};
      assign word = {^{rel, h_data}, h_data, h_vp, rel, 1'b1};
    end else begin : g_none
      assign load_word = {load_data, load_chip};
      assign word = {^{rel, h_data}, h_data, rel, 1'b1};
    end
  endgenerate

  wire offer_now = (phase == {PW{1'b0}}) && run && pending;
  reg [L-1:0] tx_sr;   // bits 1.. of the message offered at phase 0
  assign tx = (phase == {PW{1'b0}}) ? offer_now : tx_sr[0];

  wire push = load_en && !full;
  wire pop = offer_now && ack;
  assign injected = pop;

  // Received bits arrive LSB first: shift them in from the top.
  function [W-1:0] shift_rx;
    input [W-1:0] cur;
    input bit_in;
    begin
      shift_rx = (W > 1) ? ((cur >> 1) | ({{W-1{1'b0}}, bit_in} << (W - 1))) : {{W-1{1'b0}}, bit_in};
    end
  endfunction
  reg [W-1:0] rx_sr;
  assign rx_word = rx_sr;   // complete while rx_valid is high
  reg [7:0]   rx_cnt;
  reg         rx_busy;
  wire [7:0]  rx_cnt_next = rx_start ? 8'd1 : rx_cnt + 8'd1;

  always @(posedge clk) begin
    if (rst) begin
      rd_ptr <= {QW{1'b0}};
      wr_ptr <= {QW{1'b0}};
      count <= {QW+1{1'b0}};
      tx_sr <= {L{1'b0}};
      rx_sr <= {W{1'b0}};
      rx_cnt <= 8'd0;
      rx_busy <= 1'b0;
      rx_valid <= 1'b0;
    end else begin
      if (push) begin
        queue[wr_ptr] <= load_word;
        wr_ptr <= wr_ptr + 1'b1;
      end
      if (pop) rd_ptr <= rd_ptr + 1'b1;
      if (push && !pop) count <= count + 1'b1;
      else if (pop && !push) count <= count - 1'b1;

      if (phase == {PW{1'b0}}) tx_sr <= offer_now ? (word >> 1) : {L{1'b0}};
      else tx_sr <= tx_sr >> 1;

      rx_valid <= 1'b0;
      if (rx_start || rx_busy) begin
        rx_sr <= shift_rx(rx_sr, rx);
        rx_cnt <= rx_cnt_next;
        if (rx_cnt_next == W[7:0]) begin
          rx_busy <= 1'b0;
          rx_valid <= 1'b1;
        end else begin
          rx_busy <= 1'b1;
        end
      end
    end
  end
endmodule

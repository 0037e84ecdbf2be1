// A CM-1 processor endpoint for the network top: it holds a queue of messages written by
// the host (its part of the routing pattern), offers the head message to the injector every
// petit cycle until it is acknowledged, and collects the VP and DATA bits it receives.
// Message bits on the wire, LSB first within each field: MSGP, CUBE-ADDRESS (relative to this
// chip), PROC-ADDRESS, VP-ADDRESS, DATA, PARITY (even over CUBE, PROC and DATA, as in 3.1).
// A bit-time is one ce cycle: every flip-flop (the queue too) updates only when ce is high
// (rst regardless), and the inputs are only sampled then: a message is loaded in a cycle with
// load_en && ce && !full. "Cycle" below means ce cycle. full, pending, injected, rx_valid
// and rx_word depend on registers only, so they hold while ce is low.
module cm1_endpoint #(
    parameter integer C    = 4,
    parameter integer PA   = 4,
    parameter integer V    = 0,
    parameter integer D    = 8,
    parameter integer L    = 18,
    parameter integer TP   = 18,  // petit period: phase counts 0 .. TP-1
    parameter integer PW   = 5,
    parameter integer QW   = 2,   // log2(queue depth)
    parameter integer PAW  = (PA > 0) ? PA : 1,  // derived widths (zero-width fields are 1)
    parameter integer VW   = (V > 0) ? V : 1,
    parameter integer W    = V + D
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              ce,        // clock enable: one bit-time per cycle with ce high
    input  wire [PW-1:0]     phase,     // advances by one every ce cycle, 0 at the first after rst
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
    output wire              filling,   // a message goes into the empty queue (if ce): `pending` rises next cycle
    // router side
    output wire              tx,        // the offer (MSGP) at phase 0, then the message bits
    output wire              tx_ahead,  // tx of the next cycle, except across phase 0 (a register)
    output wire              head_a0,   // the head message's first CUBE-ADDRESS bit (a register)
    input  wire              ack,
    output wire              injected,  // one cycle (phase 1): the head message went into the router
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
  // An acknowledged offer (phase 0) leaves the queue one cycle later (pop, at phase 1), so
  // that the acknowledge only has to reach a flip-flop; full and pending count it as gone
  // already, exactly as if it had left at phase 0. The head is only read at phase 0.
  reg          pop;
  assign full = count[QW] && !pop;   // count never exceeds QD = 2^QW
  assign pending = (count != 0) && !(pop && count == 1);

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

  // at0: phase == 0, a registered flag (from phase TP-1 in the ce cycle before), so that the
  // offer, and the acknowledge that depends on it, start at a flip-flop.
  localparam [TP-1:0] M_AT0 = {1'b1, {TP-1{1'b0}}};
  wire at0;
  cm1_phase_flags #(.N(1), .TP(TP), .PW(PW), .MASKS(M_AT0))
    u_flags (.clk(clk), .rst(rst), .ce(ce), .phase(phase), .flags(at0));
  wire offer_now = at0 && run && pending;
  reg [L-1:0] tx_sr;   // bits 1.. of the message offered at phase 0
  assign tx = at0 ? offer_now : tx_sr[0];
  // For a router that selects the bits a cycle ahead: tx_sr[1] is tx of the next cycle after
  // phase 0 .. TP-2; at phase 0 an offered message puts its first address bit (head_a0) in
  // tx_sr[0]. head_q keeps bit 0 of the next cycle's head entry (the first CUBE-ADDRESS bit,
  // absolute) so that head_a0 does not go through the queue's read mux.
  assign tx_ahead = tx_sr[1];
  reg head_q;
  assign head_a0 = head_q ^ my_chip[0];

  wire push = load_en && !full;
  assign injected = pop;   // the acknowledged offer leaves the queue (phase 1)
  wire [QW-1:0] rd_next = pop ? rd_ptr + 1'b1 : rd_ptr;
  wire [QW:0] count_next = (push && !pop) ? count + 1'b1 : (pop && !push) ? count - 1'b1 : count;
  assign filling = load_en && !pending;   // (an empty queue is not full)

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
  localparam integer WLAST_I = W - 1;
  localparam [7:0] WLAST = WLAST_I[7:0];
  wire        rx_last = rx_start ? (W == 1) : (rx_cnt == WLAST);   // rx_cnt_next == W

  always @(posedge clk) begin
    if (rst) begin
      rd_ptr <= {QW{1'b0}};
      pop <= 1'b0;
      head_q <= 1'b0;
      wr_ptr <= {QW{1'b0}};
      count <= {QW+1{1'b0}};
      tx_sr <= {L{1'b0}};
      rx_sr <= {W{1'b0}};
      rx_cnt <= 8'd0;
      rx_busy <= 1'b0;
      rx_valid <= 1'b0;
    end else if (ce) begin
      if (push) begin
        queue[wr_ptr] <= load_word;
        wr_ptr <= wr_ptr + 1'b1;
      end
      head_q <= (push && wr_ptr == rd_next) ? load_word[0] : queue[rd_next][0];
      pop <= offer_now && ack;
      rd_ptr <= rd_next;
      count <= count_next;

      if (at0) tx_sr <= offer_now ? (word >> 1) : {L{1'b0}};
      else tx_sr <= tx_sr >> 1;

      rx_valid <= 1'b0;
      if (rx_start || rx_busy) begin
        rx_sr <= shift_rx(rx_sr, rx);
        rx_cnt <= rx_cnt_next;
        if (rx_last) begin
          rx_busy <= 1'b0;
          rx_valid <= 1'b1;
        end else begin
          rx_busy <= 1'b1;
        end
      end
    end
  end
endmodule

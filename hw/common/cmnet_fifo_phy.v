// FT245-style synchronous FIFO PHY for the host link (FT2232H channel A in sync FIFO mode,
// FT600-like at 8 bits): the same byte streams as the UART pair, with flow control both ways.
//
// Timing model (everything on the FT chip's CLKOUT, 60 MHz for the FT2232H; this module and
// the frame engine run in that clock domain):
//   - Every output (rd_n, wr_n, oe_n, data_out, data_oe) is a flop, so it changes just after
//     a rising edge and is stable for the whole cycle.
//   - A byte moves from the chip at a rising edge when rxf_n, oe_n and rd_n were all low in
//     the cycle before it; this module samples data_in at that edge. A byte moves to the chip
//     at a rising edge when txe_n and wr_n were both low in the cycle before it. The module
//     decides both with the same rule the chip uses, so it never loses or repeats a byte, even
//     when rxf_n or txe_n changes in the middle of a burst: a write refused by a high txe_n
//     keeps data_out and wr_n until the chip takes it.
//   - rxf_n, txe_n and data_in are used at the same edge as the chip sees the strobes: connect
//     them straight from the pads. Adding an input register stage (e.g. SB_IO input flops)
//     delays them by a cycle and breaks the rule above; that variant is not supported here.
//   - oe_n goes low one cycle before the first rd_n (the datasheet's requirement), and the bus
//     turns around through one idle cycle with neither side driving: data_oe falls before
//     oe_n does, and oe_n rises before data_oe does.
//   - The board top makes the tri-state pad from data_out, data_oe and data_in.
// The receive side holds up to two bytes (a skid buffer): rd_n is driven low only when both a
// byte taken at the next edge and the one possibly taken at this edge fit, so out_ready may
// fall at any time. Writing has priority over reading when both are possible, so replies
// drain while the host keeps sending; reading resumes as soon as the transmit side is empty.
module cmnet_fifo_phy (
    input  wire       clk,
    input  wire       rst,
    // FT245 synchronous FIFO pins
    input  wire       rxf_n,      // low: the chip has a byte for us
    input  wire       txe_n,      // low: the chip can take a byte
    output reg        rd_n,
    output reg        wr_n,
    output reg        oe_n,       // low: the chip drives the data bus
    input  wire [7:0] data_in,
    output reg  [7:0] data_out,
    output reg        data_oe,    // we drive the data bus
    // received bytes (host -> board)
    output wire       out_valid,
    input  wire       out_ready,
    output wire [7:0] out_data,
    // bytes to send (board -> host)
    input  wire       in_valid,
    output wire       in_ready,
    input  wire [7:0] in_data,
    output wire       busy        // a byte is held in either direction
);
  localparam [1:0] M_IDLE = 2'd0, M_TURN = 2'd1, M_READ = 2'd2, M_WRITE = 2'd3;
  reg [1:0] mode;

  // Receive skid buffer: b0 is the head.
  reg [7:0] b0, b1;
  reg [1:0] cnt;
  assign out_valid = (cnt != 2'd0);
  assign out_data = b0;

  wire rx_xfer = (mode == M_READ) && !rd_n && !rxf_n;  // a byte moves in at this edge
  wire tx_xfer = !wr_n && !txe_n;                      // data_out moves out at this edge
  wire pop = out_valid && out_ready;
  wire [1:0] cnt_next = cnt + {1'b0, rx_xfer} - {1'b0, pop};
  wire want_tx = in_valid && !txe_n;

  // The write slot (data_out with wr_n low) is free at this edge if empty or being taken.
  wire slot_free = wr_n || tx_xfer;
  assign in_ready = ((mode == M_IDLE) && !txe_n) || ((mode == M_WRITE) && slot_free);
  wire accept = in_valid && in_ready;
  assign busy = out_valid || !wr_n;

  always @(posedge clk) begin
    if (rst) begin
      mode <= M_IDLE;
      rd_n <= 1'b1;
      wr_n <= 1'b1;
      oe_n <= 1'b1;
      data_oe <= 1'b0;
      data_out <= 8'd0;
      b0 <= 8'd0;
      b1 <= 8'd0;
      cnt <= 2'd0;
    end else begin
      // Receive buffer.
      cnt <= cnt_next;
      if (rx_xfer) begin
        if (cnt == 2'd0 || (cnt == 2'd1 && pop)) b0 <= data_in;
        else b1 <= data_in;
      end
      if (pop && cnt == 2'd2) b0 <= b1;

      // Transmit slot.
      if (accept) begin
        data_out <= in_data;
        wr_n <= 1'b0;
      end else if (tx_xfer) begin
        wr_n <= 1'b1;
      end

      case (mode)
        M_IDLE: begin
          // oe_n and data_oe are both off here: one full cycle of bus turnaround.
          if (want_tx) begin
            mode <= M_WRITE;
            data_oe <= 1'b1;      // the first byte was taken above (in_ready in M_IDLE)
          end else if (!rxf_n) begin
            mode <= M_TURN;
            oe_n <= 1'b0;
          end
        end
        M_TURN: begin
          // The chip drives the bus from now on; rd_n follows one cycle after oe_n.
          mode <= M_READ;
          rd_n <= !(cnt_next <= 2'd1 && !rxf_n);
        end
        M_READ: begin
          if (want_tx) begin
            // A byte taken at this edge (rx_xfer) is still captured above.
            mode <= M_IDLE;
            rd_n <= 1'b1;
            oe_n <= 1'b1;
          end else begin
            rd_n <= !(cnt_next <= 2'd1 && !rxf_n);
          end
        end
        default: begin  // M_WRITE
          // Leave once nothing is left to write and the host has data for us. (A byte the
          // chip refuses, txe_n high, is held here until it goes: the host always reads.)
          if (!accept && slot_free && !rxf_n) begin
            mode <= M_IDLE;
            data_oe <= 1'b0;
          end
        end
      endcase
    end
  end
endmodule

// 8N1 UART receiver for the host link. The line is brought into the clock domain by a
// 2-flop synchronizer; a start bit is accepted when the line is still low half a bit after
// the falling edge (so glitches shorter than that are ignored), then every bit is sampled in
// its middle, CLKS_PER_BIT cycles apart. A low stop bit is a framing error: the byte is
// dropped (frame_err strobes instead of out_valid) and the receiver waits for the line to go
// high again before hunting the next start bit (a break is one error, not a stream of 0x00).
// There is no flow control: out_valid strobes for one cycle and the consumer must take the
// byte then (the frame engine buffers into its ring).
module cmnet_uart_rx #(
    parameter integer CLKS_PER_BIT = 104   // clock / baud rate, >= 4 (e.g. 12 MHz / 115200)
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       rxd,         // the line, asynchronous, idle high
    output reg        out_valid,   // one cycle: out_data holds a received byte
    output reg  [7:0] out_data,
    output reg        frame_err,   // one cycle: a byte with a low stop bit was dropped
    output wire       busy         // a character is being received or out_valid is high
);
  localparam integer CW = $clog2(CLKS_PER_BIT);
  localparam integer FULL_I = CLKS_PER_BIT - 1;
  localparam [CW-1:0] FULL = FULL_I[CW-1:0];
  localparam integer HALF_I = CLKS_PER_BIT / 2 - 1;
  localparam [CW-1:0] HALF = HALF_I[CW-1:0];

  generate
    if (CLKS_PER_BIT < 4) begin : g_check
      // Elaboration fails here: mid-bit sampling needs at least 4 clocks per bit.
      cmnet_uart_rx_CLKS_PER_BIT_must_be_at_least_4 bad_parameter ();
    end
  endgenerate

  // Both flops start at the idle level so that reset does not look like a start bit.
  reg meta, line;
  always @(posedge clk) begin
    if (rst) begin
      meta <= 1'b1;
      line <= 1'b1;
    end else begin
      meta <= rxd;
      line <= meta;
    end
  end

  localparam [2:0] S_IDLE = 3'd0, S_START = 3'd1, S_DATA = 3'd2, S_STOP = 3'd3, S_BREAK = 3'd4;
  reg [2:0]    state;
  reg [CW-1:0] cnt;
  reg [2:0]    nbit;
  reg [7:0]    shift;
  assign busy = (state != S_IDLE) || out_valid;

  always @(posedge clk) begin
    out_valid <= 1'b0;
    frame_err <= 1'b0;
    if (rst) begin
      state <= S_IDLE;
      cnt <= {CW{1'b0}};
      nbit <= 3'd0;
      shift <= 8'd0;
      out_data <= 8'd0;
    end else begin
      case (state)
        S_IDLE:
          if (!line) begin
            state <= S_START;
            cnt <= HALF;
          end
        S_START:
          if (cnt != 0) cnt <= cnt - 1'b1;
          else if (line) state <= S_IDLE;   // high again at mid-bit: a glitch, not a start bit
          else begin
            state <= S_DATA;
            cnt <= FULL;
            nbit <= 3'd0;
          end
        S_DATA:
          if (cnt != 0) cnt <= cnt - 1'b1;
          else begin
            shift <= {line, shift[7:1]};   // LSB first
            cnt <= FULL;
            nbit <= nbit + 1'b1;
            if (nbit == 3'd7) state <= S_STOP;
          end
        S_STOP:
          if (cnt != 0) cnt <= cnt - 1'b1;
          else if (line) begin
            // Back to idle in the middle of the stop bit: the next start edge can come
            // half a bit from now, and the receiver is already hunting for it.
            out_valid <= 1'b1;
            out_data <= shift;
            state <= S_IDLE;
          end else begin
            frame_err <= 1'b1;
            state <= S_BREAK;
          end
        default:  // S_BREAK
          if (line) state <= S_IDLE;
      endcase
    end
  end
endmodule

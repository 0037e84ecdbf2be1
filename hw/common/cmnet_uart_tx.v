// 8N1 UART transmitter for the host link: start bit, 8 data bits LSB first, one stop bit,
// each CLKS_PER_BIT cycles. in_ready rises in the last cycle of the stop bit, so back-to-back
// bytes go out with no idle time between characters.
module cmnet_uart_tx #(
    parameter integer CLKS_PER_BIT = 104   // clock / baud rate, >= 4 (like cmnet_uart_rx)
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       in_valid,
    output wire       in_ready,
    input  wire [7:0] in_data,
    output reg        txd,        // the line, idle high
    output wire       busy        // a character is on the line
);
  localparam integer CW = $clog2(CLKS_PER_BIT);
  localparam integer FULL_I = CLKS_PER_BIT - 1;
  localparam [CW-1:0] FULL = FULL_I[CW-1:0];

  generate
    if (CLKS_PER_BIT < 4) begin : g_check
      cmnet_uart_tx_CLKS_PER_BIT_must_be_at_least_4 bad_parameter ();
    end
  endgenerate

  reg [CW-1:0] cnt;
  reg [3:0]    left;    // bits still to finish on the line, including the one on txd now
  reg [8:0]    shift;   // the bits after the one on txd; ones shift in behind the stop bit
  assign in_ready = (left == 4'd0) || (left == 4'd1 && cnt == 0);
  assign busy = (left != 4'd0);

  always @(posedge clk) begin
    if (rst) begin
      txd <= 1'b1;
      cnt <= {CW{1'b0}};
      left <= 4'd0;
      shift <= 9'h1FF;
    end else if (in_valid && in_ready) begin
      txd <= 1'b0;                 // start bit
      shift <= {1'b1, in_data};    // then the data, then the stop bit
      left <= 4'd10;
      cnt <= FULL;
    end else if (left != 4'd0) begin
      if (cnt != 0) cnt <= cnt - 1'b1;
      else begin
        txd <= shift[0];
        shift <= {1'b1, shift[8:1]};
        left <= left - 1'b1;
        cnt <= FULL;
      end
    end
  end
endmodule

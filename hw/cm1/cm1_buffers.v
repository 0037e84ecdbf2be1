// The CM-1 message buffers (off-chip RAM in the original, 3.1): every heart row's output is
// delayed so that its MSGP reaches the injector exactly at the next petit cycle's phase 0.
// Delivered messages are dropped here: when the ejector decides (`drop`, one cycle, C bit-
// times after the MSGP left the heart) the MSGP bit of each delivered row is cleared as it
// moves along the delay line, so the injector sees no message in that row at phase 0; the
// injector never selects the remaining bits of a row without MSGP.
// A bit-time is one ce cycle: the lines shift only when ce is high (rst regardless).
module cm1_buffers #(
    parameter integer B  = 7,
    parameter integer DL = 10,  // delay in bit-times: petit period - 2c
    parameter integer DP = 5    // position of the MSGP in the line when `drop` comes: DL - c
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          ce,         // clock enable: one bit-time per cycle with ce high
    input  wire [B-1:0]  row_in,     // from the heart's last column
    input  wire [B-1:0]  drop,       // rows the ejector delivers (their MSGP is in line[DP])
    output wire [B-1:0]  buf_out     // to the injector
);
  genvar g;
  generate
    for (g = 0; g < B; g = g + 1) begin : g_row
      // line[i] <= line[i+1], line[DL-1] <= row_in; the bit leaving line[DP] is masked.
      reg [DL-1:0] line;
      wire [DL-1:0] shifted = {row_in[g], line[DL-1:1]};   // DL >= c + 1 >= 2
      always @(posedge clk)
        if (rst) line <= {DL{1'b0}};
        else if (ce) line <= shifted & ~({{DL-1{1'b0}}, drop[g]} << (DP - 1));
      assign buf_out[g] = line[0];
    end
  endgenerate
endmodule

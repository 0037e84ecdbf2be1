// The CM-1 message buffers (off-chip RAM in the original, 3.1): every heart row's output is
// delayed so that its MSGP reaches the injector exactly at the next petit cycle's phase 0.
// Delivered messages are dropped there: their MSGP is masked while the injector sets its
// switch (phase 0); the injector never selects their remaining bits.
module cm1_buffers #(
    parameter integer B  = 7,
    parameter integer DL = 10,  // delay in bit-times: petit period - 2c
    parameter integer PW = 5
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [PW-1:0] phase,
    input  wire [B-1:0]  row_in,     // from the heart's last column
    input  wire [B-1:0]  ejected,    // rows the ejector delivered this petit cycle
    output wire [B-1:0]  buf_out     // to the injector
);
  genvar g;
  generate
    for (g = 0; g < B; g = g + 1) begin : g_row
      reg [DL-1:0] line;
      if (DL > 1) begin : g_long
        always @(posedge clk) line <= rst ? {DL{1'b0}} : {row_in[g], line[DL-1:1]};
      end else begin : g_short
        always @(posedge clk) line <= rst ? 1'b0 : row_in[g];
      end
      assign buf_out[g] = line[0] && !((phase == {PW{1'b0}}) && ejected[g]);
    end
  endgenerate
endmodule

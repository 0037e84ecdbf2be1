// One switch of a three-stage Clos network: an IN x OUT crossbar of W-bit circuits, configured
// from outside (a passive switch, like the Inmos C004 of CONNECT). Every output has a select
// register (which input it copies) and a valid bit; an output with no valid selection reads 0.
// The data path is combinational: a set-up circuit is a wire from input to output.
// Configuration: in a clock with cfg_we high, output cfg_port takes {cfg_valid, cfg_sel}; rst
// (synchronous) invalidates every output.
`default_nettype none
module clos_crossbar #(
  parameter integer IN = 2,   // inputs
  parameter integer OUT = 2,  // outputs
  parameter integer W = 8,    // circuit width in bits
  parameter integer SW = 1,   // select bits (at least clog2(IN), at least 1)
  parameter integer PW = 1    // output number bits (at least clog2(OUT), at least 1)
) (
  input  wire clk,
  input  wire rst,
  input  wire cfg_we,
  input  wire [PW-1:0] cfg_port,
  input  wire cfg_valid,
  input  wire [SW-1:0] cfg_sel,
  input  wire [IN*W-1:0] in_data,
  output wire [OUT*W-1:0] out_data
);
  genvar o;
  generate
    for (o = 0; o < OUT; o = o + 1) begin : g_out
      localparam [PW-1:0] PORT = o;
      reg [SW-1:0] sel;
      reg valid;
      reg [W-1:0] y;
      integer k;
      always @(posedge clk) begin
        if (rst) begin
          valid <= 1'b0;
          sel <= {SW{1'b0}};
        end else if (cfg_we && cfg_port == PORT) begin
          valid <= cfg_valid;
          sel <= cfg_sel;
        end
      end
      always @* begin
        y = {W{1'b0}};
        for (k = 0; k < IN; k = k + 1)
          if (valid && sel == k[SW-1:0]) y = in_data[k*W +: W];
      end
      assign out_data[o*W +: W] = y;
    end
  endgenerate
endmodule
`default_nettype wire

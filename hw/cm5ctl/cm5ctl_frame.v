// The frame counters of one end: `last` high in the last cycle of every frame of T cycles.
`default_nettype none
module cm5ctl_frame #(
  parameter integer T = 8
) (
  input  wire clk,
  input  wire rst,
  output wire last
);
  generate
    if (T == 1) begin : g_one
      assign last = 1'b1;
      wire unused = &{1'b0, clk, rst};
    end else begin : g_count
      localparam integer CW = $clog2(T);
      localparam integer LAST = T - 1;
      reg [CW-1:0] c;
      assign last = c == LAST[CW-1:0];
      always @(posedge clk) c <= (rst || last) ? {CW{1'b0}} : c + 1'b1;
    end
  endgenerate
endmodule
`default_nettype wire

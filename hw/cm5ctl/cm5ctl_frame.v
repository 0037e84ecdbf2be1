// The frame counters of one end: `last` high in the last cycle of every frame of T cycles.
// ALIGN = 0: the counters start at reset (every end of the tree together). ALIGN = 1: they
// start at `go`, the cycle an alignment packet ended (cm5ctl_align.v: the packet began in a
// cycle where every frame began, 5 cycles before the one after `go`), at phase 5 mod T; the
// partial frame under way then is skipped (`last` from the first whole frame on).
`default_nettype none
module cm5ctl_frame #(
  parameter integer T = 8,
  parameter integer ALIGN = 0
) (
  input  wire clk,
  input  wire rst,
  input  wire go,
  output wire last
);
  localparam integer P0 = 5 % T;
  generate
    if (T == 1) begin : g_one
      if (ALIGN == 0) begin : g_free
        assign last = 1'b1;
        wire unused = &{1'b0, clk, rst, go};
      end else begin : g_aligned
        reg run;
        always @(posedge clk) run <= rst ? 1'b0 : (run || go);
        assign last = run;
      end
    end else begin : g_count
      localparam integer CW = $clog2(T);
      localparam integer LAST = T - 1;
      reg [CW-1:0] c;
      wire at_last = c == LAST[CW-1:0];
      if (ALIGN == 0) begin : g_free
        assign last = at_last;
        always @(posedge clk) c <= (rst || at_last) ? {CW{1'b0}} : c + 1'b1;
        wire unused = &{1'b0, go};
      end else begin : g_aligned
        reg run, seen;  // counting; the partial first frame is over
        assign last = run && seen && at_last;
        always @(posedge clk)
          if (rst) begin
            c <= {CW{1'b0}};
            run <= 1'b0;
            seen <= 1'b0;
          end else if (go && !run) begin
            c <= P0[CW-1:0];
            run <= 1'b1;
            seen <= P0 == 0;
          end else if (run) begin
            c <= at_last ? {CW{1'b0}} : c + 1'b1;
            if (at_last) seen <= 1'b1;
          end
      end
    end
  endgenerate
endmodule
`default_nettype wire

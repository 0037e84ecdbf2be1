// Input buffer of one CM-5 data router port: a shift-register FIFO of D flits of W bits.
// Entry 0 is the oldest; `flat` shows every entry (entry k at [k*W +: W]) so the router reads
// the whole head word (the first 32/W entries) at once. Push and pop in the same cycle are
// allowed. The sender's credits keep it from overflowing: a push into a full FIFO without a
// pop is a protocol violation and is dropped. `nonempty` is count != 0, registered (the pop
// that depends on it starts at a flip-flop); an entry is written where count says, decoded
// from the register, so no subtraction follows the pop. `flat_next` is what `flat` will be
// after this cycle, `count_next` what `count` will be (the router registers its head word's
// routing fields and whether it is all in from them).
`default_nettype none
module cm5data_fifo #(
    parameter integer W    = 4,
    parameter integer D    = 16,
    parameter integer CNTW = 5     // bits to count 0..D
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            push,
    input  wire [W-1:0]    din,
    input  wire            pop,    // only when count != 0
    output wire [D*W-1:0]  flat,
    output reg  [CNTW-1:0] count,
    output reg             nonempty,
    output wire [D*W-1:0]  flat_next,
    output wire [CNTW-1:0] count_next
);
  localparam [CNTW-1:0] DEPTH = D[CNTW-1:0];
  wire do_push = push && (count != DEPTH || pop);
  genvar g;
  generate
    for (g = 0; g < D; g = g + 1) begin : g_entry
      localparam [CNTW-1:0] IDX = g;
      localparam [CNTW-1:0] IDX1 = g + 1;
      reg [W-1:0] q;
      wire [W-1:0] above;
      if (g + 1 < D) begin : g_mid
        assign above = flat[(g + 1) * W +: W];
      end else begin : g_top
        assign above = {W{1'b0}};
      end
      // The push lands at count - pop: entry g when count is g (no pop) or g + 1 (pop).
      wire at_g = count == IDX, at_g1 = count == IDX1;
      wire [W-1:0] nxt = (do_push && (pop ? at_g1 : at_g)) ? din : pop ? above : q;
      always @(posedge clk) q <= nxt;
      assign flat[g * W +: W] = q;
      assign flat_next[g * W +: W] = nxt;
    end
  endgenerate
  wire above_one;  // count > 1
  generate
    if (CNTW > 1) begin : g_wide
      assign above_one = |count[CNTW-1:1];
    end else begin : g_narrow
      assign above_one = 1'b0;
    end
  endgenerate
  assign count_next = count + {{(CNTW-1){1'b0}}, do_push} - {{(CNTW-1){1'b0}}, pop};
  always @(posedge clk) begin
    if (rst) begin
      count <= {CNTW{1'b0}};
      nonempty <= 1'b0;
    end else begin
      count <= count_next;
      nonempty <= do_push || above_one || (count[0] && !pop);
    end
  end
endmodule
`default_nettype wire

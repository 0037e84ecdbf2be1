// A first-in first-out buffer of DEPTH words (any DEPTH >= 1) for the CM-5 control network:
// the nodes' child queues and put-aside buffers, the root's turnaround queues, the network
// interface's outgoing FIFOs. `head` is the oldest word (valid while count != 0); pop takes
// it (the caller pops only when count != 0); push adds din. Pushing and popping in one cycle
// works when full; a push into a full buffer without a pop is dropped and raises `overflow`
// for that cycle. `clr` (a flush) empties it: whatever else happens in that cycle is dropped.
// `empty` (count == 0) and `full` (count == DEPTH) are flip-flops, kept beside the count: a
// node's decision reads them, not a comparison of the count.
`default_nettype none
module cm5ctl_fifo #(
  parameter integer WIDTH = 8,
  parameter integer DEPTH = 4,
  parameter integer CW = 3,         // count width: holds 0..DEPTH
  parameter integer RAM = 0         // 1: block RAM whatever the depth (a board short of logic cells)
) (
  input  wire clk,
  input  wire rst,
  input  wire clr,
  input  wire push,
  input  wire [WIDTH-1:0] din,
  input  wire pop,
  output wire [WIDTH-1:0] head,
  output reg  [CW-1:0] count,
  output reg  empty,
  output reg  full,
  output wire overflow
);
  localparam integer PW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam integer LAST = DEPTH - 1;
  reg [PW-1:0] rd, wr;
  localparam integer LASTC = DEPTH - 1;  // the count one short of full
  localparam [CW-1:0] ONE = 1;
  wire do_pop = pop && !empty;
  wire do_push = push && (!full || do_pop);
  assign overflow = push && full && !do_pop && !clr;
  function [PW-1:0] next_ptr;
    input [PW-1:0] p;
    begin
      next_ptr = (p == LAST[PW-1:0] || DEPTH == 1) ? {PW{1'b0}} : p + 1'b1;
    end
  endfunction
  always @(posedge clk) begin
    if (rst || clr) begin
      rd <= {PW{1'b0}};
      wr <= {PW{1'b0}};
      count <= {CW{1'b0}};
      empty <= 1'b1;
      full <= 1'b0;
    end else begin
      if (do_push) wr <= next_ptr(wr);
      if (do_pop) rd <= next_ptr(rd);
      if (do_push && !do_pop) begin
        count <= count + 1'b1;
        empty <= 1'b0;
        full <= count == LASTC[CW-1:0];
      end else if (do_pop && !do_push) begin
        count <= count - 1'b1;
        empty <= count == ONE;
        full <= 1'b0;
      end
    end
  end
  // Shallow buffers (most of the tree's) in flip-flops: a 4-kbit block RAM each would run an
  // iCE40 out of blocks long before out of logic; deeper ones (or any, with RAM) in block RAM.
  wire wen = !rst && !clr && do_push;
  generate
    if (DEPTH <= 8 && RAM == 0) begin : g_ff
      (* ram_style = "logic" *) reg [WIDTH-1:0] mem [0:DEPTH-1];
      assign head = mem[rd];
      always @(posedge clk) if (wen) mem[wr] <= din;
    end else begin : g_ram
      reg [WIDTH-1:0] mem [0:DEPTH-1];
      assign head = mem[rd];
      always @(posedge clk) if (wen) mem[wr] <= din;
    end
  endgenerate
endmodule
`default_nettype wire

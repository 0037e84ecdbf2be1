// A synchronous FIFO of 2^AW words of W bits, written so that yosys maps the storage to block
// RAM (registered read address, no reset on the array). first-word-fall-through: `dout` is the
// head word whenever `valid` is 1; `pop` takes it. `count` is the number of words held.
`default_nettype none
module cmnet_sync_fifo #(
    parameter integer W  = 32,
    parameter integer AW = 7
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          push,     // ignored when full
    input  wire [W-1:0]  din,
    output wire          full,
    input  wire          pop,      // ignored when !valid
    output wire          valid,
    output wire [W-1:0]  dout,
    output reg  [AW:0]   count
);
  localparam integer DEPTH = 1 << AW;
  reg [W-1:0] mem [0:DEPTH-1];
  reg [AW-1:0] wr_ptr, rd_ptr;
  // The head word is read from RAM one cycle after it is known, so `valid` waits for the
  // read: `ram_count` counts words in RAM, `head_ok` says dout holds the word at rd_ptr.
  reg [W-1:0] head;
  reg         head_ok;
  assign full = (count == DEPTH[AW:0]);
  assign valid = head_ok;
  assign dout = head;
  wire do_push = push && !full;
  wire do_pop = pop && head_ok;
  // The next read address: after a pop the word behind the head.
  wire [AW-1:0] rd_next = rd_ptr + {{(AW-1){1'b0}}, do_pop};
  // Words in RAM at or behind rd_next (count minus the one popped now).
  wire [AW:0] avail = count - {{AW{1'b0}}, do_pop};
  always @(posedge clk) begin
    if (do_push) mem[wr_ptr] <= din;
    // Read the word at rd_next; a word written this very cycle is not readable yet.
    head <= mem[rd_next];
  end
  always @(posedge clk) begin
    if (rst) begin
      wr_ptr <= {AW{1'b0}};
      rd_ptr <= {AW{1'b0}};
      count <= {(AW+1){1'b0}};
      head_ok <= 1'b0;
    end else begin
      if (do_push) wr_ptr <= wr_ptr + {{(AW-1){1'b0}}, 1'b1};
      rd_ptr <= rd_next;
      count <= count + {{AW{1'b0}}, do_push} - {{AW{1'b0}}, do_pop};
      // head reads mem[rd_next] now: it is the head word if that word was written before this
      // edge (a word pushed now is readable from the next edge on: one more cycle).
      head_ok <= (avail != {(AW+1){1'b0}});
    end
  end
endmodule
`default_nettype wire

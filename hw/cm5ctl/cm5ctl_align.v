// The alignment packet (paper, section 5: "a 5-bit packet used during system initialization to
// align the 65-bit packet boundaries so that a node can process the same fields in arriving
// messages at the same time"): 5 bits, 1 1 0 1 0 in time order, on wire 0 of a down link, sent
// in the 5 cycles from one where every up and down frame of the tree begins (a multiple of
// L = lcm(Tu, Td)). A node or leaf that is not aligned watches wire 0 of its parent link; at
// the pattern's last bit it raises `go` (its frame counters start, cm5ctl_frame.v) and is
// aligned from the next cycle; a node then sends the packet to its children in the next 5
// cycles from a multiple of L (`pat`, ORed into wire 0 of its child links). A partition's root
// (ROOT = 1) is aligned from reset and sends the packet in cycles 0..4. EN = 0: no alignment
// packet (every end is aligned by reset): aligned from reset, nothing sent.
`default_nettype none
module cm5ctl_align #(
  parameter integer EN = 0,
  parameter integer ROOT = 0,
  parameter integer L = 40,
  parameter integer LPW = 6
) (
  input  wire clk,
  input  wire rst,
  input  wire wire0,    // wire 0 of the parent link
  output wire go,
  output reg  aligned,
  output wire pat       // the packet's bit for wire 0 of the child links, this cycle
);
  localparam [4:0] PATTERN = 5'b01011;  // bit k is sent in cycle k: 1 1 0 1 0
  generate
    if (EN == 0) begin : g_off
      assign go = 1'b0;
      assign pat = 1'b0;
      always @(posedge clk) aligned <= 1'b1;
      wire unused = &{1'b0, rst, wire0};
    end else begin : g_on
      reg [3:0] hist;      // wire 0, the last four cycles (bit 0 the newest)
      reg [LPW-1:0] ph;    // this cycle mod L, once aligned
      reg [2:0] k;         // the packet's bit being sent (5: done)
      reg sending;
      wire [4:0] seen = {hist[3:0], wire0};
      // {first bit .. last bit} = {seen[4] .. seen[0]}
      assign go = ROOT == 0 && !aligned && seen == {PATTERN[0], PATTERN[1], PATTERN[2], PATTERN[3], PATTERN[4]};
      localparam integer P5 = 5 % L;
      localparam integer LL = L - 1;
      wire start = aligned && !sending && k == 3'd0 && ph == {LPW{1'b0}};
      assign pat = (start || sending) && PATTERN[k];
      always @(posedge clk)
        if (rst) begin
          hist <= 4'd0;
          aligned <= ROOT != 0;
          ph <= {LPW{1'b0}};
          k <= 3'd0;
          sending <= 1'b0;
        end else begin
          hist <= seen[3:0];
          if (go) begin
            aligned <= 1'b1;
            ph <= P5[LPW-1:0];
          end else if (aligned) begin
            ph <= ph == LL[LPW-1:0] ? {LPW{1'b0}} : ph + 1'b1;
          end
          if (start || sending) begin
            sending <= k != 3'd4;
            k <= k + 1'b1;
          end
        end
      wire unused = &{1'b0, PATTERN};
    end
  endgenerate
endmodule
`default_nettype wire

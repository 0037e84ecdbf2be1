// The combiners of cm5ctl_alu (same comb codes, same results) over two cycles, for a node that
// registers its decision and sends the word a chunk after the overflow bit (cm5ctl_node.v).
// `load` (the decision) takes the operands and `cin` (the carry kept from the word before),
// with `comb` decoded (not the operands: they come last): whether to add the carry, whether
// overflow is signed, and for MAX the right operand inverted, so that the one adder gives
// a - b (a >= b signed: from its sign, or from the operands' signs where they differ). The cycle after, `ovf`, `cout` (the carry to keep) and
// the comparison by carry-select: the low half's carry chain beside two chains of the high
// half, for a carry in of 0 and of 1, the low half's carry out picking one (chains of W/2
// bits, not W; a LUT after them). The low half's sum and carry and the comparison are
// registered at the end of that cycle; the cycle after, `y` from them and the high half's sum
// (again a chain of W/2 bits). `y` holds until the cycle after the next `load`; loads must be
// 3 or more cycles apart. `live` low at `load`: no result wanted: `ovf` and `cout` 0, and `y`
// 0 (the result's select set to zero the cycle after, so that `live` drives three flip-flops
// at `load`, and no reset is shared by the operands' 2W flip-flops). `pass` at `load`: `y` is
// `b` whatever `comb` (no overflow, no carry).
// `a_r`: `a` as loaded.
`default_nettype none
module cm5ctl_alu2 #(
  parameter integer W = 32
) (
  input  wire clk,
  input  wire load,
  input  wire live,
  input  wire pass,
  input  wire [2:0] comb,
  input  wire [W-1:0] a,
  input  wire [W-1:0] b,
  input  wire cin,
  output wire ovf,       // the cycle after `load`
  output wire cout,      // the cycle after `load`
  output wire [W-1:0] a_r,
  output reg  [W-1:0] y  // two cycles after `load`
);
  localparam integer H = W / 2;  // the low half (W >= 2)
  localparam integer U = W - H;  // the high half
  wire add = !pass && (comb == 3'd3 || comb == 3'd4 || comb == 3'd5 || comb == 3'd6);
  wire sgn = comb == 3'd3 || comb == 3'd5;
  wire max = !pass && comb == 3'd2;
  wire none = comb == 3'd7;  // no combiner: 0
  // What y is: 0 OR, 1 XOR, 2 MAX, 3 a sum, 4 b, 5 zero.
  wire [2:0] code = pass ? 3'd4 : (none ? 3'd5 : (add ? 3'd3 : (max ? 3'd2 : (comb == 3'd1 ? 3'd1 : 3'd0))));
  reg [W-1:0] ra, rb;
  reg [2:0] rcode;
  reg rsgn, runs;  // a signed, an unsigned addition (a result wanted)
  reg rci, radd, loaded, rlive;
  always @(posedge clk) begin
    loaded <= load;
    if (load) rlive <= live;
  end
  always @(posedge clk)
    if (load) begin
      ra <= a;
      rb <= max ? ~b : b;
      rcode <= code;
      rsgn <= live && add && sgn;
      runs <= live && add && !sgn;
      rci <= max || (!pass && cin && (comb == 3'd5 || comb == 3'd6));
      radd <= live && add;
    end else if (loaded && !rlive) begin
      rcode <= 3'd5;
    end
  // The cycle after `load`.
  wire [H:0] lo = {1'b0, ra[H-1:0]} + {1'b0, rb[H-1:0]} + {{H{1'b0}}, rci};
  wire [U:0] hi0 = {1'b0, ra[W-1:H]} + {1'b0, rb[W-1:H]};
  // (a + b + 1 as {a, 1} + {b, 1}: a chain of its own, not a + b's sum plus one.)
  wire [U+1:0] hi1x = {1'b0, ra[W-1:H], 1'b1} + {1'b0, rb[W-1:H], 1'b1};
  wire [U:0] hi1 = hi1x[U+1:1];
  // Signed overflow: the operands' signs agree and the sum's differs; unsigned: a carry out.
  wire same = ra[W-1] == rb[W-1];
  wire ovf0 = (rsgn && same && hi0[U-1] != ra[W-1]) || (runs && hi0[U]);
  wire ovf1 = (rsgn && same && hi1[U-1] != ra[W-1]) || (runs && hi1[U]);
  // MAX (b inverted): where the signs differ, a >= b when a >= 0; else when a - b >= 0.
  wire ge0 = same ? !ra[W-1] : !hi0[U-1];
  wire ge1 = same ? !ra[W-1] : !hi1[U-1];
  wire c0 = radd && hi0[U];
  wire c1 = radd && hi1[U];
  assign ovf = lo[H] ? ovf1 : ovf0;
  assign cout = lo[H] ? c1 : c0;
  reg [H-1:0] lo_r;
  reg c_r, g_r;
  always @(posedge clk) begin
    lo_r <= lo[H-1:0];
    c_r <= lo[H];
    g_r <= lo[H] ? ge1 : ge0;
  end
  // Two cycles after `load`.
  wire [U:0] hi = {1'b0, ra[W-1:H]} + {1'b0, rb[W-1:H]} + {{U{1'b0}}, c_r};
  wire unused = &{1'b0, hi0, hi1, hi1x[0], hi[U]};
  assign a_r = ra;
  always @* begin
    case (rcode)
      3'd0: y = ra | rb;
      3'd1: y = ra ^ rb;
      3'd2: y = g_r ? ra : ~rb;
      3'd3: y = {hi[U-1:0], lo_r};
      3'd4: y = rb;
      default: y = {W{1'b0}};
    endcase
  end
endmodule
`default_nettype wire

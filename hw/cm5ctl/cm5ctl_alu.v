// The five combiners of the CM-5 control network on W-bit words (paper, section 5): bitwise
// OR, bitwise XOR, signed maximum, signed addition and unsigned addition, which differ in how
// overflow is reported (signed: the two's complement range; unsigned: the carry out).
// comb: 0 OR, 1 XOR, 2 MAX, 3 ADD, 4 UADD, 5 ADDC, 6 UADDC (others: 0, no overflow). ADDC and
// UADDC add `cin`, the carry of the word before in a multi-word addition; every addition
// gives its carry out on `cout`. Combinational.
`default_nettype none
module cm5ctl_alu #(
  parameter integer W = 32
) (
  input  wire [2:0] comb,
  input  wire [W-1:0] a,
  input  wire [W-1:0] b,
  input  wire cin,
  output reg  [W-1:0] y,
  output reg  ovf,
  output reg  cout
);
  wire ci = cin && (comb == 3'd5 || comb == 3'd6);
  wire [W:0] sum = {1'b0, a} + {1'b0, b} + {{W{1'b0}}, ci};
  wire a_ge_b = $signed(a) >= $signed(b);
  always @* begin
    y = {W{1'b0}};
    ovf = 1'b0;
    cout = 1'b0;
    case (comb)
      3'd0: y = a | b;
      3'd1: y = a ^ b;
      3'd2: y = a_ge_b ? a : b;
      3'd3, 3'd5: begin
        y = sum[W-1:0];
        ovf = (a[W-1] == b[W-1]) && (sum[W-1] != a[W-1]);
        cout = sum[W];
      end
      3'd4, 3'd6: begin
        y = sum[W-1:0];
        ovf = sum[W];
        cout = sum[W];
      end
      default: ;
    endcase
  end
endmodule
`default_nettype wire

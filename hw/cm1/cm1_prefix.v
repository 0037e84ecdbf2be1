// Prefix counts as saturating thermometer codes, without adders (so that synthesis makes
// shallow LUT trees instead of carry-chain ripples). A count is a T-bit thermometer: bit k
// set when the count is at least k + 1, saturated at T.
//
// Recursive doubling (Kogge-Stone), levels FROM to TO - 1 of it: win_in[p*T +: T] counts the
// bits in the window (p - 2^FROM, p], win_out[p*T +: T] those in (p - 2^TO, p] (windows are
// cut at bit 0). With FROM = 0 the input is each bit on its own ({0..0, bit}); with
// 2^TO >= N the output is the inclusive prefix count of every p. Splitting the levels over
// two instances with a register between them pipelines the count.
module cm1_prefix #(
    parameter integer N    = 16,
    parameter integer T    = 7,
    parameter integer FROM = 0,
    parameter integer TO   = 4
) (
    input  wire [N*T-1:0] win_in,
    output wire [N*T-1:0] win_out
);
  // The count of a union of two disjoint sets from their thermometers: at least k + 1 ones
  // when one side alone has k + 1, or a has i + 1 and b has k - i.
  function [T-1:0] merge;
    input [T-1:0] a;
    input [T-1:0] b;
    integer k;
    integer i;
    begin
      for (k = 0; k < T; k = k + 1) begin
        merge[k] = a[k] | b[k];
        for (i = 0; i < k; i = i + 1) merge[k] = merge[k] | (a[i] & b[k - 1 - i]);
      end
    end
  endfunction

  // Each level is its own vector (one vector for all would look like a combinational loop
  // to Verilator).
  genvar l;
  genvar p;
  generate
    for (l = FROM; l <= TO; l = l + 1) begin : g_level
      wire [N*T-1:0] v;
      if (l == FROM) begin : g_in
        assign v = win_in;
      end else begin : g_merge
        for (p = 0; p < N; p = p + 1) begin : g_pos
          if (p >= (1 << (l - 1))) begin : g_add
            assign v[p*T +: T] = merge(g_level[l-1].v[p*T +: T], g_level[l-1].v[(p - (1 << (l - 1)))*T +: T]);
          end else begin : g_copy
            assign v[p*T +: T] = g_level[l-1].v[p*T +: T];
          end
        end
      end
    end
  endgenerate
  assign win_out = g_level[TO].v;
endmodule

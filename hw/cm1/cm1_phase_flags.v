// Registered bit-time decodes from constant masks, for the blocks that act on particular
// bit-times of the petit cycle (heart columns, ejector, endpoints). Flag g is high in a ce
// cycle when bit `phase` of the previous ce cycle is set in its mask MASKS[g*TP +: TP]: mask
// bit ph marks the phases whose next bit-time has the property. During rst the flags take
// mask bit TP-1, since phase is 0 at the first ce cycle after it. So a decode is a flip-flop
// fed by a mux of constants, with no compare between the phase and the logic it steers.
module cm1_phase_flags #(
    parameter integer N  = 1,    // flags
    parameter integer TP = 18,   // petit period: phase counts 0 .. TP-1
    parameter integer PW = 5,    // phase width
    parameter [N*TP-1:0] MASKS = {N*TP{1'b0}}
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          ce,      // clock enable: one bit-time per cycle with ce high
    input  wire [PW-1:0] phase,   // advances by one every ce cycle, 0 at the first after rst
    output wire [N-1:0]  flags
);
  genvar g;
  generate
    for (g = 0; g < N; g = g + 1) begin : g_flag
      localparam [TP-1:0] M = MASKS[g*TP +: TP];
      reg q;
      always @(posedge clk)
        if (rst || ce) q <= rst ? M[TP-1] : M[phase];
      assign flags[g] = q;
    end
  endgenerate
endmodule

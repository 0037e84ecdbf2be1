// One column of the CM-1 router heart (Kahle, Kuszmaul, Hillis 1989, 3.4): it routes up to
// one message across cube dimension COL and hands the rest, packed, to the next column.
//
// Bit-serial with address rotation (3.4.5): each of the B sites keeps two bits (r0, r1).
// The column sees a message as MSGP, A[COL], the other address bits, A[COL] is held back,
// then re-inserted after them, so the next column receives A[COL+1] right after MSGP.
// Every bit is delayed exactly two bit-times, so T_heart = l + 2c.
//
// Local bit-time lp = (phase - 2*COL) mod TP; the MSGP enters at lp = 0.
//   lp == 1          : MSGP (in r0) and A[COL] (on the input) of every row are known:
//                      the routing decision is registered (Figure 9, cases 1 to 3).
//   lp in [2, C]     : the other C-1 address bits bypass r0 (r0 holds A[COL]).
//   otherwise        : r1 <= r0 <= input (two-bit delay).
// The decision steers the outputs for TP bit-times, from lp = 2 to lp = 1 of the next period.
// Rows are packed (occupied rows are 0..n-1): that is how the injector fills them and how
// every column hands them on.
module cm1_heart_column #(
    parameter integer B   = 7,   // rows
    parameter integer C   = 4,   // cube dimensions
    parameter integer COL = 0,   // this column's dimension
    parameter integer L   = 18,  // message length in bits
    parameter integer TP  = 18,  // petit period in bit-times (>= L)
    parameter integer PW  = 5    // phase counter width
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [PW-1:0] phase,
    input  wire [B-1:0]  row_in,     // from the previous column (or the injector)
    output wire [B-1:0]  row_out,    // to the next column (or the ejector)
    output wire          cube_out,   // the message leaving across dimension COL
    input  wire          cube_in,    // the message arriving across dimension COL
    output reg           desperation,// pulse: a message was desperation-routed
    output wire          wire_busy   // the outgoing cube wire carries a message bit now
);
  // Local phase helpers: compare the global phase with constants folded at elaboration.
  function integer wrap;
    input integer x;
    begin
      wrap = ((x % TP) + TP) % TP;
    end
  endfunction

  localparam integer OFF       = wrap(2 * COL);               // MSGP enters at this phase
  localparam integer LP_FLIP_A = C + 2;                       // A[COL] leaves the column
  localparam integer LP_FLIP_P = wrap(L + 1);                 // PARITY leaves the column

  // lp: local bit-time, 0 when this petit cycle's MSGP is on row_in.
  localparam integer K_I = TP - OFF;
  localparam [PW:0] K = K_I[PW:0];
  localparam [PW:0] TPV = TP[PW:0];
  localparam [PW:0] CV = C[PW:0];
  localparam [PW:0] LV = L[PW:0];
  localparam [PW:0] FLIP_A = LP_FLIP_A[PW:0];
  localparam [PW:0] FLIP_P = LP_FLIP_P[PW:0];
  wire [PW:0] lp_sum = {1'b0, phase} + K;
  wire [PW:0] lp = (lp_sum >= TPV) ? (lp_sum - TPV) : lp_sum;
  // out_pos: position in the outgoing message (0 = MSGP, which leaves at lp = 2).
  wire [PW:0] out_pos = (lp >= 2) ? (lp - 2) : (lp + TPV - 2);
  wire decide = (lp == 1);
  wire bypass = (lp >= 2) && (lp <= CV);
  wire flip = (lp == FLIP_A) || (lp == FLIP_P);

  reg [B-1:0] r0;
  reg [B-1:0] r1;

  // Decision state: which row crosses, which rows shift down, where the arrival lands.
  reg          cross_valid;
  reg [B-1:0]  cross_row;    // one-hot
  reg [B-1:0]  shift_down;   // output row j takes r1[j+1]
  reg [B-1:0]  arrive_row;   // one-hot: the arrival becomes the highest occupied row

  // Combinational decision from MSGP (r0) and A[COL] (row_in) at lp == 1.
  reg [B-1:0]  want;
  reg          any_want;
  reg          full;
  reg [B-1:0]  sel_c;
  reg [B-1:0]  shift_c;
  reg [B-1:0]  arrive_c;
  integer      occupied;
  integer      k;
  integer      j;
  always @* begin
    want = r0 & row_in;
    any_want = |want;
    full = &r0;
    occupied = 0;
    for (j = 0; j < B; j = j + 1) occupied = occupied + {31'd0, r0[j]};
    sel_c = {B{1'b0}};
    k = B;
    if (any_want) begin
      for (j = B - 1; j >= 0; j = j - 1) if (want[j]) k = j;   // lowest wanting row
    end else if (full) begin
      k = B - 1;                                               // desperation: highest row
    end
    for (j = 0; j < B; j = j + 1) begin
      sel_c[j] = (j == k);
      shift_c[j] = (j >= k);
      arrive_c[j] = (k < B) ? (j == occupied - 1) : (j == occupied);
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      r0 <= {B{1'b0}};
      r1 <= {B{1'b0}};
      cross_valid <= 1'b0;
      cross_row <= {B{1'b0}};
      shift_down <= {B{1'b0}};
      arrive_row <= {B{1'b0}};
      desperation <= 1'b0;
    end else begin
      if (bypass) begin
        r1 <= row_in;
      end else begin
        r1 <= r0;
        r0 <= row_in;
      end
      desperation <= decide && !any_want && full;
      if (decide) begin
        cross_valid <= |sel_c;
        cross_row <= sel_c;
        shift_down <= shift_c;
        arrive_row <= arrive_c;
      end
    end
  end

  // Outputs: packed non-crossing rows, then the arrival.
  wire [B-1:0] r1_up = {1'b0, r1[B-1:1]};   // r1_up[g] = r1[g+1]
  genvar g;
  generate
    for (g = 0; g < B; g = g + 1) begin : g_out
      assign row_out[g] = arrive_row[g] ? cube_in :
                          (cross_valid && shift_down[g]) ? r1_up[g] : r1[g];
    end
  endgenerate

  wire in_window = (out_pos < LV);
  assign cube_out = cross_valid && in_window && ((|(cross_row & r1)) ^ flip);
  assign wire_busy = cross_valid && in_window;
endmodule

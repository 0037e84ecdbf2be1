// One column of the CM-1 router heart (Kahle, Kuszmaul, Hillis 1989, 3.4): it routes up to
// one message across cube dimension COL and hands the rest, packed, to the next column.
//
// Bit-serial with address rotation (3.4.5): each of the B sites keeps two bits (r0, r1).
// The column sees a message as MSGP, A[COL], the other address bits, A[COL] is held back,
// then re-inserted after them, so the next column receives A[COL+1] right after MSGP.
// Every bit is delayed exactly two bit-times, so T_heart = l + 2c.
//
// Local bit-time lp = (phase - 2*COL) mod TP; the MSGP enters at lp = 0.
//   lp in [2, C]     : the other C-1 address bits bypass r0 (r0 holds A[COL]).
//   otherwise        : r1 <= r0 <= input (two-bit delay).
//   lp == 1          : MSGP (in r0) and A[COL] (on the input) are known: whether some row
//                      crosses is registered.
//   lp == 2          : MSGP (in r1) and A[COL] (in r0) of every row are in registers: the
//                      routing decision (Figure 9, cases 1 to 3) is made from them and
//                      registered; this bit-time's outputs (MSGP bits only) need no more
//                      than whether a row crosses.
// The decision steers the outputs for TP bit-times, from lp = 2 to lp = 1 of the next period.
// The bit-time decodes are registered flags, set from the phase of the ce cycle before; the
// desperation pulse comes one bit-time after the decision.
// A bit-time is one ce cycle: every flip-flop updates only when ce is high (rst regardless).
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
    input  wire          ce,         // clock enable: one bit-time per cycle with ce high
    input  wire [PW-1:0] phase,      // advances by one every ce cycle, 0 at the first after rst
    input  wire [B-1:0]  row_in,     // from the previous column (or the injector)
    input  wire [B-1:0]  row_in_body,// the same except at lp == 0 (the MSGP bit-time)
    output wire [B-1:0]  row_out,    // to the next column (or the ejector)
    output wire [B-1:0]  row_body,   // row_out except at lp == 2 (the MSGP): for the ejector
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

  // lp: local bit-time, 0 when this petit cycle's MSGP is on row_in: lp = phase - OFF (mod TP).
  // The decodes are registered flags (cm1_phase_flags). pos_mask(sh, lo, hi): the phases
  // whose next bit-time has lo <= lp - sh <= hi (mod TP).
  function [TP-1:0] pos_mask;
    input integer sh;
    input integer lo;
    input integer hi;
    integer ph;
    integer x;
    begin
      pos_mask = {TP{1'b0}};
      for (ph = 0; ph < TP; ph = ph + 1) begin
        x = wrap(ph + 1 - OFF - sh);
        pos_mask[ph] = (x >= lo) && (x <= hi);
      end
    end
  endfunction
  localparam [TP-1:0] M_DECIDE = pos_mask(0, 2, 2);
  localparam [TP-1:0] M_PRE = pos_mask(0, 1, 1);
  localparam [TP-1:0] M_BYPASS = pos_mask(0, 2, C);
  localparam [TP-1:0] M_FLIP = pos_mask(0, LP_FLIP_A, LP_FLIP_A) | pos_mask(0, LP_FLIP_P, LP_FLIP_P);
  localparam [TP-1:0] M_WINDOW = pos_mask(2, 0, L - 1);   // out_pos = lp - 2 is below L
  wire pre;         // lp == 1
  wire decide;      // lp == 2
  wire bypass;      // lp in [2, C]
  wire flip;        // lp is FLIP_A or FLIP_P
  wire in_window;   // out_pos < L (out_pos: position in the outgoing message; the MSGP leaves at lp = 2)
  cm1_phase_flags #(.N(5), .TP(TP), .PW(PW), .MASKS({M_WINDOW, M_FLIP, M_BYPASS, M_DECIDE, M_PRE}))
    u_flags (.clk(clk), .rst(rst), .ce(ce), .phase(phase),
             .flags({in_window, flip, bypass, decide, pre}));

  reg [B-1:0] r0;
  reg [B-1:0] r1;

  // Decision state: which row crosses, which rows shift down, where the arrival lands.
  reg          cross_valid_q;
  reg [B-1:0]  cross_row_q;    // one-hot
  reg [B-1:0]  shift_down_q;   // output row j takes r1[j+1]
  reg [B-1:0]  arrive_row_q;   // one-hot: the arrival becomes the highest occupied row

  // The decision from MSGP (r1) and A[COL] (r0) at lp == 2, as bit logic (no adders or
  // comparators, for a shallow path). Rows are packed, so the MSGP bits are a thermometer
  // of the number of messages n: row j is the highest occupied one when r1[j] & ~r1[j+1].
  wire [B-1:0] want = r1 & r0;
  wire         any_want = |want;
  wire         full = &r1;
  // Whether some row crosses (or is desperation-routed) is also registered a bit-time
  // earlier, from MSGP (r0) and A[COL] (row_in_body) at lp == 1: at lp == 2 it steers the
  // MSGP bits.
  reg          crossing;
  always @(posedge clk) begin
    if (rst) crossing <= 1'b0;
    else if (ce && pre) crossing <= (|(r0 & row_in_body)) | (&r0);
  end
  wire [B-1:0] r1_above = {1'b0, r1[B-1:1]};     // r1_above[j] = r1[j+1], 0 above the top row
  wire [B-1:0] r1_below = {r1[B-2:0], 1'b1};     // r1_below[j] = r1[j-1], 1 below row 0
  reg  [B-1:0] want_below;                        // some row below j wants to cross
  reg  [B-1:0] sel_c;
  reg  [B-1:0] shift_c;
  reg  [B-1:0] arrive_c;
  integer      j;
  always @* begin
    want_below[0] = 1'b0;
    for (j = 1; j < B; j = j + 1) want_below[j] = want_below[j - 1] | want[j - 1];
    for (j = 0; j < B; j = j + 1) begin
      if (j == B - 1) begin   // desperation: the highest row crosses when all are full
        sel_c[j] = any_want ? (want[j] & ~want_below[j]) : full;
        shift_c[j] = any_want ? (want[j] | want_below[j]) : full;
      end else begin
        sel_c[j] = want[j] & ~want_below[j];   // the lowest wanting row
        shift_c[j] = want[j] | want_below[j];
      end
      // the arrival takes the crossing row's place at the top: row n-1, else row n
      arrive_c[j] = crossing ? (r1[j] & ~r1_above[j]) : (r1_below[j] & ~r1[j]);
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      r0 <= {B{1'b0}};
      r1 <= {B{1'b0}};
      cross_valid_q <= 1'b0;
      cross_row_q <= {B{1'b0}};
      shift_down_q <= {B{1'b0}};
      arrive_row_q <= {B{1'b0}};
      desperation <= 1'b0;
    end else if (ce) begin
      if (bypass) begin
        r1 <= row_in;
      end else begin
        r1 <= r0;
        r0 <= row_in;
      end
      desperation <= decide && !any_want && full;
      if (decide) begin
        cross_valid_q <= |sel_c;
        cross_row_q <= sel_c;
        shift_down_q <= shift_c;
        arrive_row_q <= arrive_c;
      end
    end
  end

  // Outputs after lp == 2 (the registered decision): packed non-crossing rows, then the
  // arrival. row_body is row_out except at lp == 2 (for the ejector, which needs no MSGP).
  genvar g;
  generate
    for (g = 0; g < B; g = g + 1) begin : g_out
      assign row_body[g] = arrive_row_q[g] ? cube_in :
                           (cross_valid_q && shift_down_q[g]) ? r1_above[g] : r1[g];
    end
  endgenerate

  // At lp == 2 only MSGP bits move, and rows are packed: with a crossing the n - 1 others
  // take rows 0..n-2 and the arrival row n-1, else the n stay and the arrival takes row n.
  // The crossing row is occupied, so its MSGP goes out on the cube wire when one crosses.
  // (The same values as steering r1 and cube_in with the new decision, in fewer levels.)
  reg [B-1:0] msgp_out;
  always @* begin
    for (j = 0; j < B; j = j + 1)
      msgp_out[j] = crossing ? (r1_above[j] | (r1[j] & ~r1_above[j] & cube_in))
                             : (r1[j] | (r1_below[j] & ~r1[j] & cube_in));
  end
  assign row_out = decide ? msgp_out : row_body;
  assign cube_out = decide ? (crossing && in_window && !flip)
                           : (cross_valid_q && in_window && ((|(cross_row_q & r1)) ^ flip));
  assign wire_busy = (decide ? crossing : cross_valid_q) && in_window;
endmodule

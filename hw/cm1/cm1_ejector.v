// CM-1 ejector (3.3): a crossbar from the B heart rows to the P processors. A message whose
// relative CUBE-ADDRESS is all zeros is at its destination. In OR mode every such message is
// delivered and messages switched to the same processor are OR-ed bitwise; in one-message
// mode only the lowest such row is delivered per petit cycle. The rest stay in their rows
// and go round through the buffers to the injector.
//
// Local bit-time e = (phase - 2C) mod TP; the restored message arrives as MSGP (e = 0),
// A[0..C-1] (e = 1..C), PROC (PA bits), VP (V), DATA (D), PARITY (e = L-1), each field LSB
// first. Processors receive the VP and DATA bits serially, with a start strobe on the first.
// The bit-time decodes are registered flags, set from the phase of the ce cycle before.
// A bit-time is one ce cycle: every flip-flop updates only when ce is high (rst regardless).
module cm1_ejector #(
    parameter integer B  = 7,
    parameter integer P  = 16,
    parameter integer C  = 4,
    parameter integer PA = 4,   // log2(P)
    parameter integer V  = 0,
    parameter integer D  = 8,
    parameter integer L  = 18,
    parameter integer TP = 18,
    parameter integer PW = 5
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          ce,            // clock enable: one bit-time per cycle with ce high
    input  wire [PW-1:0] phase,         // advances by one every ce cycle, 0 at the first after rst
    input  wire          eject_one,     // 1: one message per petit cycle; 0: OR-combine
    input  wire [B-1:0]  row_in,        // from the last heart column (only its MSGP, e = 0, is used)
    input  wire [B-1:0]  row_body,      // the same, valid except at e = 0 (all other bits)
    output reg  [B-1:0]  ejected,       // rows delivered this petit cycle (valid from e = C+1)
    output wire [B-1:0]  drop,          // at e = C: the rows being delivered (for the buffers)
    output wire          count_strobe,  // e = C+1: `ejected` is new
    output reg  [B-1:0]  parity_error,  // pulse at e = L: delivered row with bad parity
    output wire [P-1:0]  proc_rx,       // serial VP+DATA to each processor
    output wire [P-1:0]  proc_start     // first VP/DATA bit
);
  localparam integer OFF = (2 * C) % TP;
  localparam integer PAW = (PA > 0) ? PA : 1;
  // Positions (values of e) of the fields.
  localparam integer K_I = TP - OFF;
  localparam integer ADDR_LAST_I = C;
  localparam integer PROC_FIRST_I = C + 1;
  localparam integer PROC_LAST_I = C + PA;
  localparam integer BODY_FIRST_I = C + PA + 1;   // first VP/DATA bit
  localparam integer BODY_LAST_I = C + PA + V + D;
  localparam integer VP_LAST_I = C + PA + V;      // VP bits are not covered by parity
  localparam integer PAR_I = L - 1;

  // The decodes are registered flags (cm1_phase_flags). e_mask(lo, hi): the phases whose
  // next bit-time has lo <= e <= hi.
  function [TP-1:0] e_mask;
    input integer lo;
    input integer hi;
    integer ph;
    integer x;
    begin
      e_mask = {TP{1'b0}};
      for (ph = 0; ph < TP; ph = ph + 1) begin
        x = (ph + 1 + K_I) % TP;
        e_mask[ph] = (x >= lo) && (x <= hi);
      end
    end
  endfunction
  localparam [TP-1:0] M_START = e_mask(0, 0);
  localparam [TP-1:0] M_ADDR_LAST = e_mask(ADDR_LAST_I, ADDR_LAST_I);
  localparam [TP-1:0] M_BODY_FIRST = e_mask(BODY_FIRST_I, BODY_FIRST_I);
  localparam [TP-1:0] M_PROC_FIRST = e_mask(PROC_FIRST_I, PROC_FIRST_I);
  localparam [TP-1:0] M_PROC_LAST = e_mask(PROC_LAST_I, PROC_LAST_I);
  localparam [TP-1:0] M_PAR = e_mask(PAR_I, PAR_I);
  localparam [TP-1:0] M_ADDR = e_mask(1, ADDR_LAST_I);
  localparam [TP-1:0] M_PROC = e_mask(PROC_FIRST_I, PROC_LAST_I);
  localparam [TP-1:0] M_BODY = e_mask(BODY_FIRST_I, BODY_LAST_I);
  localparam [TP-1:0] M_COVER = e_mask(1, PAR_I - 1) & ~e_mask(BODY_FIRST_I, VP_LAST_I);
  wire at_start;        // e == 0
  wire at_addr_last;    // e == C
  wire at_body_first;   // e == BODY_FIRST
  wire at_proc_first;   // e == PROC_FIRST
  wire at_proc_last;    // e == PROC_LAST (== C when P = 1)
  wire at_par;          // e == PAR
  wire in_addr;
  wire in_proc;
  wire in_body;
  wire in_parity_cover;
  cm1_phase_flags #(.N(10), .TP(TP), .PW(PW),
                    .MASKS({M_COVER, M_BODY, M_PROC, M_ADDR, M_PAR, M_PROC_LAST, M_PROC_FIRST,
                            M_BODY_FIRST, M_ADDR_LAST, M_START}))
    u_flags (.clk(clk), .rst(rst), .ce(ce), .phase(phase),
             .flags({in_parity_cover, in_body, in_proc, in_addr, at_par, at_proc_last,
                     at_proc_first, at_body_first, at_addr_last, at_start}));

  reg [B-1:0] msgp;       // MSGP of each row this petit cycle
  reg [B-1:0] nonzero;    // some CUBE-ADDRESS bit seen so far is 1
  reg [B-1:0] parity;     // running parity over CUBE, PROC and DATA
  reg [PAW-1:0] paddr [0:B-1];

  // At e == C the last address bit is on the input: decide who is delivered.
  wire [B-1:0] at_dest = msgp & ~nonzero & ~row_body;
  reg  [B-1:0] lowest;
  integer j;
  always @* begin
    lowest = {B{1'b0}};
    for (j = B - 1; j >= 0; j = j - 1) if (at_dest[j]) lowest = {{B-1{1'b0}}, 1'b1} << j;
  end

  wire [B-1:0] decision = eject_one ? lowest : at_dest;
  assign drop = at_addr_last ? decision : {B{1'b0}};

  function [PAW-1:0] shift_in;
    input [PAW-1:0] cur;
    input bit_in;
    begin
      shift_in = (PAW > 1) ? ((cur >> 1) | ({{PAW-1{1'b0}}, bit_in} << (PAW - 1))) : {{PAW-1{1'b0}}, bit_in};
    end
  endfunction

  integer r;
  always @(posedge clk) begin
    if (rst) begin
      msgp <= {B{1'b0}};
      nonzero <= {B{1'b0}};
      parity <= {B{1'b0}};
      ejected <= {B{1'b0}};
      parity_error <= {B{1'b0}};
      for (r = 0; r < B; r = r + 1) paddr[r] <= {PAW{1'b0}};
    end else if (ce) begin
      parity_error <= {B{1'b0}};
      if (at_start) begin
        msgp <= row_in;
        nonzero <= {B{1'b0}};
        parity <= {B{1'b0}};
        for (r = 0; r < B; r = r + 1) paddr[r] <= {PAW{1'b0}};
      end else begin
        if (in_addr) nonzero <= nonzero | row_body;
        if (in_parity_cover) parity <= parity ^ row_body;
        // PROC-ADDRESS arrives LSB first: shift it in from the top.
        if (in_proc)
          for (r = 0; r < B; r = r + 1) paddr[r] <= shift_in(paddr[r], row_body[r]);
        if (at_par) parity_error <= ejected & (parity ^ row_body);
      end
      if (at_addr_last) ejected <= decision;
    end
  end

  assign count_strobe = at_proc_first;

  // Crossbar: processor q gets the OR of the delivered rows addressed to it. Which rows those
  // are is registered when the last PROC-ADDRESS bit arrives (from the values the ejector's
  // registers take at that edge), before the VP/DATA bits start.
  // (ejected is already set then, unless P = 1, when PROC_LAST = C: the decision itself)
  wire [B-1:0] ejected_next = (PA > 0) ? ejected : decision;
  reg  [B*PAW-1:0] paddr_next;
  always @* begin
    for (r = 0; r < B; r = r + 1)
      paddr_next[r*PAW +: PAW] = (PA > 0) ? shift_in(paddr[r], row_body[r]) : paddr[r];   // at e = PROC_LAST
  end
  genvar q;
  generate
    for (q = 0; q < P; q = q + 1) begin : g_proc
      localparam integer QI = q;
      localparam [PAW-1:0] QID = QI[PAW-1:0];
      reg [B-1:0] to_me_c;
      reg [B-1:0] to_me;
      reg         any_to_me;
      integer rr;
      always @* begin
        for (rr = 0; rr < B; rr = rr + 1)
          to_me_c[rr] = ejected_next[rr] && (paddr_next[rr*PAW +: PAW] == QID);
      end
      always @(posedge clk) begin
        if (rst) begin
          to_me <= {B{1'b0}};
          any_to_me <= 1'b0;
        end else if (ce && at_proc_last) begin
          to_me <= to_me_c;
          any_to_me <= |to_me_c;
        end
      end
      assign proc_rx[q] = in_body && |(to_me & row_body);
      assign proc_start[q] = at_body_first && any_to_me;
    end
  endgenerate
endmodule

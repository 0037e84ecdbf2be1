// CM-1 ejector (3.3): a crossbar from the B heart rows to the P processors. A message whose
// relative CUBE-ADDRESS is all zeros is at its destination. In OR mode every such message is
// delivered and messages switched to the same processor are OR-ed bitwise; in one-message
// mode only the lowest such row is delivered per petit cycle. The rest stay in their rows
// and go round through the buffers to the injector.
//
// Local bit-time e = (phase - 2C) mod TP; the restored message arrives as MSGP (e = 0),
// A[0..C-1] (e = 1..C), PROC (PA bits), VP (V), DATA (D), PARITY (e = L-1), each field LSB
// first. Processors receive the VP and DATA bits serially, with a start strobe on the first.
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
    input  wire [PW-1:0] phase,
    input  wire          eject_one,     // 1: one message per petit cycle; 0: OR-combine
    input  wire [B-1:0]  row_in,        // from the last heart column
    output reg  [B-1:0]  ejected,       // rows delivered this petit cycle (valid from e = C+1)
    output wire          count_strobe,  // e = C+1: `ejected` is new
    output reg  [B-1:0]  parity_error,  // pulse at e = L: delivered row with bad parity
    output wire [P-1:0]  proc_rx,       // serial VP+DATA to each processor
    output wire [P-1:0]  proc_start     // first VP/DATA bit
);
  localparam integer OFF = (2 * C) % TP;
  localparam integer PAW = (PA > 0) ? PA : 1;
  // Positions (values of e) of the fields, as PW+1-bit constants.
  localparam integer K_I = TP - OFF;
  localparam [PW:0] K = K_I[PW:0];
  localparam [PW:0] TPV = TP[PW:0];
  localparam integer ADDR_LAST_I = C;
  localparam integer PROC_FIRST_I = C + 1;
  localparam integer PROC_LAST_I = C + PA;
  localparam integer BODY_FIRST_I = C + PA + 1;   // first VP/DATA bit
  localparam integer BODY_LAST_I = C + PA + V + D;
  localparam integer VP_LAST_I = C + PA + V;      // VP bits are not covered by parity
  localparam integer PAR_I = L - 1;
  localparam [PW:0] ADDR_LAST = ADDR_LAST_I[PW:0];
  localparam [PW:0] PROC_FIRST = PROC_FIRST_I[PW:0];
  localparam [PW:0] PROC_LAST = PROC_LAST_I[PW:0];
  localparam [PW:0] BODY_FIRST = BODY_FIRST_I[PW:0];
  localparam [PW:0] BODY_LAST = BODY_LAST_I[PW:0];
  localparam [PW:0] VP_LAST = VP_LAST_I[PW:0];
  localparam [PW:0] PAR = PAR_I[PW:0];

  wire [PW:0] e_sum = {1'b0, phase} + K;
  wire [PW:0] e = (e_sum >= TPV) ? (e_sum - TPV) : e_sum;

  reg [B-1:0] msgp;       // MSGP of each row this petit cycle
  reg [B-1:0] nonzero;    // some CUBE-ADDRESS bit seen so far is 1
  reg [B-1:0] parity;     // running parity over CUBE, PROC and DATA
  reg [PAW-1:0] paddr [0:B-1];

  // At e == C the last address bit is on the input: decide who is delivered.
  wire [B-1:0] at_dest = msgp & ~nonzero & ~row_in;
  reg  [B-1:0] lowest;
  integer j;
  always @* begin
    lowest = {B{1'b0}};
    for (j = B - 1; j >= 0; j = j - 1) if (at_dest[j]) lowest = {{B-1{1'b0}}, 1'b1} << j;
  end

  wire in_addr = (e >= 1) && (e <= ADDR_LAST);
  wire in_proc = (e >= PROC_FIRST) && (e <= PROC_LAST);
  wire in_body = (e >= BODY_FIRST) && (e <= BODY_LAST);
  wire in_parity_cover = (e >= 1) && (e < PAR) && !((e >= BODY_FIRST) && (e <= VP_LAST));

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
    end else begin
      parity_error <= {B{1'b0}};
      if (e == 0) begin
        msgp <= row_in;
        nonzero <= {B{1'b0}};
        parity <= {B{1'b0}};
        for (r = 0; r < B; r = r + 1) paddr[r] <= {PAW{1'b0}};
      end else begin
        if (in_addr) nonzero <= nonzero | row_in;
        if (in_parity_cover) parity <= parity ^ row_in;
        // PROC-ADDRESS arrives LSB first: shift it in from the top.
        if (in_proc)
          for (r = 0; r < B; r = r + 1) paddr[r] <= shift_in(paddr[r], row_in[r]);
        if (e == PAR) parity_error <= ejected & (parity ^ row_in);
      end
      if (e == ADDR_LAST) ejected <= eject_one ? lowest : at_dest;
    end
  end

  assign count_strobe = (e == PROC_FIRST);

  // Crossbar: processor q gets the OR of the delivered rows addressed to it.
  genvar q;
  generate
    for (q = 0; q < P; q = q + 1) begin : g_proc
      localparam integer QI = q;
      localparam [PAW-1:0] QID = QI[PAW-1:0];
      reg [B-1:0] to_me;
      integer rr;
      always @* begin
        for (rr = 0; rr < B; rr = rr + 1) to_me[rr] = ejected[rr] && (paddr[rr] == QID);
      end
      assign proc_rx[q] = in_body && |(to_me & row_in);
      assign proc_start[q] = (e == BODY_FIRST) && |to_me;
    end
  endgenerate
endmodule

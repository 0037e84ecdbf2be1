// CM-1 injector (3.2): a concentrator that fills the B heart rows, first with the buffered
// messages in their row order, then with the processors' messages in increasing processor
// index. The switch is set when all MSGP bits are present (phase 0) and held for the rest
// of the petit cycle; processors that got a row are acknowledged at phase 0.
module cm1_injector #(
    parameter integer B  = 7,
    parameter integer P  = 16,
    parameter integer PW = 5
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [PW-1:0] phase,
    input  wire [B-1:0]  buf_in,    // buffered messages (MSGP at phase 0)
    input  wire [P-1:0]  proc_in,   // processor messages (MSGP at phase 0)
    output wire [B-1:0]  slot_out,  // to heart column 0
    output wire [P-1:0]  ack        // valid at phase 0
);
  wire set = (phase == {PW{1'b0}});

  // Slot assignment from the MSGP bits: buffer r goes to slot rank(r) (buffers below it
  // that hold a message); processor p to slot nb + rank(p) if that is below B.
  localparam integer RW = 8;   // rank width: B + P < 256
  function [RW-1:0] ones_below;
    input [B+P-1:0] bits;
    input integer upto;
    integer k;
    begin
      ones_below = {RW{1'b0}};
      for (k = 0; k < B + P; k = k + 1)
        if (k < upto) ones_below = ones_below + {{RW-1{1'b0}}, bits[k]};
    end
  endfunction

  // Buffers first, then processors in increasing index: one priority chain over both.
  wire [B+P-1:0] req = {proc_in, buf_in};
  wire [B*B-1:0] bsel_c;   // bsel[s*B + r]: slot s takes buffer r
  wire [B*P-1:0] psel_c;   // psel[s*P + p]: slot s takes processor p
  wire [P-1:0]   ack_c;
  genvar gs;
  genvar gi;
  generate
    for (gi = 0; gi < B + P; gi = gi + 1) begin : g_req
      wire [RW-1:0] rank = ones_below(req, gi);
      for (gs = 0; gs < B; gs = gs + 1) begin : g_slot
        localparam [RW-1:0] SLOT = gs;
        if (gi < B) begin : g_buf
          assign bsel_c[gs*B + gi] = req[gi] && (rank == SLOT);
        end else begin : g_proc
          assign psel_c[gs*P + gi - B] = req[gi] && (rank == SLOT);
        end
      end
      if (gi >= B) begin : g_ack
        localparam [RW-1:0] BV = B[RW-1:0];
        assign ack_c[gi - B] = req[gi] && (rank < BV);
      end
    end
  endgenerate

  reg [B*B-1:0] bsel_q;
  reg [B*P-1:0] psel_q;
  always @(posedge clk) begin
    if (rst) begin
      bsel_q <= {B*B{1'b0}};
      psel_q <= {B*P{1'b0}};
    end else if (set) begin
      bsel_q <= bsel_c;
      psel_q <= psel_c;
    end
  end

  wire [B*B-1:0] bsel = set ? bsel_c : bsel_q;
  wire [B*P-1:0] psel = set ? psel_c : psel_q;
  assign ack = set ? ack_c : {P{1'b0}};

  genvar g;
  generate
    for (g = 0; g < B; g = g + 1) begin : g_slot
      assign slot_out[g] = |(bsel[g*B +: B] & buf_in) | |(psel[g*P +: P] & proc_in);
    end
  endgenerate
endmodule

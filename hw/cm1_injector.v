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

  // Slot assignment from the MSGP bits: buffer r goes to slot rank(r); processor p to slot
  // (buffers present) + rank(p) if that is below B.
  reg [B*B-1:0] bsel_c;   // bsel[s*B + r]: slot s takes buffer r
  reg [B*P-1:0] psel_c;   // psel[s*P + p]: slot s takes processor p
  reg [P-1:0]   ack_c;
  integer n;
  integer r;
  integer p;
  integer s;
  always @* begin
    bsel_c = {B*B{1'b0}};
    psel_c = {B*P{1'b0}};
    ack_c = {P{1'b0}};
    n = 0;
    for (r = 0; r < B; r = r + 1) begin
      if (buf_in[r]) begin
        for (s = 0; s < B; s = s + 1) if (s == n) bsel_c[s*B + r] = 1'b1;
        n = n + 1;
      end
    end
    for (p = 0; p < P; p = p + 1) begin
      if (proc_in[p] && n < B) begin
        for (s = 0; s < B; s = s + 1) if (s == n) psel_c[s*P + p] = 1'b1;
        ack_c[p] = 1'b1;
        n = n + 1;
      end
    end
  end

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

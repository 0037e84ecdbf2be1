// A node's step on the way down: a combining result p from the parent (the prefix of
// everything before this subtree for a forward scan, after it for a backward scan, the total
// for a reduction) and the oldest value put aside into the two children's packets. A forward
// scan sends p left and p (op) left value right (the left value alone when a segment bit in
// the left subtree started the scan over); a backward scan the mirror image; a reduction and a
// sync OR send p to both. A put-aside entry of another operation, or none (`under`), sets the
// error bit. The global bits (14:12) are p's; the flow-control bit (0) is left clear for the
// caller. Combinational.
`default_nettype none
module cm5ctl_split #(
  parameter integer W = 32,
  parameter integer PB = W + 15,
  parameter integer AEW = W + 8
) (
  input  wire [PB-1:0] p,
  input  wire [AEW-1:0] e,
  input  wire under,
  input  wire cin,      // the carry this node kept from its last addition on the way down
  output wire [PB-1:0] l,
  output wire [PB-1:0] r,
  output wire cout      // the carry to keep (scans only; none past a segment cut)
);
  localparam integer DL = 15;
  wire [1:0] kind = p[4:3];
  wire [2:0] comb = kind == 2'd3 ? 3'd0 : p[7:5];
  wire segd = p[8];
  wire mismatch = e[5:0] != p[8:3];
  wire [W-1:0] pv = p[DL +: W];
  wire [W-1:0] ev = e[7 +: W];
  wire [W-1:0] y;
  wire aovf, acout;
  cm5ctl_alu #(.W(W)) alu (.comb(comb), .a(pv), .b(ev), .cin(cin), .y(y), .ovf(aovf), .cout(acout));
  wire cut = segd && e[6];
  wire [W-1:0] pass = cut ? ev : y;
  assign cout = (kind == 2'd1 || kind == 2'd2) && !cut && acout;
  wire err = p[11] || under || mismatch;
  wire [14:0] hdr = {p[14:12], err, p[10], 1'b0, segd, p[7:5], kind, 2'd2, 1'b0};
  assign l = {kind == 2'd2 ? pass : pv, hdr};
  assign r = {kind == 2'd1 ? pass : pv, hdr};
  wire unused = &{1'b0, aovf, p[2:0], p[9], e[AEW-1:W+7]};
endmodule
`default_nettype wire

// A node's combining step on the way up (paper, section 5): two multiple-source (or abstain)
// packets, the left and the right child's, into one, and the value to put aside for the way
// down. Packet layout: gen/cm5ctl/cm5ctl_params.h. An abstaining child counts as the identity
// (OR, XOR, ADD: 0; MAX: the most negative word) with no segment bit; two abstaining children
// make an abstain packet. A sync OR combines with OR. Segmented scans: a forward scan keeps
// the right value alone when the right subtree holds a segment bit (the scan started over
// there); a backward scan the mirror image. Different operations meeting set the error bit.
// Put aside: {v, f, segd, comb, kind} = the left child's value and segment flag for a forward
// scan, the right child's for a backward scan, zero otherwise. An addition adds the carry
// `cin` when it continues a multi-word addition (ADDC, UADDC). The global bits (14:12) and
// bit 0 of `o` are zero: the node sets them. Combinational.
// A segment cut is folded into the adder's operands (OR with zero passes the kept value), so
// that `oa`, `ob`, `ocomb` through cm5ctl_alu with `cin` give o's word, and its overflow ORed
// with `oovf` o's overflow bit: a node can latch them and do the arithmetic a cycle later.
`default_nettype none
module cm5ctl_combine #(
  parameter integer W = 32,
  parameter integer PB = W + 15,
  parameter integer AEW = W + 7
) (
  input  wire [PB-1:0] l,
  input  wire [PB-1:0] r,
  input  wire cin,      // the carry this node kept from its last addition
  output wire [PB-1:0] o,
  output wire [AEW-1:0] e,
  output wire cout,     // the carry to keep: of this addition (none past a segment cut)
  output wire [W-1:0] oa,
  output wire [W-1:0] ob,
  output wire [2:0] ocomb,
  output wire oovf
);
  localparam integer DL = 15;  // the data word's first bit
  wire al = l[2:1] == 2'd3;
  wire ar = r[2:1] == 2'd3;
  wire [1:0] kind = al ? r[4:3] : l[4:3];
  wire [2:0] cf = al ? r[7:5] : l[7:5];
  wire segd = al ? r[8] : l[8];
  wire [2:0] comb = kind == 2'd3 ? 3'd0 : cf;
  wire [W-1:0] id = comb == 3'd2 ? {1'b1, {(W-1){1'b0}}} : {W{1'b0}};
  wire [W-1:0] vl = al ? id : l[DL +: W];
  wire [W-1:0] vr = ar ? id : r[DL +: W];
  wire fl = !al && l[9];
  wire fr = !ar && r[9];
  wire mismatch = !al && !ar && (l[8:3] != r[8:3]);
  wire fwd_cut = kind == 2'd1 && segd && fr;
  wire bwd_cut = kind == 2'd2 && segd && fl;
  assign oa = fwd_cut ? {W{1'b0}} : vl;
  assign ob = bwd_cut ? {W{1'b0}} : vr;
  assign ocomb = fwd_cut || bwd_cut ? 3'd0 : comb;
  assign oovf = (!al && l[10]) || (!ar && r[10]);
  wire [W-1:0] v;
  wire aovf;
  cm5ctl_alu #(.W(W)) alu (.comb(ocomb), .a(oa), .b(ob), .cin(cin), .y(v), .ovf(aovf), .cout(cout));
  wire ovf = oovf || aovf;
  wire err = (!al && l[11]) || (!ar && r[11]) || mismatch;
  assign o = {v, 3'b000, err, ovf, fl || fr, segd, cf, kind, (al && ar) ? 2'd3 : 2'd2, 1'b0};
  wire kf = kind == 2'd1 ? fl : (kind == 2'd2 ? fr : 1'b0);
  wire [W-1:0] kv = kind == 2'd1 ? vl : (kind == 2'd2 ? vr : {W{1'b0}});
  assign e = {kv, kf, segd, cf, kind};
  wire unused = &{1'b0, l[0], r[0], l[14:12], r[14:12]};
endmodule

`default_nettype wire

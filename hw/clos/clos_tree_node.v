// A node of CONNECT's tree-shaped packet-switching network (Li and Rishe 1991, "Routing in the
// packet-switching network"): a tnode (HNODE = 0) with C subtrees and a parent, or an hnode
// (HNODE = 1) at the root of its tree, with C subtrees and D hypercube links.
//   - the range table: C contiguous leaf ranges [B_i, B_{i+1}) of the subtrees (BOUNDS, C + 1
//     boundaries); a data message whose destination is in range i goes down to subtree i;
//   - a tnode sends everything else to its parent, and a control message (the paper's negative
//     address; here the ctrl bit) always;
//   - an hnode keeps a control message (its local output) and sends a data message for another
//     tree over the hypercube by fixed routing: the lowest dimension where the destination's tree
//     number (destination / PER_TREE: the static tree map) differs from ID.
// Single-word messages (LSB first): payload[PW] | src[AW] | dst[AW] | ctrl | tree_hops[HC] |
// cube_hops[HC]; a node adds one to tree_hops for a move up or down a tree, to cube_hops for a
// hypercube link. Every output is a register; each cycle an empty output takes the first input
// that wants it (inputs in port order).
//   inputs  0..C-1 the subtrees, then C: the parent (tnode) or C..C+D-1: the hypercube (hnode)
//   outputs 0..C-1 the subtrees, then C: the parent (tnode) or C..C+D-1 the hypercube, C+D: local
`default_nettype none
module clos_tree_node #(
  parameter integer HNODE = 0,
  parameter integer C = 2,
  parameter integer D = 1,            // hnode: hypercube dimensions
  parameter integer ID = 0,           // hnode: its tree number
  parameter integer PER_TREE = 4,
  parameter integer AW = 4,
  parameter integer PW = 8,
  parameter integer HC = 4,
  parameter [(C+1)*(AW+1)-1:0] BOUNDS = 0,  // B_0 at the LSBs, AW + 1 bits each (the last may be 2^AW)
  parameter integer NI = C + (HNODE != 0 ? D : 1),
  parameter integer NO = C + (HNODE != 0 ? D + 1 : 1),
  parameter integer MW = PW + 2 * AW + 1 + 2 * HC
) (
  input  wire clk,
  input  wire rst,
  input  wire [NI-1:0] in_valid,
  input  wire [NI*MW-1:0] in_msg,
  output wire [NI-1:0] in_take,
  output wire [NO-1:0] out_valid,
  output wire [NO*MW-1:0] out_msg,
  input  wire [NO-1:0] out_take
);
  localparam integer DST = PW + AW, CTRL = PW + 2 * AW, TH = CTRL + 1, CH = TH + HC;
  reg [NO-1:0] ov;
  reg [MW-1:0] om [0:NO-1];
  reg [MW-1:0] cm [0:NI-1];
  reg [NO-1:0] tgt [0:NI-1];           // one-hot: the output each input wants
  reg [NI-1:0] grant [0:NO-1];
  reg [NI-1:0] took;
  reg [AW-1:0] dst;
  reg [31:0] tree_diff;
  reg found;
  integer i, o, b;
  always @* begin
    tree_diff = 32'd0;
    dst = {AW{1'b0}};
    for (i = 0; i < NI; i = i + 1) begin
      cm[i] = in_msg[i*MW +: MW];
      dst = cm[i][DST +: AW];
      tgt[i] = {NO{1'b0}};
      found = 1'b0;
      if (!cm[i][CTRL])
        for (b = 0; b < C; b = b + 1)
          if (!found && {1'b0, dst} >= BOUNDS[b*(AW+1) +: AW+1] && {1'b0, dst} < BOUNDS[(b+1)*(AW+1) +: AW+1]) begin
            tgt[i][b] = 1'b1;
            found = 1'b1;
          end
      if (!found) begin
        if (HNODE == 0) begin
          tgt[i][C] = 1'b1;                      // up to the parent
        end else if (cm[i][CTRL]) begin
          tgt[i][NO-1] = 1'b1;                   // a control message: this hnode's
        end else begin
          // The tree map: the destination's tree is the last whose first leaf is at or below it.
          tree_diff = 32'd0;
          for (b = 1; b < (1 << D); b = b + 1)
            if ({{(32-AW){1'b0}}, dst} >= b * PER_TREE) tree_diff = b;
          tree_diff = tree_diff ^ ID;
          for (b = 0; b < D; b = b + 1)
            if (!found && tree_diff[b]) begin
              tgt[i][C + b] = 1'b1;
              found = 1'b1;
            end
        end
      end
    end
    took = {NI{1'b0}};
    for (o = 0; o < NO; o = o + 1) begin
      grant[o] = {NI{1'b0}};
      found = 1'b0;
      for (i = 0; i < NI; i = i + 1)
        if (!ov[o] && in_valid[i] && tgt[i][o] && !found) begin
          grant[o][i] = 1'b1;
          took[i] = 1'b1;
          found = 1'b1;
        end
    end
  end
  assign in_take = took;

  genvar g;
  generate
    for (g = 0; g < NO; g = g + 1) begin : outs
      assign out_valid[g] = ov[g];
      assign out_msg[g*MW +: MW] = om[g];
    end
  endgenerate

  // The hop counts of a message leaving on output o.
  function [MW-1:0] hop(input [MW-1:0] m, input integer out);
    begin
      hop = m;
      if (HNODE != 0 && out >= C && out < C + D) hop[CH +: HC] = m[CH +: HC] + 1'b1;
      else if (HNODE == 0 || out < C) hop[TH +: HC] = m[TH +: HC] + 1'b1;
    end
  endfunction

  integer j, k;
  always @(posedge clk) begin
    if (rst) begin
      ov <= {NO{1'b0}};
      for (j = 0; j < NO; j = j + 1) om[j] <= {MW{1'b0}};
    end else begin
      for (j = 0; j < NO; j = j + 1) begin
        if (out_take[j]) ov[j] <= 1'b0;
        for (k = 0; k < NI; k = k + 1)
          if (grant[j][k]) begin
            ov[j] <= 1'b1;
            om[j] <= hop(cm[k], j);
          end
      end
    end
  end
endmodule
`default_nettype wire

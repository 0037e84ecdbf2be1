// One node of the control hypercube that carries the CONNECT hnodes' messages (Li and Rishe 1991:
// "the control processors are linked into a hypercube network"; fixed routing). A message's
// destination hnode is its top HW bits. Each cycle, every output (one per dimension, and the
// local one to the hnode's engine) that is empty takes the first message that wants it, in the
// order: the links in by dimension, then the engine's injection. A message leaves on the lowest
// dimension where its destination differs from this node (e-cube: dimension order, so no cycle
// of waiting links), or to the engine when it has arrived.
`default_nettype none
module clos_cube_router #(
  parameter integer ID = 0,   // this node
  parameter integer D = 1,    // dimensions (2^D nodes)
  parameter integer MW = 8    // message bits; destination node in [MW-1 -: D]
) (
  input  wire clk,
  input  wire rst,
  input  wire inj_valid,
  input  wire [MW-1:0] inj_msg,
  output wire inj_ready,
  input  wire [D-1:0] in_valid,        // the neighbours' output registers towards this node
  input  wire [D*MW-1:0] in_msg,
  output wire [D-1:0] in_take,         // this node takes them
  output wire [D-1:0] out_valid,       // this node's output registers, one per dimension
  output wire [D*MW-1:0] out_msg,
  input  wire [D-1:0] out_take,
  output wire loc_valid,               // the output register towards the engine
  output wire [MW-1:0] loc_msg,
  input  wire loc_take
);
  localparam [D-1:0] SELF = ID[D-1:0];
  reg [D:0] ov;                        // outputs 0..D-1: dimensions, D: local
  reg [MW-1:0] om [0:D];
  // Candidates 0..D-1: links in, D: injection.
  wire [D:0] cv = {inj_valid, in_valid};
  reg [MW-1:0] cm [0:D];
  reg [D:0] tgt_dim [0:D];             // one-hot target output of each candidate
  reg [D:0] grant [0:D];               // grant[o][c]
  reg [D:0] took;
  reg [D-1:0] diff;
  reg found;
  integer c, o, b;
  always @* begin
    for (c = 0; c < D; c = c + 1) cm[c] = in_msg[c*MW +: MW];
    cm[D] = inj_msg;
    for (c = 0; c <= D; c = c + 1) begin
      diff = cm[c][MW-1 -: D] ^ SELF;
      tgt_dim[c] = {(D+1){1'b0}};
      found = 1'b0;
      for (b = 0; b < D; b = b + 1)
        if (diff[b] && !found) begin
          tgt_dim[c][b] = 1'b1;
          found = 1'b1;
        end
      if (!found) tgt_dim[c][D] = 1'b1;
    end
    took = {(D+1){1'b0}};
    for (o = 0; o <= D; o = o + 1) begin
      grant[o] = {(D+1){1'b0}};
      found = 1'b0;
      for (c = 0; c <= D; c = c + 1)
        if (!ov[o] && cv[c] && tgt_dim[c][o] && !found) begin
          grant[o][c] = 1'b1;
          took[c] = 1'b1;
          found = 1'b1;
        end
    end
  end
  assign in_take = took[D-1:0];
  assign inj_ready = took[D];

  genvar g;
  generate
    for (g = 0; g < D; g = g + 1) begin : outs
      assign out_valid[g] = ov[g];
      assign out_msg[g*MW +: MW] = om[g];
    end
  endgenerate
  assign loc_valid = ov[D];
  assign loc_msg = om[D];

  wire [D:0] taken_out = {loc_take, out_take};
  integer j, k;
  always @(posedge clk) begin
    if (rst) begin
      ov <= {(D+1){1'b0}};
      for (j = 0; j <= D; j = j + 1) om[j] <= {MW{1'b0}};
    end else begin
      for (j = 0; j <= D; j = j + 1) begin
        if (taken_out[j]) ov[j] <= 1'b0;
        for (k = 0; k <= D; k = k + 1)
          if (grant[j][k]) begin
            ov[j] <= 1'b1;
            om[j] <= cm[k];
          end
      end
    end
  end
endmodule
`default_nettype wire

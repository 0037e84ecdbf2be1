// On-chip traffic generator for the CM-1 board: fills every endpoint's queue with COUNT
// messages of a named pattern, one message per cycle through the network's load port, so a
// board runs patterns without the host sending them. Every field comes from a hash of
// (seed, round, processor), so sim/traffic_gen.cpp reproduces the same pattern bit for bit
// and the reference model can route it.
//   pattern 0 uniform random       dst = H[GW-1:0]
//           1 permutation           dst = rotl(g ^ R[GW-1:0], (R[31:24] * GW) >> 8): a random
//                                   bijection per round
//           2 bit-complement        dst = ~g
//           3 transpose             dst = rotl(g, GW/2)  (swaps the halves when GW is even)
//           4 hot spot              dst = 0 when H[31:30] == 0, else H[GW-1:0]
//           5 nearest neighbour     dst = g ^ 2^(PA + r mod C): one cube dimension per round
// H = xs(xs(seed ^ {r[15:0], g[15:0]} ^ SALT_DST)) with xs = xorshift32; vp = H[29 -: V];
// data = xs(H) (low 32 bits), xs(xs(H)) (high 32 bits); R = xs(xs(seed ^ {r, 16'hffff} ^
// SALT_ROUND)). Few hash chains and no dividers: the generator must fit beside the network
// on an iCE40 (r mod C is a wrapping register, the rotation a multiply by a constant).
module cm1_traffic_gen #(
    parameter integer C = 3,
    parameter integer PA = 2,
    parameter integer V = 0,
    parameter integer D = 8,
    parameter integer GW = 5,
    parameter integer PAW = 2,
    parameter integer VW = 1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          start,      // pulse: begin filling
    input  wire [2:0]    pattern,
    input  wire [15:0]   count,      // messages per processor
    input  wire [31:0]   seed,
    output reg           busy,
    output reg           load_en,
    output reg  [GW-1:0] load_proc,
    output reg  [C-1:0]  load_chip,
    output reg  [PAW-1:0] load_dproc,
    output reg  [VW-1:0] load_vp,
    output reg  [D-1:0]  load_data
);
  localparam integer NP = 1 << GW;
  localparam [31:0] SALT_DST = 32'h9E3779B9;
  localparam [31:0] SALT_ROUND = 32'hA0761D65;

  function [31:0] xs32;
    input [31:0] x_in;
    reg [31:0] x;
    begin
      x = x_in;
      x = x ^ (x << 13);
      x = x ^ (x >> 17);
      x = x ^ (x << 5);
      xs32 = x;
    end
  endfunction

  // rotl(v, k) for 0 <= k < GW: v doubled, shifted right by GW - k.
  function [GW-1:0] rotl;
    input [GW-1:0] v;
    input [7:0] k;
    reg [2*GW-1:0] vv_unused_hi;   // only the low GW bits are the rotation
    begin
      vv_unused_hi = {v, v} >> (GW[7:0] - k);
      rotl = vv_unused_hi[GW-1:0];
    end
  endfunction

  reg [15:0] round;
  reg [7:0]  nn_dim;   // round mod C
  reg [GW-1:0] g;
  wire [31:0] key = seed ^ {round, {16 - GW{1'b0}}, g};
  wire [31:0] key_round = seed ^ {round, 16'hffff};
  wire [31:0] h = xs32(xs32(key ^ SALT_DST));
  wire [31:0] h_data = xs32(h);
  wire [31:0] h_round = xs32(xs32(key_round ^ SALT_ROUND));
  localparam [7:0] GW8 = GW[7:0];
  wire [15:0] rot_prod = {8'd0, h_round[31:24]} * {8'd0, GW8};  // by a constant: shifts and adds
  wire [7:0] rot = rot_prod[15:8];
  wire [63:0] data64;
  generate
    if (D > 32) begin : g_wide
      assign data64 = {xs32(h_data), h_data};
    end else begin : g_narrow
      assign data64 = {32'd0, h_data};
    end
  endgenerate
  // unused hash bits are intended: each field takes the bits it needs
  wire unused_hash = &{1'b0, h, h_round, rot_prod, data64};

  localparam [7:0] PA8 = PA[7:0];
  localparam integer LAST_DIM_I = C - 1;
  localparam [7:0] LAST_DIM = LAST_DIM_I[7:0];
  reg [GW-1:0] dst;
  always @* begin
    case (pattern)
      3'd1: dst = rotl(g ^ h_round[GW-1:0], rot);
      3'd2: dst = ~g;
      3'd3: dst = rotl(g, GW8 / 8'd2);
      3'd4: dst = (h[31:30] == 2'b00) ? {GW{1'b0}} : h[GW-1:0];
      3'd5: dst = g ^ ({{GW-1{1'b0}}, 1'b1} << (PA8 + nn_dim));
      default: dst = h[GW-1:0];
    endcase
  end

  localparam integer LAST_I = NP - 1;
  localparam [GW-1:0] LAST_G = LAST_I[GW-1:0];
  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      load_en <= 1'b0;
      round <= 16'd0;
      nn_dim <= 8'd0;
      g <= {GW{1'b0}};
      load_proc <= {GW{1'b0}};
      load_chip <= {C{1'b0}};
      load_dproc <= {PAW{1'b0}};
      load_vp <= {VW{1'b0}};
      load_data <= {D{1'b0}};
    end else begin
      load_en <= 1'b0;
      if (start && !busy) begin
        busy <= (count != 16'd0);
        round <= 16'd0;
        nn_dim <= 8'd0;
        g <= {GW{1'b0}};
      end else if (busy) begin
        load_en <= 1'b1;
        load_proc <= g;
        load_chip <= dst[GW-1 -: C];
        load_dproc <= (PA > 0) ? dst[PAW-1:0] : {PAW{1'b0}};
        load_vp <= (V > 0) ? h[29 -: VW] : {VW{1'b0}};
        load_data <= data64[D-1:0];
        if (g == LAST_G) begin
          g <= {GW{1'b0}};
          round <= round + 16'd1;
          nn_dim <= (nn_dim == LAST_DIM) ? 8'd0 : nn_dim + 8'd1;
          if (round + 16'd1 == count) busy <= 1'b0;
        end else begin
          g <= g + 1'b1;
        end
      end
    end
  end
endmodule

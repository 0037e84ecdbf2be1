// On-chip traffic generator for the CM-1 board: fills every endpoint's queue with COUNT
// messages of a named pattern, one message per cycle through the network's load port, so a
// board runs patterns without the host sending them. Every field comes from a hash of
// (seed, round, processor), so sim/traffic_gen.cpp reproduces the same pattern bit for bit
// and the reference model can route it.
//   pattern 0 uniform random       dst = H(dst)
//           1 permutation           dst = rotl(g ^ M(r), K(r)): a random bijection per round
//           2 bit-complement        dst = ~g
//           3 transpose             dst = rotl(g, GW/2)  (swaps the halves when GW is even)
//           4 hot spot              dst = 0 when H(hot)[1:0] == 0, else H(dst)
//           5 nearest neighbour     dst = g ^ 2^(PA + r mod C): one cube dimension per round
// H(salt) = xorshift32(xorshift32(seed ^ {r[15:0], g[15:0]} ^ salt)); data = H(data),
// vp = H(vp); M(r), K(r) use g = 16'hffff.
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
  localparam [31:0] SALT_DATA = 32'h7F4A7C15;
  localparam [31:0] SALT_VP = 32'h94D049BB;
  localparam [31:0] SALT_HOT = 32'hD6E8FEB8;
  localparam [31:0] SALT_MASK = 32'hA0761D65;
  localparam [31:0] SALT_ROT = 32'hE7037ED1;

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

  function [GW-1:0] rotl;
    input [GW-1:0] v;
    input integer k;
    integer i;
    begin
      for (i = 0; i < GW; i = i + 1) rotl[(i + k) % GW] = v[i];
    end
  endfunction

  reg [15:0] round;
  reg [GW-1:0] g;
  wire [31:0] key = seed ^ {round, {16 - GW{1'b0}}, g};
  wire [31:0] key_round = seed ^ {round, 16'hffff};
  wire [31:0] h_dst = xs32(xs32(key ^ SALT_DST));
  wire [31:0] h_data = xs32(xs32(key ^ SALT_DATA));
  wire [31:0] h_data_hi = xs32(xs32(key ^ ~SALT_DATA));
  wire [31:0] h_vp = xs32(xs32(key ^ SALT_VP));
  wire [31:0] h_hot = xs32(xs32(key ^ SALT_HOT));
  wire [31:0] m_round = xs32(xs32(key_round ^ SALT_MASK));
  wire [31:0] k_round = xs32(xs32(key_round ^ SALT_ROT));
  wire [63:0] data64 = {h_data_hi, h_data};
  // unused hash bits are intended: each field takes the low bits it needs
  wire unused_hash = &{1'b0, h_dst, h_vp, h_hot, m_round, k_round, data64};

  reg [GW-1:0] dst;
  integer rot;
  always @* begin
    rot = k_round % GW;
    case (pattern)
      3'd1: dst = rotl(g ^ m_round[GW-1:0], rot);
      3'd2: dst = ~g;
      3'd3: dst = rotl(g, GW / 2);
      3'd4: dst = (h_hot[1:0] == 2'b00) ? {GW{1'b0}} : h_dst[GW-1:0];
      3'd5: dst = g ^ ({{GW-1{1'b0}}, 1'b1} << (PA + ({16'd0, round} % C)));
      default: dst = h_dst[GW-1:0];
    endcase
  end

  localparam integer LAST_I = NP - 1;
  localparam [GW-1:0] LAST_G = LAST_I[GW-1:0];
  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      load_en <= 1'b0;
      round <= 16'd0;
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
        g <= {GW{1'b0}};
      end else if (busy) begin
        load_en <= 1'b1;
        load_proc <= g;
        load_chip <= dst[GW-1 -: C];
        load_dproc <= (PA > 0) ? dst[PAW-1:0] : {PAW{1'b0}};
        load_vp <= (V > 0) ? h_vp[VW-1:0] : {VW{1'b0}};
        load_data <= data64[D-1:0];
        if (g == LAST_G) begin
          g <= {GW{1'b0}};
          round <= round + 16'd1;
          if (round + 16'd1 == count) busy <= 1'b0;
        end else begin
          g <= g + 1'b1;
        end
      end
    end
  end
endmodule

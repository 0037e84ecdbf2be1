// The two ends of a CM-5 control network link: a packet of PB bits, then (C = 8) its CRC-8,
// sent serially as T chunks of WIDTH wires, least significant chunk first, one packet per
// frame of T cycles (F = 0); or (F = 1) the CM-5's 65-bit packet in two parallel streams, the
// major stream on wires 0..3 and the minor stream on wire 4, T = 13 (the layout:
// gen/cm5ctl/cm5ctl_packet.h, cm5::to_frame). Frames are aligned across the tree (every end
// counts the same frame from reset), so `last` (the frame's last cycle) is the same cycle at
// both ends of a link.
// This is the sending end: `load` in the last cycle of a frame takes the packet sent in the
// next frame (cm5ctl_link_rx.v is the receiving end). LATE = 1: `load` takes only the first
// chunk of `pkt`, and the cycle after, as that chunk goes out, the rest comes from `late` (the
// same packet, computed a cycle later by a node that registers its decision: the chunks on the
// wires do not change, the sender's arithmetic gets a cycle of its own). K2 (LATE = 1, 2 <= K2 < T):
// chunks K2 and on come from `late2` instead, a cycle later again (two cycles after `load`): a
// node that sends its word there computes it over two cycles (cm5ctl_alu2.v). K2 = 0: none.
// FIRST (LATE): the first chunk waits in a register of its own, on the wires while `late` fills
// the rest: the decision's logic and the arithmetic's do not meet at one flip-flop.
`default_nettype none
module cm5ctl_link_tx #(
  parameter integer PB = 44,
  parameter integer C = 0,
  parameter integer F = 0,
  parameter integer WIDTH = 6,
  parameter integer T = 8,
  parameter integer LATE = 0,
  parameter integer K2 = 0,
  parameter integer FIRST = 0
) (
  input  wire clk,
  input  wire rst,
  input  wire load,
  input  wire [PB-1:0] pkt,
  input  wire [PB-1:0] late,    // LATE: the packet, the cycle after `load`
  input  wire [PB-1:0] late2,   // K2: the packet, two cycles after `load` (chunks K2 and on)
  output wire [WIDTH-1:0] wires
);
  localparam integer NB = PB + C;
  localparam integer L2 = LATE != 0 && T > 2 && K2 >= 2 && K2 < T ? 1 : 0;
  // The frame in wire order (chunk t at bits t*WIDTH +: WIDTH) of `pkt` (g_fr[0]), `late` (g_fr[1])
  // and `late2` (g_fr[2]).
  genvar t, k;
  generate
    for (k = 0; k < 3; k = k + 1) begin : g_fr
      wire [PB-1:0] src = k == 0 ? pkt : (k == 1 ? late : late2);
      wire [T*WIDTH-1:0] full;
      wire unused = &{1'b0, full};  // LATE: one chunk of one, the rest of the others
      if (F == 1) begin : g_cm5
        // The payload (cm5ctl_params.h: fc 0, type 2:1, kind 4:3, comb 7:5, segd 8, seg 9, ovf 10,
        // err 11, global bits 14:12, data 46:15) into the major and minor streams.
        wire [43:0] major_info = {1'b0, src[14:12], src[46:15], src[8], src[7:5], src[4:3], src[2:1]};
        wire [12:0] minor = {9'd0, src[11], src[10], src[9], src[0]};
        wire [7:0] crc;
        cm5ctl_crc8 #(.N(57)) u_crc (.bits({minor, major_info}), .crc(crc));
        wire [51:0] major = {crc, major_info};
        for (t = 0; t < T; t = t + 1) begin : g_chunk
          if (WIDTH > 5) begin : g_pad
            assign full[t*WIDTH+5 +: WIDTH-5] = {(WIDTH-5){1'b0}};
          end
          assign full[t*WIDTH +: 5] = {minor[t], major[4*t +: 4]};
        end
      end else begin : g_plain
        wire [NB-1:0] framed;
        if (C == 0) begin : g_nocrc
          assign framed = src;
        end else begin : g_crc
          wire [7:0] crc;
          cm5ctl_crc8 #(.N(PB)) u_crc (.bits(src), .crc(crc));
          assign framed = {crc, src};
        end
        if (T * WIDTH > NB) begin : g_pad
          assign full = {{(T*WIDTH-NB){1'b0}}, framed};
        end else begin : g_exact
          assign full = framed;
        end
      end
    end
  endgenerate
  reg [T*WIDTH-1:0] sh;
  wire [WIDTH-1:0] first;  // LATE: the first chunk, in the cycle after `load`
  wire on_first;
  assign wires = on_first ? first : sh[WIDTH-1:0];
  generate
    if (T == 1) begin : g_one
      always @(posedge clk) sh <= rst ? {WIDTH{1'b0}} : (load ? g_fr[0].full : {WIDTH{1'b0}});
      assign first = {WIDTH{1'b0}};
      assign on_first = 1'b0;
      wire unused = &{1'b0, late, late2};
    end else if (LATE != 0) begin : g_late
      reg fill, fill2;  // the cycle after `load`, and the one after that
      // The cycle after `load`: chunk c to c - 1, from late (L2: up to K2 - 1; the others wait
      // for late2). Two cycles after `load` (L2): chunk c (at c - 1 now) to c - 2, from late2
      // from K2 on.
      wire [T*WIDTH-1:0] next1, next2;
      for (t = 0; t < T; t = t + 1) begin : g_next
        if (t + 1 >= T || (L2 != 0 && t + 1 >= K2)) begin : g_end1
          assign next1[t*WIDTH +: WIDTH] = {WIDTH{1'b0}};
        end else begin : g_late1
          assign next1[t*WIDTH +: WIDTH] = g_fr[1].full[(t+1)*WIDTH +: WIDTH];
        end
        if (t + 2 >= T) begin : g_end2
          assign next2[t*WIDTH +: WIDTH] = {WIDTH{1'b0}};
        end else if (t + 2 < K2) begin : g_kept2
          assign next2[t*WIDTH +: WIDTH] = sh[(t+1)*WIDTH +: WIDTH];
        end else begin : g_late2
          assign next2[t*WIDTH +: WIDTH] = g_fr[2].full[(t+2)*WIDTH +: WIDTH];
        end
      end
      if (FIRST != 0) begin : g_first
        reg [WIDTH-1:0] c0;
        always @(posedge clk) if (load) c0 <= g_fr[0].full[WIDTH-1:0];
        assign first = c0;
        assign on_first = fill;
      end else begin : g_in_sh
        assign first = {WIDTH{1'b0}};
        assign on_first = 1'b0;
      end
      always @(posedge clk) begin
        fill <= !rst && load;
        fill2 <= !rst && fill && L2 != 0;
        if (rst) sh <= {(T*WIDTH){1'b0}};
        else if (load && FIRST == 0) sh <= {{((T-1)*WIDTH){1'b0}}, g_fr[0].full[WIDTH-1:0]};
        else if (fill) sh <= next1;
        else if (fill2) sh <= next2;
        else sh <= {{WIDTH{1'b0}}, sh[T*WIDTH-1:WIDTH]};
      end
      wire unused = &{1'b0, next1, next2};
    end else begin : g_shift
      wire unused = &{1'b0, late, late2};
      assign first = {WIDTH{1'b0}};
      assign on_first = 1'b0;
      always @(posedge clk)
        if (rst) sh <= {(T*WIDTH){1'b0}};
        else if (load) sh <= g_fr[0].full;
        else sh <= {{WIDTH{1'b0}}, sh[T*WIDTH-1:WIDTH]};
    end
  endgenerate
endmodule
`default_nettype wire

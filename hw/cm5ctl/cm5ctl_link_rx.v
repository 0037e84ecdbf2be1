// The receiving end of a CM-5 control network link (see cm5ctl_link_tx.v): `pkt` is the whole
// packet in the last cycle of its frame: the chunks before, registered, and the last chunk
// straight from the wires. With a CRC (C = 8, or the CM-5's frame, F = 1) a packet whose CRC is
// wrong comes out as an idle packet (all zero) and raises `crc_err` in that cycle.
// `early` (the plain frame, T >= 2): in the cycle before `last`, the packet's bits as `pkt` will
// have them, but those of the last chunk (zero) and with no CRC check: a node registers what it
// decides from its first chunks a cycle ahead. The CM-5's frame: zero. `held`: in the cycle
// after `last`, `pkt` as it was in `last` (the last chunk registered).
`default_nettype none
module cm5ctl_link_rx #(
  parameter integer PB = 44,
  parameter integer C = 0,
  parameter integer F = 0,
  parameter integer WIDTH = 6,
  parameter integer T = 8
) (
  input  wire clk,
  input  wire rst,
  input  wire last,
  input  wire [WIDTH-1:0] wires,
  output wire [PB-1:0] pkt,
  output wire [PB-1:0] early,
  output wire [PB-1:0] held,
  output wire crc_err
);
  localparam integer NB = PB + C;
  wire [T*WIDTH-1:0] full;  // the frame in wire order
  wire [T*WIDTH-1:0] full_e;  // as it will be in the next cycle, but the last chunk
  wire [T*WIDTH-1:0] full_h;  // as it was in the cycle before
  reg [WIDTH-1:0] wires_r;
  always @(posedge clk) wires_r <= wires;
  genvar t;
  generate
    if (T == 1) begin : g_one
      assign full = wires;
      assign full_h = wires_r;
      assign full_e = {(T*WIDTH){1'b0}};
      wire unused = &{1'b0, clk, rst, last};
    end else begin : g_shift
      reg [(T-1)*WIDTH-1:0] sh;
      assign full = {wires, sh};
      assign full_h = {wires_r, sh};  // sh does not move in `last`
      if (T == 2) begin : g_e2
        assign full_e = {{WIDTH{1'b0}}, wires};
      end else begin : g_en
        assign full_e = {{WIDTH{1'b0}}, wires, sh[(T-1)*WIDTH-1:WIDTH]};
      end
      if (T == 2) begin : g_two
        always @(posedge clk) if (rst) sh <= {WIDTH{1'b0}}; else if (!last) sh <= wires;
      end else begin : g_many
        always @(posedge clk)
          if (rst) sh <= {((T-1)*WIDTH){1'b0}};
          else if (!last) sh <= {wires, sh[(T-1)*WIDTH-1:WIDTH]};
      end
    end
    if (F == 1) begin : g_cm5
      // The major stream on wires 0..3, the minor on wire 4 (cm5ctl_packet.h, cm5::from_frame).
      wire [51:0] major, major_h;
      wire [12:0] minor, minor_h;
      for (t = 0; t < T; t = t + 1) begin : g_chunk
        assign major[4*t +: 4] = full[t*WIDTH +: 4];
        assign minor[t] = full[t*WIDTH + 4];
        assign major_h[4*t +: 4] = full_h[t*WIDTH +: 4];
        assign minor_h[t] = full_h[t*WIDTH + 4];
        if (WIDTH > 5) begin : g_pad
          wire unused = &{1'b0, full[t*WIDTH+5 +: WIDTH-5], full_h[t*WIDTH+5 +: WIDTH-5]};
        end
      end
      wire [7:0] crc;
      cm5ctl_crc8 #(.N(57)) u_crc (.bits({minor, major[43:0]}), .crc(crc));
      wire bad = crc != major[51:44];
      // Back to the payload: data 46:15, global bits 14:12, err 11, ovf 10, seg 9, segd 8,
      // comb 7:5, kind 4:3, type 2:1, fc 0.
      wire [PB-1:0] got = {major[39:8], major[42:40], minor[3], minor[2], minor[1], major[7], major[6:4], major[3:2],
                           major[1:0], minor[0]};
      assign pkt = bad ? {PB{1'b0}} : got;
      assign crc_err = last && bad;
      reg bad_r;
      always @(posedge clk) bad_r <= bad;
      wire [PB-1:0] got_h = {major_h[39:8], major_h[42:40], minor_h[3], minor_h[2], minor_h[1], major_h[7], major_h[6:4],
                             major_h[3:2], major_h[1:0], minor_h[0]};
      assign held = bad_r ? {PB{1'b0}} : got_h;
      wire unused_h = &{1'b0, major_h[51:43], minor_h[12:4]};
      assign early = {PB{1'b0}};
      wire unused_e = &{1'b0, full_e};
    end else begin : g_plain
      wire [NB-1:0] got = full[NB-1:0];
      assign early = full_e[PB-1:0];
      if (T * WIDTH > PB) begin : g_pad_e
        wire unused_e = &{1'b0, full_e[T*WIDTH-1:PB]};
      end
      if (T * WIDTH > NB) begin : g_pad
        wire unused = &{1'b0, full[T*WIDTH-1:NB]};
      end
      if (T * WIDTH > PB) begin : g_pad_h
        wire unused_h = &{1'b0, full_h[T*WIDTH-1:PB]};
      end
      if (C == 0) begin : g_nocrc
        assign pkt = got;
        assign held = full_h[PB-1:0];
        assign crc_err = 1'b0;
        wire unused_last = &{1'b0, last};
      end else begin : g_crc
        wire [7:0] crc;
        cm5ctl_crc8 #(.N(PB)) u_crc (.bits(got[PB-1:0]), .crc(crc));
        wire bad = crc != got[PB +: 8];
        assign pkt = bad ? {PB{1'b0}} : got[PB-1:0];
        assign crc_err = last && bad;
        reg bad_r;
        always @(posedge clk) bad_r <= bad;
        assign held = bad_r ? {PB{1'b0}} : full_h[PB-1:0];
      end
    end
  endgenerate
endmodule
`default_nettype wire

// The receiving end of a CM-5 control network link (see cm5ctl_link_tx.v): `pkt` is the whole
// packet in the last cycle of its frame: the chunks before, registered, and the last chunk
// straight from the wires. With a CRC (C = 8, or the CM-5's frame, F = 1) a packet whose CRC is
// wrong comes out as an idle packet (all zero) and raises `crc_err` in that cycle.
// `early` (the plain frame, T >= 2): in the cycle before `last`, the packet's bits as `pkt` will
// have them, but those of the last chunk (zero) and with no CRC check: a node registers what it
// decides from its first chunks a cycle ahead. The CM-5's frame: zero.
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
  output wire crc_err
);
  localparam integer NB = PB + C;
  wire [T*WIDTH-1:0] full;  // the frame in wire order
  wire [T*WIDTH-1:0] full_e;  // as it will be in the next cycle, but the last chunk
  genvar t;
  generate
    if (T == 1) begin : g_one
      assign full = wires;
      assign full_e = {(T*WIDTH){1'b0}};
      wire unused = &{1'b0, clk, rst, last};
    end else begin : g_shift
      reg [(T-1)*WIDTH-1:0] sh;
      assign full = {wires, sh};
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
      wire [51:0] major;
      wire [12:0] minor;
      for (t = 0; t < T; t = t + 1) begin : g_chunk
        assign major[4*t +: 4] = full[t*WIDTH +: 4];
        assign minor[t] = full[t*WIDTH + 4];
        if (WIDTH > 5) begin : g_pad
          wire unused = &{1'b0, full[t*WIDTH+5 +: WIDTH-5]};
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
      if (C == 0) begin : g_nocrc
        assign pkt = got;
        assign crc_err = 1'b0;
        wire unused_last = &{1'b0, last};
      end else begin : g_crc
        wire [7:0] crc;
        cm5ctl_crc8 #(.N(PB)) u_crc (.bits(got[PB-1:0]), .crc(crc));
        wire bad = crc != got[PB +: 8];
        assign pkt = bad ? {PB{1'b0}} : got[PB-1:0];
        assign crc_err = last && bad;
      end
    end
  endgenerate
endmodule
`default_nettype wire

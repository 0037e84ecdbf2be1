// The receiving end of a CM-5 control network link (see cm5ctl_link_tx.v): `pkt` is the whole
// packet in the last cycle of its frame: the chunks before, registered, and the last chunk
// straight from the wires. With a CRC (C = 8) a packet whose CRC is wrong comes out as an idle
// packet (all zero) and raises `crc_err` in that cycle.
`default_nettype none
module cm5ctl_link_rx #(
  parameter integer PB = 44,
  parameter integer C = 0,
  parameter integer WIDTH = 6,
  parameter integer T = 8
) (
  input  wire clk,
  input  wire rst,
  input  wire last,
  input  wire [WIDTH-1:0] wires,
  output wire [PB-1:0] pkt,
  output wire crc_err
);
  localparam integer NB = PB + C;
  wire [NB-1:0] got;
  generate
    if (T == 1) begin : g_one
      assign got = wires[NB-1:0];
      wire unused = &{1'b0, clk, rst, last, wires};
    end else begin : g_shift
      reg [(T-1)*WIDTH-1:0] sh;
      wire [T*WIDTH-1:0] full = {wires, sh};
      assign got = full[NB-1:0];
      if (T == 2) begin : g_two
        always @(posedge clk) if (rst) sh <= {WIDTH{1'b0}}; else if (!last) sh <= wires;
      end else begin : g_many
        always @(posedge clk)
          if (rst) sh <= {((T-1)*WIDTH){1'b0}};
          else if (!last) sh <= {wires, sh[(T-1)*WIDTH-1:WIDTH]};
      end
      if (T * WIDTH > NB) begin : g_pad
        wire unused = &{1'b0, full[T*WIDTH-1:NB]};
      end
    end
    if (C == 0) begin : g_plain
      assign pkt = got;
      assign crc_err = 1'b0;
    end else begin : g_crc
      wire [7:0] crc;
      cm5ctl_crc8 #(.N(PB)) u_crc (.bits(got[PB-1:0]), .crc(crc));
      wire bad = crc != got[PB +: 8];
      assign pkt = bad ? {PB{1'b0}} : got[PB-1:0];
      assign crc_err = last && bad;
    end
  endgenerate
endmodule
`default_nettype wire

// The two ends of a CM-5 control network link: a packet of PB bits, then (C = 8) its CRC-8,
// sent serially as T chunks of WIDTH wires, least significant chunk first, one packet per
// frame of T cycles. Frames are aligned across the tree (every end counts the same frame from
// reset), so `last` (the frame's last cycle) is the same cycle at both ends of a link.
// This is the sending end: `load` in the last cycle of a frame takes the packet sent in the
// next frame (cm5ctl_link_rx.v is the receiving end).
`default_nettype none
module cm5ctl_link_tx #(
  parameter integer PB = 44,
  parameter integer C = 0,
  parameter integer WIDTH = 6,
  parameter integer T = 8
) (
  input  wire clk,
  input  wire rst,
  input  wire load,
  input  wire [PB-1:0] pkt,
  output wire [WIDTH-1:0] wires
);
  localparam integer NB = PB + C;
  wire [NB-1:0] framed;
  generate
    if (C == 0) begin : g_plain
      assign framed = pkt;
    end else begin : g_crc
      wire [7:0] crc;
      cm5ctl_crc8 #(.N(PB)) u_crc (.bits(pkt), .crc(crc));
      assign framed = {crc, pkt};
    end
  endgenerate
  reg [T*WIDTH-1:0] sh;
  wire [T*WIDTH-1:0] full = {{(T*WIDTH-NB){1'b0}}, framed};
  assign wires = sh[WIDTH-1:0];
  generate
    if (T == 1) begin : g_one
      always @(posedge clk) sh <= rst ? {WIDTH{1'b0}} : (load ? full : {WIDTH{1'b0}});
    end else begin : g_shift
      always @(posedge clk)
        if (rst) sh <= {(T*WIDTH){1'b0}};
        else if (load) sh <= full;
        else sh <= {{WIDTH{1'b0}}, sh[T*WIDTH-1:WIDTH]};
    end
  endgenerate
endmodule
`default_nettype wire

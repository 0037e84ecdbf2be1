// The receiving end of a CM-5 control network link (see cm5ctl_link_tx.v): `pkt` is the whole
// packet in the last cycle of its frame: the chunks before, registered, and the last chunk
// straight from the wires.
`default_nettype none
module cm5ctl_link_rx #(
  parameter integer PB = 44,
  parameter integer WIDTH = 6,
  parameter integer T = 8
) (
  input  wire clk,
  input  wire rst,
  input  wire last,
  input  wire [WIDTH-1:0] wires,
  output wire [PB-1:0] pkt
);
  generate
    if (T == 1) begin : g_one
      assign pkt = wires[PB-1:0];
      wire unused = &{1'b0, clk, rst, last, wires};
    end else begin : g_shift
      reg [(T-1)*WIDTH-1:0] sh;
      wire [T*WIDTH-1:0] full = {wires, sh};
      assign pkt = full[PB-1:0];
      if (T == 2) begin : g_two
        always @(posedge clk) if (rst) sh <= {WIDTH{1'b0}}; else if (!last) sh <= wires;
      end else begin : g_many
        always @(posedge clk)
          if (rst) sh <= {((T-1)*WIDTH){1'b0}};
          else if (!last) sh <= {wires, sh[(T-1)*WIDTH-1:WIDTH]};
      end
      if (T * WIDTH > PB) begin : g_pad
        wire unused = &{1'b0, full[T*WIDTH-1:PB]};
      end
    end
  endgenerate
endmodule
`default_nettype wire

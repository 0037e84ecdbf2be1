// CRC-8 (polynomial x^8 + x^2 + x + 1, initial value 0) of N bits taken bit 0 first, as the
// link sends them: the check the CM-5 puts last in every control network packet.
// Combinational. sim/cm5ctl/cm5ctl_ops.cpp (cm5::crc8) computes the same.
`default_nettype none
module cm5ctl_crc8 #(
  parameter integer N = 44
) (
  input  wire [N-1:0] bits,
  output reg  [7:0] crc
);
  integer i;
  reg fb;
  always @* begin
    crc = 8'd0;
    for (i = 0; i < N; i = i + 1) begin
      fb = crc[7] ^ bits[i];
      crc = {crc[6:0], 1'b0} ^ (fb ? 8'h07 : 8'h00);
    end
  end
endmodule
`default_nettype wire

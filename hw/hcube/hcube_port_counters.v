// The per-port counters both hypercube routers keep (hcube_pkt_node, hcube_worm_node): for each
// of the N output ports, counter port * 4 + kind with kind 0 packets (worms), 1 messages (first
// packets; worms' headers), 2 bytes, 3 blocked cycles, read by `sel`. The router says what
// happened on each port this cycle; the counters count enabled cycles only (`en`, the network's
// clock enable; `clear` acts regardless).
`default_nettype none
module hcube_port_counters #(
    parameter integer N   = 3,
    parameter integer IW  = 8,   // bits of a cycle's byte count
    parameter integer CSW = 4    // bits of the select (4N counters)
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          en,
    input  wire          clear,
    input  wire [N-1:0]    pkt,    // a packet (worm) starts on the port
    input  wire [N-1:0]    msg,    // ... and it is a message's first (a header)
    input  wire [N*IW-1:0] bytes,  // bytes the port counts this cycle
    input  wire [N-1:0]    blk,    // the port was blocked this cycle
    input  wire [CSW-1:0]  sel,
    output wire [31:0]     value
);
  reg [N*4*IW-1:0] inc;
  integer p;
  always @* begin
    inc = {N*4*IW{1'b0}};
    for (p = 0; p < N; p = p + 1) begin
      inc[(p*4 + 0)*IW +: IW] = {{(IW-1){1'b0}}, pkt[p]};
      inc[(p*4 + 1)*IW +: IW] = {{(IW-1){1'b0}}, msg[p]};
      inc[(p*4 + 2)*IW +: IW] = bytes[p*IW +: IW];
      inc[(p*4 + 3)*IW +: IW] = {{(IW-1){1'b0}}, blk[p]};
    end
  end
  cmnet_counter_bank #(.N(4 * N), .CW(32), .IW(IW), .SW(CSW)) u_cnt (
      .clk(clk), .rst(rst), .ce(en || clear), .clear(clear), .inc(inc), .sel(sel), .value(value));
endmodule
`default_nettype wire

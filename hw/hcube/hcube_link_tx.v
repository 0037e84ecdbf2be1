// The sending end of one directed hypercube channel: its timing, shared by the packet and the
// wormhole routers. A transfer of W bytes started in cycle s spends A cycles in arbitration, then
// moves one byte every T cycles: byte k arrives downstream in cycle s + A + (k + 1)T, the
// destination bytes (bytes 0 and 1) are there in cycle s + A + 2T, and the last byte in cycle
// s + A + WT, when the channel is free again (a new transfer may start in that same cycle).
// Cycles count only while `en` is high (the network-wide clock enable of the stream board); its
// outputs hold while it is low, and the routers ignore them then (their registers hold too).
`default_nettype none
module hcube_link_tx #(
    parameter integer A  = 4,
    parameter integer T  = 2,
    parameter integer WL = 5,   // bits of a byte count
    parameter integer CW = 16   // bits of the cycle counter (A + T x 2^WL must fit)
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          en,        // clock enable: a cycle with en low does not count
    input  wire          start,     // a transfer takes the channel this cycle
    input  wire [WL-1:0] w,         // its bytes
    output wire          free,      // the channel can start a transfer this cycle
    output wire          hdr_now,   // its destination bytes arrive downstream this cycle
    output wire          byte_now,  // its byte k arrives downstream this cycle
    output wire [WL-1:0] k,
    output wire          end_now    // its last byte arrives downstream this cycle
);
  reg          busy;
  reg [CW-1:0] el, nxt, fin;
  reg [WL-1:0] kk;
  localparam integer HDRI = A + 2 * T, FIRSTI = A + T;
  localparam [CW-1:0] HDR = HDRI[CW-1:0], FIRST = FIRSTI[CW-1:0], AA = A[CW-1:0], TT = T[CW-1:0];
  assign byte_now = busy && el == nxt;
  assign hdr_now  = busy && el == HDR;
  assign end_now  = busy && el == fin;
  assign free     = !busy || end_now;
  assign k        = kk;
  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      el <= {CW{1'b0}};
      nxt <= {CW{1'b0}};
      fin <= {CW{1'b0}};
      kk <= {WL{1'b0}};
    end else if (en && start) begin
      busy <= 1'b1;
      el <= 1;
      nxt <= FIRST;
      fin <= AA + TT * {{(CW - WL){1'b0}}, w};
      kk <= {WL{1'b0}};
    end else if (en && busy) begin
      el <= el + 1'b1;
      if (byte_now) begin
        kk <= kk + 1'b1;
        nxt <= nxt + TT;
      end
      if (end_now) busy <= 1'b0;
    end
  end
endmodule
`default_nettype wire

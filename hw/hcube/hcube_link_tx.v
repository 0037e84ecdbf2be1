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
  // The outputs are registers: each flag is computed in the cycle before from the counters'
  // present values (and, for a transfer starting, from w alone), so no comparison of the cycle
  // counter lies on a path out of here and none depends on this cycle's start or w.
  reg          busy, byte_r, hdr_r, end_r, free_r;
  reg [CW-1:0] el, nxt;
  reg [WL-1:0] kk, wr;  // wr: the transfer's bytes
  localparam integer HDRI = A + 2 * T, FIRSTI = A + T;
  // The byte count w whose transfer ends in its first cycle (A + wT = 1), or -1 if none does.
  localparam integer W1 = (A <= 1 && (1 - A) % T == 0) ? (1 - A) / T : -1;
  localparam [CW-1:0] HDR = HDRI[CW-1:0], FIRST = FIRSTI[CW-1:0], AA = A[CW-1:0], TT = T[CW-1:0];
  wire [CW-1:0] fin  = AA + TT * {{(CW - WL){1'b0}}, wr};  // the cycle of the last byte
  wire [CW-1:0] el1  = el + 1'b1;
  wire [CW-1:0] nxt1 = byte_r ? nxt + TT : nxt;
  wire          on   = busy && !end_r;  // still busy next cycle if nothing starts
  wire          end1 = W1 >= 0 && {{(32 - WL){1'b0}}, w} == W1;
  assign byte_now = byte_r;
  assign hdr_now  = hdr_r;
  assign end_now  = end_r;
  assign free     = free_r;
  assign k        = kk;
  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      el <= {CW{1'b0}};
      nxt <= {CW{1'b0}};
      kk <= {WL{1'b0}};
      wr <= {WL{1'b0}};
      byte_r <= 1'b0;
      hdr_r <= 1'b0;
      end_r <= 1'b0;
      free_r <= 1'b1;
    end else if (en && start) begin
      busy <= 1'b1;
      el <= 1;
      nxt <= FIRST;
      kk <= {WL{1'b0}};
      wr <= w;
      byte_r <= FIRSTI == 1;
      hdr_r <= HDRI == 1;
      end_r <= end1;
      free_r <= end1;
    end else if (en) begin
      if (busy) begin
        el <= el1;
        nxt <= nxt1;
        if (byte_r) kk <= kk + 1'b1;
        if (end_r) busy <= 1'b0;
      end
      byte_r <= on && el1 == nxt1;
      hdr_r <= on && el1 == HDR;
      end_r <= on && el1 == fin;
      free_r <= !on || el1 == fin;
    end
  end
endmodule
`default_nettype wire

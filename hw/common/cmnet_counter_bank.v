// N saturating-free wrap-around event counters of CW bits with a read mux: every cycle
// counter i adds inc[i*IW +: IW]. `clear` zeroes them all. Used for the routers' statistics.
//
// The increments are registered before they are added (so the adder's carry chain starts at
// a flip-flop, not at the logic that produced the events): a counter shows an event one
// cycle after it happened. `clear` also drops the increments in flight, so an event in the
// cycle before or during `clear` is not counted, as when the increment was added directly.
// The read (sel -> value) stays combinational.
// With a clock enable, "cycle" means ce cycle: the counters and the increments in flight
// update (and `clear` and `inc` are sampled) only when ce is high; rst acts regardless.
module cmnet_counter_bank #(
    parameter integer N  = 8,
    parameter integer CW = 32,
    parameter integer IW = 4,
    parameter integer SW = 3    // select width, 2^SW >= N
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          ce,        // clock enable
    input  wire          clear,
    input  wire [N*IW-1:0] inc,
    input  wire [SW-1:0] sel,
    output wire [CW-1:0] value
);
  reg [CW-1:0] cnt [0:N-1];
  reg [N*IW-1:0] inc_q;
  integer i;
  always @(posedge clk) begin
    if (rst || ce) begin
      inc_q <= (rst || clear) ? {N*IW{1'b0}} : inc;
      for (i = 0; i < N; i = i + 1) begin
        if (rst || clear) cnt[i] <= {CW{1'b0}};
        else cnt[i] <= cnt[i] + {{CW-IW{1'b0}}, inc_q[i*IW +: IW]};
      end
    end
  end
  localparam [SW:0] NV = N[SW:0];
  assign value = ({1'b0, sel} < NV) ? cnt[sel] : {CW{1'b0}};
endmodule

// The target side of the register bus (the bus of cmnet_frame_engine.v), written once for every
// register block: an access is answered in the first cycle its register can answer (`ready`),
// with bus_ready high for one cycle and bus_rdata and bus_err registered. `take` is high in the
// cycle the access completes: a register block's side effects (writes, FIFO reads) happen then,
// once per access.
`default_nettype none
module cmnet_bus_target (
    input  wire        clk,
    input  wire        rst,
    input  wire        bus_valid,
    output reg         bus_ready,
    output reg  [31:0] bus_rdata,
    output reg         bus_err,
    input  wire        ready,   // the addressed register can answer now (slow windows wait)
    input  wire [31:0] rdata,   // what the access reads
    input  wire        err,     // the access is refused (the host sees BAD_ADDRESS)
    output wire        take     // the access completes in this cycle
);
  assign take = bus_valid && !bus_ready && ready;
  always @(posedge clk) begin
    if (rst) begin
      bus_ready <= 1'b0;
      bus_rdata <= 32'd0;
      bus_err <= 1'b0;
    end else begin
      bus_ready <= take;
      if (take) begin
        bus_rdata <= rdata;
        bus_err <= err;
      end
    end
  end
endmodule
`default_nettype wire

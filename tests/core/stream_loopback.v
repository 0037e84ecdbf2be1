// A test network for the stream board shell (hw/common/STREAM_BOARD.md): every unit a leaf
// sends comes out whole at the next leaf ((leaf + 1) mod NLEAF), every word through one
// register stage, so the shell's FIFOs, run control, back-pressure and counters are exercised
// without a family. Counters: per leaf units sent (In) and received (Out), and units inside
// (Held), all in region 0.
`default_nettype none
module stream_loopback #(
    parameter integer NLEAF = 4
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        run,
    input  wire        clear,
    input  wire        tx_valid,
    output wire        tx_ready,
    input  wire [15:0] tx_leaf,
    input  wire [31:0] tx_data,
    input  wire        tx_last,
    output wire        rx_valid,
    input  wire        rx_ready,
    output wire [15:0] rx_leaf,
    output wire [31:0] rx_data,
    output wire        rx_last,
    output wire        busy,
    output wire [(2*NLEAF+1)*32-1:0] counters
);
  reg        st_valid;
  reg [15:0] st_leaf;
  reg [31:0] st_data;
  reg        st_last;
  assign tx_ready = run && (!st_valid || rx_ready);
  assign rx_valid = st_valid;
  assign rx_leaf = st_leaf;
  assign rx_data = st_data;
  assign rx_last = st_last;
  wire take = tx_valid && tx_ready;
  wire give = st_valid && rx_ready;
  reg [31:0] held;
  // A unit whose next words have not come from the host is not work the network can do.
  assign busy = st_valid;
  localparam integer LAST_I = NLEAF - 1;
  localparam [15:0] LAST_LEAF = LAST_I[15:0];
  wire [15:0] next_leaf = (tx_leaf == LAST_LEAF) ? 16'd0 : tx_leaf + 16'd1;
  always @(posedge clk) begin
    if (rst) begin
      st_valid <= 1'b0;
      st_leaf <= 16'd0;
      st_data <= 32'd0;
      st_last <= 1'b0;
    end else begin
      if (give) st_valid <= 1'b0;
      if (take) begin
        st_valid <= 1'b1;
        st_leaf <= next_leaf;
        st_data <= tx_data ^ 32'h5A5A0000;  // a visible change: the network touched the word
        st_last <= tx_last;
      end
    end
    if (rst || clear) held <= 32'd0;
    else held <= held + {31'd0, take && tx_last} - {31'd0, give && st_last};
  end
  genvar g;
  generate
    for (g = 0; g < NLEAF; g = g + 1) begin : g_cnt
      localparam [31:0] ME_I = g;
      localparam [15:0] ME = ME_I[15:0];
      reg [31:0] sent, recv;
      always @(posedge clk) begin
        if (rst || clear) begin
          sent <= 32'd0;
          recv <= 32'd0;
        end else begin
          if (take && tx_last && tx_leaf == ME) sent <= sent + 32'd1;
          if (give && st_last && st_leaf == ME) recv <= recv + 32'd1;
        end
      end
      assign counters[64*g +: 32] = sent;
      assign counters[64*g + 32 +: 32] = recv;
    end
  endgenerate
  assign counters[64*NLEAF +: 32] = held;
endmodule
`default_nettype wire

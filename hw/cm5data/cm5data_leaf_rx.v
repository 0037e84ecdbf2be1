// A leaf that takes every flit at once (as the reference model's leaves do) and returns its
// credit the next cycle (SLOTS != 0: one per message, at its last flit); it counts the messages
// received and XORs every word received (heads, data, CRCs): what arrived, in any order, which
// is what a run split over boards on their own clocks can be checked by.
`default_nettype none
module cm5data_leaf_rx #(
    parameter integer W = 4,     // link bits (divides 32)
    parameter integer CNW = 8,   // message counter bits
    parameter integer SLOTS = 0
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           valid,
    input  wire [W-1:0]   data,
    output reg            credit,
    output reg  [CNW-1:0] count,
    output reg  [31:0]    xsum,
    output wire           msg_end   // this cycle's flit is a message's last
);
  localparam integer FPW = 32 / W;
  localparam integer PB = (FPW > 1) ? $clog2(FPW) : 1;
  localparam integer RW = 8;
  localparam integer LAST_I = FPW - 1;
  localparam [PB-1:0] LAST_FLIT = LAST_I[PB-1:0];
  localparam integer FPW_I = FPW;
  localparam [RW-1:0] FPW_R = FPW_I[RW-1:0];
  reg [RW-1:0] left;   // flits of this message still to come (0: a head next)
  reg [PB-1:0] fp;
  reg [31:0] acc;      // the word's flits so far, LSB flit first, shifted in from the top
  wire head = left == {RW{1'b0}};
  wire last = left == {{(RW-1){1'b0}}, 1'b1};  // a head never is the last flit
  assign msg_end = valid && last;
  wire word_end = fp == LAST_FLIT;
  wire [W+31:0] cat = {data, acc};
  wire [31:0] next = cat[W +: 32];
  wire unused_cat = ^cat[W-1:0];
  wire [RW-1:0] msg_flits = ({5'd0, data[2:0]} + 8'd2) * FPW_R;
  always @(posedge clk) begin
    if (rst) begin
      left <= {RW{1'b0}};
      fp <= {PB{1'b0}};
      acc <= 32'd0;
      count <= {CNW{1'b0}};
      xsum <= 32'd0;
      credit <= 1'b0;
    end else begin
      credit <= valid && (SLOTS == 0 || last);
      if (valid) begin
        acc <= next;
        left <= (head ? msg_flits : left) - 1'b1;
        fp <= word_end ? {PB{1'b0}} : fp + 1'b1;
        if (word_end) xsum <= xsum ^ next;
        if (last) count <= count + 1'b1;
      end
    end
  end
endmodule
`default_nettype wire

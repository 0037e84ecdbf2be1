// A leaf that sends its messages from a ROM (head, data words, CRC; as the reference model's
// leaves do): a flit a cycle, LSB flit of a word first, while it holds a credit of the link it
// drives (SLOTS = 0: a credit per flit; else one per message, taken at its head). The ROM is
// the caller's: this module asks for word `addr` and sends it; it stops at word `total`.
`default_nettype none
module cm5data_leaf_tx #(
    parameter integer W = 4,       // link bits (divides 32)
    parameter integer AW = 8,      // ROM word index bits
    parameter integer CW = 4,      // credit counter bits
    parameter integer CREDITS = 4, // the far buffer (flits, or message slots)
    parameter integer SLOTS = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [AW-1:0] total,   // words to send
    output reg  [AW-1:0] addr,    // the word being sent
    input  wire [31:0]   word,    // the ROM's word at addr
    output wire          valid,
    output wire [W-1:0]  data,
    input  wire          credit,  // one credit back
    output wire          done     // every word sent
);
  localparam integer FPW = 32 / W;             // flits of a word
  localparam integer PB = (FPW > 1) ? $clog2(FPW) : 1;
  localparam integer RW = 8;                   // flits of a message (<= 9 words of 8 flits)
  localparam integer LAST_I = FPW - 1;
  localparam [PB-1:0] LAST_FLIT = LAST_I[PB-1:0];
  localparam integer FPW_I = FPW;
  localparam [RW-1:0] FPW_R = FPW_I[RW-1:0];
  localparam [CW-1:0] CREDITS_C = CREDITS[CW-1:0];
  reg [PB-1:0] fp;      // flit of the word
  reg [CW-1:0] cred;
  reg [RW-1:0] left;    // flits of this message after the current one (0: a head next)
  wire head = left == {RW{1'b0}};
  assign done = addr == total;
  assign valid = !done && (cred != {CW{1'b0}} || (SLOTS != 0 && !head));
  wire word_end = fp == LAST_FLIT;
  wire [31:0] sh = word >> (fp * W);
  assign data = sh[W-1:0];
  wire [RW-1:0] msg_flits = ({5'd0, word[2:0]} + 8'd2) * FPW_R;
  always @(posedge clk) begin
    if (rst) begin
      addr <= {AW{1'b0}};
      fp <= {PB{1'b0}};
      cred <= CREDITS_C;
      left <= {RW{1'b0}};
    end else begin
      cred <= cred + {{(CW-1){1'b0}}, credit} - {{(CW-1){1'b0}}, valid && (SLOTS == 0 || head)};
      if (valid) begin
        left <= (head ? msg_flits : left) - 1'b1;
        fp <= word_end ? {PB{1'b0}} : fp + 1'b1;
        if (word_end) addr <= addr + 1'b1;
      end
    end
  end
  wire unused_sh = ^sh;
endmodule
`default_nettype wire

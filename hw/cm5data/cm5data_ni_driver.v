// A processor's part on a leaf board of the split network: it sends its messages from a ROM
// through a cm5data_ni on the NI's register bus (gen/cm5data/cm5data_ni_regmap.h) and takes
// every message the NI receives, as a node's program would. The ROM holds, per message, a
// control word {dst[31:16], tag[7:4], len[2:0]} and then its len data words; the driver asks
// for word `rom_addr` and writes it.
//
// One bus access a cycle. In each idle cycle it reads RECV_HEAD (no side effect): a whole
// message there is taken first (RECV_DATA len times: the count, the XOR of its data words, its
// CRC flag), which keeps the network's credits flowing; otherwise, when the send FIFO has room
// for the next message (head, data, CRC: len + 2 words of send_free), its data words go out as
// SEND_DATA writes, then SEND. So no SEND is ever refused.
`default_nettype none
module cm5data_ni_driver #(
    parameter integer AW = 8,   // ROM word index bits
    parameter integer CNW = 8   // message counter bits
) (
    input  wire           clk,
    input  wire           rst,
    input  wire [AW-1:0]  total,     // ROM words
    output reg  [AW-1:0]  rom_addr,
    input  wire [31:0]    rom_word,
    // the NI's bus
    output reg  [3:0]     addr,
    output reg  [31:0]    wdata,
    output reg            we,
    output reg            re,
    input  wire [31:0]    rdata,
    input  wire [7:0]     send_free,
    // what was received
    output reg  [CNW-1:0] count,
    output reg  [31:0]    xsum,      // XOR of every data word received
    output reg            crc_bad,   // a message arrived with its CRC flag clear
    output wire           sent       // every message handed to the NI
);
  localparam [3:0] A_SEND_DATA = 4'h0, A_SEND = 4'h1, A_RECV_HEAD = 4'h2, A_RECV_DATA = 4'h3;
  localparam [1:0] S_IDLE = 2'd0, S_SEND = 2'd1, S_RECV = 2'd2;
  reg [1:0] state;
  reg [2:0] k;          // words left of the message being sent or taken
  reg [31:0] ctl;       // the control word of the message being sent
  assign sent = rom_addr == total;
  wire [2:0] len = rom_word[2:0];
  wire room = send_free >= {5'd0, len} + 8'd2;
  wire head_valid = rdata[31];

  // The bus, from the state (rdata is combinational: RECV_HEAD is read in the idle cycle).
  always @* begin
    addr = A_RECV_HEAD;
    wdata = 32'd0;
    we = 1'b0;
    re = 1'b0;
    case (state)
      S_IDLE: re = 1'b1;
      S_SEND: begin
        we = 1'b1;
        if (k == 3'd0) begin
          addr = A_SEND;
          wdata = {7'd0, 1'b0, ctl[7:4], 4'd0, ctl[31:16]};  // {mark, tag, dst}
        end else begin
          addr = A_SEND_DATA;
          wdata = rom_word;
        end
      end
      S_RECV: begin
        re = 1'b1;
        addr = A_RECV_DATA;
      end
      default: ;
    endcase
  end

  always @(posedge clk) begin
    if (rst) begin
      state <= S_IDLE;
      rom_addr <= {AW{1'b0}};
      k <= 3'd0;
      ctl <= 32'd0;
      count <= {CNW{1'b0}};
      xsum <= 32'd0;
      crc_bad <= 1'b0;
    end else begin
      case (state)
        S_IDLE:
          if (head_valid) begin
            state <= S_RECV;
            k <= rdata[18:16];
            if (!rdata[30]) crc_bad <= 1'b1;
          end else if (!sent && room) begin
            state <= S_SEND;
            ctl <= rom_word;
            k <= len;
            rom_addr <= rom_addr + 1'b1;
          end
        S_SEND:
          if (k == 3'd0) begin
            state <= S_IDLE;
          end else begin
            k <= k - 1'b1;
            rom_addr <= rom_addr + 1'b1;
          end
        S_RECV: begin
          xsum <= xsum ^ rdata;
          k <= k - 1'b1;
          if (k == 3'd1) begin
            state <= S_IDLE;
            count <= count + 1'b1;
          end
        end
        default: state <= S_IDLE;
      endcase
    end
  end
  wire unused_ctl = ^{ctl[15:8], ctl[3:0]};
endmodule
`default_nettype wire

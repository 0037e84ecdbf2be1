// Register-bus target that puts any family's network under host control through the stream
// port (hw/common/STREAM_BOARD.md): a self-describing block list, run control, a transmit FIFO
// into the leaves, a receive FIFO out of them, the family's counters and its info ROM. The
// register map is described once in C++ (gen/core/stream_regmap.h); the host driver
// (host/stream_board.h), csr.csv and the documentation table are made from that description,
// and a test checks this decode against it.
//
//   0x0000 BOARD ('CMNT', v1): +0x10 CLOCK_HZ, +0x14 LINK (0 UART, 1 FIFO), +0x18 CONFIG_ID
//   0x0100 STRM  ('STRM', v1):
//     +0x10 LEAVES  +0x14 NCOUNTERS  +0x18 INFO (byte address of the info ROM)  +0x1C INFO_WORDS
//     +0x20 FIFO_WORDS (depth of each FIFO)
//     +0x40 CONTROL  w: bit0 run (a level), bit1 clear (counters, CYCLES, TX_UNITS, RX_UNITS), bit2
//                    resync (the next TX_STREAM word is a header: after a failed burst); r: bit0 run
//     +0x44 STATUS   r: bit0 busy (the network), bit1 active (run and (busy or words to send)),
//                       bit2 rx_valid, bit3 tx_empty
//     +0x48 CYCLES   r: active cycles since the last clear (a stopped simulated clock agrees)
//     +0x4C TX_STREAM w (a FIFO register: burst it): unit records, each a header word
//                    {words[31:16] (1..65535), leaf[15:0]} and then its words; a write when the
//                    FIFO is full is a bus error. r: words the current record still expects
//     +0x50 TX_FREE  r: free words in the transmit FIFO (headers take none)
//     +0x54 TX_UNITS r: units written since the last clear
//     +0x58 RX_COUNT r: words in the receive FIFO
//     +0x5C RX_UNITS r: units the host has taken since the last clear
//     +0x60 RX_PAIRS r (a FIFO register: burst 2 n reads): even reads give the head word's
//                    {valid[31], last[30], leaf[15:0]}, odd reads the word itself, taking it (a
//                    bus error when empty); any other access restarts at an even read
//   0x0400 identifier_mem: LiteX's identifier, one character per word, then 0
//   0x0800 counters: word i = counter i (NCOUNTERS words)
//   0x1000 info ROM: INFO_WORDS words, 4 ASCII characters each (the first in bits 7:0): the
//          family, its parameters, regions and counters as text lines (gen/core/stream_board.h)
`default_nettype none
module cmnet_stream_regs #(
    parameter integer NLEAF = 4,
    parameter integer NCNT = 4,          // 1..512
    parameter integer NINFO = 4,         // 1..4096
    parameter integer INFO_AW = 2,       // address bits of the info ROM
    parameter integer FIFO_AW = 7,       // each FIFO holds 2^FIFO_AW words
    parameter integer CLOCK_HZ = 12000000,
    parameter integer LINK = 0,
    parameter [31:0] CONFIG_ID = 32'h0,
    parameter integer IDENT_LEN = 5,
    parameter [8*IDENT_LEN-1:0] IDENT = "cmnet"
) (
    input  wire        clk,
    input  wire        rst,
    // register bus (target), as defined in cmnet_frame_engine.v
    input  wire        bus_valid,
    input  wire        bus_write,
    input  wire [31:0] bus_addr,
    input  wire [31:0] bus_wdata,
    output reg         bus_ready,
    output reg  [31:0] bus_rdata,
    output reg         bus_err,
    // the family's stream port
    output wire        net_run,
    output wire        net_clear,
    output wire        tx_valid,
    input  wire        tx_ready,
    output wire [15:0] tx_leaf,
    output wire [31:0] tx_data,
    output wire        tx_last,
    input  wire        rx_valid,
    output wire        rx_ready,
    input  wire [15:0] rx_leaf,
    input  wire [31:0] rx_data,
    input  wire        rx_last,
    input  wire        net_busy,
    input  wire [NCNT*32-1:0] counters,
    // the info ROM (synchronous: data is for the address of the previous cycle)
    output wire [INFO_AW-1:0] info_addr,
    input  wire [31:0] info_data,
    output wire        active     // run, and the network busy or words waiting to go in
);
  localparam [31:0] A_STRM = 32'h100;
  localparam [31:0] A_IDENT = 32'h400;
  localparam [31:0] A_CNT = 32'h800;
  localparam [31:0] A_INFO = 32'h1000;
  localparam integer FW = 1 + 16 + 32;  // a FIFO entry: {last, leaf, data}

  reg run_q, clear_q;
  reg [15:0] tx_leaf_q;    // the current record's leaf
  reg [15:0] tx_rem;       // words the current record still expects (0: a header comes next)
  reg        rx_odd;       // the next RX_PAIRS read is the odd one (the word)
  reg [31:0] cycles_q, tx_units_q, rx_units_q;
  assign net_run = run_q;
  assign net_clear = clear_q;

  // ---- transmit FIFO: host words -> the leaves ----
  reg          tx_push;
  reg [FW-1:0] tx_din;
  wire         tx_full, tx_head_valid;
  wire [FW-1:0] tx_head;
  wire [FIFO_AW:0] tx_count;
  cmnet_sync_fifo #(.W(FW), .AW(FIFO_AW)) tx_fifo (
      .clk(clk), .rst(rst), .push(tx_push), .din(tx_din), .full(tx_full),
      .pop(tx_ready && tx_head_valid), .valid(tx_head_valid), .dout(tx_head), .count(tx_count));
  assign tx_valid = tx_head_valid;
  assign {tx_last, tx_leaf, tx_data} = tx_head;
  // The FIFO's push lands one cycle after the bus write: count it as taken at once.
  wire [FIFO_AW:0] tx_used = tx_count + {{FIFO_AW{1'b0}}, tx_push};
  localparam [FIFO_AW:0] DEPTH = 1 << FIFO_AW;
  wire [FIFO_AW:0] tx_free = DEPTH - tx_used;
  assign active = run_q && (net_busy || tx_used != {(FIFO_AW+1){1'b0}});

  // ---- receive FIFO: the leaves -> host reads ----
  reg          rx_pop;
  wire         rx_full, rx_head_valid;
  wire [FW-1:0] rx_head;
  wire [FIFO_AW:0] rx_count;
  cmnet_sync_fifo #(.W(FW), .AW(FIFO_AW)) rx_fifo (
      .clk(clk), .rst(rst), .push(rx_valid), .din({rx_last, rx_leaf, rx_data}), .full(rx_full),
      .pop(rx_pop), .valid(rx_head_valid), .dout(rx_head), .count(rx_count));
  assign rx_ready = !rx_full;

  // ---- decode ----
  wire [31:0] a = bus_addr;
  wire in_ident = (a >= A_IDENT) && (a < A_CNT);
  wire in_cnt = (a >= A_CNT) && (a < A_CNT + 4 * NCNT);
  wire in_info = (a >= A_INFO) && (a < A_INFO + 4 * NINFO);
  wire [31:0] word_index = (a - (in_cnt ? A_CNT : A_INFO)) >> 2;
  assign info_addr = word_index[INFO_AW-1:0];
  // LiteX's identifier_mem: character i of IDENT (its first character is in its top byte).
  wire [7:0] ident_c;
  cmnet_ident_rom #(.IDENT_LEN(IDENT_LEN), .IDENT(IDENT)) ident_rom (.index(a[9:2]), .char(ident_c));
  wire [31:0] cnt_value = counters[word_index[8:0] * 32 +: 32];

  reg [31:0] rdata_c;
  reg        err_c;
  always @* begin
    err_c = 1'b0;
    rdata_c = 32'd0;
    if (in_cnt) begin
      rdata_c = cnt_value;
    end else if (in_info) begin
      rdata_c = info_data;
    end else if (in_ident) begin
      rdata_c = {24'd0, ident_c};
    end else begin
      case (a)
        32'h000: rdata_c = 32'h434D4E54;  // 'CMNT'
        32'h004: rdata_c = 32'd1;
        32'h008: rdata_c = A_STRM;
        32'h00C: rdata_c = 32'h100;
        32'h010: rdata_c = CLOCK_HZ;
        32'h014: rdata_c = LINK;
        32'h018: rdata_c = CONFIG_ID;
        32'h100: rdata_c = 32'h5354524D;  // 'STRM'
        32'h104: rdata_c = 32'd1;
        32'h108: rdata_c = 32'd0;
        32'h10C: rdata_c = 32'h100;
        32'h110: rdata_c = NLEAF;
        32'h114: rdata_c = NCNT;
        32'h118: rdata_c = A_INFO;
        32'h11C: rdata_c = NINFO;
        32'h120: rdata_c = {{(31-FIFO_AW){1'b0}}, DEPTH};
        32'h140: rdata_c = {31'd0, run_q};
        32'h144: rdata_c = {28'd0, tx_used == {(FIFO_AW+1){1'b0}}, rx_head_valid, active, net_busy};
        32'h148: rdata_c = cycles_q;
        32'h14C: rdata_c = {16'd0, tx_rem};
        32'h150: rdata_c = {{(31-FIFO_AW){1'b0}}, tx_free};
        32'h154: rdata_c = tx_units_q;
        32'h158: rdata_c = {{(31-FIFO_AW){1'b0}}, rx_count};
        32'h15C: rdata_c = rx_units_q;
        32'h160: begin
          rdata_c = rx_odd ? rx_head[31:0] : {rx_head_valid, rx_head[FW-1], 14'd0, rx_head[47:32]};
          err_c = rx_odd && !rx_head_valid;
        end
        default: err_c = 1'b1;
      endcase
    end
  end

  wire w_control = (a == A_STRM + 32'h40);
  wire w_tx = (a == A_STRM + 32'h4C);
  wire r_pairs = (a == A_STRM + 32'h60);
  wire tx_header = (tx_rem == 16'd0);
  // A header takes no room; a header of 0 words is refused.
  wire tx_ok = tx_header ? (bus_wdata[31:16] != 16'd0) : (tx_free != {(FIFO_AW+1){1'b0}});
  // The info ROM answers one cycle after its address: a read of it waits one cycle.
  reg info_wait;
  wire take = bus_valid && !bus_ready && (bus_write || !in_info || info_wait);

  always @(posedge clk) begin
    if (rst) begin
      bus_ready <= 1'b0;
      bus_rdata <= 32'd0;
      bus_err <= 1'b0;
      run_q <= 1'b0;
      clear_q <= 1'b0;
      tx_leaf_q <= 16'd0;
      tx_rem <= 16'd0;
      rx_odd <= 1'b0;
      tx_push <= 1'b0;
      tx_din <= {FW{1'b0}};
      rx_pop <= 1'b0;
      info_wait <= 1'b0;
      cycles_q <= 32'd0;
      tx_units_q <= 32'd0;
      rx_units_q <= 32'd0;
    end else begin
      clear_q <= 1'b0;
      tx_push <= 1'b0;
      rx_pop <= 1'b0;
      info_wait <= bus_valid && !bus_ready && in_info && !bus_write && !info_wait;
      if (active) cycles_q <= cycles_q + 32'd1;
      bus_ready <= take;
      if (take) begin
        bus_rdata <= rdata_c;
        bus_err <= bus_write ? !(w_control || (w_tx && tx_ok)) : err_c;
        if (bus_write && w_control) begin
          run_q <= bus_wdata[0];
          clear_q <= bus_wdata[1];
          // A clear or a resync starts a new record: a burst that failed part way leaves no
          // half-read header behind.
          if (bus_wdata[1] || bus_wdata[2]) tx_rem <= 16'd0;
          if (bus_wdata[1]) begin
            cycles_q <= 32'd0;
            tx_units_q <= 32'd0;
            rx_units_q <= 32'd0;
          end
        end
        if (bus_write && w_tx && tx_ok) begin
          if (tx_header) begin
            tx_leaf_q <= bus_wdata[15:0];
            tx_rem <= bus_wdata[31:16];
          end else begin
            tx_push <= 1'b1;
            tx_din <= {tx_rem == 16'd1, tx_leaf_q, bus_wdata};
            tx_rem <= tx_rem - 16'd1;
            if (tx_rem == 16'd1) tx_units_q <= tx_units_q + 32'd1;
          end
        end
        // RX_PAIRS alternates between the head's description and the word; any other access
        // restarts the pair, so a host that lost its place finds it again.
        rx_odd <= r_pairs && !bus_write && !rx_odd;
        if (r_pairs && !bus_write && rx_odd && rx_head_valid) begin
          rx_pop <= 1'b1;
          if (rx_head[FW-1]) rx_units_q <= rx_units_q + 32'd1;
        end
      end
    end
  end
  // Only word_index's low bits address the windows (their sizes are checked by the generator).
  wire unused_ok = &{1'b0, word_index, tx_full};  // tx_free guards the pushes
endmodule
`default_nettype wire

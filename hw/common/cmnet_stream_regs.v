// Register-bus target that puts any family's network under host control through the stream
// port (hw/common/STREAM_BOARD.md): a self-describing block list, run control, a transmit FIFO
// into the leaves, a receive FIFO out of them, the family's counters and its info ROM. The
// register map is described once in C++ (gen/core/stream_regmap.h): the host driver
// (host/stream_board.h), csr.csv, the documentation table and this block's decode
// (cmnet_stream_regs_decode, emitted beside the board with the map as its comment) are all
// made from that description. This file gives each register its value and acts on the
// accesses: CONTROL (run, clear, resync), TX_STREAM (unit records into the transmit FIFO: a
// header {words[31:16], leaf[15:0]}, then the words; a write when the FIFO is full, or a header
// of 0 words, is a bus error), RX_PAIRS (even reads give the head word's {valid[31], last[30],
// leaf[15:0]}, odd reads the word itself, taking it; a bus error when empty; any other access
// restarts at an even read), the counter window (word i = counter i) and the info ROM window
// (INFO_WORDS words of text, gen/core/stream_board.h).
// The FIFOs keep a leaf field of LEAF_W bits only, as many as the board's leaves need (given by
// the generator, gen/core/stream_board.h): a 34-bit entry takes 3 block RAMs where 49 bits took 4.
// A header naming a leaf the board does not have is kept as leaf NLEAF (still out of range for
// the family), never folded onto a leaf it has.
`default_nettype none
module cmnet_stream_regs #(
    parameter integer NLEAF = 4,
    parameter integer LEAF_W = 3,        // bits of a leaf number in the FIFOs: holds min(NLEAF, 65535)
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
    output wire        bus_ready,
    output wire [31:0] bus_rdata,
    output wire        bus_err,
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
  localparam integer FW = 1 + LEAF_W + 32;  // a FIFO entry: {last, leaf, data}

  reg run_q, clear_q;
  reg [LEAF_W-1:0] tx_leaf_q;  // the current record's leaf
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
  wire [LEAF_W-1:0] tx_head_leaf;
  assign {tx_last, tx_head_leaf, tx_data} = tx_head;
  wire [LEAF_W+15:0] tx_leaf_x = {16'd0, tx_head_leaf};  // zero-extended (LEAF_W may be 16)
  assign tx_leaf = tx_leaf_x[15:0];
  // The FIFO's push lands one cycle after the bus write: count it as taken at once.
  wire [FIFO_AW:0] tx_used = tx_count + {{FIFO_AW{1'b0}}, tx_push};
  localparam [FIFO_AW:0] DEPTH = 1 << FIFO_AW;
  wire [FIFO_AW:0] tx_free = DEPTH - tx_used;
  assign active = run_q && (net_busy || tx_used != {(FIFO_AW+1){1'b0}});

  // ---- receive FIFO: the leaves -> host reads ----
  // The family's leaf numbers are below NLEAF: the bits above LEAF_W are 0 (LEAF_W may be 16).
  wire [16:0] rx_leaf_x = {1'b0, rx_leaf};
  reg          rx_pop;
  wire         rx_full, rx_head_valid;
  wire [FW-1:0] rx_head;
  wire [FIFO_AW:0] rx_count;
  cmnet_sync_fifo #(.W(FW), .AW(FIFO_AW)) rx_fifo (
      .clk(clk), .rst(rst), .push(rx_valid), .din({rx_last, rx_leaf_x[LEAF_W-1:0], rx_data}), .full(rx_full),
      .pop(rx_pop), .valid(rx_head_valid), .dout(rx_head), .count(rx_count));
  assign rx_ready = !rx_full;

  // ---- decode (cmnet_stream_regs_decode: generated from gen/core/stream_regmap.h) ----
  wire        in_cnt, in_info, w_control, w_tx, r_pairs, dec_err;
  wire [31:0] cnt_word, info_word, rdata_c;
  wire [31:0] cnt_value;
  cmnet_stream_regs_decode #(
      .CLOCK_HZ(CLOCK_HZ), .LINK(LINK), .CONFIG_ID(CONFIG_ID), .COUNTERS_WORDS(NCNT),
      .INFO_ROM_WORDS(NINFO), .IDENT_LEN(IDENT_LEN), .IDENT(IDENT)) decode (
      .addr(bus_addr),
      .r_leaves(NLEAF),
      .r_ncounters(NCNT),
      .r_info_words(NINFO),
      .r_fifo_words({{(31-FIFO_AW){1'b0}}, DEPTH}),
      .r_control({31'd0, run_q}),
      .hit_control(w_control),
      .r_status({28'd0, tx_used == {(FIFO_AW+1){1'b0}}, rx_head_valid, active, net_busy}),
      .r_cycles(cycles_q),
      .r_tx_stream({16'd0, tx_rem}),
      .hit_tx_stream(w_tx),
      .r_tx_free({{(31-FIFO_AW){1'b0}}, tx_free}),
      .r_tx_units(tx_units_q),
      .r_rx_count({{(31-FIFO_AW){1'b0}}, rx_count}),
      .r_rx_units(rx_units_q),
      .r_rx_pairs(rx_odd ? rx_head[31:0] : {rx_head_valid, rx_head[FW-1], {(30-LEAF_W){1'b0}}, rx_head[FW-2:32]}),
      .hit_rx_pairs(r_pairs),
      .r_counters(cnt_value),
      .in_counters(in_cnt),
      .counters_word(cnt_word),
      .r_info_rom(info_data),
      .in_info_rom(in_info),
      .info_rom_word(info_word),
      .rdata(rdata_c),
      .err(dec_err));
  assign info_addr = info_word[INFO_AW-1:0];
  assign cnt_value = counters[cnt_word[8:0] * 32 +: 32];

  wire tx_header = (tx_rem == 16'd0);
  localparam [LEAF_W-1:0] NLEAF_LEAF = NLEAF[LEAF_W-1:0];  // a leaf out of range (NLEAF < 65536)
  // A header takes no room; a header of 0 words is refused.
  wire tx_ok = tx_header ? (bus_wdata[31:16] != 16'd0) : (tx_free != {(FIFO_AW+1){1'b0}});
  // The info ROM answers one cycle after its address: a read of it waits one cycle.
  reg info_wait;
  wire take;
  cmnet_bus_target target (
      .clk(clk), .rst(rst), .bus_valid(bus_valid), .bus_ready(bus_ready), .bus_rdata(bus_rdata),
      .bus_err(bus_err), .ready(bus_write || !in_info || info_wait), .rdata(rdata_c),
      .err(bus_write ? !(w_control || (w_tx && tx_ok)) : (dec_err || (r_pairs && rx_odd && !rx_head_valid))),
      .take(take));

  always @(posedge clk) begin
    if (rst) begin
      run_q <= 1'b0;
      clear_q <= 1'b0;
      tx_leaf_q <= {LEAF_W{1'b0}};
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
      if (take) begin
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
            tx_leaf_q <= ({16'd0, bus_wdata[15:0]} < NLEAF) ? bus_wdata[LEAF_W-1:0] : NLEAF_LEAF;
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
  // Only the word offsets' low bits address the windows (their sizes are checked by the generator).
  wire unused_ok = &{1'b0, in_cnt, cnt_word, info_word, tx_full,  // tx_free guards the pushes
                     rx_leaf_x[16:LEAF_W], tx_leaf_x[LEAF_W+15:16]};
endmodule
`default_nettype wire

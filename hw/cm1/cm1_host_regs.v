// Register-bus target that puts a CM-1 network (cm1_network) under host control: a
// self-describing block list, the network's parameters, run control, the traffic load port,
// per-processor reception checks and the routers' counters. The host driver walks the block
// list from address 0, so it finds what a board contains without a hard-coded map.
//
// The map is described once in C++ (gen/cm1/cm1_regmap.h): the host driver's offsets, csr.csv,
// the documentation table and this block's decode (cm1_host_regs_decode, emitted beside the
// board with the map as its comment: the BOARD block at 0, the CM-1 block at 0x100, LiteX's
// identifier at 0x400, the counter window at 0x800, the endpoints at 0x8000, the endpoint
// histograms at 0x200000) are all made from it. This file gives each register its value and
// acts on the accesses:
//   CONTROL     w: bit0 start (runs until every message is delivered), bit1 clear (counters
//               and reception checks), bit2 eject_one
//   LOAD        w (repeatable, burst with the FIFO flag): SRC, DST, VP, DATA_LO and, if D > 32,
//               DATA_HI; the message is pushed after its last word. Refused while running.
//   GEN         w: bits 2:0 pattern, bit 8 go (hw/cm1_traffic_gen.v fills every queue with
//               GEN_COUNT messages per processor, from GEN_SEED). A start waits for it.
//   HIST        receptions delivered in petit cycle k = 0..15 (15: 15 and later)
//   counters    word (chip * CNT_STRIDE + i): counter i of chip `chip` (cnt_sel order); words
//               i >= NCOUNTERS read 0
//   endpoints   4 words per processor g: COUNT of receptions, XOR of the received {DATA, VP}
//               words (low 32 bits), SUM of their delivery petit cycles, INJECTED
//   endpoint histograms  word (g * 16 + k): receptions of processor g delivered in petit cycle
//               k, in block RAM (hw/cm1_endpoint_hist.v); a read waits for the histograms'
//               update of the last petit cycle (a few cycles)
module cm1_host_regs #(
    parameter integer C = 3,
    parameter integer B = 7,
    parameter integer P = 4,
    parameter integer PA = 2,
    parameter integer V = 0,
    parameter integer D = 8,
    parameter integer L = 15,
    parameter integer TP = 15,
    parameter integer PW = 4,
    parameter integer QD = 4,
    parameter integer NCNT = 8,
    parameter integer SW = 3,
    parameter integer GW = 5,      // width of a global processor number
    parameter integer PAW = 2,
    parameter integer VW = 1,
    parameter integer CLOCK_HZ = 12000000,
    parameter integer LINK = 0,
    parameter [31:0] CONFIG_ID = 32'h0,
    parameter integer IDENT_LEN = 9,
    parameter [8*IDENT_LEN-1:0] IDENT = "cmnet cm1"
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
    // the network
    output wire        net_run,
    output wire        net_clear,
    output wire        net_eject_one,
    output wire        net_load_en,
    output wire [GW-1:0]  net_load_proc,
    output wire [C-1:0]   net_load_chip,
    output wire [PAW-1:0] net_load_dproc,
    output wire [VW-1:0]  net_load_vp,
    output wire [D-1:0]   net_load_data,
    input  wire        net_load_full,
    input  wire [NP-1:0]   net_inj_valid,
    input  wire [NP-1:0]   net_rx_valid,
    input  wire [NP*W-1:0] net_rx_word,
    input  wire [PW-1:0] net_phase,
    input  wire        net_msgs_present,
    input  wire        net_pending,
    output wire [C-1:0] net_cnt_chip,
    output wire [SW-1:0] net_cnt_sel,
    input  wire [31:0] net_cnt_value,
    output wire        running
);
  localparam integer NP = (1 << C) * P;
  localparam integer W = V + D;
  localparam integer NWORDS = (D > 32) ? 5 : 4;   // words per message on the LOAD port
  // Bit-time, within the machine's schedule, at which petit cycle k's receptions complete:
  // k*TP + RX_OFF (the ejector's last bit, 2c + l - 1 after the MSGP entered the heart).
  localparam integer RX_OFF = 2 * C + L - 1;
  localparam integer RX_PHASE = RX_OFF % TP;

  // ---- run control: start just before a phase 0, stop at the first phase 0 with nothing left ----
  reg start_req;
  reg run_q;
  reg eject_one_q;
  reg clear_q;
  reg [31:0] petit_q;
  reg [31:0] cycles_q;
  wire at_phase0 = (net_phase == {PW{1'b0}});
  localparam integer LAST_I = TP - 1;
  localparam [PW-1:0] LAST_PHASE = LAST_I[PW-1:0];
  wire at_last_phase = (net_phase == LAST_PHASE);
  wire empty_now = !net_pending && !net_msgs_present;
  // The petit cycle that finds the network empty is not run (and not counted).
  assign net_run = run_q && !(at_phase0 && empty_now);
  assign net_clear = clear_q;
  assign net_eject_one = eject_one_q;
  assign running = run_q || start_req;

  // Reception bookkeeping: which petit cycle the receptions completing now belong to.
  reg [31:0] rx_petit;
  reg        rx_counting;

  always @(posedge clk) begin
    if (rst) begin
      run_q <= 1'b0;
      petit_q <= 32'd0;
      cycles_q <= 32'd0;
      rx_petit <= 32'd0;
      rx_counting <= 1'b0;
    end else begin
      if (start_req && at_last_phase && !run_q && !gen_busy) begin
        // petit cycle 0 is the next phase 0
        run_q <= 1'b1;
        petit_q <= 32'd0;
        cycles_q <= 32'd0;
        rx_counting <= 1'b1;
        // The first receptions (petit 0) complete RX_OFF bit-times from now.
        rx_petit <= (RX_OFF >= TP) ? 32'hffffffff : 32'd0;
      end else begin
        if (run_q) cycles_q <= cycles_q + 32'd1;
        if (run_q && at_phase0) begin
          if (empty_now) run_q <= 1'b0;
          else petit_q <= petit_q + 32'd1;
        end
        if (rx_counting && net_phase == RX_PHASE[PW-1:0]) rx_petit <= rx_petit + 32'd1;
      end
    end
  end

  // ---- reception checks per processor, and the delivery histogram ----
  // Counts within one run (the host clears before each) are at most NP * QD: counters for
  // them are that wide, not 32 bits, so the checks fit beside the network on an iCE40.
  localparam integer RCW = $clog2(NP * QD + 1);
  // Endpoint histogram banks: 2^EPBW processors each, at most TP - 2 (hw/cm1_endpoint_hist.v)
  // and at most NP = 2^GW.
  localparam integer EPB_LOG2_MAX = $clog2(TP - 1) - 1;   // floor(log2(TP - 2))
  localparam integer EPBW = (EPB_LOG2_MAX < GW) ? EPB_LOG2_MAX : GW;
  reg [RCW-1:0] hist [0:15];
  wire [3:0] hist_bin = (rx_petit > 32'd15) ? 4'd15 : rx_petit[3:0];
  wire [31:0] rx_now = ones(net_rx_valid);
  function [31:0] ones;
    input [NP-1:0] x;
    integer k;
    begin
      ones = 32'd0;
      for (k = 0; k < NP; k = k + 1) ones = ones + {31'd0, x[k]};
    end
  endfunction
  // One receiver check per processor (a generate loop: thousands of them are fine).
  wire [32*NP-1:0] rx_count_flat;
  wire [32*NP-1:0] rx_xor_flat;
  wire [32*NP-1:0] rx_sum_flat;
  wire [32*NP-1:0] inj_count_flat;
  genvar gg;
  generate
    for (gg = 0; gg < NP; gg = gg + 1) begin : g_rx
      reg [RCW-1:0] count_q;
      reg [31:0] xor_q;
      reg [31:0] sum_q;
      always @(posedge clk) begin
        if (rst || clear_q) begin
          count_q <= {RCW{1'b0}};
          xor_q <= 32'd0;
          sum_q <= 32'd0;
        end else if (net_rx_valid[gg]) begin
          count_q <= count_q + {{RCW-1{1'b0}}, 1'b1};
          xor_q <= xor_q ^ word32(net_rx_word[gg*W +: W]);
          sum_q <= sum_q + rx_petit;
        end
      end
      assign rx_count_flat[gg*32 +: 32] = {{32-RCW{1'b0}}, count_q};
      assign rx_xor_flat[gg*32 +: 32] = xor_q;
      assign rx_sum_flat[gg*32 +: 32] = sum_q;
      reg [RCW-1:0] inj_q;
      always @(posedge clk) begin
        if (rst || clear_q) inj_q <= {RCW{1'b0}};
        else if (net_inj_valid[gg]) inj_q <= inj_q + {{RCW-1{1'b0}}, 1'b1};
      end
      assign inj_count_flat[gg*32 +: 32] = {{32-RCW{1'b0}}, inj_q};
    end
  endgenerate
  // One adder for all bins: receptions of one batch all belong to the same petit cycle.
  wire [RCW-1:0] hist_sum = hist[hist_bin] + rx_now[RCW-1:0];
  integer hb;
  always @(posedge clk) begin
    for (hb = 0; hb < 16; hb = hb + 1) begin
      if (rst || clear_q) hist[hb] <= {RCW{1'b0}};
      else if (hist_bin == hb[3:0] && rx_now != 32'd0) hist[hb] <= hist_sum;
    end
  end
  function [31:0] word32;   // the low 32 bits of a received word, zero-extended
    input [W-1:0] w;
    integer k;
    begin
      word32 = 32'd0;
      for (k = 0; k < W && k < 32; k = k + 1) word32[k] = w[k];
    end
  endfunction

  // ---- the LOAD port: SRC, DST, VP, DATA_LO[, DATA_HI] then push ----
  reg            h_load_en;
  reg [GW-1:0]   h_load_proc;
  reg [C-1:0]    h_load_chip;
  reg [PAW-1:0]  h_load_dproc;
  reg [VW-1:0]   h_load_vp;
  reg [D-1:0]    h_load_data;

  // ---- the on-chip traffic generator shares the load port (never while the host loads) ----
  reg  [2:0]  gen_pattern;
  reg  [15:0] gen_count;
  reg  [31:0] gen_seed;
  reg         gen_start;
  wire        gen_busy;
  wire        g_load_en;
  wire [GW-1:0]  g_load_proc;
  wire [C-1:0]   g_load_chip;
  wire [PAW-1:0] g_load_dproc;
  wire [VW-1:0]  g_load_vp;
  wire [D-1:0]   g_load_data;
  cm1_traffic_gen #(.C(C), .PA(PA), .V(V), .D(D), .GW(GW), .PAW(PAW), .VW(VW)) gen (
      .clk(clk), .rst(rst), .start(gen_start), .pattern(gen_pattern), .count(gen_count),
      .seed(gen_seed), .busy(gen_busy), .load_en(g_load_en), .load_proc(g_load_proc),
      .load_chip(g_load_chip), .load_dproc(g_load_dproc), .load_vp(g_load_vp),
      .load_data(g_load_data));
  assign net_load_en = h_load_en || g_load_en;
  assign net_load_proc = g_load_en ? g_load_proc : h_load_proc;
  assign net_load_chip = g_load_en ? g_load_chip : h_load_chip;
  assign net_load_dproc = g_load_en ? g_load_dproc : h_load_dproc;
  assign net_load_vp = g_load_en ? g_load_vp : h_load_vp;
  assign net_load_data = g_load_en ? g_load_data : h_load_data;
  reg [2:0]  load_word;
  reg [31:0] load_taken;
  reg [31:0] load_drops;
  reg [GW-1:0] l_src;
  reg [GW-1:0] l_dst;
  reg [VW-1:0] l_vp;
  reg [31:0] l_lo;
  wire [63:0] load_data64 = (NWORDS == 5) ? {bus_wdata, l_lo} : {32'd0, bus_wdata};
  // only the low D bits of a message's data words and of its SRC/DST/VP words are kept
  wire unused_load = &{1'b0, load_data64, bus_wdata};

  // ---- bus decode (cm1_host_regs_decode: generated from gen/cm1/cm1_regmap.h) ----
  localparam integer NCW = (1 << C) << SW;  // counter words: CNT_STRIDE = 2^SW per chip
  wire        in_cnt, in_rx, in_eph, in_hist, dec_err;
  wire        w_control, w_load, w_gen_ctl, w_gen_count, w_gen_seed;
  wire [31:0] cnt_index, rx_word, eph_offset, hist_word, rdata_c;
  wire        eph_ready;
  wire [RCW-1:0] eph_data;
  wire        eph_overrun;
  cm1_endpoint_hist #(.NP(NP), .GW(GW), .EPBW(EPBW), .RCW(RCW)) ep_hist (
      .clk(clk), .rst(rst), .clear(clear_q), .rx_valid(net_rx_valid), .bin(hist_bin),
      .rd_req(bus_valid && !bus_ready && in_eph && !bus_write), .rd_addr(eph_offset[GW+3:0]),
      .rd_ready(eph_ready), .rd_data(eph_data), .overrun(eph_overrun));
  assign net_cnt_chip = cnt_index[SW +: C];
  assign net_cnt_sel = cnt_index[SW-1:0];
  wire [GW-1:0] rx_index = rx_word[GW+1:2];
  reg  [31:0] rx_value;
  always @* begin
    case (rx_word[1:0])
      2'd0: rx_value = rx_count_flat[rx_index*32 +: 32];
      2'd1: rx_value = rx_xor_flat[rx_index*32 +: 32];
      2'd2: rx_value = rx_sum_flat[rx_index*32 +: 32];
      default: rx_value = inj_count_flat[rx_index*32 +: 32];
    endcase
  end
  cm1_host_regs_decode #(
      .CLOCK_HZ(CLOCK_HZ), .LINK(LINK), .CONFIG_ID(CONFIG_ID), .COUNTERS_WORDS(NCW),
      .ENDPOINTS_WORDS(4 * NP), .ENDPOINT_HIST_WORDS(16 * NP), .IDENT_LEN(IDENT_LEN),
      .IDENT(IDENT)) decode (
      .addr(bus_addr),
      .r_c(C),
      .r_b(B),
      .r_p(P),
      .r_v(V),
      .r_d(D),
      .r_l(L),
      .r_tp(TP),
      .r_queue_depth(QD),
      .r_ncounters(NCNT),
      .r_cnt_stride(32'd1 << SW),
      .r_control({29'd0, eject_one_q, 1'b0, running}),
      .hit_control(w_control),
      .r_status({27'd0, eph_overrun, net_load_full, net_msgs_present, net_pending, running}),
      .r_petit(petit_q),
      .r_cycles(cycles_q),
      .r_load(load_taken),
      .hit_load(w_load),
      .r_load_drops(load_drops),
      .r_gen({31'd0, gen_busy}),
      .hit_gen(w_gen_ctl),
      .r_gen_count({16'd0, gen_count}),
      .hit_gen_count(w_gen_count),
      .r_gen_seed(gen_seed),
      .hit_gen_seed(w_gen_seed),
      .r_hist({{32-RCW{1'b0}}, hist[hist_word[3:0]]}),
      .in_hist(in_hist),
      .hist_word(hist_word),
      .r_counters(net_cnt_value),
      .in_counters(in_cnt),
      .counters_word(cnt_index),
      .r_endpoints(rx_value),
      .in_endpoints(in_rx),
      .endpoints_word(rx_word),
      .r_endpoint_hist({{32-RCW{1'b0}}, eph_data}),
      .in_endpoint_hist(in_eph),
      .endpoint_hist_word(eph_offset),
      .rdata(rdata_c),
      .err(dec_err));
  // Only the word offsets' low bits address the windows; the windows read through the decode.
  wire unused_dec = &{1'b0, rx_word, cnt_index, eph_offset, hist_word, in_cnt, in_rx, in_hist};

  // Writes that are not to a writable register are errors too; LOAD and GEN while running are
  // refused (BAD_ADDRESS): the queues belong to the run. Endpoint-histogram reads answer when
  // the RAM has the word (eph_ready).
  wire w_gen = w_gen_ctl || w_gen_count || w_gen_seed;
  wire take;
  cmnet_bus_target target (
      .clk(clk), .rst(rst), .bus_valid(bus_valid), .bus_ready(bus_ready), .bus_rdata(bus_rdata),
      .bus_err(bus_err), .ready(!in_eph || bus_write || eph_ready), .rdata(rdata_c),
      .err(bus_write ? !(w_control || ((w_load || w_gen) && !running && !gen_busy)) : dec_err),
      .take(take));

  always @(posedge clk) begin
    if (rst) begin
      start_req <= 1'b0;
      eject_one_q <= 1'b0;
      clear_q <= 1'b0;
      load_word <= 3'd0;
      load_taken <= 32'd0;
      load_drops <= 32'd0;
      h_load_en <= 1'b0;
      l_src <= {GW{1'b0}};
      l_dst <= {GW{1'b0}};
      l_vp <= {VW{1'b0}};
      l_lo <= 32'd0;
      h_load_proc <= {GW{1'b0}};
      gen_pattern <= 3'd0;
      gen_count <= 16'd0;
      gen_seed <= 32'd0;
      gen_start <= 1'b0;
      h_load_chip <= {C{1'b0}};
      h_load_dproc <= {PAW{1'b0}};
      h_load_vp <= {VW{1'b0}};
      h_load_data <= {D{1'b0}};
    end else begin
      clear_q <= 1'b0;
      h_load_en <= 1'b0;
      gen_start <= 1'b0;
      if (start_req && at_last_phase && !run_q && !gen_busy) start_req <= 1'b0;
      // A push asked for last cycle is refused when the queue is full: count it.
      if (net_load_en && net_load_full) load_drops <= load_drops + 32'd1;
      if (take) begin
        if (bus_write && w_control) begin
          if (bus_wdata[0] && !running) start_req <= 1'b1;
          clear_q <= bus_wdata[1];
          eject_one_q <= bus_wdata[2];
        end
        if (bus_write && w_gen && !running && !gen_busy) begin
          if (w_gen_ctl) begin
            gen_pattern <= bus_wdata[2:0];
            gen_start <= bus_wdata[8];
          end
          if (w_gen_count) gen_count <= bus_wdata[15:0];
          if (w_gen_seed) gen_seed <= bus_wdata;
        end
        if (bus_write && w_load && !running && !gen_busy) begin
          load_taken <= load_taken + 32'd1;
          case (load_word)
            3'd0: l_src <= bus_wdata[GW-1:0];
            3'd1: l_dst <= bus_wdata[GW-1:0];
            3'd2: l_vp <= bus_wdata[VW-1:0];
            3'd3: l_lo <= bus_wdata;
            default: ;
          endcase
          if (load_word == NWORDS[2:0] - 3'd1) begin
            load_word <= 3'd0;
            h_load_en <= 1'b1;
            h_load_proc <= l_src;
            h_load_chip <= l_dst[PA +: C];
            h_load_dproc <= (PA > 0) ? l_dst[PAW-1:0] : {PAW{1'b0}};
            h_load_vp <= l_vp;
            h_load_data <= load_data64[D-1:0];
          end else begin
            load_word <= load_word + 3'd1;
          end
        end
      end
    end
  end
endmodule

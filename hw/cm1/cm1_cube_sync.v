// CM-1 multi-board timing: one bit-time every K clocks, locked to a sync bus.
//
// When each router chip sits on its own FPGA, every board has its own oscillator and the cube
// wires cross registered, synchronized pins (a few clocks of delay). The chip therefore runs
// on a clock enable: one bit-time lasts K clocks, long enough for a cube bit to leave one
// board's pin register and pass the next board's two-flip-flop synchronizer.
//
// Chip 0 (master = 1) drives the sync bus from its own free-running schedule: high during
// bit-time 0 of every petit cycle (the marker), and during bit-time 1 once, when the run
// starts (the go bit). Every board, chip 0 included, listens to the bus through the same
// synchronizer, so all boards derive their bit-times from the same edge and their residual
// skew is the synchronizer's one-clock uncertainty. Between markers each board free-runs;
// oscillators 100 ppm apart drift by well under a clock in one petit cycle. A marker that
// arrives one clock early or late is absorbed by shortening or stretching the next bit-time 0
// by a clock (no ce is ever skipped or doubled, and the sample point always stays a clock
// before the ce); any other marker re-aligns the schedule, and after lock that raises `slip`
// (the chip saw a broken schedule).
//
// Outputs: ce (the chip's clock enable: the last clock of each bit-time), phase (the bit-time
// in the petit cycle, constant through it), sample (the clock at which cube inputs are
// latched: late enough for the neighbour's bit to have crossed its pin register, the cable
// and our synchronizer, early enough that its next bit has not), locked, go, slip.
`default_nettype none
module cm1_cube_sync #(
    parameter integer K = 8,           // clocks per bit-time (>= 8)
    parameter integer TP = 16,         // petit period in bit-times
    parameter integer PW = 4,          // phase width
    parameter integer GO_DELAY = 16    // master: petit cycles from ready to the go bit
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          master,    // this board drives the sync bus
    input  wire          ready,     // master: this board is loaded; the go bit follows after GO_DELAY petit cycles
    output reg           sync_out,  // to the bus (0 unless master)
    input  wire          sync_in,   // the bus, asynchronous
    output wire          ce,
    output wire [PW-1:0] phase,
    output wire          sample,
    output reg           locked,
    output reg           go,        // level: the go bit was seen; the run starts at the next phase 0
    output reg           slip       // after lock, a marker broke the schedule
);
  localparam integer KW = $clog2(K);
  // Integer constants, sliced to their widths (lint-clean sized compares).
  localparam integer K_LAST_I = K - 1;
  localparam integer K_EARLY_I = K - 2;
  // Sample point: a neighbour's bit reaches our synchronizer's output 3 clocks plus the cable
  // delay after its ce and stays a bit-time; skew between boards is a clock at most. The latest
  // clock before our own ce (K - 2) tolerates the longest cable: K - 5 clocks.
  localparam integer K_SAMPLE_I = K - 2;
  localparam integer K_MID_I = K / 2;
  localparam integer PH_LAST_I = TP - 1;
  localparam integer GW = $clog2(GO_DELAY + 1);
  localparam integer GO_AT_I = GO_DELAY;
  localparam [KW-1:0] K_LAST = K_LAST_I[KW-1:0];
  localparam [KW-1:0] K_EARLY = K_EARLY_I[KW-1:0];
  localparam [KW-1:0] K_SAMPLE = K_SAMPLE_I[KW-1:0];
  localparam [KW-1:0] K_MID = K_MID_I[KW-1:0];
  localparam [PW-1:0] PH_LAST = PH_LAST_I[PW-1:0];
  localparam [PW-1:0] PH_ONE = {{(PW-1){1'b0}}, 1'b1};
  localparam [GW-1:0] GO_AT = GO_AT_I[GW-1:0];

  // ---- master: the transmit schedule -------------------------------------------------
  reg [KW-1:0] tx_k;
  reg [PW-1:0] tx_ph;
  reg [GW-1:0] go_wait;
  reg go_tx;       // the go bit goes out in bit-time 1 of this petit cycle
  reg go_sent;
  wire tx_wrap = (tx_k == K_LAST) && (tx_ph == PH_LAST);
  always @(posedge clk) begin
    if (rst || !master) begin
      tx_k <= {KW{1'b0}};
      tx_ph <= {PW{1'b0}};
      go_wait <= {GW{1'b0}};
      go_tx <= 1'b0;
      go_sent <= 1'b0;
      sync_out <= 1'b0;
    end else begin
      tx_k <= (tx_k == K_LAST) ? {KW{1'b0}} : tx_k + 1'b1;
      if (tx_k == K_LAST) tx_ph <= (tx_ph == PH_LAST) ? {PW{1'b0}} : tx_ph + 1'b1;
      if (tx_wrap) begin
        // Decide at the petit boundary whether this petit cycle carries the go bit.
        go_tx <= 1'b0;
        if (!ready || !locked) go_wait <= {GW{1'b0}};
        else if (go_wait != GO_AT) go_wait <= go_wait + 1'b1;
        else if (!go_sent) begin
          go_tx <= 1'b1;
          go_sent <= 1'b1;
        end
      end
      sync_out <= (tx_ph == {PW{1'b0}}) || ((tx_ph == PH_ONE) && go_tx);
    end
  end

  // ---- every board: receive the bus ---------------------------------------------------
  reg [2:0] s;  // s[0], s[1]: synchronizer; s[2]: the previous s[1]
  always @(posedge clk) s <= rst ? 3'b000 : {s[1], s[0], sync_in};
  wire marker = s[1] && !s[2];

  reg [KW-1:0] k;
  reg [PW-1:0] ph;
  // Where the schedule stands when the marker edge is seen: exactly at its end (the marker
  // starts the next bit-time 0), one clock early or one clock late.
  wire at_end = (ph == PH_LAST) && (k == K_LAST);
  wire one_early = (ph == PH_LAST) && (k == K_EARLY);
  wire one_late = (ph == {PW{1'b0}}) && (k == {KW{1'b0}});
  wire on_time = at_end || one_early || one_late;
  assign ce = (k == K_LAST);
  assign phase = ph;
  assign sample = (k == K_SAMPLE);
  reg good1;  // the previous marker was on time
  reg skip;   // the marker came a clock early: the next bit-time 0 starts at k = 1
  always @(posedge clk) begin
    if (rst) begin
      k <= {KW{1'b0}};
      ph <= {PW{1'b0}};
      locked <= 1'b0;
      good1 <= 1'b0;
      skip <= 1'b0;
      go <= 1'b0;
      slip <= 1'b0;
    end else begin
      if (marker) begin
        good1 <= on_time;
        if (on_time && good1) locked <= 1'b1;
        if (!on_time && locked) slip <= 1'b1;
        if (!on_time) locked <= 1'b0;
      end
      if (marker && one_early) begin
        // Finish this bit-time as usual (its sample and ce); bit-time 0 is a clock shorter.
        k <= k + 1'b1;
        skip <= 1'b1;
      end else if (marker) begin
        // Bit-time 0 starts in the next clock; one clock late means it started a clock ago
        // and is stretched by one.
        k <= {KW{1'b0}};
        ph <= {PW{1'b0}};
      end else begin
        k <= (k == K_LAST) ? {{(KW-1){1'b0}}, skip} : k + 1'b1;
        if (k == K_LAST) begin
          ph <= (ph == PH_LAST) ? {PW{1'b0}} : ph + 1'b1;
          skip <= 1'b0;
        end
      end
      if (locked && ph == PH_ONE && k == K_MID && s[1]) go <= 1'b1;
    end
  end
endmodule
`default_nettype wire

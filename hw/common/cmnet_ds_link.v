// A credit-flow-controlled link between two boards over a two-wire data-strobe cable each way.
//
// When one network is split over several FPGAs (one board per chip, cabled), each board has its
// own oscillator and is powered on at its own time, and header pins are few: a cm5data link (W
// data bits, a valid, a credit back) cannot cross as it is. This end of the cable serializes what
// its side sends into one stream of tokens, LSB first: `11` + W data bits for a flit, `10` for a
// credit freed here, `0` for a hello. The bits go out on data-strobe encoding (SpaceWire's): per
// bit exactly one of D and S toggles, D carrying the bit. The receiving end synchronizes both
// wires and takes a bit whenever D ^ S changes, so it needs no common clock, and a skew between
// the two wires does no harm: one bit lasts B clocks of the sender, long enough to pass the
// two-flip-flop synchronizer with margin for the two boards' clocks and the cable.
//
// Bring-up: a receiver takes the wires' parity during its reset as its starting point, so what
// happened on the cable before its board was on is not a bit. Until it has heard a token from the
// far end, this end sends hellos only (one bit each: a far board powered on in the middle of the
// stream loses nothing it could misread); once it has heard one (the far end is on and listening)
// it sends one more hello, which tells the far end the same, and then its traffic.
//
// Flow control stays end to end: the local sender (a router output, say) counts the far
// receiver's buffer as it would on one board, and each credit the far side frees arrives here as
// a one-cycle snd_credit pulse. A flit it sends waits in this end's FIFO until the cable takes it;
// DEPTH must hold every flit the credits allow in flight (the far buffer's flits). Credits the
// local receiver frees (rcv_credit pulses) are counted and go ahead of flits.
`default_nettype none
module cmnet_ds_link #(
    parameter integer W = 4,      // flit bits (>= 2)
    parameter integer DEPTH = 8,  // flits the FIFO holds (a power of two >= the far buffer)
    parameter integer B = 4       // clocks per bit on the cable (>= 4)
) (
    input  wire         clk,
    input  wire         rst,
    // local side: flits out (valid only with a far credit in hand), credits in from the far end
    input  wire         snd_valid,
    input  wire [W-1:0] snd_data,
    output reg          snd_credit,
    // local side: flits in from the far end, credits freed here
    output reg          rcv_valid,
    output reg  [W-1:0] rcv_data,
    input  wire         rcv_credit,
    // cable: {S, D} out and in
    output wire [1:0]   ds_out,
    input  wire [1:0]   ds_in,
    output reg          up,       // a token was heard from the far end
    output reg          overflow  // sticky: a flit arrived with the FIFO full (credits broken)
);
  localparam integer AW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam integer CW = $clog2(DEPTH + 1);
  localparam integer BW = (B > 1) ? $clog2(B) : 1;
  localparam integer TW = $clog2(W + 3);  // token bits left
  localparam integer B_LAST_I = B - 1;
  localparam [BW-1:0] B_LAST = B_LAST_I[BW-1:0];
  localparam integer FLIT_I = W + 1;
  localparam [TW-1:0] TOK_FLIT = FLIT_I[TW-1:0];  // a flit's bits after its first
  localparam integer W_I = W;
  localparam [TW-1:0] TOK_DATA = W_I[TW-1:0];  // a flit's data bits
  localparam [TW-1:0] TOK_CREDIT = {{(TW-1){1'b0}}, 1'b1};
  localparam integer DEPTH_I = DEPTH;
  localparam [CW-1:0] FULL = DEPTH_I[CW-1:0];

  // ---- the send FIFO ------------------------------------------------------------------
  reg [W-1:0] fifo [0:DEPTH-1];
  reg [AW-1:0] wp, rp;
  reg [CW-1:0] fcount;
  wire fempty = fcount == {CW{1'b0}};
  wire pop;
  always @(posedge clk) if (snd_valid) fifo[wp] <= snd_data;
  always @(posedge clk) begin
    if (rst) begin
      wp <= {AW{1'b0}};
      rp <= {AW{1'b0}};
      fcount <= {CW{1'b0}};
      overflow <= 1'b0;
    end else begin
      if (snd_valid) wp <= wp + 1'b1;
      if (pop) rp <= rp + 1'b1;
      fcount <= fcount + {{(CW-1){1'b0}}, snd_valid} - {{(CW-1){1'b0}}, pop};
      if (snd_valid && !pop && fcount == FULL) overflow <= 1'b1;
    end
  end

  // ---- credits to send back -------------------------------------------------------------
  reg [CW-1:0] cpend;
  wire take_credit;
  always @(posedge clk) begin
    if (rst) cpend <= {CW{1'b0}};
    else cpend <= cpend + {{(CW-1){1'b0}}, rcv_credit} - {{(CW-1){1'b0}}, take_credit};
  end

  // ---- the transmitter: one token at a time, a bit every B clocks --------------------------
  reg [BW-1:0] tk;        // clock within the bit
  reg [TW-1:0] tleft;     // bits of the token still to send after the current one
  reg [W+1:0] tsh;        // the token, LSB next
  reg tbusy;
  reg told;               // the hello after `up` has gone
  reg d_q, s_q;
  assign ds_out = {s_q, d_q};
  wire bit_end = tk == B_LAST;
  wire free = !tbusy || (bit_end && tleft == {TW{1'b0}});
  wire hello = !up || !told;
  wire start = free && (hello || cpend != {CW{1'b0}} || !fempty);
  assign take_credit = start && !hello && cpend != {CW{1'b0}};
  assign pop = start && !hello && cpend == {CW{1'b0}};
  wire [W+1:0] token = hello ? {(W+2){1'b0}} : take_credit ? {{W{1'b0}}, 2'b01} : {fifo[rp], 2'b11};
  always @(posedge clk) begin
    if (rst) begin
      tk <= {BW{1'b0}};
      tleft <= {TW{1'b0}};
      tsh <= {(W+2){1'b0}};
      tbusy <= 1'b0;
      told <= 1'b0;
      d_q <= 1'b0;
      s_q <= 1'b0;
    end else begin
      if (tbusy) tk <= bit_end ? {BW{1'b0}} : tk + 1'b1;
      if (start) begin
        tsh <= token;
        tleft <= hello ? {TW{1'b0}} : take_credit ? TOK_CREDIT : TOK_FLIT;
        tbusy <= 1'b1;
        tk <= {BW{1'b0}};
        if (up) told <= 1'b1;
        // The first bit goes out now: D is the bit, S toggles when D does not.
        d_q <= token[0];
        if (token[0] == d_q) s_q <= !s_q;
      end else if (tbusy && bit_end) begin
        if (tleft == {TW{1'b0}}) begin
          tbusy <= 1'b0;
        end else begin
          tleft <= tleft - 1'b1;
          tsh <= {1'b0, tsh[W+1:1]};
          d_q <= tsh[1];
          if (tsh[1] == d_q) s_q <= !s_q;
        end
      end
    end
  end

  // ---- the receiver ----------------------------------------------------------------------
  reg [1:0] ds_m, ds_s;  // the two synchronizer stages
  reg par;               // D ^ S of the last bit taken
  reg rtype, rdata;      // inside a token: its second bit next / its data bits next
  reg [TW-1:0] rleft;
  reg [W-1:0] racc;
  wire rbit = ds_s[0];
  wire rnew = (ds_s[0] ^ ds_s[1]) != par;
  wire [W-1:0] rnext = {rbit, racc[W-1:1]};
  always @(posedge clk) begin
    ds_m <= ds_in;
    ds_s <= ds_m;
    if (rst) begin
      par <= ds_s[0] ^ ds_s[1];  // what the cable did before is not a bit
      rtype <= 1'b0;
      rdata <= 1'b0;
      rleft <= {TW{1'b0}};
      racc <= {W{1'b0}};
      rcv_valid <= 1'b0;
      rcv_data <= {W{1'b0}};
      snd_credit <= 1'b0;
      up <= 1'b0;
    end else begin
      rcv_valid <= 1'b0;
      snd_credit <= 1'b0;
      if (rnew) begin
        par <= ds_s[0] ^ ds_s[1];
        up <= 1'b1;
        if (rdata) begin
          racc <= rnext;
          rleft <= rleft - 1'b1;
          if (rleft == {{(TW-1){1'b0}}, 1'b1}) begin
            rdata <= 1'b0;
            rcv_valid <= 1'b1;
            rcv_data <= rnext;
          end
        end else if (rtype) begin
          rtype <= 1'b0;
          if (rbit) begin
            rdata <= 1'b1;
            rleft <= TOK_DATA;
          end else begin
            snd_credit <= 1'b1;
          end
        end else if (rbit) begin
          rtype <= 1'b1;  // a hello (0) needs nothing more
        end
      end
    end
  end
  wire unused_bits = racc[0] ^ tsh[0];
endmodule
`default_nettype wire

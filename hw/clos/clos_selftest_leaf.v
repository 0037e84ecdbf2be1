// One leaf of the Clos self-test board (gen/clos/clos_selftest.h): it plays its circuits from the
// top's ROM as the engines' Verilator harness (sim/clos/clos_ctrl_main.cpp) plays a leaf whose
// think time is 1 and whose hold time is its circuit's word count + 1, so the board runs the
// cycles of that harness's run. The top registers READY and DDCR (off the engines' combinational
// outputs, for the clock): the leaf sees each a cycle after the harness does, which is that
// think and hold cycle. A cycle after reset (THINK), the CSR (pushed in the cycle the leaf is in
// CSR); READY; one data word a cycle into its circuit; the ODCR pushed the cycle after the hold;
// the next circuit's CSR the cycle after its (registered) DDCR.
// A pushed message waits in the hnode's leaf port (clos_selftest_port.v) until it is taken.
// c_in is registered: word j of a circuit whose (registered) READY came in cycle c is on the
// input c-link in cycle c + 1 + j ({valid, last, data}); the switch's data path is combinational.
`default_nettype none
module clos_selftest_leaf #(
  parameter integer NC = 1,         // circuits (0: the leaf sends none)
  parameter integer KW = 1,         // bits of a circuit index
  parameter integer AW = 1,         // bits of a data word's ROM address
  parameter integer CNW = 1,        // bits of a circuit's word count
  parameter integer W = 1,          // data bits of a word
  parameter integer NW = 1,         // bits of a leaf number
  parameter integer D = 1,          // bits of an hnode number
  parameter integer MW = 16,        // the engines' message bits
  parameter integer TYPE_LSB = 8, DEST_LSB = 4, ORIG_LSB = 6, TO_LSB = 12,
  parameter integer LEAF = 0,
  parameter integer HNODE = 0
) (
  input  wire clk,
  input  wire rst,
  output wire [KW-1:0] k,           // the circuit being played: the ROM's c_dest, c_words
  input  wire [NW-1:0] c_dest,
  input  wire [CNW-1:0] c_words,
  output wire [AW-1:0] da,          // the next data word: the ROM's d_word
  input  wire [W-1:0] d_word,
  output wire push,                 // a message (msg) enters the hnode's leaf port this cycle
  output wire [MW-1:0] msg,         // CSR or ODCR of the circuit being played
  input  wire ready,                // READY for this leaf (registered: the cycle after)
  input  wire ddcr,                 // its request's DDCR handled at h_d (registered: the cycle after)
  output reg  [W+1:0] c_in,         // the input c-link: {valid, last, data}
  output wire over                  // every circuit played
);
  localparam [3:0] T_CSR = 4'd0, T_ODCR = 4'd5;
  localparam [5:0] S_CSR = 6'b000001, S_WAITR = 6'b000010, S_HOLD = 6'b000100, S_WAITD = 6'b001000,
                   S_OVER = 6'b010000, S_THINK = 6'b100000;
  localparam [31:0] LEAF32 = LEAF, HNODE32 = HNODE, LAST32 = NC == 0 ? 0 : NC - 1;
  localparam [NW-1:0] ORIG = LEAF32[NW-1:0];
  localparam [D-1:0] TO = HNODE32[D-1:0];
  localparam [KW-1:0] LAST_K = LAST32[KW-1:0];

  reg [5:0] st;
  reg [KW-1:0] kr;
  reg [AW-1:0] dar;
  reg [CNW-1:0] cnt;               // hold cycles left (HOLD)
  assign k = kr;
  assign da = dar;
  assign over = st[4];
  wire hold_end = st[2] && cnt == {CNW{1'b0}};
  assign push = st[0] || hold_end;

  reg [MW-1:0] m;
  always @* begin
    m = {MW{1'b0}};
    m[TYPE_LSB +: 4] = st[0] || st[1] ? T_CSR : T_ODCR;
    m[ORIG_LSB +: NW] = ORIG;
    m[DEST_LSB +: NW] = c_dest;
    m[TO_LSB +: D] = TO;
  end
  assign msg = m;

  always @(posedge clk) begin
    if (rst) begin
      st <= NC == 0 ? S_OVER : S_THINK;
      kr <= {KW{1'b0}};
      dar <= {AW{1'b0}};
      cnt <= {CNW{1'b0}};
      c_in <= {(W+2){1'b0}};
    end else begin
      c_in <= {(W+2){1'b0}};
      if (st[5]) st <= S_CSR;
      if (st[0]) st <= S_WAITR;
      if (st[1] && ready) begin
        st <= S_HOLD;
        cnt <= c_words;
        if (c_words != {CNW{1'b0}}) begin
          c_in <= {1'b1, c_words == {{(CNW-1){1'b0}}, 1'b1}, d_word};
          dar <= dar + {{(AW-1){1'b0}}, 1'b1};
        end
      end
      if (st[2]) begin
        if (hold_end) st <= S_WAITD;
        else cnt <= cnt - {{(CNW-1){1'b0}}, 1'b1};
        // the next word while two or more hold cycles are left
        if (cnt > {{(CNW-1){1'b0}}, 1'b1}) begin
          c_in <= {1'b1, cnt == {{(CNW-2){1'b0}}, 2'd2}, d_word};
          dar <= dar + {{(AW-1){1'b0}}, 1'b1};
        end
      end
      if (st[3] && ddcr) begin
        st <= kr == LAST_K ? S_OVER : S_CSR;
        kr <= kr + {{(KW-1){1'b0}}, 1'b1};
      end
    end
  end
endmodule
`default_nettype wire

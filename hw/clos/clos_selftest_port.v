// An hnode's leaf port on the Clos self-test board: the leaves' CSRs and ODCRs in the order they
// were pushed, as the engines' Verilator harness queues them (sim/clos/clos_harness.h MsgQueues:
// one queue per hnode, leaves pushing in one cycle in ascending order), so the board runs that
// harness's cycles. A leaf has one message in the port at most; the head is offered to the
// hnode's engine (valid, out_msg) from the cycle it is pushed, and leaves when take is high.
// ahead[i*L + j]: leaf j's message was pushed before leaf i's (kept while i's waits).
`default_nettype none
module clos_selftest_port #(
  parameter integer L = 2,          // leaves of the hnode, lowest number at bit 0
  parameter integer MW = 16
) (
  input  wire clk,
  input  wire rst,
  input  wire [L-1:0] push,
  input  wire [L*MW-1:0] msg,       // each leaf's message while pushed or waiting
  output wire valid,
  output wire [MW-1:0] out_msg,
  input  wire take
);
  reg [L-1:0] queued;
  reg [L*L-1:0] ahead;
  wire [L-1:0] offered = queued | push;

  // j before i: a waiting message before a pushed one; two waiting, by ahead; two pushed in one
  // cycle, the lower leaf first.
  reg [L-1:0] head;
  reg [MW-1:0] hm;
  integer i, j;
  always @* begin
    hm = {MW{1'b0}};
    for (i = 0; i < L; i = i + 1) begin
      head[i] = offered[i];
      for (j = 0; j < L; j = j + 1)
        if (j != i && offered[j] && (queued[i] ? queued[j] && ahead[i*L + j] : queued[j] || (push[j] && j < i)))
          head[i] = 1'b0;
      if (head[i]) hm = hm | msg[i*MW +: MW];
    end
  end
  assign valid = |offered;
  assign out_msg = hm;

  wire [L-1:0] taken = take ? head : {L{1'b0}};
  always @(posedge clk) begin
    if (rst) begin
      queued <= {L{1'b0}};
      ahead <= {L*L{1'b0}};
    end else begin
      queued <= offered & ~taken;
      for (i = 0; i < L; i = i + 1)
        for (j = 0; j < L; j = j + 1)
          ahead[i*L + j] <= (queued[i] ? ahead[i*L + j] : queued[j] || (push[j] && j < i)) && !taken[j];
    end
  end
endmodule
`default_nettype wire

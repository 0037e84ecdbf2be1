// Per-endpoint delivery histograms for the CM-1 board: for every processor g, HB = 16 bins k
// counting its receptions delivered in petit cycle k (bin 15: 15 and later). Receptions of one
// petit cycle complete in the same cycle at every processor (the machine is synchronous), so a
// batch is a mask of processors and one bin. The counts live in block RAM, NB banks of EPB
// processors each: a bank walks its batch one processor per cycle (read, then write the
// count + 1 the next cycle), and EPB <= TP - 2 guarantees the walk ends before the next batch
// (a batch every TP cycles at most). `overrun` would say otherwise; it stays 0 by construction
// and is there so a test can prove it.
//
// Reads (rd_req held until rd_ready) wait until no bank is walking or clearing; rd_ready and
// rd_data come the cycle after the read is issued. `clear` (and reset) zero
// every count by sweeping the RAM: 16 * EPB cycles.
module cm1_endpoint_hist #(
    parameter integer NP   = 8,   // processors (a power of two)
    parameter integer GW   = 3,   // log2(NP)
    parameter integer EPBW = 3,   // log2(processors per bank), EPB = 2^EPBW <= NP
    parameter integer RCW  = 8    // count width
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           clear,
    input  wire [NP-1:0]  rx_valid,
    input  wire [3:0]     bin,
    input  wire           rd_req,
    input  wire [GW+3:0]  rd_addr,   // {processor, bin}
    output wire           rd_ready,
    output wire [RCW-1:0] rd_data,
    output reg            overrun
);
  localparam integer EPB = 1 << EPBW;
  localparam integer NB = NP / EPB;
  localparam integer AW = EPBW + 4;          // address inside a bank: {local processor, bin}
  localparam integer DEPTH = EPB * 16;

  function [EPBW-1:0] lowest;   // index of the lowest set bit (0 when none)
    input [EPB-1:0] m;
    integer k;
    begin
      lowest = {EPBW{1'b0}};
      for (k = EPB - 1; k >= 0; k = k - 1)
        if (m[k]) lowest = k[EPBW-1:0];
    end
  endfunction

  // Clearing sweep over every bank address; shared by all banks.
  reg          sweeping;
  reg [AW-1:0] sweep_addr;
  localparam integer SWEEP_LAST_I = DEPTH - 1;
  localparam [AW-1:0] SWEEP_LAST = SWEEP_LAST_I[AW-1:0];
  always @(posedge clk) begin
    if (rst || clear) begin
      sweeping <= 1'b1;
      sweep_addr <= {AW{1'b0}};
    end else if (sweeping) begin
      sweep_addr <= sweep_addr + 1'b1;
      if (sweep_addr == SWEEP_LAST) sweeping <= 1'b0;
    end
  end

  wire [NB-1:0] bank_busy;
  wire [NB-1:0] bank_overrun;
  wire [NB*RCW-1:0] bank_rdata;
  wire idle = !sweeping && (bank_busy == {NB{1'b0}});
  reg  rd_issued;
  wire rd_issue = rd_req && idle && !rd_issued;
  assign rd_ready = rd_issued;   // the RAM's output is valid the cycle after the read
  wire [AW-1:0] rd_local = {rd_addr[4 +: EPBW], rd_addr[3:0]};
  reg  [GW-1:0] rd_proc_q;

  genvar b;
  generate
    for (b = 0; b < NB; b = b + 1) begin : g_bank
      reg [RCW-1:0] mem [0:DEPTH-1];
      reg [RCW-1:0] rdata;
      reg [EPB-1:0] pend;
      reg [3:0]     bin_q;
      reg           s2_valid;
      reg [AW-1:0]  s2_addr;
      wire [EPB-1:0] batch = rx_valid[b*EPB +: EPB];
      wire [EPBW-1:0] next = lowest(pend);
      wire [AW-1:0] walk_addr = {next, bin_q};
      wire [AW-1:0] raddr = (pend != {EPB{1'b0}}) ? walk_addr : rd_local;
      wire          we = sweeping || s2_valid;
      wire [AW-1:0] waddr = sweeping ? sweep_addr : s2_addr;
      wire [RCW-1:0] wdata = sweeping ? {RCW{1'b0}} : rdata + {{RCW-1{1'b0}}, 1'b1};
      always @(posedge clk) begin
        if (we) mem[waddr] <= wdata;
        rdata <= mem[raddr];
      end
      reg ovr;
      always @(posedge clk) begin
        if (rst || clear) begin
          pend <= {EPB{1'b0}};
          bin_q <= 4'd0;
          s2_valid <= 1'b0;
          s2_addr <= {AW{1'b0}};
          ovr <= 1'b0;
        end else begin
          s2_valid <= (pend != {EPB{1'b0}});
          s2_addr <= walk_addr;
          if (batch != {EPB{1'b0}}) begin
            // A new batch while the last one is still being walked would be a design error.
            if (pend != {EPB{1'b0}} || s2_valid) ovr <= 1'b1;
            pend <= batch;
            bin_q <= bin;
          end else if (pend != {EPB{1'b0}}) begin
            pend <= pend & ~({{EPB-1{1'b0}}, 1'b1} << next);
          end
        end
      end
      assign bank_busy[b] = (pend != {EPB{1'b0}}) || s2_valid;
      assign bank_overrun[b] = ovr;
      assign bank_rdata[b*RCW +: RCW] = rdata;
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) begin
      rd_issued <= 1'b0;
      rd_proc_q <= {GW{1'b0}};
      overrun <= 1'b0;
    end else begin
      rd_issued <= rd_issue;
      if (rd_issue) rd_proc_q <= rd_addr[GW+3:4];
      overrun <= clear ? 1'b0 : (overrun || (bank_overrun != {NB{1'b0}}));
    end
  end
  generate
    if (NB > 1) begin : g_sel
      wire [GW-1:0] unused_proc_lo = rd_proc_q;   // the low EPBW bits pick inside the bank
      assign rd_data = bank_rdata[rd_proc_q[GW-1:EPBW]*RCW +: RCW];
    end else begin : g_one
      wire [GW-1:0] unused_proc = rd_proc_q;
      assign rd_data = bank_rdata[RCW-1:0];
    end
  endgenerate
endmodule

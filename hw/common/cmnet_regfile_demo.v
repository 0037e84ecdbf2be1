// A small register-bus target (the bus of cmnet_frame_engine.v) for host-link tests and
// board bring-up. Byte addresses:
//   0x0000_0000  ID       read: the ID parameter; writes are ignored
//   0x0000_0008  ACC      write: acc += value; read: acc (a FIFO-like sink for NO_INCREMENT
//                         bursts: the sum shows every word arrived once)
//   0x0000_000C  COUNT    read: returns count, then count += 1 (a FIFO-like source: NO_INCREMENT
//                         burst reads see consecutive values); write: count = value
//   0x0000_0010  HANG     never answers (tests the master's bus timeout: INTERNAL)
//   0x0000_0400  IDENT    LiteX's identifier_mem: read: character i of IDENT at 0x400 + 4 i
//                         (bits 7:0), 0 after it up to 0x7FC; writes are ignored
//   0x0000_1000  RAM      2^RAM_AW words of scratch RAM (0x1000 + 4 * 2^RAM_AW bytes end it)
//   0xFFFF_FFF0  TOP      RAM words 0..3 again, at the top of the address space: a burst that
//                         ran on past 0xFFFFFFFF would reach ID, so the engine's wrap check
//                         (BAD_ADDRESS before any access) is visible
//   anything else        bus_err (the host sees BAD_ADDRESS), no effect
// Every access is answered WAIT_STATES + 1 cycles after bus_valid rises, with registered
// bus_ready, bus_rdata and bus_err; read side effects (COUNT) happen once per access.
module cmnet_regfile_demo #(
    parameter [31:0]  ID = 32'h434D4E31,   // "CMN1"
    parameter integer RAM_AW = 10,         // RAM words: 2^RAM_AW, 2..10 (the region is 4 KB)
    parameter integer WAIT_STATES = 0,     // extra cycles before each answer, 0..255
    parameter integer IDENT_LEN = 30,      // characters of IDENT, 1..255
    parameter [8*IDENT_LEN-1:0] IDENT = "cmnet host-link demo registers"
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        bus_valid,
    input  wire        bus_write,
    input  wire [31:0] bus_addr,
    input  wire [31:0] bus_wdata,
    output wire        bus_ready,
    output wire [31:0] bus_rdata,
    output wire        bus_err
);
  generate
    if (RAM_AW < 2 || RAM_AW > 10) begin : g_check
      cmnet_regfile_demo_RAM_AW_must_be_2_to_10 bad_parameter ();
    end
  endgenerate

  // no_rw_check: a write reads its own address in the same cycle, but read data is ignored for
  // writes, so yosys need not add read-during-write bypass logic.
  (* no_rw_check *) reg [31:0] ram [0:(1 << RAM_AW) - 1];
  reg [31:0] acc, count;
  reg [7:0]  wait_cnt;

  // The RAM occupies 0x1000 .. 0x1FFF at most; RAM_AW < 10 leaves the top of that unmapped.
  wire in_top = (bus_addr[31:4] == 28'hFFFFFFF);
  localparam integer TOP_MASK_I = 3;
  localparam [RAM_AW-1:0] TOP_MASK = TOP_MASK_I[RAM_AW-1:0];   // TOP is words 0..3
  wire [RAM_AW-1:0] ram_index = bus_addr[RAM_AW+1:2] & (in_top ? TOP_MASK : {RAM_AW{1'b1}});
  wire in_ram = ((bus_addr[31:12] == 20'h00001) && ({1'b0, bus_addr[11:2]} < (11'd1 << RAM_AW))) || in_top;
  wire is_id = (bus_addr == 32'h0000_0000);
  wire is_acc = (bus_addr == 32'h0000_0008);
  wire is_count = (bus_addr == 32'h0000_000C);
  wire is_hang = (bus_addr == 32'h0000_0010);
  wire is_ident = (bus_addr[31:10] == 22'd1);   // 0x400 .. 0x7FF
  wire [7:0] ident_c;
  cmnet_ident_rom #(.IDENT_LEN(IDENT_LEN), .IDENT(IDENT)) ident_rom (.index(bus_addr[9:2]), .char(ident_c));
  // Answer now: the first cycle of an access plus its wait states are over.
  wire answer;
  wire [31:0] reg_q;     // the register part's read data, registered by the bus target
  wire [31:0] reg_c = is_id ? ID : is_acc ? acc : is_count ? count : is_ident ? {24'd0, ident_c} : 32'd0;
  cmnet_bus_target target (
      .clk(clk), .rst(rst), .bus_valid(bus_valid), .bus_ready(bus_ready), .bus_rdata(reg_q),
      .bus_err(bus_err), .ready((wait_cnt == WAIT_STATES[7:0]) && !is_hang), .rdata(reg_c),
      .err(!(in_ram || is_id || is_acc || is_count || is_ident)), .take(answer));
  // Read data from the RAM comes straight from its registered read port (iCE40 BRAM).
  reg [31:0] ram_q;
  reg        sel_ram;
  assign bus_rdata = sel_ram ? ram_q : reg_q;
  always @(posedge clk) begin
    if (answer && in_ram && bus_write) ram[ram_index] <= bus_wdata;
    ram_q <= ram[ram_index];
  end

  always @(posedge clk) begin
    if (rst) begin
      acc <= 32'd0;
      count <= 32'd0;
      wait_cnt <= 8'd0;
      sel_ram <= 1'b0;
    end else begin
      if (!bus_valid || bus_ready) wait_cnt <= 8'd0;
      else if (!answer) wait_cnt <= wait_cnt + 1'b1;
      if (answer) begin
        sel_ram <= in_ram;
        if (is_acc && bus_write) acc <= acc + bus_wdata;
        if (is_count) count <= bus_write ? bus_wdata : count + 1'b1;
      end
    end
  end
endmodule

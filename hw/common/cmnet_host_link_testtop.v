// Host-link test board: a PHY, the frame engine and the demo register file, as a board top
// would wire them. The simulated board (sim/host_link_main.cpp) verilates it; every PHY's pins
// are ports, and those of the PHYs not selected are tied off.
//   PHY 0: bytes go straight into and out of the engine (fast simulation)
//   PHY 1: 8N1 UART, CLKS_PER_BIT clocks per bit (cmnet_uart_rx / cmnet_uart_tx)
//   PHY 2: FT245 synchronous FIFO (cmnet_fifo_phy)
module cmnet_host_link_testtop #(
    parameter integer PHY = 0,
    parameter integer CLKS_PER_BIT = 8,
    parameter integer FRAME_TIMEOUT = 50000,
    parameter integer BUS_TIMEOUT = 1023,
    parameter integer RAM_AW = 10,
    parameter integer WAIT_STATES = 0,
    parameter integer IDENT_LEN = 26,   // LiteX's identifier (cmnet_regfile_demo.v, 0x400)
    parameter [8*IDENT_LEN-1:0] IDENT = "cmnet host-link test board"
) (
    input  wire        clk,
    input  wire        rst,
    /* verilator lint_off UNUSEDSIGNAL */
    // PHY 0
    input  wire        host_in_valid,
    output wire        host_in_ready,
    input  wire [7:0]  host_in_data,
    output wire        host_out_valid,
    input  wire        host_out_ready,
    output wire [7:0]  host_out_data,
    // PHY 1
    input  wire        uart_rxd,
    output wire        uart_txd,
    // PHY 2
    input  wire        ft_rxf_n,
    input  wire        ft_txe_n,
    output wire        ft_rd_n,
    output wire        ft_wr_n,
    output wire        ft_oe_n,
    input  wire [7:0]  ft_data_in,
    output wire [7:0]  ft_data_out,
    output wire        ft_data_oe,
    /* verilator lint_on UNUSEDSIGNAL */
    // status for the simulator
    output wire        link_idle,       // nothing in flight anywhere: the clock may pause
    output wire        link_stalled,    // only a partial frame waits for bytes (its timeout runs)
    output reg  [15:0] overruns,        // UART bytes dropped: the engine's ring was full
    output reg  [15:0] frame_errors,    // UART characters with a bad stop bit
    output reg  [15:0] ring_full,       // cycles a received byte waited for ring space (saturates)
    output wire [1:0]  cfg_phy,
    output wire [15:0] cfg_clks_per_bit
);
  assign cfg_phy = PHY[1:0];
  assign cfg_clks_per_bit = CLKS_PER_BIT[15:0];

  wire       rx_valid, tx_valid, tx_ready;
  /* verilator lint_off UNUSEDSIGNAL */
  wire       rx_ready;   // the UART cannot wait: a byte the full ring refuses is an overrun
  /* verilator lint_on UNUSEDSIGNAL */
  wire [7:0] rx_data, tx_data;
  wire       phy_busy, phy_frame_err;

  generate
    if (PHY == 1) begin : g_uart
      wire rx_busy, tx_busy;
      cmnet_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) rx (
          .clk(clk), .rst(rst), .rxd(uart_rxd),
          .out_valid(rx_valid), .out_data(rx_data), .frame_err(phy_frame_err), .busy(rx_busy));
      cmnet_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) tx (
          .clk(clk), .rst(rst), .in_valid(tx_valid), .in_ready(tx_ready), .in_data(tx_data),
          .txd(uart_txd), .busy(tx_busy));
      assign phy_busy = rx_busy || tx_busy;
    end else begin : g_no_uart
      assign uart_txd = 1'b1;
    end

    if (PHY == 2) begin : g_fifo
      cmnet_fifo_phy fifo (
          .clk(clk), .rst(rst),
          .rxf_n(ft_rxf_n), .txe_n(ft_txe_n), .rd_n(ft_rd_n), .wr_n(ft_wr_n), .oe_n(ft_oe_n),
          .data_in(ft_data_in), .data_out(ft_data_out), .data_oe(ft_data_oe),
          .out_valid(rx_valid), .out_ready(rx_ready), .out_data(rx_data),
          .in_valid(tx_valid), .in_ready(tx_ready), .in_data(tx_data), .busy(phy_busy));
      assign phy_frame_err = 1'b0;
    end else begin : g_no_fifo
      assign ft_rd_n = 1'b1;
      assign ft_wr_n = 1'b1;
      assign ft_oe_n = 1'b1;
      assign ft_data_out = 8'd0;
      assign ft_data_oe = 1'b0;
    end

    if (PHY != 1 && PHY != 2) begin : g_bytes
      assign rx_valid = host_in_valid;
      assign rx_data = host_in_data;
      assign host_in_ready = rx_ready;
      assign host_out_valid = tx_valid;
      assign host_out_data = tx_data;
      assign tx_ready = host_out_ready;
      assign phy_busy = 1'b0;
      assign phy_frame_err = 1'b0;
    end else begin : g_no_bytes
      assign host_in_ready = 1'b0;
      assign host_out_valid = 1'b0;
      assign host_out_data = 8'd0;
    end
  endgenerate

  wire        bus_valid, bus_write, bus_ready, bus_err;
  wire [31:0] bus_addr, bus_wdata, bus_rdata;
  wire        eng_idle, eng_stalled, eng_overrun;

  cmnet_frame_engine #(.FRAME_TIMEOUT(FRAME_TIMEOUT), .BUS_TIMEOUT(BUS_TIMEOUT)) engine (
      .clk(clk), .rst(rst),
      .in_valid(rx_valid), .in_ready(rx_ready), .in_data(rx_data), .stall_expired(1'b0),
      .out_valid(tx_valid), .out_ready(tx_ready), .out_data(tx_data),
      .bus_valid(bus_valid), .bus_write(bus_write), .bus_addr(bus_addr), .bus_wdata(bus_wdata),
      .bus_ready(bus_ready), .bus_rdata(bus_rdata), .bus_err(bus_err),
      .idle(eng_idle), .stalled(eng_stalled), .overrun(eng_overrun));

  cmnet_regfile_demo #(.RAM_AW(RAM_AW), .WAIT_STATES(WAIT_STATES), .IDENT_LEN(IDENT_LEN), .IDENT(IDENT)) regs (
      .clk(clk), .rst(rst),
      .bus_valid(bus_valid), .bus_write(bus_write), .bus_addr(bus_addr), .bus_wdata(bus_wdata),
      .bus_ready(bus_ready), .bus_rdata(bus_rdata), .bus_err(bus_err));

  assign link_idle = eng_idle && !phy_busy;
  assign link_stalled = eng_stalled && !phy_busy;

  always @(posedge clk) begin
    if (rst) begin
      overruns <= 16'd0;
      frame_errors <= 16'd0;
      ring_full <= 16'd0;
    end else begin
      if (rx_valid && !rx_ready && ring_full != 16'hFFFF) ring_full <= ring_full + 1'b1;
      // Only the UART cannot wait; the other PHYs hold a refused byte (flow control).
      if (eng_overrun && PHY == 1) overruns <= overruns + 1'b1;
      if (phy_frame_err) frame_errors <= frame_errors + 1'b1;
    end
  end
endmodule

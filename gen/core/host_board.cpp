#include "gen/core/verilog_writer.h"
#include "gen/core/host_board.h"

#include <cstdio>

#include "gen/core/errors.h"

namespace cmnet {
namespace {
}  // namespace

void check_host_board_options(const HostBoardOptions& opt) {
  if (opt.phy == HostLinkPhy::Bytes)
    throw ConfigError("host board: the board top needs a pin-level PHY (uart or fifo), not bytes");
  if (opt.phy == HostLinkPhy::Uart && (opt.baud == 0 || opt.clock_hz / opt.baud < 4))
    throw ConfigError("host board: clock " + S(opt.clock_hz) + " Hz / baud " + S(opt.baud) +
                      " gives fewer than 4 clocks per UART bit (allowed: clock/baud >= 4)");
}

std::vector<std::string> host_link_files(const HostBoardOptions& opt) {
  std::vector<std::string> files;
  if (opt.phy == HostLinkPhy::Fifo) {
    files.push_back("cmnet_fifo_phy.v");
  } else {
    files.push_back("cmnet_uart_rx.v");
    files.push_back("cmnet_uart_tx.v");
  }
  files.push_back("cmnet_frame_engine.v");
  files.push_back("cmnet_bus_target.v");  // every register block answers the bus through it
  files.push_back("cmnet_ident_rom.v");  // every register block answers LiteX's identifier at 0x400
  return files;
}

void host_core_ports(VerilogWriter& v, const std::string& name) {
  v.open("module " + name + " (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire in_valid,    // host -> board bytes");
  v.line("output wire in_ready,");
  v.line("input  wire [7:0] in_data,");
  v.line("input  wire stall_expired, // a stall timeout measured outside (simulated boards); 0 on hardware");
  v.line("output wire out_valid,   // board -> host bytes");
  v.line("input  wire out_ready,");
  v.line("output wire [7:0] out_data,");
  v.line("output wire running,");
  v.line("output wire link_busy,");
  v.line("output wire link_stalled  // only a partial frame or command waits for bytes");
  v.end_ports();
  v.line("wire bus_valid, bus_write, bus_ready, bus_err;");
  v.line("wire [31:0] bus_addr, bus_wdata, bus_rdata;");
  v.line("wire fe_idle, fe_stalled, fe_overrun;");
}

void frame_engine_instance(VerilogWriter& v, const HostBoardOptions& o) {
  // FRAME_TIMEOUT: half a second at the nominal clock, never shorter than a real host's gaps
  // between the parts of one command (LiteX's own UARTBone allows 100 ms).
  v.instance("cmnet_frame_engine", "frame_engine", {{"FRAME_TIMEOUT", S(o.clock_hz / 2)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"in_valid", "in_valid"}, {"in_ready", "in_ready"},
              {"in_data", "in_data"}, {"stall_expired", "stall_expired"}, {"out_valid", "out_valid"}, {"out_ready", "out_ready"},
              {"out_data", "out_data"}, {"bus_valid", "bus_valid"}, {"bus_write", "bus_write"},
              {"bus_addr", "bus_addr"}, {"bus_wdata", "bus_wdata"}, {"bus_ready", "bus_ready"},
              {"bus_rdata", "bus_rdata"}, {"bus_err", "bus_err"}, {"idle", "fe_idle"},
              {"stalled", "fe_stalled"}, {"overrun", "fe_overrun"}});
}

std::string emit_host_board_top(const std::string& title, const std::string& prefix,
                                const std::vector<std::pair<std::string, std::string>>& params,
                                const HostBoardOptions& o) {
  const uint32_t clocks_per_bit = o.baud ? o.clock_hz / o.baud : 0;
  VerilogWriter v;
  const bool fifo = o.phy == HostLinkPhy::Fifo;
  v.header(fifo ? title + " board top: the host core behind an FT245 synchronous FIFO, LEDs, reset button."
                : title + " board top: the host core behind a UART (FT2232H channel B), LEDs, reset button.",
           params);
  v.open("module " + prefix + "_host_board (");
  v.line(fifo ? "input  wire clk,        // the FIFO chip's clock" : "input  wire clk,");
  // Two ports that exist only in the simulated board (Verilator, +define+CMNET_SIMULATED_BOARD):
  // it waits for the host's bytes without clocking, so it measures the stall timeout of a
  // partial frame or command in wall time and tells the frame engine when it expired.
  v.line("`ifdef CMNET_SIMULATED_BOARD");
  v.line("input  wire sim_stall_expired,  // drop a stalled partial frame or command now");
  v.line("output wire sim_link_stalled,   // only a partial frame or command waits for bytes");
  v.line("`endif");
  if (o.reset_button) v.line("input  wire btn_n,      // reset button, active low");
  if (fifo) {
    v.comment("FT245 synchronous FIFO pins (hw/cmnet_fifo_phy.v). The data bus is split: the pad");
    v.comment("(ft_data = ft_data_oe ? ft_data_out : 'z) belongs to the board's I/O cell.");
    v.line("input  wire ft_rxf_n,");
    v.line("input  wire ft_txe_n,");
    v.line("output wire ft_rd_n,");
    v.line("output wire ft_wr_n,");
    v.line("output wire ft_oe_n,");
    v.line("input  wire [7:0] ft_data_in,");
    v.line("output wire [7:0] ft_data_out,");
    v.line("output wire ft_data_oe,");
  } else {
    v.line("input  wire uart_rx,    // from the host");
    v.line("output wire uart_tx,    // to the host");
  }
  v.line("output wire [3:0] led   // running, link busy, heartbeat, reset");
  v.end_ports();
  if (o.reset_button) {
    v.comment("Power-on reset held for 16 cycles, then the (synchronized) button.");
    v.line("reg [4:0] por = 5'd0;");
    v.line("reg [1:0] btn_sync = 2'b11;");
    v.line("always @(posedge clk) begin");
    v.line("  btn_sync <= {btn_sync[0], btn_n};");
    v.line("  if (!por[4]) por <= por + 5'd1;");
    v.line("end");
    v.line("wire rst = !por[4] || !btn_sync[1];");
  } else {
    v.comment("Power-on reset held for 16 cycles (the board has no reset button).");
    v.line("reg [4:0] por = 5'd0;");
    v.line("always @(posedge clk) if (!por[4]) por <= por + 5'd1;");
    v.line("wire rst = !por[4];");
  }
  v.line("wire in_valid, in_ready, out_valid, out_ready, running, link_busy, link_stalled, stall_expired;");
  v.line("wire [7:0] in_data, out_data;");
  v.line("wire phy_busy;");
  if (fifo) {
    v.comment("The FIFO has flow control both ways: no byte is ever dropped.");
    v.instance("cmnet_fifo_phy", "fifo_phy", {},
               {{"clk", "clk"}, {"rst", "rst"}, {"rxf_n", "ft_rxf_n"}, {"txe_n", "ft_txe_n"},
                {"rd_n", "ft_rd_n"}, {"wr_n", "ft_wr_n"}, {"oe_n", "ft_oe_n"},
                {"data_in", "ft_data_in"}, {"data_out", "ft_data_out"}, {"data_oe", "ft_data_oe"},
                {"out_valid", "in_valid"}, {"out_ready", "in_ready"}, {"out_data", "in_data"},
                {"in_valid", "out_valid"}, {"in_ready", "out_ready"}, {"in_data", "out_data"},
                {"busy", "phy_busy"}});
  } else {
    v.line("wire rx_frame_err, rx_busy, tx_busy;");
    v.instance("cmnet_uart_rx", "uart_rx_phy", {{"CLKS_PER_BIT", S(clocks_per_bit)}},
               {{"clk", "clk"}, {"rst", "rst"}, {"rxd", "uart_rx"}, {"out_valid", "in_valid"},
                {"out_data", "in_data"}, {"frame_err", "rx_frame_err"}, {"busy", "rx_busy"}});
    v.instance("cmnet_uart_tx", "uart_tx_phy", {{"CLKS_PER_BIT", S(clocks_per_bit)}},
               {{"clk", "clk"}, {"rst", "rst"}, {"in_valid", "out_valid"}, {"in_ready", "out_ready"},
                {"in_data", "out_data"}, {"txd", "uart_tx"}, {"busy", "tx_busy"}});
    v.line("assign phy_busy = rx_busy || tx_busy;");
    v.comment("The UART has no flow control: a byte arriving while the frame engine's ring is");
    v.comment("full is dropped and the host's CRC check and retry recover (in_ready unused).");
  }
  v.instance(prefix + "_host_core", "core", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"in_valid", "in_valid"}, {"in_ready", "in_ready"},
              {"in_data", "in_data"}, {"out_valid", "out_valid"}, {"out_ready", "out_ready"},
              {"out_data", "out_data"}, {"stall_expired", "stall_expired"}, {"running", "running"},
              {"link_busy", "link_busy"}, {"link_stalled", "link_stalled"}});
  v.line("`ifdef CMNET_SIMULATED_BOARD");
  v.line("assign sim_link_stalled = link_stalled && !phy_busy && !running;");
  v.line("assign stall_expired = sim_stall_expired;");
  v.line("`else");
  v.line("assign stall_expired = 1'b0;  // the engine's FRAME_TIMEOUT alone");
  v.line("wire unused_stalled = &{1'b0, link_stalled};");
  v.line("`endif");
  v.line("reg [23:0] beat = 24'd0;");
  v.line("always @(posedge clk) beat <= beat + 24'd1;");
  v.line("assign led = {rst, beat[23], link_busy || phy_busy, running};");
  if (!fifo) {
    v.line("// rx_frame_err and in_ready are status only");
    v.line("wire unused_ok = &{1'b0, rx_frame_err, in_ready};");
  }
  v.end_module();
  return v.text();
}

std::string host_board_csr_csv(const std::string& what, const std::string& block, uint32_t block_base,
                               uint32_t identifier_base, const std::vector<LitexCsrRegister>& rows) {
  auto lower = [](std::string o) {
    for (char& c : o) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return o;
  };
  LitexCsrMap m;
  m.title = what;
  // LiteX's identifier (litex_client --ident reads bases.identifier_mem + 4 i until a 0).
  m.bases = {{"board", 0}, {block, block_base}, {"identifier_mem", identifier_base}};
  m.registers = {{"board_type", 0x0, 1, "ro"},
                 {"board_clock_hz", 0x10, 1, "ro"},
                 {"board_link", 0x14, 1, "ro"},
                 {"board_config_id", 0x18, 1, "ro"}};
  for (const LitexCsrRegister& r : rows)
    m.registers.push_back({block + "_" + lower(r.name), r.address, r.words, r.mode});
  return litex_csr_csv(m);
}

std::string identifier_text(const std::string& s, size_t max) {
  std::string out = s.substr(0, max);
  for (char& ch : out)  // printable, and nothing a Verilog string literal would escape
    if (ch < 0x20 || ch > 0x7E || ch == '"' || ch == '\\') ch = '_';
  return out;
}

uint32_t config_hash(const std::string& canonical_json) {
  uint32_t h = 2166136261u;
  for (unsigned char c : canonical_json) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

std::string verilog_hex32(uint32_t x) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", x);
  return std::string("32'h") + b;
}

}  // namespace cmnet

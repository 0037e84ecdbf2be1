// The parts of a host-link board top every family shares: the options (clock, PHY, baud,
// reset button), the frame engine inside a family's host core, and the board top around that
// core (PHY pins, power-on reset, LEDs, the simulated board's two stall ports). A family's
// host core has byte-stream ports (in/out valid/ready/data, stall_expired, running, link_busy,
// link_stalled); the same board top is flashed and run by the simulated board
// (sim/core/board_main.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gen/core/host_link_phy.h"
#include "gen/core/litex_csr.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

struct HostBoardOptions {
  uint32_t clock_hz = 12000000;
  uint32_t baud = 3000000;  // the FT2232H's UART does up to 12 Mbaud; 3 Mbaud is 4 clocks/bit at 12 MHz
  bool reset_button = true; // false: no btn_n port, power-on reset only (boards without a button)
  HostLinkPhy phy = HostLinkPhy::Uart;  // Uart or Fifo (then clk is the FIFO chip's clock)
};

// ConfigError unless the options make a board top (a pin-level PHY, >= 4 clocks per UART bit).
void check_host_board_options(const HostBoardOptions& opt);

// The hw/ primitives of the host link for this PHY, the frame engine, the bus target and the
// identifier ROM (every register block answers through those two), in
// compile order.
std::vector<std::string> host_link_files(const HostBoardOptions& opt);

// Opens module `name` with a host core's ports (clk, rst, the byte streams, stall_expired,
// running, link_busy, link_stalled) and declares the frame engine's bus and status wires.
void host_core_ports(VerilogWriter& v, const std::string& name);

// The frame engine instance of a host core: byte ports in_* / out_*, stall_expired, the bus
// (bus_valid .. bus_err) and fe_idle / fe_stalled / fe_overrun, all declared by the caller.
void frame_engine_instance(VerilogWriter& v, const HostBoardOptions& opt);

// The board top `<prefix>_host_board` around `<prefix>_host_core`. `title` names the network
// in the header ("CM-1"), `params` are the header's parameter lines.
std::string emit_host_board_top(const std::string& title, const std::string& prefix,
                                const std::vector<std::pair<std::string, std::string>>& params,
                                const HostBoardOptions& opt);

// LiteX's csr.csv of a host board (gen/core/litex_csr.h writes it): the BOARD block's rows, the
// family's block `block` at `block_base`, the identifier memory, then `rows` (each name without
// the block prefix, in any case: "CONTROL" becomes "<block>_control"; absolute address; words;
// mode), so litex_client --regs and RemoteClient find every register by name.
std::string host_board_csr_csv(const std::string& what, const std::string& block, uint32_t block_base,
                               uint32_t identifier_base, const std::vector<LitexCsrRegister>& rows);

// A name made safe for a LiteX identifier inside a Verilog string literal: printable ASCII,
// no quote or backslash, at most `max` characters.
std::string identifier_text(const std::string& s, size_t max);
// The FNV-1a hash of a canonical config: the board's CONFIG_ID.
uint32_t config_hash(const std::string& canonical_json);
// A 32-bit value as a Verilog literal 32'hXXXXXXXX.
std::string verilog_hex32(uint32_t x);

}  // namespace cmnet

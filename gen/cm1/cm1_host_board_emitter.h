// Emits the host-link board top for a CM-1 network: the network, the register block that puts
// it under host control (hw/cm1/cm1_host_regs.v), the protocol-v1 frame engine and a UART PHY.
// The same top is flashed onto a board and run by the simulated board (sim/core/board_main.cpp):
// one source of truth.
#pragma once

#include <cstdint>
#include <string>

#include "gen/cm1/cm1_emitter.h"
#include "gen/core/host_board.h"

namespace cmnet {

// The design: everything emit_cm1 writes, the host-link primitives, and `cm1_host_core`
// (byte-stream ports: what a PHY or a simulator drives) and `cm1_host_board` (the PHY's pins,
// LEDs, reset button) as the top.
GeneratedDesign emit_cm1_host_board(const Cm1Config& cfg, const HostBoardOptions& opt = {});

// A 32-bit identifier of the config, readable from the board (BOARD block, CONFIG_ID).
uint32_t config_id(const Cm1Config& cfg);
// LiteX's identifier string of the board top (identifier_mem, litex_client --ident): cmnet, the
// family, the config's name and parameters, its CONFIG_ID, the PHY and the clock. At most 255
// printable characters.
std::string cm1_identifier(const Cm1Config& cfg, const HostBoardOptions& opt);

}  // namespace cmnet

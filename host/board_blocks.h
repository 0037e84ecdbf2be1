// The self-describing register map every cmnet board top carries, read the same way for every
// family: a BOARD block at address 0 ('CMNT': clock, host link, config id) and a linked list of
// blocks, each starting with TYPE, VERSION, NEXT (byte address of the next block, 0 = last) and
// SIZE. A family's driver finds its block here by type and reads its own registers from there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/core/register_decode.h"
#include "host/register_port.h"

namespace cmnet {

// The layout, described once beside the boards' decode (gen/core/register_decode.h).
namespace blockreg {
using regmap::kBoardType, regmap::kType, regmap::kVersion, regmap::kNext, regmap::kSize;
using regmap::kClockHz, regmap::kLink, regmap::kConfigId;  // in the BOARD block
}  // namespace blockreg

struct BoardBlock {
  uint32_t type = 0;
  uint32_t version = 0;
  uint32_t base = 0;
  uint32_t size = 0;
  std::string type_name() const;  // the four ASCII characters of `type`, e.g. "CM1 "
};

struct BoardHeader {
  uint32_t clock_hz = 0;
  uint32_t link = 0;       // 0 UART, 1 FIFO
  uint32_t config_id = 0;
  std::vector<BoardBlock> blocks;  // in list order, the BOARD block excluded
};

// Walks the list from address 0. HostError(ProtocolError) naming the port when there is no
// BOARD block, or the list loops or runs away (more than 64 blocks).
BoardHeader discover_board(RegisterPort& port);

// The first block of `type` with version `version`; HostError naming the port and `what` (the
// block's name, e.g. "CM-1") when there is none or its version differs.
const BoardBlock& find_block(const BoardHeader& h, RegisterPort& port, uint32_t type,
                             uint32_t version, const std::string& what);

}  // namespace cmnet

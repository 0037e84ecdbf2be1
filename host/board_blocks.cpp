#include "host/board_blocks.h"

#include "host/errors.h"

namespace cmnet {

std::string BoardBlock::type_name() const {
  std::string s;
  for (int i = 3; i >= 0; --i) {
    const char c = static_cast<char>((type >> (8 * i)) & 0xff);
    s += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return s;
}

BoardHeader discover_board(RegisterPort& port) {
  using namespace blockreg;
  if (port.read32(kType) != kBoardType)
    throw HostError(HostErrorKind::ProtocolError,
                    port.name() + ": not a cmnet board (no 'CMNT' block at address 0)");
  BoardHeader h;
  h.clock_hz = port.read32(kClockHz);
  h.link = port.read32(kLink);
  h.config_id = port.read32(kConfigId);
  uint32_t addr = port.read32(kNext);
  for (int hops = 0; addr != 0; ++hops) {
    if (hops >= 64 || addr == 0)
      throw HostError(HostErrorKind::ProtocolError,
                      port.name() + ": the board's block list does not end (more than 64 blocks)");
    BoardBlock b;
    b.base = addr;
    b.type = port.read32(addr + kType);
    b.version = port.read32(addr + kVersion);
    b.size = port.read32(addr + kSize);
    h.blocks.push_back(b);
    addr = port.read32(addr + kNext);
  }
  return h;
}

const BoardBlock& find_block(const BoardHeader& h, RegisterPort& port, uint32_t type,
                             uint32_t version, const std::string& what) {
  for (const BoardBlock& b : h.blocks) {
    if (b.type != type) continue;
    if (b.version != version)
      throw HostError(HostErrorKind::ProtocolError,
                      port.name() + ": the " + what + " block is version " + std::to_string(b.version) +
                          ", this driver speaks version " + std::to_string(version) +
                          " (regenerate the board or update cmnet)");
    return b;
  }
  std::string have;
  for (const BoardBlock& b : h.blocks) have.append(have.empty() ? "'" : ", '").append(b.type_name()).append("'");
  throw HostError(HostErrorKind::ProtocolError, port.name() + ": the board has no " + what + " block (blocks: " +
                                                    (have.empty() ? "none" : have) + ")");
}

}  // namespace cmnet

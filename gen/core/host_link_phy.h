// The host link's physical layer, one name for every place that chooses one: the board tops
// (gen/cm1/cm1_host_board_emitter.h: UART or FIFO pins) and the host-link test board
// (sim/core/host_link_rtl.h, which also has a bare byte-stream port for tests).
#pragma once

#include <string>

#include "gen/core/errors.h"

namespace cmnet {

// Uart: an 8N1 UART (the FT2232H's channel B). Fifo: an FT245-style synchronous FIFO (FT2232H
// channel A, FT600 at 8 bits), clocked by the FIFO chip. Bytes: valid/ready byte ports, for
// simulation only.
enum class HostLinkPhy { Bytes = 0, Uart = 1, Fifo = 2 };

inline const char* host_link_phy_name(HostLinkPhy p) {
  switch (p) {
    case HostLinkPhy::Uart: return "uart";
    case HostLinkPhy::Fifo: return "fifo";
    case HostLinkPhy::Bytes: break;
  }
  return "bytes";
}

// `--sim-link NAME`, the simulated board's PHY, as every command spells it (uart | fifo).
inline HostLinkPhy parse_sim_link(const std::string& name) {
  if (name == "uart") return HostLinkPhy::Uart;
  if (name == "fifo") return HostLinkPhy::Fifo;
  throw InputError("--sim-link " + name + ": unknown (allowed: uart, fifo)");
}

}  // namespace cmnet

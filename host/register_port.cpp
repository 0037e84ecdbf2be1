#include "host/register_port.h"

#include "host/board_client.h"
#include "host/pcie_regs.h"
#include "host/transport_uri.h"

namespace cmnet {

std::unique_ptr<RegisterPort> open_register_port(std::string_view uri, const BoardClientOptions& client,
                                                 const PcieOptions& pcie) {
  const TransportUri u = parse_transport_uri(uri);
  if (u.scheme == UriScheme::Pcie) return open_pcie(u, pcie);
  return std::make_unique<BoardClient>(open_transport(u, client.connect_timeout), client);
}

std::unique_ptr<RegisterPort> open_register_port(std::string_view uri, const BoardClientOptions& client) {
  return open_register_port(uri, client, PcieOptions{});
}

std::unique_ptr<RegisterPort> open_register_port(std::string_view uri) {
  return open_register_port(uri, BoardClientOptions{}, PcieOptions{});
}

}  // namespace cmnet

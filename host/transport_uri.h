// Transport URIs: how a board is named on the command line.
//   sim://127.0.0.1:PORT                                   simulated board over TCP (loopback only)
//   usb://VID:PID[/SERIAL][?interface=A|B&baud=N&mode=uart|fifo]   FT2232H-style USB bridge
//   uart:///dev/ttyUSB1[?baud=N]                           a serial port (default 115200 baud)
//   pcie://[DDDD:]BB:DD.F[?bar=N]                          a PCIe card (BDF as in lspci -D)
// parse_transport_uri() throws HostError(BadUri) naming the part that is wrong.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "host/transport.h"

namespace cmnet {

enum class UriScheme { Sim, Usb, Uart, Pcie };
enum class UsbMode { Uart, Fifo };

inline constexpr uint32_t kDefaultBaud = 115200;
inline constexpr uint32_t kMaxBaud = 12000000;

struct TransportUri {
  UriScheme scheme = UriScheme::Sim;
  std::string text;  // as given

  // sim
  std::string host;
  uint16_t port = 0;
  // usb
  uint16_t vid = 0, pid = 0;
  std::string serial;  // empty: any
  char interface = 'A';
  UsbMode usb_mode = UsbMode::Uart;
  // usb (mode=uart) and uart
  uint32_t baud = kDefaultBaud;
  // uart
  std::string device;
  // pcie
  uint16_t pci_domain = 0;
  uint8_t pci_bus = 0, pci_device = 0, pci_function = 0;
  int bar = 0;

  std::string canonical() const;  // normalised form, e.g. usb://0403:6010?interface=A&baud=115200&mode=uart
};

TransportUri parse_transport_uri(std::string_view uri);

// Opens a transport for the URI. sim://, uart:// and usb:// (host/usb_ftdi_transport.h) work;
// pcie:// checks that the device exists (HostError NoDevice if not) and then throws
// HostError(NotImplemented): a PCIe board is a RegisterPort, not a byte stream:
// open_register_port() (host/register_port.h).
std::unique_ptr<Transport> open_transport(const TransportUri& uri,
                                          std::chrono::milliseconds connect_timeout = std::chrono::milliseconds(2000));
std::unique_ptr<Transport> open_transport(std::string_view uri,
                                          std::chrono::milliseconds connect_timeout = std::chrono::milliseconds(2000));

// A PCIe address as lspci -D prints it: "DDDD:BB:DD.F".
std::string pci_address(const TransportUri& u);

}  // namespace cmnet

// Transport URI parsing (host/transport_uri.h): valid forms and error messages.
#include <gtest/gtest.h>

#include "host/errors.h"
#include "host/transport_uri.h"

using namespace cmnet;

namespace {

// Expects parse_transport_uri(uri) to throw BadUri with every fragment in the message.
void expect_bad(const std::string& uri, std::initializer_list<std::string> fragments) {
  try {
    parse_transport_uri(uri);
    ADD_FAILURE() << "accepted bad URI " << uri;
  } catch (const HostError& e) {
    EXPECT_EQ(e.kind(), HostErrorKind::BadUri) << uri;
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad transport URI \"" + uri + "\""), std::string::npos) << msg;
    for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
  }
}

}  // namespace

TEST(TransportUri, Sim) {
  auto u = parse_transport_uri("sim://127.0.0.1:5555");
  EXPECT_EQ(u.scheme, UriScheme::Sim);
  EXPECT_EQ(u.host, "127.0.0.1");
  EXPECT_EQ(u.port, 5555);
  EXPECT_EQ(u.canonical(), "sim://127.0.0.1:5555");
  EXPECT_EQ(parse_transport_uri("sim://localhost:1").port, 1);
  EXPECT_EQ(parse_transport_uri("SIM://127.0.0.1:65535").port, 65535);
  EXPECT_EQ(parse_transport_uri("sim://127.1.2.3:80").host, "127.1.2.3");
}

TEST(TransportUri, SimErrors) {
  expect_bad("sim://127.0.0.1", {"missing ':PORT'"});
  expect_bad("sim://127.0.0.1:", {"missing port"});
  expect_bad("sim://127.0.0.1:0", {"port '0'", "1..65535"});
  expect_bad("sim://127.0.0.1:65536", {"port '65536'"});
  expect_bad("sim://127.0.0.1:12ab", {"port '12ab'"});
  expect_bad("sim://:5555", {"missing host"});
  expect_bad("sim://10.0.0.1:5555", {"host '10.0.0.1'", "loopback"});
  expect_bad("sim://example.com:5555", {"host 'example.com'"});
  expect_bad("sim://127.0.0.256:5555", {"host '127.0.0.256'"});
  expect_bad("sim://127.0.0.1:5555/x", {"unexpected path '/x'"});
  expect_bad("sim://127.0.0.1:5555?baud=9600", {"sim:// takes no parameters"});
}

TEST(TransportUri, Usb) {
  auto u = parse_transport_uri("usb://0403:6010");
  EXPECT_EQ(u.scheme, UriScheme::Usb);
  EXPECT_EQ(u.vid, 0x0403);
  EXPECT_EQ(u.pid, 0x6010);
  EXPECT_EQ(u.serial, "");
  EXPECT_EQ(u.interface, 'A');
  EXPECT_EQ(u.usb_mode, UsbMode::Uart);
  EXPECT_EQ(u.baud, kDefaultBaud);
  u = parse_transport_uri("usb://403:6010/FT12AB-3?interface=B&baud=3000000&mode=uart");
  EXPECT_EQ(u.vid, 0x0403);
  EXPECT_EQ(u.serial, "FT12AB-3");
  EXPECT_EQ(u.interface, 'B');
  EXPECT_EQ(u.baud, 3000000u);
  EXPECT_EQ(u.canonical(), "usb://0403:6010/FT12AB-3?interface=B&baud=3000000&mode=uart");
  u = parse_transport_uri("usb://0403:6014?mode=fifo");
  EXPECT_EQ(u.usb_mode, UsbMode::Fifo);
  EXPECT_EQ(u.canonical(), "usb://0403:6014?interface=A&mode=fifo");
}

TEST(TransportUri, UsbErrors) {
  expect_bad("usb://", {"missing VID:PID"});
  expect_bad("usb://0403", {"'0403' is not VID:PID"});
  expect_bad("usb://04g3:6010", {"VID '04g3'"});
  expect_bad("usb://0403:60100", {"PID '60100'"});
  expect_bad("usb://0403:", {"PID ''"});
  expect_bad("usb://0403:6010/", {"empty serial"});
  expect_bad("usb://0403:6010/ab cd", {"serial number 'ab cd'"});
  expect_bad("usb://0403:6010?", {"empty query"});
  expect_bad("usb://0403:6010?interface=C", {"interface 'C'", "A or B"});
  expect_bad("usb://0403:6010?mode=spi", {"mode 'spi'", "uart or fifo"});
  expect_bad("usb://0403:6010?baud=0", {"baud '0'"});
  expect_bad("usb://0403:6010?baud=fast", {"baud 'fast'"});
  expect_bad("usb://0403:6010?baud=20000000", {"baud '20000000'"});
  expect_bad("usb://0403:6010?mode=fifo&baud=9600", {"baud applies to mode=uart only"});
  expect_bad("usb://0403:6010?speed=9600", {"unknown parameter 'speed'", "interface, baud, mode"});
  expect_bad("usb://0403:6010?baud=9600&baud=115200", {"'baud' given twice"});
  expect_bad("usb://0403:6010?baud", {"'baud' has no '=value'"});
  expect_bad("usb://0403:6010?baud=", {"'baud' has an empty value"});
  expect_bad("usb://0403:6010?baud=9600&", {"empty parameter"});
}

TEST(TransportUri, Uart) {
  auto u = parse_transport_uri("uart:///dev/ttyUSB1");
  EXPECT_EQ(u.scheme, UriScheme::Uart);
  EXPECT_EQ(u.device, "/dev/ttyUSB1");
  EXPECT_EQ(u.baud, kDefaultBaud);
  u = parse_transport_uri("uart:///dev/ttyUSB1?baud=921600");
  EXPECT_EQ(u.baud, 921600u);
  EXPECT_EQ(u.canonical(), "uart:///dev/ttyUSB1?baud=921600");
}

TEST(TransportUri, UartErrors) {
  expect_bad("uart://dev/ttyUSB1", {"not absolute", "uart:///dev/ttyUSB1"});
  expect_bad("uart://", {"missing device path"});
  expect_bad("uart:///dev/", {"names a directory"});
  expect_bad("uart:///dev/ttyUSB1?baud=x", {"baud 'x'"});
  expect_bad("uart:///dev/ttyUSB1?parity=even", {"unknown parameter 'parity'", "allowed: baud"});
}

TEST(TransportUri, Pcie) {
  auto u = parse_transport_uri("pcie://0000:01:00.0");
  EXPECT_EQ(u.scheme, UriScheme::Pcie);
  EXPECT_EQ(u.pci_domain, 0);
  EXPECT_EQ(u.pci_bus, 1);
  EXPECT_EQ(u.pci_device, 0);
  EXPECT_EQ(u.pci_function, 0);
  u = parse_transport_uri("pcie://00a0:3b:1f.7?bar=2");
  EXPECT_EQ(u.pci_domain, 0xa0);
  EXPECT_EQ(u.pci_bus, 0x3b);
  EXPECT_EQ(u.pci_device, 0x1f);
  EXPECT_EQ(u.pci_function, 7);
  EXPECT_EQ(u.bar, 2);
  EXPECT_EQ(u.canonical(), "pcie://00a0:3b:1f.7?bar=2");
  EXPECT_EQ(parse_transport_uri("pcie://02:00.1").pci_bus, 2);
}

TEST(TransportUri, PcieErrors) {
  expect_bad("pcie://", {"missing PCI address"});
  expect_bad("pcie://0000:01:00", {"PCI device '00' lacks '.FUNCTION'"});
  expect_bad("pcie://000:01:00.0", {"PCI domain '000'"});
  expect_bad("pcie://0000:1:00.0", {"PCI bus '1'"});
  expect_bad("pcie://0000:01:20.0", {"PCI device '20'", "00..1f"});
  expect_bad("pcie://0000:01:00.8", {"PCI function '8'"});
  expect_bad("pcie://0000:01:00.0?bar=6", {"bar '6'"});
  expect_bad("pcie://0:0000:01:00.0", {"malformed"});
  expect_bad("pcie://01", {"malformed"});
}

TEST(TransportUri, SchemeErrors) {
  expect_bad("127.0.0.1:5555", {"missing '://'"});
  expect_bad("tcp://127.0.0.1:5555", {"unknown scheme 'tcp'", "sim, usb, uart or pcie"});
  expect_bad("://x", {"unknown scheme ''"});
}

TEST(OpenTransport, MissingDevicesAndUnimplementedTransportsGiveClearErrors) {
  try {
    open_transport("uart:///dev/cmnet-no-such-tty");
    ADD_FAILURE() << "opened a missing tty";
  } catch (const HostError& e) {
    EXPECT_EQ(e.kind(), HostErrorKind::NoDevice);
    EXPECT_NE(std::string(e.what()).find("no such device /dev/cmnet-no-such-tty"), std::string::npos) << e.what();
  }
  try {
    open_transport("pcie://0000:ee:1f.7");
    ADD_FAILURE() << "opened a missing PCI device";
  } catch (const HostError& e) {
    EXPECT_EQ(e.kind(), HostErrorKind::NoDevice);
    EXPECT_NE(std::string(e.what()).find("no PCI device 0000:ee:1f.7"), std::string::npos) << e.what();
  }
  // No USB on this machine (or no such device on a developer's): either way a clear error.
  try {
    open_transport("usb://1d50:ffff/NOSUCH");
    ADD_FAILURE() << "opened a USB device";
  } catch (const HostError& e) {
    EXPECT_TRUE(e.kind() == HostErrorKind::NoDevice || e.kind() == HostErrorKind::NotImplemented) << e.what();
    const std::string msg = e.what();
    EXPECT_TRUE(msg.find("no USB device 1d50:ffff with serial NOSUCH") != std::string::npos ||
                msg.find("USB is unavailable") != std::string::npos || msg.find("not implemented yet") != std::string::npos)
        << msg;
  }
}

#include "host/transport_uri.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

#include "host/errors.h"
#include "host/serial_transport.h"
#include "host/tcp_transport.h"
#include "host/usb_ftdi_transport.h"

namespace cmnet {

namespace {

[[noreturn]] void bad(std::string_view uri, const std::string& why) {
  throw HostError(HostErrorKind::BadUri, "bad transport URI \"" + std::string(uri) + "\": " + why);
}

bool parse_uint(std::string_view s, uint64_t max, uint64_t& out, int base = 10) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size() || v > max) return false;
  out = v;
  return true;
}

bool all_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

// "a=1&b=2" -> map; rejects malformed, duplicate and unknown keys.
std::map<std::string, std::string> parse_query(std::string_view uri, std::string_view scheme,
                                               std::string_view q,
                                               const std::vector<std::string>& allowed) {
  std::map<std::string, std::string> out;
  std::string allowed_list;
  for (const auto& a : allowed) allowed_list += (allowed_list.empty() ? "" : ", ") + a;
  size_t pos = 0;
  while (pos <= q.size()) {
    const size_t amp = q.find('&', pos);
    const std::string_view item = q.substr(pos, amp == std::string_view::npos ? std::string_view::npos : amp - pos);
    if (item.empty()) bad(uri, "empty parameter in query '" + std::string(q) + "'");
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      bad(uri, "parameter '" + std::string(item) + "' has no '=value'");
    const std::string key(item.substr(0, eq));
    const std::string value(item.substr(eq + 1));
    if (key.empty()) bad(uri, "parameter '" + std::string(item) + "' has an empty name");
    if (value.empty()) bad(uri, "parameter '" + key + "' has an empty value");
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      bad(uri, "unknown parameter '" + key + "' for " + std::string(scheme) + ":// (allowed: " +
                   (allowed_list.empty() ? "none" : allowed_list) + ")");
    if (!out.emplace(key, value).second) bad(uri, "parameter '" + key + "' given twice");
    if (amp == std::string_view::npos) break;
    pos = amp + 1;
  }
  return out;
}

uint32_t parse_baud(std::string_view uri, const std::string& v) {
  uint64_t b = 0;
  if (!parse_uint(v, kMaxBaud, b) || b == 0)
    bad(uri, "baud '" + v + "' is not a number in 1.." + std::to_string(kMaxBaud));
  return static_cast<uint32_t>(b);
}

bool is_loopback_ipv4(std::string_view h) {
  int parts = 0;
  uint64_t first = 0;
  size_t pos = 0;
  while (true) {
    const size_t dot = h.find('.', pos);
    const std::string_view part = h.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos);
    uint64_t v = 0;
    if (part.size() > 3 || !parse_uint(part, 255, v)) return false;
    if (parts == 0) first = v;
    ++parts;
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  return parts == 4 && first == 127;
}

void parse_sim(std::string_view uri, std::string_view rest, TransportUri& u) {
  if (rest.find('?') != std::string_view::npos) bad(uri, "sim:// takes no parameters");
  const size_t slash = rest.find('/');
  if (slash != std::string_view::npos)
    bad(uri, "unexpected path '" + std::string(rest.substr(slash)) + "' after the port");
  const size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos)
    bad(uri, "missing ':PORT' (expected sim://127.0.0.1:PORT)");
  const std::string_view host = rest.substr(0, colon);
  const std::string_view port = rest.substr(colon + 1);
  if (host.empty()) bad(uri, "missing host (expected sim://127.0.0.1:PORT)");
  if (host != "localhost" && !is_loopback_ipv4(host))
    bad(uri, "host '" + std::string(host) +
                 "' is not a loopback IPv4 address (the simulated board listens on 127.0.0.1 only)");
  uint64_t p = 0;
  if (port.empty()) bad(uri, "missing port after ':'");
  if (!parse_uint(port, 65535, p) || p == 0)
    bad(uri, "port '" + std::string(port) + "' is not a number in 1..65535");
  u.host = std::string(host);
  u.port = static_cast<uint16_t>(p);
}

void parse_usb(std::string_view uri, std::string_view rest, TransportUri& u) {
  std::string_view query;
  if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
    if (query.empty()) bad(uri, "empty query after '?'");
  }
  std::string_view ids = rest;
  if (const size_t s = rest.find('/'); s != std::string_view::npos) {
    ids = rest.substr(0, s);
    const std::string_view serial = rest.substr(s + 1);
    if (serial.empty()) bad(uri, "empty serial number after '/'");
    for (char c : serial)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
        bad(uri, "serial number '" + std::string(serial) + "' has a character other than letters, digits, '-', '_', '.'");
    u.serial = std::string(serial);
  }
  const size_t colon = ids.find(':');
  if (ids.empty()) bad(uri, "missing VID:PID (expected usb://0403:6010)");
  if (colon == std::string_view::npos) bad(uri, "'" + std::string(ids) + "' is not VID:PID (expected usb://0403:6010)");
  const std::string_view vid = ids.substr(0, colon), pid = ids.substr(colon + 1);
  uint64_t v = 0;
  if (vid.empty() || vid.size() > 4 || !all_hex(vid) || !parse_uint(vid, 0xFFFF, v, 16))
    bad(uri, "VID '" + std::string(vid) + "' is not 1-4 hex digits");
  u.vid = static_cast<uint16_t>(v);
  if (pid.empty() || pid.size() > 4 || !all_hex(pid) || !parse_uint(pid, 0xFFFF, v, 16))
    bad(uri, "PID '" + std::string(pid) + "' is not 1-4 hex digits");
  u.pid = static_cast<uint16_t>(v);
  if (query.empty()) return;
  auto params = parse_query(uri, "usb", query, {"interface", "baud", "mode"});
  if (auto it = params.find("interface"); it != params.end()) {
    if (it->second != "A" && it->second != "B")
      bad(uri, "interface '" + it->second + "' is not A or B");
    u.interface = it->second[0];
  }
  if (auto it = params.find("mode"); it != params.end()) {
    if (it->second == "uart") u.usb_mode = UsbMode::Uart;
    else if (it->second == "fifo") u.usb_mode = UsbMode::Fifo;
    else bad(uri, "mode '" + it->second + "' is not uart or fifo");
  }
  if (auto it = params.find("baud"); it != params.end()) {
    if (u.usb_mode == UsbMode::Fifo) bad(uri, "baud applies to mode=uart only, not mode=fifo");
    u.baud = parse_baud(uri, it->second);
  }
}

void parse_uart(std::string_view uri, std::string_view rest, TransportUri& u) {
  std::string_view query;
  if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
    if (query.empty()) bad(uri, "empty query after '?'");
  }
  if (rest.empty()) bad(uri, "missing device path (expected uart:///dev/ttyUSB1)");
  if (rest.front() != '/')
    bad(uri, "device path '" + std::string(rest) + "' is not absolute (use three slashes: uart:///" +
                 std::string(rest) + ")");
  if (rest.size() == 1 || rest.back() == '/') bad(uri, "device path '" + std::string(rest) + "' names a directory");
  u.device = std::string(rest);
  if (query.empty()) return;
  auto params = parse_query(uri, "uart", query, {"baud"});
  if (auto it = params.find("baud"); it != params.end()) u.baud = parse_baud(uri, it->second);
}

void parse_pcie(std::string_view uri, std::string_view rest, TransportUri& u) {
  std::string_view query;
  if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
    if (query.empty()) bad(uri, "empty query after '?'");
  }
  const std::string expect = " (expected DDDD:BB:DD.F, e.g. pcie://0000:01:00.0)";
  if (rest.empty()) bad(uri, "missing PCI address" + expect);
  std::string_view bdf = rest;
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (true) {
    const size_t c = bdf.find(':', pos);
    parts.push_back(bdf.substr(pos, c == std::string_view::npos ? std::string_view::npos : c - pos));
    if (c == std::string_view::npos) break;
    pos = c + 1;
  }
  if (parts.size() < 2 || parts.size() > 3) bad(uri, "PCI address '" + std::string(rest) + "' is malformed" + expect);
  uint64_t v = 0;
  if (parts.size() == 3) {
    if (parts[0].size() != 4 || !all_hex(parts[0]) || !parse_uint(parts[0], 0xFFFF, v, 16))
      bad(uri, "PCI domain '" + std::string(parts[0]) + "' is not 4 hex digits");
    u.pci_domain = static_cast<uint16_t>(v);
  }
  const std::string_view bus = parts[parts.size() - 2];
  const std::string_view devfn = parts.back();
  if (bus.size() != 2 || !all_hex(bus) || !parse_uint(bus, 0xFF, v, 16))
    bad(uri, "PCI bus '" + std::string(bus) + "' is not 2 hex digits");
  u.pci_bus = static_cast<uint8_t>(v);
  const size_t dot = devfn.find('.');
  if (dot == std::string_view::npos) bad(uri, "PCI device '" + std::string(devfn) + "' lacks '.FUNCTION'" + expect);
  const std::string_view dev = devfn.substr(0, dot), fn = devfn.substr(dot + 1);
  if (dev.size() != 2 || !all_hex(dev) || !parse_uint(dev, 0x1F, v, 16))
    bad(uri, "PCI device '" + std::string(dev) + "' is not 2 hex digits in 00..1f");
  u.pci_device = static_cast<uint8_t>(v);
  if (fn.size() != 1 || !parse_uint(fn, 7, v))
    bad(uri, "PCI function '" + std::string(fn) + "' is not a digit 0..7");
  u.pci_function = static_cast<uint8_t>(v);
  if (query.empty()) return;
  auto params = parse_query(uri, "pcie", query, {"bar"});
  if (auto it = params.find("bar"); it != params.end()) {
    if (!parse_uint(it->second, 5, v)) bad(uri, "bar '" + it->second + "' is not a number in 0..5");
    u.bar = static_cast<int>(v);
  }
}

}  // namespace

std::string pci_address(const TransportUri& u) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%u", u.pci_domain, u.pci_bus, u.pci_device, u.pci_function);
  return buf;
}


TransportUri parse_transport_uri(std::string_view uri) {
  TransportUri u;
  u.text = std::string(uri);
  const size_t sep = uri.find("://");
  if (sep == std::string_view::npos)
    bad(uri, "missing '://' (expected sim://, usb://, uart:// or pcie://)");
  std::string scheme(uri.substr(0, sep));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string_view rest = uri.substr(sep + 3);
  if (scheme == "sim") {
    u.scheme = UriScheme::Sim;
    parse_sim(uri, rest, u);
  } else if (scheme == "usb") {
    u.scheme = UriScheme::Usb;
    parse_usb(uri, rest, u);
  } else if (scheme == "uart") {
    u.scheme = UriScheme::Uart;
    parse_uart(uri, rest, u);
  } else if (scheme == "pcie") {
    u.scheme = UriScheme::Pcie;
    parse_pcie(uri, rest, u);
  } else {
    bad(uri, "unknown scheme '" + scheme + "' (expected sim, usb, uart or pcie)");
  }
  return u;
}

std::string TransportUri::canonical() const {
  char buf[64];
  switch (scheme) {
    case UriScheme::Sim: return "sim://" + host + ":" + std::to_string(port);
    case UriScheme::Usb: {
      std::snprintf(buf, sizeof buf, "usb://%04x:%04x", vid, pid);
      std::string s = buf;
      if (!serial.empty()) s += "/" + serial;
      s += std::string("?interface=") + interface;
      if (usb_mode == UsbMode::Uart) s += "&baud=" + std::to_string(baud);
      s += usb_mode == UsbMode::Uart ? "&mode=uart" : "&mode=fifo";
      return s;
    }
    case UriScheme::Uart: return "uart://" + device + "?baud=" + std::to_string(baud);
    case UriScheme::Pcie: return "pcie://" + pci_address(*this) + "?bar=" + std::to_string(bar);
  }
  return text;
}

std::unique_ptr<Transport> open_transport(const TransportUri& u, std::chrono::milliseconds connect_timeout) {
  switch (u.scheme) {
    case UriScheme::Sim: return TcpTransport::connect(u.host, u.port, connect_timeout);
    case UriScheme::Uart: return SerialTransport::open(u.device, u.baud);
    case UriScheme::Usb: return UsbFtdiTransport::open(u, connect_timeout);
    case UriScheme::Pcie: {
      const std::string addr = pci_address(u);
      const std::string sys = "/sys/bus/pci/devices/" + addr;
      std::error_code ec;
      if (!std::filesystem::exists(sys, ec))
        throw HostError(HostErrorKind::NoDevice, u.text + ": no PCI device " + addr + " (" + sys + " does not exist)");
      throw HostError(HostErrorKind::NotImplemented,
                      u.text + ": pcie:// is memory-mapped registers, not a byte stream: open it with "
                               "open_register_port() (host/register_port.h) or open_pcie() (host/pcie_regs.h)");
    }
  }
  throw HostError(HostErrorKind::BadUri, u.text + ": unsupported scheme");
}

std::unique_ptr<Transport> open_transport(std::string_view uri, std::chrono::milliseconds connect_timeout) {
  return open_transport(parse_transport_uri(uri), connect_timeout);
}

}  // namespace cmnet

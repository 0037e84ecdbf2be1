#include "host/usb_ftdi_transport.h"

#include <libusb.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace cmnet {

// ------------------------------------------------------------------------------------ baud rates

namespace ftdi {
namespace {

constexpr uint32_t kMaxEighths = 0x3FFF * 8 + 7;  // 14-bit integer part, 3-bit fraction

bool valid_eighths(uint32_t e) { return e == 8 || e == 12 || (e >= 16 && e <= kMaxEighths); }

// The chip's code for k/8 (k = 0..7) in divisor bits 14-16, and back.
constexpr uint8_t kFracCode[8] = {0, 3, 2, 4, 1, 5, 6, 7};
constexpr uint8_t kCodeFrac[8] = {0, 4, 2, 1, 3, 5, 6, 7};

uint32_t encode(uint32_t eighths, bool high_clock) {
  uint32_t enc = 0;
  if (eighths == 8) enc = 0;        // divide by 1
  else if (eighths == 12) enc = 1;  // divide by 1.5
  else enc = (eighths >> 3) | (static_cast<uint32_t>(kFracCode[eighths & 7]) << 14);
  if (high_clock) enc |= 1u << 17;
  return enc;
}

uint32_t rate(uint32_t clock, uint32_t eighths) {
  return static_cast<uint32_t>(std::llround(static_cast<double>(clock) * 8.0 / eighths));
}

std::string percent(double e) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", e * 100.0);
  return buf;
}

}  // namespace

BaudSetting ft2232h_baud(uint32_t baud) {
  if (baud == 0) throw HostError(HostErrorKind::BadUri, "baud rate 0 is not a rate");
  BaudSetting best;
  bool have = false;
  uint32_t below = 0, above = std::numeric_limits<uint32_t>::max();
  for (const bool high : {true, false}) {  // the 12 MHz clock first: it wins ties
    const uint32_t clock = high ? kClockHigh : kClockLow;
    const double ideal = static_cast<double>(clock) * 8.0 / baud;
    const double lo = std::floor(ideal), hi = std::ceil(ideal);
    std::vector<uint32_t> cands = {8, 12, 16, kMaxEighths};
    for (double c : {lo, hi})
      if (c >= 1 && c <= kMaxEighths) cands.push_back(static_cast<uint32_t>(c));
    for (uint32_t e : cands) {
      if (!valid_eighths(e)) continue;
      const uint32_t r = rate(clock, e);
      if (r <= baud) below = std::max(below, r);
      if (r >= baud) above = std::min(above, r);
      const double err = (static_cast<double>(r) - baud) / baud;
      if (!have || std::abs(err) < std::abs(best.error)) {
        best.requested = baud;
        best.actual = r;
        best.divisor = encode(e, high);
        best.error = err;
        have = true;
      }
    }
  }
  if (std::abs(best.error) > kMaxBaudError) {
    std::string nearest;
    if (below > 0) nearest += std::to_string(below) + " (" + percent((static_cast<double>(below) - baud) / baud) + ")";
    if (above != std::numeric_limits<uint32_t>::max())
      nearest += (nearest.empty() ? "" : " and ") + std::to_string(above) + " (" +
                 percent((static_cast<double>(above) - baud) / baud) + ")";
    throw HostError(HostErrorKind::BadUri,
                    "the FT2232H cannot make " + std::to_string(baud) +
                        " baud within 3% (12 MHz or 3 MHz divided by n + k/8): the nearest rates are " + nearest);
  }
  return best;
}

uint32_t ft2232h_baud_from_divisor(uint32_t divisor) {
  const bool high = (divisor >> 17) & 1;
  const uint32_t n = divisor & 0x3FFF;
  const uint32_t code = (divisor >> 14) & 7;
  uint32_t eighths = n * 8 + kCodeFrac[code];
  if (n == 0 && code == 0) eighths = 8;
  else if (n == 1 && code == 0) eighths = 12;
  if (eighths == 0) return 0;
  return rate(high ? kClockHigh : kClockLow, eighths);
}

}  // namespace ftdi

// ------------------------------------------------------------------------------------ errors

namespace detail {

HostError usb_error(const std::string& name, int rc, const std::string& during, uint16_t vid, uint16_t pid) {
  char id[16];
  std::snprintf(id, sizeof id, "%04x:%04x", vid, pid);
  const std::string lib = std::string(libusb_error_name(rc)) + ": " + libusb_strerror(static_cast<libusb_error>(rc));
  switch (rc) {
    case LIBUSB_ERROR_NO_DEVICE:
      return HostError(HostErrorKind::ConnectionClosed,
                       name + ": USB device " + id + " vanished (device unplugged?) during " + during);
    case LIBUSB_ERROR_ACCESS:
      return HostError(HostErrorKind::Io,
                       name + ": permission denied " + during + " on USB device " + id +
                           ": the user needs write access to /dev/bus/usb; add a udev rule, e.g. "
                           "/etc/udev/rules.d/99-cmnet-ftdi.rules with SUBSYSTEM==\"usb\", ATTRS{idVendor}==\"" +
                           std::string(id, 4) + "\", ATTRS{idProduct}==\"" + std::string(id + 5, 4) +
                           "\", MODE=\"0660\", GROUP=\"plugdev\" (then `udevadm control --reload` and replug)");
    case LIBUSB_ERROR_BUSY:
      return HostError(HostErrorKind::Io, name + ": USB device " + id + " is busy " + during +
                                              " (another program or driver holds the interface) (" + lib + ")");
    case LIBUSB_ERROR_TIMEOUT:
      return HostError(HostErrorKind::Timeout, name + ": USB request timed out " + during + " (" + lib + ")");
    case LIBUSB_ERROR_PIPE:
      return HostError(HostErrorKind::Io, name + ": the device stalled " + during + " (" + lib + ")");
    default:
      return HostError(HostErrorKind::Io, name + ": USB error " + during + " (" + lib + ")");
  }
}

}  // namespace detail

// ------------------------------------------------------------------------------------ transport

namespace {

constexpr int kInPackets = 32;                // packets per bulk IN transfer (16 KiB at high speed)
constexpr size_t kOutChunk = 64 * 1024;       // bytes per bulk OUT transfer

std::string usb_id(uint16_t vid, uint16_t pid) {
  char id[16];
  std::snprintf(id, sizeof id, "%04x:%04x", vid, pid);
  return id;
}

int ms_until(Transport::Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Transport::Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 24LL * 3600 * 1000));
}

}  // namespace

struct UsbFtdiTransport::Impl {
  TransportUri uri;
  std::string name;
  libusb_context* ctx = nullptr;
  libusb_device_handle* h = nullptr;
  int ifnum = 0;          // USB interface number: 0 for A, 1 for B
  uint8_t channel = 1;    // FTDI wIndex: 1 for A, 2 for B
  uint8_t ep_in = 0x81, ep_out = 0x02;
  uint16_t packet = 512;
  bool claimed = false, detached = false, open = false;
  uint32_t actual_baud = 0;
  std::string serial;
  std::vector<uint8_t> inbuf;
  std::vector<uint8_t> pending;  // data bytes received but not yet returned
  size_t pending_pos = 0;
  Stats stats;

  ~Impl() { shutdown(); }

  HostError error(int rc, const std::string& during) const {
    return detail::usb_error(name, rc, during, uri.vid, uri.pid);
  }

  // A failure during I/O: NO_DEVICE closes the transport (ConnectionClosed). Some host
  // controllers report an unplug as a plain I/O error first: probe the device to tell.
  [[noreturn]] void fail_io(int rc, const std::string& during) {
    if (rc != LIBUSB_ERROR_NO_DEVICE && rc != LIBUSB_ERROR_TIMEOUT && h) {
      uint8_t st[2];
      const int probe = libusb_control_transfer(h, ftdi::kRequestIn, ftdi::kSioPollModemStatus, 0, channel, st,
                                                sizeof st, 200);
      if (probe == LIBUSB_ERROR_NO_DEVICE) rc = LIBUSB_ERROR_NO_DEVICE;
    }
    if (rc == LIBUSB_ERROR_NO_DEVICE) shutdown();
    throw error(rc, during);
  }

  void vendor_out(uint8_t request, uint16_t value, uint16_t index, const char* what, unsigned timeout_ms) {
    const int rc = libusb_control_transfer(h, ftdi::kRequestOut, request, value, index, nullptr, 0, timeout_ms);
    if (rc < 0) {
      HostError e = error(rc, std::string("while ") + what);
      if (rc == LIBUSB_ERROR_NO_DEVICE) throw HostError(HostErrorKind::NoDevice, e.what());
      throw e;
    }
  }

  void shutdown() {
    open = false;
    if (h) {
      if (claimed) libusb_release_interface(h, ifnum);
      // Give the interface back to ftdi_sio (its /dev/ttyUSBn reappears), as we found it.
      if (detached) libusb_attach_kernel_driver(h, ifnum);
      libusb_close(h);
      h = nullptr;
    }
    claimed = false;
    if (ctx) {
      libusb_exit(ctx);
      ctx = nullptr;
    }
  }

  // Appends the data of one bulk IN transfer (n bytes in inbuf) to `pending`, dropping the two
  // status bytes at the start of every max-packet-size chunk.
  void strip(size_t n) {
    ++stats.in_transfers;
    for (size_t off = 0; off < n; off += packet) {
      const size_t len = std::min<size_t>(packet, n - off);
      ++stats.in_packets;
      if (len < static_cast<size_t>(ftdi::kStatusBytes)) continue;  // a runt: no status, no data
      stats.last_modem_status = inbuf[off];
      stats.last_line_status = inbuf[off + 1];
      if (inbuf[off + 1] & ftdi::kLineErrorMask) ++stats.line_errors;
      if (len == static_cast<size_t>(ftdi::kStatusBytes)) {
        ++stats.status_only_packets;
        continue;
      }
      pending.insert(pending.end(), inbuf.begin() + static_cast<std::ptrdiff_t>(off + ftdi::kStatusBytes),
                     inbuf.begin() + static_cast<std::ptrdiff_t>(off + len));
      stats.bytes_in += len - ftdi::kStatusBytes;
    }
  }

  size_t drain(std::span<uint8_t> buf) {
    const size_t n = std::min(buf.size(), pending.size() - pending_pos);
    std::memcpy(buf.data(), pending.data() + pending_pos, n);
    pending_pos += n;
    if (pending_pos == pending.size()) {
      pending.clear();
      pending_pos = 0;
    }
    return n;
  }
  // Finds the device (VID:PID, and the serial number if the URI gives one) and opens it.
  void find_device(const std::string& id) {
    libusb_device** list = nullptr;
    const ssize_t n = libusb_get_device_list(ctx, &list);
    if (n < 0)
      throw HostError(HostErrorKind::NoDevice, name + ": no USB device " + id + ": cannot list USB devices (" +
                                                   libusb_error_name(static_cast<int>(n)) + ")");
    std::vector<std::string> other_serials;
    int matches = 0;
    int open_error = 0;
    for (ssize_t i = 0; i < n && !h; ++i) {
      libusb_device_descriptor d{};
      if (libusb_get_device_descriptor(list[i], &d) != 0) continue;
      if (d.idVendor != uri.vid || d.idProduct != uri.pid) continue;
      ++matches;
      libusb_device_handle* dh = nullptr;
      if (int rc = libusb_open(list[i], &dh); rc != 0) {
        open_error = rc;
        continue;
      }
      std::string sn;
      unsigned char s[256] = {};
      if (d.iSerialNumber && libusb_get_string_descriptor_ascii(dh, d.iSerialNumber, s, sizeof s - 1) > 0)
        sn = reinterpret_cast<const char*>(s);
      if (!uri.serial.empty() && sn != uri.serial) {
        other_serials.push_back(sn.empty() ? "(none)" : sn);
        libusb_close(dh);
        continue;
      }
      h = dh;
      serial = sn;
    }
    libusb_free_device_list(list, 1);
    if (!h) {
      if (open_error != 0 && (uri.serial.empty() || other_serials.empty())) {
        HostError e = error(open_error, "opening it");
        if (open_error == LIBUSB_ERROR_NO_DEVICE) throw HostError(HostErrorKind::NoDevice, e.what());
        throw e;
      }
      std::string why = "no USB device " + id + (uri.serial.empty() ? "" : " with serial " + uri.serial) + " found (" +
                        std::to_string(n) + " USB device" + (n == 1 ? "" : "s") + " present";
      if (matches > 0 && !other_serials.empty()) {
        why += "; " + id + " with serial";
        for (size_t i = 0; i < other_serials.size(); ++i) why += (i ? ", " : " ") + other_serials[i];
      }
      throw HostError(HostErrorKind::NoDevice, name + ": " + why + ")");
    }
  }

  // The interface's bulk endpoints and packet size.
  void find_endpoints(const std::string& id) {
    libusb_device* dev = libusb_get_device(h);
    libusb_config_descriptor* cfg = nullptr;
    if (int rc = libusb_get_active_config_descriptor(dev, &cfg); rc != 0) throw error(rc, "reading its configuration");
    const int ninterfaces = cfg->bNumInterfaces;
    bool have_in = false, have_out = false;
    if (ifnum < ninterfaces && cfg->interface[ifnum].num_altsetting > 0) {
      const libusb_interface_descriptor& alt = cfg->interface[ifnum].altsetting[0];
      for (int e = 0; e < alt.bNumEndpoints; ++e) {
        const libusb_endpoint_descriptor& ep = alt.endpoint[e];
        if ((ep.bmAttributes & LIBUSB_TRANSFER_TYPE_MASK) != LIBUSB_TRANSFER_TYPE_BULK) continue;
        if (ep.bEndpointAddress & LIBUSB_ENDPOINT_IN) {
          ep_in = ep.bEndpointAddress;
          packet = static_cast<uint16_t>(ep.wMaxPacketSize & 0x7FF);
          have_in = true;
        } else {
          ep_out = ep.bEndpointAddress;
          have_out = true;
        }
      }
    }
    libusb_free_config_descriptor(cfg);
    if (ifnum >= ninterfaces)
      throw HostError(HostErrorKind::BadUri, name + ": USB device " + id + " has no interface " + uri.interface +
                                                 " (it has " + std::to_string(ninterfaces) + ")");
    if (!have_in || !have_out || packet <= ftdi::kStatusBytes)
      throw HostError(HostErrorKind::Io, name + ": interface " + uri.interface + " of USB device " + id +
                                             " has no bulk IN/OUT endpoint pair: not an FTDI UART/FIFO channel");
  }

  // Takes the interface from ftdi_sio if it holds it, then claims it.
  void claim() {
    const int active = libusb_kernel_driver_active(h, ifnum);
    if (active == 1) {
      if (int rc = libusb_detach_kernel_driver(h, ifnum); rc != 0 && rc != LIBUSB_ERROR_NOT_FOUND)
        throw error(rc, std::string("detaching the kernel driver (ftdi_sio) from interface ") + uri.interface);
      detached = true;
    } else if (active < 0 && active != LIBUSB_ERROR_NOT_SUPPORTED) {
      throw error(active, "checking for a kernel driver");
    }
    if (int rc = libusb_claim_interface(h, ifnum); rc != 0)
      throw error(rc, std::string("claiming interface ") + uri.interface);
    claimed = true;
  }

  // Resets the channel, empties its buffers, sets the latency timer, then the mode.
  void configure(const ftdi::BaudSetting& baud, unsigned tmo) {
    const uint8_t ch = channel;
    vendor_out(ftdi::kSioReset, ftdi::kResetSio, ch, "resetting the channel", tmo);
    vendor_out(ftdi::kSioReset, ftdi::kResetPurgeRx, ch, "purging the receive buffer", tmo);
    vendor_out(ftdi::kSioReset, ftdi::kResetPurgeTx, ch, "purging the transmit buffer", tmo);
    if (uri.usb_mode == UsbMode::Uart) {
      vendor_out(ftdi::kSioSetLatencyTimer, ftdi::kUartLatencyMs, ch, "setting the latency timer", tmo);
      vendor_out(ftdi::kSioSetBitmode, ftdi::kBitmodeReset << 8, ch, "setting UART mode (bit mode reset)", tmo);
      vendor_out(ftdi::kSioSetData, ftdi::kData8N1, ch, "setting 8N1", tmo);
      vendor_out(ftdi::kSioSetFlowCtrl, 0, static_cast<uint16_t>(ftdi::kFlowNone | ch), "turning flow control off", tmo);
      vendor_out(ftdi::kSioSetBaudRate, baud.value(), baud.index(ch), "setting the baud rate", tmo);
      actual_baud = baud.actual;
      if (baud.actual != uri.baud)
        spdlog::debug("{}: {} baud requested, the FT2232H runs at {} baud ({:+.2f}%)", name, uri.baud, baud.actual,
                      baud.error * 100.0);
    } else {
      vendor_out(ftdi::kSioSetLatencyTimer, ftdi::kFifoLatencyMs, ch, "setting the latency timer", tmo);
      vendor_out(ftdi::kSioSetBitmode, ftdi::kBitmodeReset << 8 | 0xFF, ch, "resetting the bit mode", tmo);
      vendor_out(ftdi::kSioSetBitmode, ftdi::kBitmodeSyncFifo << 8 | 0xFF, ch,
                 "setting synchronous FIFO mode (channel A must be configured as 245 FIFO in the EEPROM)", tmo);
      vendor_out(ftdi::kSioSetFlowCtrl, 0, static_cast<uint16_t>(ftdi::kFlowRtsCts | ch),
                 "turning RTS/CTS flow control on", tmo);
    }
  }
};

UsbFtdiTransport::UsbFtdiTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
UsbFtdiTransport::~UsbFtdiTransport() { close(); }

std::unique_ptr<UsbFtdiTransport> UsbFtdiTransport::open(const TransportUri& uri, std::chrono::milliseconds timeout) {
  if (uri.scheme != UriScheme::Usb)
    throw HostError(HostErrorKind::BadUri, uri.text + ": not a usb:// URI");
  auto impl = std::make_unique<Impl>();
  Impl& t = *impl;
  t.uri = uri;
  t.name = uri.canonical();
  const std::string id = usb_id(uri.vid, uri.pid);
  const unsigned tmo = static_cast<unsigned>(std::max<long long>(1, timeout.count()));
  t.ifnum = uri.interface == 'B' ? 1 : 0;
  t.channel = static_cast<uint8_t>(t.ifnum + 1);

  // Decide the settings before touching the device: a bad rate or mode is the URI's fault.
  ftdi::BaudSetting baud;
  if (uri.usb_mode == UsbMode::Fifo) {
    if (uri.interface != 'A')
      throw HostError(HostErrorKind::BadUri,
                      t.name + ": mode=fifo needs interface A: the FT2232H has its synchronous FIFO (FT245 style) "
                               "on channel A only");
  } else {
    try {
      baud = ftdi::ft2232h_baud(uri.baud);
    } catch (const HostError& e) {
      throw HostError(e.kind(), t.name + ": " + e.what());
    }
  }

  if (int rc = libusb_init(&t.ctx); rc != 0) {
    t.ctx = nullptr;
    throw HostError(HostErrorKind::NoDevice, t.name + ": no USB device " + id +
                                                 ": USB is unavailable on this machine (libusb_init: " +
                                                 libusb_error_name(rc) + ")");
  }

  t.find_device(id);
  t.find_endpoints(id);
  t.claim();
  t.configure(baud, tmo);
  t.inbuf.resize(static_cast<size_t>(t.packet) * kInPackets);
  t.open = true;
  return std::unique_ptr<UsbFtdiTransport>(new UsbFtdiTransport(std::move(impl)));
}

void UsbFtdiTransport::write_all(std::span<const uint8_t> data, Clock::time_point deadline) {
  Impl& t = *impl_;
  if (!t.open) throw HostError(HostErrorKind::ConnectionClosed, t.name + ": write on a closed USB device");
  size_t done = 0;
  while (done < data.size()) {
    const size_t len = std::min(kOutChunk, data.size() - done);
    int sent = 0;
    const int tmo = std::max(1, ms_until(deadline));
    const int rc = libusb_bulk_transfer(t.h, t.ep_out, const_cast<uint8_t*>(data.data() + done),
                                        static_cast<int>(len), &sent, static_cast<unsigned>(tmo));
    if (sent > 0) {
      done += static_cast<size_t>(sent);
      t.stats.bytes_out += static_cast<uint64_t>(sent);
    }
    if (rc == LIBUSB_ERROR_TIMEOUT) {
      if (done < data.size() && Clock::now() >= deadline)
        throw HostError(HostErrorKind::Timeout, t.name + ": write timed out after " + std::to_string(done) + " of " +
                                                    std::to_string(data.size()) +
                                                    " bytes (the chip's buffer stayed full: the board stopped reading)");
      continue;
    }
    if (rc != 0) t.fail_io(rc, "write");
  }
}

size_t UsbFtdiTransport::read_some(std::span<uint8_t> buf, Clock::time_point deadline) {
  Impl& t = *impl_;
  if (buf.empty()) return 0;
  if (t.pending_pos < t.pending.size()) return t.drain(buf);
  if (!t.open) throw HostError(HostErrorKind::ConnectionClosed, t.name + ": read on a closed USB device");
  // Status-only packets come back every latency-timer period while the board is quiet: keep
  // asking until data comes or the deadline passes.
  while (true) {
    const int left = ms_until(deadline);
    if (left <= 0) return 0;
    int got = 0;
    const int rc = libusb_bulk_transfer(t.h, t.ep_in, t.inbuf.data(), static_cast<int>(t.inbuf.size()), &got,
                                        static_cast<unsigned>(left));
    if (got > 0) t.strip(static_cast<size_t>(got));
    if (t.pending_pos < t.pending.size()) return t.drain(buf);
    if (rc == LIBUSB_ERROR_TIMEOUT) return 0;
    if (rc != 0) t.fail_io(rc, "read");
  }
}

void UsbFtdiTransport::close() {
  if (impl_) impl_->shutdown();
}

bool UsbFtdiTransport::is_open() const { return impl_->open; }
std::string UsbFtdiTransport::name() const { return impl_->name; }
uint32_t UsbFtdiTransport::actual_baud() const { return impl_->actual_baud; }
uint16_t UsbFtdiTransport::max_packet_size() const { return impl_->packet; }
std::string UsbFtdiTransport::serial() const { return impl_->serial; }
bool UsbFtdiTransport::kernel_driver_detached() const { return impl_->detached; }
const UsbFtdiTransport::Stats& UsbFtdiTransport::stats() const { return impl_->stats; }

}  // namespace cmnet

// usb://VID:PID[/SERIAL][?interface=A|B&baud=N&mode=uart|fifo]: a Transport that drives an
// FT2232H-style USB bridge itself over libusb-1.0 (no libftdi, no ftdi_sio): it claims the
// interface (detaching the kernel's ftdi_sio if bound, re-attaching it on close), resets the
// channel, sets the latency timer, the baud rate and 8N1 (mode=uart) or the synchronous FIFO
// bit mode (mode=fifo, interface A only), then moves bytes over the interface's bulk endpoints.
//
// Every bulk IN packet (max packet size: 512 bytes at high speed) starts with two status bytes
// (modem status, line status); they are stripped per packet, not once per transfer, and idle
// status-only packets (sent every latency-timer period) carry no data.
//
// Errors (cmnet::HostError): no matching device -> NoDevice naming VID:PID (and serial);
// permission denied -> Io with the udev rule to add; the device unplugged during I/O ->
// ConnectionClosed ("device vanished"); a write the chip does not take before the deadline ->
// Timeout; a baud rate the chip cannot make within 3 % -> BadUri.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "host/errors.h"
#include "host/transport.h"
#include "host/transport_uri.h"

namespace cmnet {

// The FTDI vendor protocol, as far as this transport uses it (and the test's fake chip answers it).
namespace ftdi {
constexpr uint8_t kRequestOut = 0x40;  // vendor, host-to-device, device recipient
constexpr uint8_t kRequestIn = 0xC0;   // vendor, device-to-host
// bRequest codes
constexpr uint8_t kSioReset = 0x00;
constexpr uint8_t kSioSetModemCtrl = 0x01;
constexpr uint8_t kSioSetFlowCtrl = 0x02;
constexpr uint8_t kSioSetBaudRate = 0x03;
constexpr uint8_t kSioSetData = 0x04;
constexpr uint8_t kSioPollModemStatus = 0x05;
constexpr uint8_t kSioSetLatencyTimer = 0x09;
constexpr uint8_t kSioGetLatencyTimer = 0x0A;
constexpr uint8_t kSioSetBitmode = 0x0B;
// wValue of kSioReset
constexpr uint16_t kResetSio = 0, kResetPurgeRx = 1, kResetPurgeTx = 2;
// wValue of kSioSetData: 8 data bits, no parity (bits 8-10), one stop bit (bits 11-12)
constexpr uint16_t kData8N1 = 0x0008;
// high byte of wIndex of kSioSetFlowCtrl
constexpr uint16_t kFlowNone = 0x0000, kFlowRtsCts = 0x0100;
// kSioSetBitmode: wValue = mode << 8 | pin mask
constexpr uint8_t kBitmodeReset = 0x00, kBitmodeSyncFifo = 0x40;
// Line status bits (second status byte of every IN packet) that mean received data was damaged.
constexpr uint8_t kLineOverrun = 0x02, kLineParity = 0x04, kLineFraming = 0x08, kLineBreak = 0x10;
constexpr uint8_t kLineErrorMask = kLineOverrun | kLineParity | kLineFraming | kLineBreak;
constexpr int kStatusBytes = 2;

// Latency timers this transport sets (ms): a short one keeps register round trips fast.
constexpr uint8_t kUartLatencyMs = 1;
constexpr uint8_t kFifoLatencyMs = 2;

// The FT2232H baud generator: divisor n + k/8 (n 14 bits, k 3 bits) of 12 MHz (120 MHz / 10,
// divisor bit 17 set) or of 3 MHz (48 MHz / 16). n + k/8 is 1, 1.5 or at least 2.
constexpr uint32_t kClockHigh = 12'000'000;
constexpr uint32_t kClockLow = 3'000'000;
constexpr double kMaxBaudError = 0.03;

struct BaudSetting {
  uint32_t requested = 0;
  uint32_t actual = 0;   // the rate the chip will run at
  uint32_t divisor = 0;  // encoded: bits 0-13 integer part, 14-16 fraction code, 17 = 12 MHz clock
  double error = 0;      // (actual - requested) / requested
  uint16_t value() const { return static_cast<uint16_t>(divisor & 0xFFFF); }
  // wIndex: divisor bits 16-17 in the high byte, the channel (1 = A, 2 = B) in the low byte.
  uint16_t index(uint8_t channel) const {
    return static_cast<uint16_t>(((divisor >> 16) & 0x3) << 8 | channel);
  }
};

// The setting nearest to `baud`. Throws HostError(BadUri) when it is more than 3 % off, naming
// the nearest rates the chip can make.
BaudSetting ft2232h_baud(uint32_t baud);
// The baud rate an encoded divisor gives (the inverse of ft2232h_baud; for the test's fake chip).
uint32_t ft2232h_baud_from_divisor(uint32_t divisor);
}  // namespace ftdi

class UsbFtdiTransport : public Transport {
 public:
  struct Stats {
    uint64_t in_transfers = 0;        // bulk IN transfers that returned
    uint64_t in_packets = 0;          // packets in them
    uint64_t status_only_packets = 0; // packets that carried only the two status bytes
    uint64_t bytes_in = 0;            // data bytes after stripping
    uint64_t bytes_out = 0;
    uint64_t line_errors = 0;         // packets whose line status flagged overrun/parity/framing/break
    uint8_t last_modem_status = 0, last_line_status = 0;
  };

  // Opens the device the URI names (uri.scheme must be Usb). `timeout` bounds each control
  // request of the setup. Throws HostError as described at the top of this file.
  static std::unique_ptr<UsbFtdiTransport> open(const TransportUri& uri,
                                                std::chrono::milliseconds timeout = std::chrono::milliseconds(2000));
  ~UsbFtdiTransport() override;

  void write_all(std::span<const uint8_t> data, Clock::time_point deadline) override;
  size_t read_some(std::span<uint8_t> buf, Clock::time_point deadline) override;
  void close() override;
  bool is_open() const override;
  std::string name() const override;

  uint32_t actual_baud() const;       // mode=uart: the rate set (may differ from the URI's by < 3 %); fifo: 0
  uint16_t max_packet_size() const;   // of the IN endpoint (512 at high speed, 64 at full speed)
  std::string serial() const;         // the device's serial number ("" if it has none)
  bool kernel_driver_detached() const;
  const Stats& stats() const;

 private:
  struct Impl;
  explicit UsbFtdiTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

namespace detail {
// The HostError for a libusb error code `rc` met by `name` while doing `during`: NO_DEVICE ->
// ConnectionClosed (device vanished), ACCESS -> Io with the udev hint, TIMEOUT -> Timeout,
// everything else -> Io with libusb's name for the error.
HostError usb_error(const std::string& name, int rc, const std::string& during, uint16_t vid, uint16_t pid);
}  // namespace detail

}  // namespace cmnet

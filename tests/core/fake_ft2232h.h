// A fake FT2232H for tests, in user space: a umockdev testbed holds a USB device 0403:6010 with
// the chip's descriptors (two interfaces, A: bulk 0x02 OUT / 0x81 IN, B: 0x04 OUT / 0x83 IN,
// 512-byte packets, high speed), and an ioctl handler answers libusb's usbdevfs ioctls for it:
// claiming, the kernel-driver dance (ftdi_sio is "bound" at first), control transfers (string
// descriptors; the FTDI vendor requests, recorded for the test), bulk OUT (bytes go to the
// board) and bulk IN (bytes from the board, each packet of at most 512 bytes starting with the
// two status bytes; the chip's latency timer decides when a short packet goes out, and an idle
// chip sends status-only packets). Cancelled (timed-out) transfers are handed back as the
// kernel does.
//
// The byte stream behind the chosen interface is either the test itself (push_in / take_out)
// or a TCP connection to a board: bridge = "sim://127.0.0.1:PORT" (Cm1SimBoard::uri()).
//
// The process must run under umockdev-wrapper (LD_PRELOAD of libumockdev-preload); check
// fake_usb_available() first. One fake at a time per process (the testbed is process-wide).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace cmnet::testing {

struct FtdiVendorRequest {
  uint8_t request_type = 0;
  uint8_t request = 0;
  uint16_t value = 0;
  uint16_t index = 0;
  uint16_t length = 0;
};

struct FakeFt2232hOptions {
  uint16_t vid = 0x0403, pid = 0x6010;
  std::string serial = "CMNET0001";
  int bus = 1, address = 2;
  bool driver_bound = true;   // ftdi_sio holds both interfaces at first, as on a stock Linux
  char fifo_interface = 'A';  // the interface whose endpoints carry the byte stream
  std::string bridge;         // "" (the test feeds it) or "sim://127.0.0.1:PORT"
  uint8_t modem_status = 0x32, line_status = 0x60;  // the two status bytes of every IN packet
};

struct FakeFt2232hStats {
  uint64_t out_urbs = 0, bytes_from_host = 0;
  uint64_t in_urbs = 0;              // bulk IN URBs completed with data or status
  uint64_t in_packets = 0;
  uint64_t status_only_packets = 0;  // packets with the two status bytes and nothing else
  uint64_t multi_packet_urbs = 0;    // IN URBs that carried more than one packet
  uint64_t bytes_to_host = 0;        // data bytes (without status bytes)
  uint64_t discarded_urbs = 0;       // URBs the host cancelled (timeouts)
  uint64_t control_urbs = 0;
};

// True when the process runs under umockdev-wrapper, so a fake device can be created.
bool fake_usb_available();

class FakeFt2232h {
 public:
  explicit FakeFt2232h(FakeFt2232hOptions opt = {});
  ~FakeFt2232h();
  FakeFt2232h(const FakeFt2232h&) = delete;
  FakeFt2232h& operator=(const FakeFt2232h&) = delete;

  const FakeFt2232hOptions& options() const;
  std::string syspath() const;
  std::string devnode() const;  // /dev/bus/usb/BBB/DDD

  // Test-fed stream (no bridge): bytes "the board sent" (go to the host through bulk IN), and
  // the bytes the host wrote (bulk OUT) so far.
  void push_in(std::span<const uint8_t> bytes);
  std::vector<uint8_t> take_out();

  std::vector<FtdiVendorRequest> vendor_requests() const;
  void clear_vendor_requests();
  bool claimed(int ifnum) const;       // interface 0 (A) or 1 (B) claimed by a client
  bool driver_bound(int ifnum) const;  // ftdi_sio (pretend) bound
  int latency_ms(int ifnum) const;
  FakeFt2232hStats stats() const;

  // The device vanishes: URBs in flight complete with -ESHUTDOWN, further ioctls fail with
  // ENODEV, and the device leaves the testbed (a new open finds nothing).
  void unplug();
  bool unplugged() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cmnet::testing

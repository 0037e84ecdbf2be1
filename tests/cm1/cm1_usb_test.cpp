// The usb:// transport (host/usb_ftdi_transport.*) against a fake FT2232H (tests/fake_ft2232h.*):
// libusb talks to a umockdev testbed whose ioctl handler plays the chip. Checked: the FTDI
// vendor requests (reset, purge, latency, bit mode, 8N1, flow control, baud divisor), the
// baud divisor arithmetic, status bytes stripped per packet over multi-packet transfers and idle
// status-only packets, registers and bursts through BoardClient to the simulated CM-1 board
// (host driver -> libusb -> fake FT2232H -> TCP -> Verilator board), the CM-1 end-to-end run
// against the reference model, an unplug mid-run, and a URI naming no device.
//
// Runs under umockdev-wrapper (tests/usb.cmake); without it the USB tests skip.
#include <gtest/gtest.h>
#include <libusb.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <thread>

#include "host/board_client.h"
#include "host/cm1/cm1_board.h"
#include "host/errors.h"
#include "host/transport_uri.h"
#include "host/usb_ftdi_transport.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_sim_board.h"
#include "sim/cm1/cm1_traffic.h"
#include "tests/cm1/cm1_run_check.h"
#include "tests/core/fake_ft2232h.h"

namespace cmnet {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using testing::FakeFt2232h;
using testing::FakeFt2232hOptions;
using testing::FtdiVendorRequest;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

template <typename F>
HostError expect_host_error(F&& f) {
  try {
    f();
  } catch (const HostError& e) {
    return e;
  }
  ADD_FAILURE() << "no HostError thrown";
  return HostError(HostErrorKind::Io, "");
}

std::unique_ptr<UsbFtdiTransport> open_usb(const std::string& uri) {
  std::unique_ptr<Transport> t = open_transport(uri);
  auto* usb = dynamic_cast<UsbFtdiTransport*>(t.get());
  if (!usb) throw std::runtime_error(uri + " did not open a UsbFtdiTransport");
  t.release();
  return std::unique_ptr<UsbFtdiTransport>(usb);
}

std::vector<uint8_t> read_exactly(Transport& t, size_t n, std::chrono::milliseconds within, size_t chunk = 100) {
  std::vector<uint8_t> out;
  std::vector<uint8_t> buf(chunk);
  const auto deadline = Clock::now() + within;
  while (out.size() < n && Clock::now() < deadline) {
    const size_t got = t.read_some(std::span<uint8_t>(buf.data(), std::min(chunk, n - out.size())), deadline);
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(got));
  }
  return out;
}

std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed;
  for (auto& b : v) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  return v;
}

// ------------------------------------------------------------------ no USB needed

TEST(Ft2232hBaud, DivisorsOfCommonRates) {
  struct Want {
    uint32_t baud, actual;
    uint16_t value, index_a;
  };
  // wIndex high byte carries divisor bits 16-17 (bit 17: the 12 MHz clock); low byte: channel.
  const Want wants[] = {
      {12000000, 12000000, 0x0000, 0x0201},  // 12 MHz / 1
      {8000000, 8000000, 0x0001, 0x0201},    // / 1.5
      {6000000, 6000000, 0x0002, 0x0201},    // / 2
      {3000000, 3000000, 0x0004, 0x0201},    // / 4
      {2000000, 2000000, 0x0006, 0x0201},
      {921600, 923077, 0x000D, 0x0201},      // / 13 (+0.16 %)
      {115200, 115246, 0xC068, 0x0201},      // / 104.125: fraction 1/8 is code 3 (bits 14-16)
      {9600, 9600, 0x04E2, 0x0201},          // / 1250
      {1200, 1200, 0x2710, 0x0201},          // 12 MHz / 10000 still fits the 14 bits
      {300, 300, 0x2710, 0x0001},            // 12 MHz / 40000 does not: 3 MHz / 10000
  };
  for (const Want& w : wants) {
    const ftdi::BaudSetting s = ftdi::ft2232h_baud(w.baud);
    EXPECT_EQ(s.actual, w.actual) << w.baud;
    EXPECT_EQ(s.value(), w.value) << w.baud;
    EXPECT_EQ(s.index(1), w.index_a) << w.baud;
    EXPECT_EQ(s.index(2), (w.index_a & 0xFF00) | 2) << w.baud;
    EXPECT_EQ(ftdi::ft2232h_baud_from_divisor(s.divisor), s.actual) << w.baud;
  }
  // Fractions: 12 MHz / 104.5 (code 1 = 1/2), / 2.25 (code 2 = 1/4), / 2.375 (code 4 = 3/8).
  EXPECT_EQ(ftdi::ft2232h_baud(114833).value(), 0x4068);
  EXPECT_EQ(ftdi::ft2232h_baud(5333333).value(), 0x8002);
  const ftdi::BaudSetting f38 = ftdi::ft2232h_baud(5052632);
  EXPECT_EQ(f38.divisor, 1u << 17 | 4u << 14 | 2u);  // code 4 reaches bit 16: wIndex 0x03xx
  EXPECT_EQ(f38.value(), 0x0002);
  EXPECT_EQ(f38.index(1), 0x0301);
  // The slowest rate: 3 MHz / 16383.875 = 183.1 baud; the divisor needs bit 16 (fraction code 7).
  const ftdi::BaudSetting slow = ftdi::ft2232h_baud(183);
  EXPECT_EQ(slow.actual, 183u);
  EXPECT_EQ(slow.value(), 0xFFFF);
  EXPECT_EQ(slow.index(1), 0x0101);
}

TEST(Ft2232hBaud, EveryRateIsWithinThreePercentOrRefused) {
  for (uint32_t b = 150; b <= 12000000; b = b * 21 / 20 + 1) {
    try {
      const ftdi::BaudSetting s = ftdi::ft2232h_baud(b);
      EXPECT_LE(std::abs(s.error), 0.03) << b;
      EXPECT_EQ(ftdi::ft2232h_baud_from_divisor(s.divisor), s.actual) << b;
      EXPECT_NEAR(static_cast<double>(s.actual), b * (1 + s.error), 1.0) << b;
    } catch (const HostError& e) {
      EXPECT_EQ(e.kind(), HostErrorKind::BadUri) << e.what();
      // Only rates below 183 baud and the gaps between the fastest divisors (12 MHz / 1, 1.5,
      // 2, 2.125) are unreachable.
      EXPECT_TRUE(b < 183 || b > 5800000) << b << ": " << e.what();
    }
  }
}

TEST(Ft2232hBaud, UnreachableRatesAreClearErrors) {
  HostError e = expect_host_error([] { ftdi::ft2232h_baud(10000000); });
  EXPECT_EQ(e.kind(), HostErrorKind::BadUri);
  EXPECT_TRUE(contains(e.what(), "cannot make 10000000 baud within 3%")) << e.what();
  EXPECT_TRUE(contains(e.what(), "8000000 (-20.0%)")) << e.what();
  EXPECT_TRUE(contains(e.what(), "12000000 (+20.0%)")) << e.what();
  e = expect_host_error([] { ftdi::ft2232h_baud(7000000); });
  EXPECT_TRUE(contains(e.what(), "6000000") && contains(e.what(), "8000000")) << e.what();
  e = expect_host_error([] { ftdi::ft2232h_baud(100); });
  EXPECT_TRUE(contains(e.what(), "183 (+83.")) << e.what();
  // Through the URI: refused before any device is touched.
  e = expect_host_error([] { open_transport("usb://0403:6010?baud=10000000"); });
  EXPECT_EQ(e.kind(), HostErrorKind::BadUri) << e.what();
  EXPECT_TRUE(contains(e.what(), "usb://0403:6010?interface=A&baud=10000000&mode=uart: the FT2232H cannot make"))
      << e.what();
  e = expect_host_error([] { open_transport("usb://0403:6010?interface=B&mode=fifo"); });
  EXPECT_EQ(e.kind(), HostErrorKind::BadUri) << e.what();
  EXPECT_TRUE(contains(e.what(), "mode=fifo needs interface A")) << e.what();
}

TEST(UsbErrors, MappedToHostErrorKinds) {
  const std::string name = "usb://0403:6010?interface=A&baud=115200&mode=uart";
  HostError e = detail::usb_error(name, LIBUSB_ERROR_ACCESS, "opening it", 0x0403, 0x6010);
  EXPECT_EQ(e.kind(), HostErrorKind::Io);
  EXPECT_TRUE(contains(e.what(), "permission denied opening it on USB device 0403:6010")) << e.what();
  EXPECT_TRUE(contains(e.what(), "udev rule")) << e.what();
  EXPECT_TRUE(contains(e.what(), "ATTRS{idVendor}==\"0403\", ATTRS{idProduct}==\"6010\"")) << e.what();
  e = detail::usb_error(name, LIBUSB_ERROR_NO_DEVICE, "read", 0x0403, 0x6010);
  EXPECT_EQ(e.kind(), HostErrorKind::ConnectionClosed);
  EXPECT_TRUE(contains(e.what(), "0403:6010 vanished")) << e.what();
  EXPECT_EQ(detail::usb_error(name, LIBUSB_ERROR_TIMEOUT, "x", 1, 2).kind(), HostErrorKind::Timeout);
  EXPECT_EQ(detail::usb_error(name, LIBUSB_ERROR_BUSY, "x", 1, 2).kind(), HostErrorKind::Io);
  EXPECT_EQ(detail::usb_error(name, LIBUSB_ERROR_PIPE, "x", 1, 2).kind(), HostErrorKind::Io);
}

// ------------------------------------------------------------------ the fake chip

class UsbFake : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::fake_usb_available()) GTEST_SKIP() << "not running under umockdev-wrapper";
  }
};

bool same(const FtdiVendorRequest& r, uint8_t req, uint16_t value, uint16_t index) {
  return r.request_type == ftdi::kRequestOut && r.request == req && r.value == value && r.index == index &&
         r.length == 0;
}

std::string describe(const std::vector<FtdiVendorRequest>& rs) {
  std::string s;
  char b[64];
  for (const auto& r : rs) {
    std::snprintf(b, sizeof b, " [%02x %02x v=%04x i=%04x]", r.request_type, r.request, r.value, r.index);
    s += b;
  }
  return s;
}

TEST_F(UsbFake, UartSetupSendsTheRightVendorRequests) {
  FakeFt2232h fake;
  {
    auto t = open_usb("usb://0403:6010?baud=115200");
    EXPECT_TRUE(t->is_open());
    EXPECT_EQ(t->serial(), "CMNET0001");
    EXPECT_EQ(t->max_packet_size(), 512);
    EXPECT_EQ(t->actual_baud(), 115246u);
    EXPECT_TRUE(t->kernel_driver_detached());
    EXPECT_TRUE(fake.claimed(0));
    EXPECT_FALSE(fake.driver_bound(0));  // ftdi_sio detached from A...
    EXPECT_TRUE(fake.driver_bound(1));   // ...and left on B
    EXPECT_EQ(fake.latency_ms(0), 1);
    const auto rs = fake.vendor_requests();
    ASSERT_EQ(rs.size(), 8u) << describe(rs);
    EXPECT_TRUE(same(rs[0], ftdi::kSioReset, 0, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[1], ftdi::kSioReset, 1, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[2], ftdi::kSioReset, 2, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[3], ftdi::kSioSetLatencyTimer, 1, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[4], ftdi::kSioSetBitmode, 0x0000, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[5], ftdi::kSioSetData, 0x0008, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[6], ftdi::kSioSetFlowCtrl, 0, 0x0001)) << describe(rs);
    EXPECT_TRUE(same(rs[7], ftdi::kSioSetBaudRate, 0xC068, 0x0201)) << describe(rs);
  }
  // Closing releases the interface and gives it back to ftdi_sio.
  EXPECT_FALSE(fake.claimed(0));
  EXPECT_TRUE(fake.driver_bound(0));
}

TEST_F(UsbFake, InterfaceBAndFifoMode) {
  {
    FakeFt2232hOptions o;
    o.fifo_interface = 'B';
    FakeFt2232h fake(o);
    auto t = open_usb("usb://0403:6010/CMNET0001?interface=B&baud=3000000");
    EXPECT_TRUE(fake.claimed(1));
    EXPECT_FALSE(fake.claimed(0));
    const auto rs = fake.vendor_requests();
    ASSERT_EQ(rs.size(), 8u) << describe(rs);
    for (const auto& r : rs) EXPECT_EQ(r.index & 0xFF, 2) << describe(rs);
    EXPECT_TRUE(same(rs[7], ftdi::kSioSetBaudRate, 0x0004, 0x0202)) << describe(rs);
    // Bytes move over B's endpoints (0x04 OUT, 0x83 IN).
    const std::vector<uint8_t> out = {1, 2, 3, 4, 5};
    t->write_all(out, Clock::now() + 1s);
    EXPECT_EQ(fake.take_out(), out);
    const std::vector<uint8_t> in = {9, 8, 7};
    fake.push_in(in);
    EXPECT_EQ(read_exactly(*t, in.size(), 2s), in);
  }
  {
    FakeFt2232h fake;
    auto t = open_usb("usb://0403:6010?mode=fifo");
    EXPECT_EQ(t->actual_baud(), 0u);
    EXPECT_EQ(fake.latency_ms(0), 2);
    const auto rs = fake.vendor_requests();
    ASSERT_EQ(rs.size(), 7u) << describe(rs);
    EXPECT_TRUE(same(rs[3], ftdi::kSioSetLatencyTimer, 2, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[4], ftdi::kSioSetBitmode, 0x00FF, 1)) << describe(rs);
    EXPECT_TRUE(same(rs[5], ftdi::kSioSetBitmode, 0x40FF, 1)) << describe(rs);  // synchronous FIFO
    EXPECT_TRUE(same(rs[6], ftdi::kSioSetFlowCtrl, 0, 0x0101)) << describe(rs);  // RTS/CTS
    for (const auto& r : rs) EXPECT_NE(r.request, ftdi::kSioSetBaudRate) << describe(rs);
  }
}

TEST_F(UsbFake, StatusBytesAreStrippedFromEveryPacket) {
  FakeFt2232hOptions o;
  o.modem_status = 0xA5;  // distinctive: they must never show up in the data
  o.line_status = 0x60;
  FakeFt2232h fake(o);
  auto t = open_usb("usb://0403:6010?baud=3000000");
  // Idle: the chip answers with status-only packets; read_some waits them out until its deadline.
  std::vector<uint8_t> buf(64);
  const auto t0 = Clock::now();
  EXPECT_EQ(t->read_some(buf, Clock::now() + 30ms), 0u);
  EXPECT_GE(Clock::now() - t0, 30ms);  // the deadline was waited out (a lower bound: safe)
  // One comes per latency period (1 ms); a loaded machine may not get one into those 30 ms, so
  // idle reads go on until one has (the 30 s only ends the wait when they never come).
  const auto give_up = Clock::now() + 30s;
  while (t->stats().status_only_packets == 0 && Clock::now() < give_up)
    ASSERT_EQ(t->read_some(buf, Clock::now() + 30ms), 0u);
  EXPECT_GT(t->stats().status_only_packets, 0u);
  EXPECT_GT(fake.stats().status_only_packets, 0u);
  // Sizes around the 510 data bytes of a packet, and big ones spanning many packets of one
  // transfer (16 KiB: 32 packets), read through a small buffer.
  uint32_t seed = 1;
  for (size_t n : {1u, 509u, 510u, 511u, 1020u, 1021u, 5000u, 16320u, 40000u}) {
    const std::vector<uint8_t> data = pattern(n, seed++);
    fake.push_in(data);
    const std::vector<uint8_t> got = read_exactly(*t, n, 5s, 100);
    ASSERT_EQ(got.size(), n) << n;
    EXPECT_TRUE(got == data) << "data differ for " << n << " bytes";
  }
  const auto fs = fake.stats();
  EXPECT_GT(fs.multi_packet_urbs, 0u);
  EXPECT_EQ(t->stats().in_packets, fs.in_packets);
  EXPECT_EQ(t->stats().bytes_in, fs.bytes_to_host);
  EXPECT_EQ(t->stats().last_modem_status, 0xA5);
  EXPECT_EQ(t->stats().line_errors, 0u);
  EXPECT_GT(t->stats().in_packets, t->stats().in_transfers);
  // Writes go out whole (here: more than one 64 KiB bulk transfer).
  const std::vector<uint8_t> big = pattern(150000, 99);
  t->write_all(big, Clock::now() + 5s);
  EXPECT_TRUE(fake.take_out() == big);
}

TEST_F(UsbFake, MissingDeviceIsNoDeviceNamingVidPid) {
  FakeFt2232h fake;
  HostError e = expect_host_error([] { open_transport("usb://0403:6011"); });
  EXPECT_EQ(e.kind(), HostErrorKind::NoDevice) << e.what();
  EXPECT_TRUE(contains(e.what(), "no USB device 0403:6011 found (1 USB device present)")) << e.what();
  std::printf("  %s\n", e.what());
  e = expect_host_error([] { open_transport("usb://0403:6010/NOPE"); });
  EXPECT_EQ(e.kind(), HostErrorKind::NoDevice) << e.what();
  EXPECT_TRUE(contains(e.what(), "no USB device 0403:6010 with serial NOPE found")) << e.what();
  EXPECT_TRUE(contains(e.what(), "0403:6010 with serial CMNET0001")) << e.what();
  std::printf("  %s\n", e.what());
}

TEST_F(UsbFake, NoDeviceAtAllIsNoDevice) {
  HostError e = expect_host_error([] { open_transport("usb://0403:fffe"); });
  EXPECT_EQ(e.kind(), HostErrorKind::NoDevice) << e.what();
  EXPECT_TRUE(contains(e.what(), "no USB device 0403:fffe")) << e.what();
}

// ------------------------------------------------------------------ the simulated CM-1 board

Cm1Config board_config() {
  Cm1Config cfg;
  cfg.name = "board-test";  // the same board as cm1_board_test: the model is cached once
  cfg.cm1.cube_dims = 3;
  cfg.cm1.procs_per_chip = 4;
  cfg.cm1.data_bits = 8;
  cfg.cm1.vp_bits = 1;
  cfg.cm1.queue_depth = 2;
  return cfg;
}

// A reply that must come: long enough never to time out on a loaded machine (ASan, the UART
// simulated bit by bit, a 256-word load); it only ends a wait when something is broken.
BoardClientOptions client_options() {
  BoardClientOptions o;
  o.timeout = 10000ms;
  return o;
}

constexpr const char* kUri = "usb://0403:6010/CMNET0001?interface=A&baud=3000000&mode=uart";

class UsbBoard : public UsbFake {
 protected:
  // The board starts before any testbed exists, so its process runs outside the mock.
  static void SetUpTestSuite() {
    if (testing::fake_usb_available()) sim_ = new Cm1SimBoard(board_config());
  }
  static void TearDownTestSuite() {
    delete sim_;
    sim_ = nullptr;
  }
  FakeFt2232hOptions bridged() const {
    FakeFt2232hOptions o;
    o.bridge = sim_->uri();
    return o;
  }
  static Cm1SimBoard* sim_;
};
Cm1SimBoard* UsbBoard::sim_ = nullptr;

TEST_F(UsbBoard, RegistersAndBurstsThroughBoardClient) {
  FakeFt2232h fake(bridged());
  BoardClient c(open_transport(kUri), client_options());
  EXPECT_EQ(c.read32(0x0), cm1reg::kBoardType);
  EXPECT_EQ(c.read32(0x100), cm1reg::kCm1Type);
  const uint32_t ctl = 0x100 + cm1reg::kControl;
  c.write32(ctl, 0x4);  // eject_one, no start
  EXPECT_EQ(c.read32(ctl) & 0x4, 0x4u);
  c.write32(ctl, 0x0);
  EXPECT_EQ(c.read32(ctl) & 0x4, 0x0u);
  c.burst_write(ctl, std::vector<uint32_t>{0x4, 0x0, 0x4}, /*fifo=*/true);
  EXPECT_EQ(c.read32(ctl) & 0x4, 0x4u);
  c.write32(ctl, 0x2);  // clear
  const auto params = c.burst_read(0x100 + cm1reg::kC, 9);
  EXPECT_EQ(params[0], 3u);  // C
  EXPECT_EQ(params[2], 4u);  // P
  EXPECT_EQ(params[7], 2u);  // queue depth
  // 32 processors x 4 words: a burst longer than one frame's payload is split.
  const auto rx = c.burst_read(cm1reg::kReceptions, 128);
  EXPECT_EQ(rx.size(), 128u);
  EXPECT_EQ(std::accumulate(rx.begin(), rx.end(), uint64_t{0}), 0u);
  EXPECT_EQ(c.stats().retries, 0u);
  EXPECT_EQ(c.stats().timeouts, 0u);
  EXPECT_GT(fake.stats().bytes_to_host, 0u);
  EXPECT_GT(fake.stats().status_only_packets, 0u);
}

TEST_F(UsbBoard, Cm1RunOverUsbEqualsTheModel) {
  FakeFt2232h fake(bridged());
  BoardClient c(open_transport(kUri), client_options());
  Cm1Board b(c);
  const Cm1Params& p = board_config().cm1;
  EXPECT_NO_THROW(b.check_matches(p));
  EXPECT_EQ(b.info().config_id, config_id(board_config()));
  int runs = 0;
  for (const auto& [mode, pattern_name] : {std::pair{EjectMode::kOrCombine, "permutation"},
                                           std::pair{EjectMode::kOnePerPetit, "hot-spot"}}) {
    const Traffic t = make_pattern(pattern_name, p, 40 + static_cast<uint64_t>(runs), 2);
    load_run_and_check(b, p, t, mode, std::string("usb:// ") + pattern_name);
    ++runs;
  }
  EXPECT_EQ(c.stats().retries, 0u);
}

TEST_F(UsbBoard, UnplugMidRunIsConnectionClosedNotATimeout) {
  FakeFt2232h fake(bridged());
  BoardClientOptions o = client_options();
  o.retries = 1;
  BoardClient c(open_transport(kUri), o);
  Cm1Board b(c);
  b.clear();
  b.load(make_pattern("hot-spot", board_config().cm1, 5, 2));
  b.start(EjectMode::kOnePerPetit);
  // Unplug while status() is being polled: once a few polls have been answered (not after a
  // fixed sleep, which a loaded machine could spend before the first poll).
  std::atomic<int> polls{0};
  std::atomic<bool> done{false};
  std::atomic<bool> pulled{false};
  Clock::time_point t_unplug;
  std::thread puller([&] {
    const auto give_up = Clock::now() + 60s;
    while (polls < 3 && !done && Clock::now() < give_up) std::this_thread::sleep_for(1ms);
    t_unplug = Clock::now();
    fake.unplug();
    pulled = true;
  });
  HostError err(HostErrorKind::Io, "none");
  bool thrown = false;
  const auto limit = Clock::now() + 120s;  // hang detector only: the unplug ends the loop
  try {
    while (Clock::now() < limit) {
      b.status();
      ++polls;
    }
  } catch (const HostError& e) {
    err = e;
    thrown = true;
  }
  const auto t_error = Clock::now();
  done = true;
  puller.join();
  ASSERT_TRUE(thrown) << "status() kept answering after the unplug";
  ASSERT_TRUE(pulled);
  EXPECT_GE(polls.load(), 3) << "status() failed before the unplug: " << err.what();
  EXPECT_GE(t_error, t_unplug);
  // Seen as the device vanishing, on the call in flight, not waited out as a reply timeout
  // (a 10 s one here: a timeout would also have shown as kind Timeout after the retry).
  EXPECT_EQ(err.kind(), HostErrorKind::ConnectionClosed) << err.what();
  EXPECT_TRUE(contains(err.what(), "0403:6010 vanished")) << err.what();
  EXPECT_EQ(c.stats().timeouts, 0u);
  EXPECT_EQ(c.stats().retries, 0u);
  // The time it took, as a figure (not asserted: it depends on the machine and its load).
  std::printf("  unplug -> %s after %.1f ms: %s\n", host_error_kind_name(err.kind()),
              std::chrono::duration<double, std::milli>(t_error - t_unplug).count(), err.what());
  EXPECT_FALSE(c.transport().is_open());
  // Later calls fail at once: refused before anything is sent, so nothing can wait on a reply.
  const BoardClientStats before = c.stats();
  const HostError later = expect_host_error([&] { c.read32(0); });
  EXPECT_EQ(later.kind(), HostErrorKind::ConnectionClosed) << later.what();
  EXPECT_TRUE(contains(later.what(), "connection is closed")) << later.what();
  EXPECT_EQ(c.stats().requests, before.requests) << "a request went out on the vanished device";
  EXPECT_EQ(c.stats().timeouts, before.timeouts);
  // And the device is gone for a new open too.
  HostError e = expect_host_error([] { open_transport(kUri); });
  EXPECT_EQ(e.kind(), HostErrorKind::NoDevice) << e.what();
  EXPECT_TRUE(contains(e.what(), "no USB device 0403:6010 with serial CMNET0001 found")) << e.what();
}

}  // namespace
}  // namespace cmnet

// The PCIe register access (host/pcie_regs.h) and the RegisterPort seam (host/register_port.h)
// that lets Cm1Board run over it. This machine has no PCIe card, no vfio, no /dev/mem and no UIO,
// so regular files in a temp dir stand in for the devices:
//   /dev/xdma0_user            a file read and written with pread/pwrite at the register offset
//   /dev/xdma0_h2c_0, _c2h_0   files written/read at the card address (dma_base + addr)
//   .../resource0              a file mmap'ed MAP_SHARED (its size is the BAR size)
//   /sys/bus/pci/devices/BDF   a directory tree (resourceN files, xdma/xdmaN_user entries)
//
// WHAT THESE TESTS DO NOT COVER (needs a real card; nothing here can stand in for it):
//   - The XDMA driver's semantics: that the user device does one 32-bit ioread32/iowrite32 per
//     4-byte pread/pwrite at the file offset, that the h2c/c2h devices take the file offset as the
//     AXI-MM card address, their alignment rules, timeouts and behaviour on a failed transfer
//     (here a short transfer is simply reported as Io, ETIMEDOUT as Timeout), whether the engine's
//     address-alignment check accepts the page-offset buffers, and which BAR the driver calls
//     "user". Streaming (AXI-ST) engines ignore the file offset: only AXI-MM designs fit.
//   - That the design maps the register block on the DMA's AXI-MM bus at dma_base (bursts of
//     >= dma_min_words words rely on it; with dma_min_words = 0 nothing does).
//   - BAR mmap of a real device: uncached mapping of resourceN, that volatile 32-bit loads/stores
//     become single 32-bit TLPs, posted-write ordering, kernel lockdown refusing the mmap, and
//     permission errors as a non-root user (the tests run as root here; the EACCES message is
//     checked on a read-only sysfs attribute when one is available).
//   - Interrupts: none are used (Cm1Board polls STATUS), so there is nothing to test, on a card
//     or here.
//   - Endianness: host and files are little-endian here, so the le32 conversions of DMA buffers
//     and BAR words are no-ops; a big-endian host is untested.
//   - The CM-1 logic itself: a file cannot run the network, consume LOAD words or count. The
//     "device model" tests below check only that Cm1Board's discovery, status, counters,
//     receptions and control writes read and write the right offsets of a static register image
//     (laid out as hw/cm1/cm1_host_regs.v documents it), and that load()'s taken/dropped check rejects
//     a device that does not count the words. The CM-1 behaviour over a register link is covered
//     by tests/cm1/cm1_board_test.cpp (simulated board over sim://).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <type_traits>

#include "host/board_client.h"
#include "host/cm1/cm1_board.h"
#include "host/errors.h"
#include "host/pcie_regs.h"
#include "gen/core/protocol.h"
#include "host/register_port.h"
#include "host/transport_uri.h"

namespace fs = std::filesystem;
using namespace cmnet;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

template <typename F>
HostError expect_host_error(HostErrorKind kind, F&& f) {
  try {
    f();
  } catch (const HostError& e) {
    EXPECT_EQ(e.kind(), kind) << "got " << host_error_kind_name(e.kind()) << ": " << e.what();
    return e;
  }
  ADD_FAILURE() << "no HostError (" << host_error_kind_name(kind) << ") thrown";
  return HostError(kind, "");
}

// A fresh directory, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "cmnet-pcie-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& rel) const { return (path_ / rel).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// A file of `size` zero bytes (parents created).
void make_file(const std::string& path, size_t size) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.seekp(0);
  if (size) {
    f.seekp(static_cast<std::streamoff>(size - 1));
    f.put('\0');
  }
}

// Little-endian words at a byte offset of a file.
void poke(const std::string& path, uint64_t off, std::initializer_list<uint32_t> words) {
  std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(off));
  for (uint32_t w : words) {
    const char b[4] = {char(w), char(w >> 8), char(w >> 16), char(w >> 24)};
    f.write(b, 4);
  }
}
void poke(const std::string& path, uint64_t off, const std::vector<uint32_t>& words) {
  std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(off));
  for (uint32_t w : words) {
    const char b[4] = {char(w), char(w >> 8), char(w >> 16), char(w >> 24)};
    f.write(b, 4);
  }
}
std::vector<uint32_t> peek(const std::string& path, uint64_t off, size_t n) {
  std::ifstream f(path, std::ios::binary);
  f.seekg(static_cast<std::streamoff>(off));
  std::vector<uint32_t> out;
  for (size_t i = 0; i < n; ++i) {
    unsigned char b[4] = {};
    f.read(reinterpret_cast<char*>(b), 4);
    out.push_back(b[0] | b[1] << 8 | b[2] << 16 | static_cast<uint32_t>(b[3]) << 24);
  }
  return out;
}
uint32_t peek1(const std::string& path, uint64_t off) { return peek(path, off, 1)[0]; }

std::vector<uint32_t> iota_words(size_t n, uint32_t first) {
  std::vector<uint32_t> w(n);
  for (size_t i = 0; i < n; ++i) w[i] = first + static_cast<uint32_t>(i) * 0x01010101u;
  return w;
}

void expect_bad_address(const HostError& e, const std::vector<std::string>& parts) {
  EXPECT_EQ(e.status(), static_cast<uint8_t>(proto::Status::BadAddress)) << e.what();
  for (const auto& p : parts) EXPECT_TRUE(contains(e.what(), p)) << "missing '" << p << "' in: " << e.what();
}

// The XDMA device set in a temp dir: user 64 KiB, DMA files empty.
struct XdmaFiles {
  TempDir dir;
  XdmaDevices devs;
  explicit XdmaFiles(size_t user_size = 0x10000) {
    devs = XdmaDevices::instance(0, dir / "dev");
    make_file(devs.user, user_size);
    make_file(devs.h2c, 0);
    make_file(devs.c2h, 0);
  }
};

// Records every single-register access, in order (the loops under bursts and FIFO bursts).
template <typename Base>
class Recording : public Base {
 public:
  using Base::Base;
  struct Access {
    bool write;
    uint32_t addr, value;
    bool operator==(const Access&) const = default;
  };
  std::vector<Access> log;

 protected:
  uint32_t do_read32(uint32_t addr) override {
    const uint32_t v = Base::do_read32(addr);
    log.push_back({false, addr, v});
    return v;
  }
  void do_write32(uint32_t addr, uint32_t value) override {
    log.push_back({true, addr, value});
    Base::do_write32(addr, value);
  }
};

}  // namespace

// ------------------------------------------------------------------ the RegisterPort seam

static_assert(std::is_base_of_v<RegisterPort, BoardClient>);
static_assert(std::is_base_of_v<RegisterPort, XdmaRegisterAccess>);
static_assert(std::is_base_of_v<RegisterPort, BarRegisterAccess>);
static_assert(std::is_constructible_v<Cm1Board, RegisterPort&>);

TEST(RegisterPort, MemoryMappedPortsNeverResend) {
  XdmaFiles f;
  XdmaRegisterAccess x(f.devs);
  RegisterPort& port = x;
  port.set_retries(5);
  EXPECT_EQ(port.retries(), 0);
  EXPECT_EQ(port.name(), f.devs.user);
}

TEST(RegisterPort, OpenTransportPointsPcieAtTheRegisterPort) {
  TempDir d;
  fs::create_directories(d / "sys/0000:01:00.0");
  make_file(d / "sys/0000:01:00.0/resource0", 4096);
  PcieOptions po;
  po.sysfs_devices = d / "sys";
  // open_register_port dispatches pcie:// to the PCIe access...
  auto port = open_register_port("pcie://0000:01:00.0", BoardClientOptions{}, po);
  ASSERT_NE(dynamic_cast<BarRegisterAccess*>(port.get()), nullptr);
  EXPECT_EQ(port->name(), "pcie://0000:01:00.0");
  // ...and every other scheme to a BoardClient over its transport: here a loopback port that
  // nothing listens on, so the TCP transport's error.
  int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof sa;
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
  ASSERT_EQ(::getsockname(sock, reinterpret_cast<sockaddr*>(&sa), &len), 0);
  ::close(sock);  // bound, never listened: connecting is refused
  const std::string sim = "sim://127.0.0.1:" + std::to_string(ntohs(sa.sin_port));
  expect_host_error(HostErrorKind::ConnectionRefused, [&] { open_register_port(sim); });
  // The byte-stream API says where PCIe went (its device check needs a PCI device that exists:
  // use one listed in this machine's sysfs, if any).
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/bus/pci/devices", ec)) {
    const std::string bdf = e.path().filename().string();
    const HostError err = expect_host_error(HostErrorKind::NotImplemented, [&] { open_transport("pcie://" + bdf); });
    EXPECT_TRUE(contains(err.what(), "open_register_port()")) << err.what();
    break;
  }
}

// ------------------------------------------------------------------ XDMA

TEST(Xdma, RegisterReadsAndWritesHitTheirOffsetsInTheUserDevice) {
  XdmaFiles f;
  poke(f.devs.user, 0x10, {0x12345678, 0x9abcdef0});
  XdmaRegisterAccess x(f.devs);
  EXPECT_EQ(x.read32(0x10), 0x12345678u);
  EXPECT_EQ(x.read32(0x14), 0x9abcdef0u);
  x.write32(0x24, 0xcafef00d);
  x.write32(0xfffc, 0x00000001);  // the last register of a 64 KiB BAR
  EXPECT_EQ(peek(f.devs.user, 0x20, 3), (std::vector<uint32_t>{0, 0xcafef00d, 0}));
  EXPECT_EQ(peek1(f.devs.user, 0xfffc), 1u);
  EXPECT_EQ(x.read32(0x24), 0xcafef00du);
  EXPECT_EQ(fs::file_size(f.devs.user), 0x10000u);  // nothing appended
  EXPECT_EQ(x.stats().reg_reads, 3u);
  EXPECT_EQ(x.stats().reg_writes, 2u);
  EXPECT_EQ(x.stats().dma_reads + x.stats().dma_writes, 0u);
}

TEST(Xdma, ShortBurstsLoopOverTheUserDevice) {
  XdmaFiles f;
  XdmaOptions o;
  o.dma_min_words = 16;
  Recording<XdmaRegisterAccess> x(f.devs, o);
  const auto w = iota_words(15, 0x11);
  x.burst_write(0x100, w);
  EXPECT_EQ(peek(f.devs.user, 0x100, 15), w);
  EXPECT_EQ(x.burst_read(0x100, 15), w);
  EXPECT_EQ(fs::file_size(f.devs.h2c), 0u);
  EXPECT_EQ(x.stats().reg_writes, 15u);
  EXPECT_EQ(x.stats().reg_reads, 15u);
  ASSERT_EQ(x.log.size(), 30u);
  for (size_t i = 0; i < 15; ++i) {
    EXPECT_EQ(x.log[i].addr, 0x100 + 4 * i);  // in address order
    EXPECT_TRUE(x.log[i].write);
  }
  EXPECT_TRUE(x.burst_read(0x100, 0).empty());
  x.burst_write(0x100, {});
  EXPECT_EQ(x.log.size(), 30u);
}

TEST(Xdma, LongBurstsUseDmaAtTheCardAddress) {
  XdmaFiles f;
  XdmaOptions o;
  o.dma_base = 0x40000;  // where the DMA engines see register 0
  o.dma_min_words = 16;
  XdmaRegisterAccess x(f.devs, o);
  const auto w = iota_words(100, 0xa0);
  x.burst_write(0x800, w);
  EXPECT_EQ(fs::file_size(f.devs.h2c), 0x40800u + 400);  // one write, ending at the burst's end
  EXPECT_EQ(peek(f.devs.h2c, 0x40800, 100), w);
  EXPECT_EQ(peek(f.devs.user, 0x800, 100), std::vector<uint32_t>(100, 0));  // not via the user BAR
  EXPECT_EQ(x.stats().dma_writes, 1u);
  EXPECT_EQ(x.stats().reg_writes, 0u);
  // Not page-aligned, crossing a page: the buffer is offset to match, the data lands the same.
  const auto w2 = iota_words(20, 0x3300);
  x.burst_write(0xff4, w2);
  EXPECT_EQ(peek(f.devs.h2c, 0x40ff4, 20), w2);
  EXPECT_EQ(x.stats().dma_writes, 2u);

  const auto r = iota_words(128, 0x5000);
  make_file(f.devs.c2h, 0x40000 + 0x8000 + 512);
  poke(f.devs.c2h, 0x48000, r);
  EXPECT_EQ(x.burst_read(0x8000, 128), r);
  EXPECT_EQ(x.burst_read(0x8000, 16), std::vector<uint32_t>(r.begin(), r.begin() + 16));  // at the threshold
  EXPECT_EQ(x.stats().dma_reads, 2u);
  EXPECT_EQ(x.stats().reg_reads, 0u);
  EXPECT_EQ(x.stats().dma_bytes, 400u + 80 + 512 + 64);

  // dma_min_words = 0: never DMA, whatever the length.
  o.dma_min_words = 0;
  XdmaRegisterAccess y(f.devs, o);
  y.burst_write(0x800, w);
  EXPECT_EQ(peek(f.devs.user, 0x800, 100), w);
  EXPECT_EQ(y.stats().dma_writes, 0u);
  // No DMA devices given: loops over the user BAR.
  XdmaDevices user_only{f.devs.user, "", ""};
  XdmaOptions every;
  every.dma_min_words = 1;
  XdmaRegisterAccess z(user_only, every);
  EXPECT_EQ(z.burst_read(0x800, 100), w);
  EXPECT_EQ(z.stats().reg_reads, 100u);
}

TEST(Xdma, FifoBurstsWriteAndReadOneAddressEveryWordInOrder) {
  XdmaFiles f;
  XdmaOptions o;
  o.dma_min_words = 4;  // a FIFO burst never uses DMA, however long
  Recording<XdmaRegisterAccess> x(f.devs, o);
  const auto w = iota_words(200, 0x77);
  x.burst_write(0x50, w, /*fifo=*/true);
  EXPECT_EQ(fs::file_size(f.devs.h2c), 0u);
  EXPECT_EQ(x.stats().reg_writes, 200u);
  ASSERT_EQ(x.log.size(), 200u);
  for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(x.log[i], (Recording<XdmaRegisterAccess>::Access{true, 0x50, w[i]}));
  EXPECT_EQ(peek1(f.devs.user, 0x50), w.back());          // a file keeps the last word
  EXPECT_EQ(peek(f.devs.user, 0x54, 4), std::vector<uint32_t>(4, 0));  // the address did not advance
  EXPECT_EQ(x.burst_read(0x50, 7, /*fifo=*/true), std::vector<uint32_t>(7, w.back()));
  EXPECT_EQ(x.stats().reg_reads, 7u);
  EXPECT_EQ(x.stats().dma_reads, 0u);
  // Only the one address is range-checked.
  XdmaOptions sized = o;
  sized.user_size = 0x60;
  XdmaRegisterAccess s(f.devs, sized);
  EXPECT_NO_THROW(s.burst_write(0x5c, w, true));
}

TEST(Xdma, MissingDevicesAreNoDeviceNamingThePath) {
  TempDir d;
  XdmaDevices devs = XdmaDevices::instance(3, d / "dev", 1);
  EXPECT_EQ(devs.user, d / "dev/xdma3_user");
  EXPECT_EQ(devs.h2c, d / "dev/xdma3_h2c_1");
  EXPECT_EQ(devs.c2h, d / "dev/xdma3_c2h_1");
  HostError e = expect_host_error(HostErrorKind::NoDevice, [&] { XdmaRegisterAccess x(devs); });
  EXPECT_TRUE(contains(e.what(), "no such device " + devs.user)) << e.what();
  make_file(devs.user, 4096);
  make_file(devs.c2h, 0);
  e = expect_host_error(HostErrorKind::NoDevice, [&] { XdmaRegisterAccess x(devs); });
  EXPECT_TRUE(contains(e.what(), "no such device " + devs.h2c)) << e.what();
  EXPECT_TRUE(contains(e.what(), "host-to-card DMA")) << e.what();
}

TEST(Xdma, ShortTransfersAreIoErrors) {
  XdmaFiles f(16);  // the "BAR" ends after 4 registers, and its size is not known to the access
  XdmaOptions o;
  o.dma_min_words = 8;
  XdmaRegisterAccess x(f.devs, o);
  EXPECT_EQ(x.read32(0xc), 0u);
  HostError e = expect_host_error(HostErrorKind::Io, [&] { x.read32(0x10); });
  for (const char* p : {"register read at 0x00000010", "short read, 0 of 4 bytes", "xdma0_user"})
    EXPECT_TRUE(contains(e.what(), p)) << e.what();
  poke(f.devs.user, 0, {1, 2, 3, 4});
  e = expect_host_error(HostErrorKind::Io, [&] { x.burst_read(0x8, 4); });  // the loop hits EOF
  EXPECT_TRUE(contains(e.what(), "at 0x00000010")) << e.what();
  // A DMA read the card cannot fill completely.
  make_file(f.devs.c2h, 0x100 + 20);
  e = expect_host_error(HostErrorKind::Io, [&] { x.burst_read(0x100, 8); });
  for (const char* p : {"DMA read of 8 words at 0x00000100", "short read, 20 of 32 bytes", "xdma0_c2h_0"})
    EXPECT_TRUE(contains(e.what(), p)) << e.what();
}

TEST(Xdma, UnalignedAndOutOfRangeAddressesAreBadAddress) {
  XdmaFiles f(0x1000);
  XdmaOptions o;
  o.user_size = 0x1000;  // as open_pcie learns it from sysfs
  o.dma_min_words = 8;
  XdmaRegisterAccess x(f.devs, o);
  expect_bad_address(expect_host_error(HostErrorKind::ErrorReply, [&] { x.read32(0x2); }), {"not 4-byte aligned", "0x00000002"});
  expect_bad_address(expect_host_error(HostErrorKind::ErrorReply, [&] { x.write32(0x1000, 1); }),
                     {"write32 at 0x00001000", "beyond the end of the BAR (size 0x00001000", "too small"});
  expect_bad_address(expect_host_error(HostErrorKind::ErrorReply, [&] { x.burst_read(0xff0, 8); }),
                     {"burst_read", "8 words ending at 0x0000100f"});
  expect_bad_address(expect_host_error(HostErrorKind::ErrorReply, [&] { x.burst_write(0xfffffffc, iota_words(2, 0)); }),
                     {"run past 0xffffffff"});
  EXPECT_EQ(fs::file_size(f.devs.h2c), 0u);  // nothing was sent
  EXPECT_EQ(x.stats().reg_writes, 0u);
}

// ------------------------------------------------------------------ BAR mmap

TEST(Bar, RegistersAreMappedAtTheirOffsets) {
  TempDir d;
  const std::string res = d / "resource0";
  make_file(res, 0x10000);
  poke(res, 0x0, {0x434d4e54, 1, 0x100});
  BarRegisterAccess b(res);
  EXPECT_EQ(b.size(), 0x10000u);
  EXPECT_EQ(b.name(), res);
  EXPECT_EQ(b.read32(0x0), 0x434d4e54u);
  EXPECT_EQ(b.read32(0x8), 0x100u);
  b.write32(0x44, 0xdeadbeef);
  b.write32(0xfffc, 7);
  EXPECT_EQ(peek1(res, 0x44), 0xdeadbeefu);  // MAP_SHARED: the file sees the store
  EXPECT_EQ(peek1(res, 0xfffc), 7u);
  poke(res, 0x80, {42});
  EXPECT_EQ(b.read32(0x80), 42u);  // and the map sees the file
  const auto w = iota_words(300, 3);
  b.burst_write(0x800, w);
  EXPECT_EQ(peek(res, 0x800, 300), w);
  EXPECT_EQ(b.burst_read(0x800, 300), w);
}

TEST(Bar, FifoBurstsRepeatOneAddress) {
  TempDir d;
  const std::string res = d / "resource2";
  make_file(res, 0x1000);
  Recording<BarRegisterAccess> b(res, "pcie://0000:01:00.0?bar=2");
  const auto w = iota_words(40, 9);
  b.burst_write(0x50, w, /*fifo=*/true);
  ASSERT_EQ(b.log.size(), 40u);
  for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(b.log[i], (Recording<BarRegisterAccess>::Access{true, 0x50, w[i]}));
  EXPECT_EQ(peek1(res, 0x50), w.back());
  EXPECT_EQ(peek1(res, 0x54), 0u);
  EXPECT_EQ(b.burst_read(0x50, 3, true), std::vector<uint32_t>(3, w.back()));
}

TEST(Bar, ErrorsSayWhatIsWrong) {
  TempDir d;
  // No such file.
  HostError e = expect_host_error(HostErrorKind::NoDevice, [&] { BarRegisterAccess b(d / "resource0"); });
  EXPECT_TRUE(contains(e.what(), "no such device " + d / "resource0")) << e.what();
  // An unassigned BAR (sysfs shows size 0).
  make_file(d / "resource1", 0);
  e = expect_host_error(HostErrorKind::Io, [&] { BarRegisterAccess b(d / "resource1"); });
  EXPECT_TRUE(contains(e.what(), "has size 0")) << e.what();
  // A BAR too small for the address: a 4 KiB window, the CM-1 receptions live at 0x8000.
  make_file(d / "resource0", 0x1000);
  BarRegisterAccess b(d / "resource0", "pcie://0000:01:00.0");
  expect_bad_address(expect_host_error(HostErrorKind::ErrorReply, [&] { b.read32(0x8000); }),
                     {"pcie://0000:01:00.0: read32 at 0x00008000", "beyond the end of the BAR (size 0x00001000 = 4096 bytes)",
                      "too small"});
  expect_bad_address(expect_host_error(HostErrorKind::ErrorReply, [&] { b.burst_read(0xffc, 2); }),
                     {"2 words ending at 0x00001003"});
  expect_bad_address(expect_host_error(HostErrorKind::ErrorReply, [&] { b.write32(0x3, 0); }), {"not 4-byte aligned"});
  EXPECT_NO_THROW(b.read32(0xffc));
  // Permission denied. Root passes file modes, but not a read-only sysfs attribute (EACCES).
  const char* ro = "/sys/devices/system/cpu/online";
  if (geteuid() != 0) {
    make_file(d / "resource3", 4096);
    ::chmod((d / "resource3").c_str(), 0400);
    ro = nullptr;
    e = expect_host_error(HostErrorKind::Io, [&] { BarRegisterAccess x(d / "resource3"); });
    EXPECT_TRUE(contains(e.what(), "permission denied")) << e.what();
    EXPECT_TRUE(contains(e.what(), "run as root")) << e.what();
  } else if (fs::exists(ro)) {
    e = expect_host_error(HostErrorKind::Io, [&] { BarRegisterAccess x(ro); });
    EXPECT_TRUE(contains(e.what(), "permission denied opening /sys/devices/system/cpu/online")) << e.what();
    EXPECT_TRUE(contains(e.what(), "run as root")) << e.what();
  }
}

// ------------------------------------------------------------------ pcie:// URIs

TEST(OpenPcie, ChoosesXdmaWhenTheDriverIsBoundElseTheBar) {
  TempDir d;
  const std::string dev = d / "sys/0000:3b:00.0";
  make_file(dev + "/resource0", 0x10000);
  PcieOptions po;
  po.sysfs_devices = d / "sys";
  po.dev_dir = d / "dev";

  // Not bound to XDMA: the BAR mmap.
  EXPECT_EQ(find_xdma_instance(dev), -1);
  {
    auto a = open_pcie("pcie://0000:3b:00.0", po);
    auto* bar = dynamic_cast<BarRegisterAccess*>(a.get());
    ASSERT_NE(bar, nullptr);
    EXPECT_EQ(bar->path(), dev + "/resource0");
    EXPECT_EQ(a->size(), 0x10000u);
  }
  HostError e = expect_host_error(HostErrorKind::NoDevice, [&] { open_pcie("pcie://3b:00.0?bar=2", po); });
  EXPECT_TRUE(contains(e.what(), "has no BAR 2")) << e.what();
  e = expect_host_error(HostErrorKind::NoDevice, [&] { open_pcie("pcie://0000:3c:00.0", po); });
  EXPECT_TRUE(contains(e.what(), "no PCI device 0000:3c:00.0")) << e.what();
  po.access = PcieAccessKind::Xdma;
  e = expect_host_error(HostErrorKind::NoDevice, [&] { open_pcie("pcie://0000:3b:00.0", po); });
  EXPECT_TRUE(contains(e.what(), "XDMA driver is not bound")) << e.what();
  po.access = PcieAccessKind::Auto;

  // Bound to XDMA instance 2 (sysfs class entries), with the /dev nodes.
  for (const char* n : {"xdma2_user", "xdma2_h2c_0", "xdma2_c2h_0", "xdma2_control"}) make_file(dev + "/xdma/" + n, 0);
  EXPECT_EQ(find_xdma_instance(dev), 2);
  e = expect_host_error(HostErrorKind::NoDevice, [&] { open_pcie("pcie://0000:3b:00.0", po); });
  EXPECT_TRUE(contains(e.what(), "no such device " + d / "dev/xdma2_user")) << e.what();
  const XdmaDevices want = XdmaDevices::instance(2, d / "dev");
  make_file(want.user, 0x10000);
  make_file(want.h2c, 0);
  make_file(want.c2h, 0);
  po.dma_base = 0x1000;
  po.dma_min_words = 32;
  {
    auto a = open_pcie("pcie://0000:3b:00.0", po);
    auto* x = dynamic_cast<XdmaRegisterAccess*>(a.get());
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->devices().user, want.user);
    EXPECT_EQ(x->devices().h2c, want.h2c);
    EXPECT_EQ(x->devices().c2h, want.c2h);
    EXPECT_EQ(x->options().dma_base, 0x1000u);
    EXPECT_EQ(x->options().dma_min_words, 32u);
    EXPECT_EQ(a->size(), 0x10000u);  // from resource0, for the bounds check
    EXPECT_EQ(a->name(), "pcie://0000:3b:00.0");
    expect_host_error(HostErrorKind::ErrorReply, [&] { a->read32(0x10000); });
  }
  // A forced BAR mmap even though XDMA is bound.
  po.access = PcieAccessKind::Bar;
  EXPECT_NE(dynamic_cast<BarRegisterAccess*>(open_pcie("pcie://0000:3b:00.0", po).get()), nullptr);
  // An XDMA design without DMA channels: register access only.
  po.access = PcieAccessKind::Auto;
  fs::remove(dev + "/xdma/xdma2_h2c_0");
  fs::remove(dev + "/xdma/xdma2_c2h_0");
  auto a = open_pcie("pcie://0000:3b:00.0", po);
  auto* x = dynamic_cast<XdmaRegisterAccess*>(a.get());
  ASSERT_NE(x, nullptr);
  EXPECT_TRUE(x->devices().h2c.empty());
  EXPECT_TRUE(x->devices().c2h.empty());
  expect_host_error(HostErrorKind::BadUri, [&] { open_pcie("uart:///dev/ttyUSB0", po); });
}

// ------------------------------------------------------------------ device model: Cm1Board

namespace {

// A static CM-1 register image as hw/cm1/cm1_host_regs.v lays it out, for the parameters of
// tests/cm1/cm1_board_test.cpp (c = 3, P = 4, v = 1, d = 8, queue depth 2).
struct Cm1Image {
  Cm1Params p;
  uint32_t base = 0x100;
  int ncounters = 0;
  int stride = 8;  // counter words per chip: the power of two >= ncounters
  Cm1Image() {
    p.cube_dims = 3;
    p.procs_per_chip = 4;
    p.data_bits = 8;
    p.vp_bits = 1;
    p.queue_depth = 2;
    ncounters = 5 + p.cube_dims;
  }
  uint32_t counter(int chip, int i) const { return 0x10000u * static_cast<uint32_t>(chip) + static_cast<uint32_t>(i); }
  void write(const std::string& path) const {
    poke(path, 0x0, {cm1reg::kBoardType, 1, base, 0x100, 100000000, 2, 0xc0ffee});
    poke(path, base, {cm1reg::kCm1Type, 2, 0, 0x9000});
    poke(path, base + cm1reg::kC,
         {static_cast<uint32_t>(p.cube_dims), static_cast<uint32_t>(p.rows), static_cast<uint32_t>(p.procs_per_chip),
          static_cast<uint32_t>(p.vp_bits), static_cast<uint32_t>(p.data_bits), static_cast<uint32_t>(p.msg_len()),
          static_cast<uint32_t>(p.petit_period()), static_cast<uint32_t>(p.queue_depth), static_cast<uint32_t>(ncounters),
          static_cast<uint32_t>(stride)});
    poke(path, base + cm1reg::kStatus, {0x6, 17, 1234});
    std::vector<uint32_t> hist(16);
    std::iota(hist.begin(), hist.end(), 100);
    poke(path, base + cm1reg::kHist, hist);
    std::vector<uint32_t> cnt;
    for (int chip = 0; chip < p.chips(); ++chip)
      for (int i = 0; i < stride; ++i) cnt.push_back(i < ncounters ? counter(chip, i) : 0);
    poke(path, cm1reg::kCounters, cnt);
    std::vector<uint32_t> rx;
    for (int g = 0; g < p.processors(); ++g)
      rx.insert(rx.end(), {static_cast<uint32_t>(g), 0xabc00000u + static_cast<uint32_t>(g), static_cast<uint32_t>(3 * g), static_cast<uint32_t>(g + 1)});
    poke(path, cm1reg::kReceptions, rx);
  }
};

// Everything Cm1Board can read back from a static image must decode to the image.
void check_cm1_readback(Cm1Board& b, const Cm1Image& img) {
  const Cm1BoardInfo& info = b.info();
  EXPECT_EQ(info.cm1_base, img.base);
  EXPECT_EQ(info.clock_hz, 100000000u);
  EXPECT_EQ(info.link, 2u);
  EXPECT_EQ(info.config_id, 0xc0ffeeu);
  EXPECT_EQ(info.ncounters, img.ncounters);
  EXPECT_EQ(info.cnt_stride, img.stride);
  EXPECT_EQ(info.queue_depth, 2);
  EXPECT_NO_THROW(b.check_matches(img.p));
  const Cm1BoardStatus s = b.status();
  EXPECT_FALSE(s.running);
  EXPECT_TRUE(s.pending);
  EXPECT_TRUE(s.buffered);
  EXPECT_EQ(s.petit, 17u);
  EXPECT_EQ(s.cycles, 1234u);
  const auto h = b.histogram();
  EXPECT_EQ(h[0], 100u);
  EXPECT_EQ(h[15], 115u);
  const auto c = b.counters();
  ASSERT_EQ(c.size(), 8u);
  EXPECT_EQ(c[5].injected, img.counter(5, 0));
  EXPECT_EQ(c[5].delivered, img.counter(5, 1));
  EXPECT_EQ(c[7].parity_errors, img.counter(7, 4));
  ASSERT_EQ(c[7].dim_busy.size(), 3u);
  EXPECT_EQ(c[7].dim_busy[2], img.counter(7, 7));
  const auto rx = b.receptions();
  ASSERT_EQ(rx.size(), 32u);
  EXPECT_EQ(rx[31], (Cm1RxCheck{31, 0xabc0001f, 93, 32}));
}

Traffic two_messages() {
  Traffic t;
  t.messages.push_back({1, 30, 1, 0x5a});
  t.messages.push_back({2, 0, 0, 0xa5});
  return t;
}

}  // namespace

// A file cannot run the network: these check register offsets and decoding only (see the top).
TEST(PcieDeviceModel, Cm1BoardOverABarImage) {
  TempDir d;
  const std::string res = d / "resource0";
  make_file(res, 0x10000);  // receptions end at 0x8000 + 16 * 32: a 64 KiB BAR holds them
  const Cm1Image img;
  img.write(res);
  Recording<BarRegisterAccess> bar(res, "pcie://0000:01:00.0");
  Cm1Board b(bar);
  check_cm1_readback(b, img);

  b.start(EjectMode::kOnePerPetit);
  EXPECT_EQ(peek1(res, img.base + cm1reg::kControl), 0x5u);
  b.clear();
  EXPECT_EQ(peek1(res, img.base + cm1reg::kControl), 0x2u);

  // load(): every word goes to LOAD in order, then the taken/dropped check reads LOAD back. A
  // file does not count the words it was given, so the check must refuse the load.
  bar.log.clear();
  const HostError e = expect_host_error(HostErrorKind::ProtocolError, [&] { b.load(two_messages()); });
  EXPECT_TRUE(contains(e.what(), "pcie://0000:01:00.0: loading the pattern: the board took")) << e.what();
  std::vector<uint32_t> loaded;
  for (const auto& a : bar.log)
    if (a.write) {
      EXPECT_EQ(a.addr, img.base + cm1reg::kLoad);
      loaded.push_back(a.value);
    }
  EXPECT_EQ(loaded, (std::vector<uint32_t>{1, 30, 1, 0x5a, 2, 0, 0, 0xa5}));
}

TEST(PcieDeviceModel, Cm1BoardOverXdmaWithOneAddressSpace) {
  // The user BAR and both DMA engines see one register block at dma_base = 0: all three paths
  // point at one file, so DMA-read bursts (counters: 64 words, receptions: 128) read the image.
  TempDir d;
  const std::string img_path = d / "regs";
  make_file(img_path, 0x10000);
  const Cm1Image img;
  img.write(img_path);
  XdmaOptions o;
  o.dma_min_words = 64;
  o.user_size = 0x10000;
  o.name = "pcie://0000:01:00.0";
  XdmaRegisterAccess x(XdmaDevices{img_path, img_path, img_path}, o);
  Cm1Board b(x);
  check_cm1_readback(b, img);
  EXPECT_EQ(x.stats().dma_reads, 2u);  // counters (8 chips x 8) and receptions (32 x 4)
  const uint64_t reg_writes = x.stats().reg_writes;
  expect_host_error(HostErrorKind::ProtocolError, [&] { b.load(two_messages()); });
  EXPECT_EQ(x.stats().reg_writes - reg_writes, 8u);  // the FIFO burst: 8 register writes, no DMA
  EXPECT_EQ(x.stats().dma_writes, 0u);
  EXPECT_EQ(peek1(img_path, img.base + cm1reg::kLoad), 0xa5u);
}

TEST(PcieDeviceModel, ABarTooSmallForTheCm1BlockIsAClearError) {
  TempDir d;
  const std::string res = d / "resource0";
  make_file(res, 0x4000);  // holds the blocks and counters, not the receptions at 0x8000
  const Cm1Image img;
  // Only what fits: the first 4 KiB of the full image.
  const std::string full = d / "full";
  make_file(full, 0x10000);
  img.write(full);
  poke(res, 0, peek(full, 0, 0x1000));
  BarRegisterAccess bar(res, "pcie://0000:01:00.0");
  Cm1Board b(bar);
  EXPECT_EQ(b.counters().size(), 8u);
  const HostError e = expect_host_error(HostErrorKind::ErrorReply, [&] { b.receptions(); });
  expect_bad_address(e, {"burst_read at 0x00008000", "BAR (size 0x00004000", "too small"});
}

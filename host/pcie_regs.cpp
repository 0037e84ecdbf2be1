#include "host/pcie_regs.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>

#include "host/errors.h"
#include "gen/core/protocol.h"

namespace cmnet {

namespace {

std::string hex32(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%08llx", static_cast<unsigned long long>(v));
  return b;
}

uint32_t le32(uint32_t v) {
  if constexpr (std::endian::native == std::endian::big) return __builtin_bswap32(v);
  return v;
}

[[noreturn]] void bad_address(const std::string& name, const char* op, uint32_t addr, const std::string& why) {
  throw HostError(HostErrorKind::ErrorReply,
                  name + ": " + op + " at " + hex32(addr) + ": BAD_ADDRESS: " + why,
                  static_cast<uint8_t>(proto::Status::BadAddress));
}

// Opens a device file, mapping errno to the error kinds of pcie_regs.h.
int open_device(const std::string& path, const std::string& name, const char* what) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd >= 0) return fd;
  const int e = errno;
  if (e == ENOENT || e == ENXIO || e == ENODEV)
    throw HostError(HostErrorKind::NoDevice, name + ": no such device " + path + " (" + what + ")");
  if (e == EACCES || e == EPERM)
    throw HostError(HostErrorKind::Io, name + ": permission denied opening " + path + " (" + what +
                                           "): run as root, or give your user access to it (udev rule)");
  throw HostError(HostErrorKind::Io, name + ": cannot open " + path + " (" + what + "): " + std::strerror(e));
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// One pread/pwrite of exactly `len` bytes at `off`: a failure or a short transfer is Io. A short
// transfer is not continued: on a DMA engine it means the transfer failed part way.
void pio(bool write, int fd, void* buf, size_t len, uint64_t off, const std::string& name,
         const std::string& path, const char* what, uint32_t addr) {
  ssize_t n;
  do {
    n = write ? ::pwrite(fd, buf, len, static_cast<off_t>(off)) : ::pread(fd, buf, len, static_cast<off_t>(off));
  } while (n < 0 && errno == EINTR);
  const std::string where = name + ": " + what + " at " + hex32(addr) + " (" + std::to_string(len) + " bytes at offset " +
                            hex32(off) + " of " + path + ")";
  if (n < 0) {
    const int e = errno;  // the XDMA driver gives up on a DMA transfer after its sgdma_timeout (10 s)
    throw HostError(e == ETIMEDOUT ? HostErrorKind::Timeout : HostErrorKind::Io, where + " failed: " + std::strerror(e));
  }
  if (static_cast<size_t>(n) != len)
    throw HostError(HostErrorKind::Io, where + ": short " + (write ? "write" : "read") + ", " + std::to_string(n) +
                                           " of " + std::to_string(len) + " bytes");
}

// A buffer for one DMA transfer. The XDMA driver (AXI-MM, incrementing addresses) refuses a
// transfer whose host buffer address and card address differ in their low bits (below the
// engine's address alignment, up to a page): the data starts at the card address's offset
// within a page. The driver pins these pages for the transfer.
struct DmaBuffer {
  DmaBuffer(size_t words, uint64_t card_addr) {
    const size_t offset = static_cast<size_t>(card_addr % 4096);
    const size_t bytes = (offset + words * 4 + 4095) / 4096 * 4096;
    base = std::aligned_alloc(4096, bytes);
    if (!base) throw std::bad_alloc();
    p = reinterpret_cast<uint32_t*>(static_cast<char*>(base) + offset);
  }
  ~DmaBuffer() { std::free(base); }
  DmaBuffer(const DmaBuffer&) = delete;
  DmaBuffer& operator=(const DmaBuffer&) = delete;
  void* base;
  uint32_t* p;
};

}  // namespace

// ---------------------------------------------------------------- RegisterAccess

void RegisterAccess::check_range(const char* op, uint32_t addr, size_t count, bool fifo) const {
  if (addr % 4 != 0) bad_address(name_, op, addr, "not 4-byte aligned");
  const uint64_t end = static_cast<uint64_t>(addr) + 4 * static_cast<uint64_t>(fifo || count == 0 ? 1 : count);
  if (end > 0x100000000ull)
    bad_address(name_, op, addr, std::to_string(count) + " words run past 0xffffffff");
  if (size_ != 0 && end > size_)
    bad_address(name_, op, addr,
                (fifo || count <= 1 ? std::string("the register") : std::to_string(count) + " words ending at " + hex32(end - 1)) +
                    " lies beyond the end of the BAR (size " + hex32(size_) + " = " + std::to_string(size_) +
                    " bytes); the BAR is too small for this address (wrong bar=N in the URI, or a design "
                    "with a smaller register window?)");
}

uint32_t RegisterAccess::read32(uint32_t addr) {
  check_range("read32", addr, 1, false);
  return do_read32(addr);
}

void RegisterAccess::write32(uint32_t addr, uint32_t value) {
  check_range("write32", addr, 1, false);
  do_write32(addr, value);
}

std::vector<uint32_t> RegisterAccess::burst_read(uint32_t addr, size_t count, bool fifo) {
  std::vector<uint32_t> out;
  if (count == 0) return out;
  check_range("burst_read", addr, count, fifo);
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) out.push_back(do_read32(fifo ? addr : addr + static_cast<uint32_t>(4 * i)));
  return out;
}

void RegisterAccess::burst_write(uint32_t addr, std::span<const uint32_t> words, bool fifo) {
  if (words.empty()) return;
  check_range("burst_write", addr, words.size(), fifo);
  for (size_t i = 0; i < words.size(); ++i) do_write32(fifo ? addr : addr + static_cast<uint32_t>(4 * i), words[i]);
}

// ---------------------------------------------------------------- XDMA

XdmaDevices XdmaDevices::instance(int n, const std::string& dev_dir, int channel) {
  const std::string base = dev_dir + "/xdma" + std::to_string(n);
  return {base + "_user", base + "_h2c_" + std::to_string(channel), base + "_c2h_" + std::to_string(channel)};
}

XdmaRegisterAccess::XdmaRegisterAccess(XdmaDevices devices, XdmaOptions options)
    : RegisterAccess(options.name.empty() ? devices.user : options.name, options.user_size),
      dev_(std::move(devices)),
      opt_(std::move(options)) {
  if (dev_.user.empty()) throw HostError(HostErrorKind::NoDevice, name_ + ": no XDMA user device given");
  try {
    user_fd_ = open_device(dev_.user, name_, "XDMA user BAR");
    if (!dev_.h2c.empty()) h2c_fd_ = open_device(dev_.h2c, name_, "XDMA host-to-card DMA");
    if (!dev_.c2h.empty()) c2h_fd_ = open_device(dev_.c2h, name_, "XDMA card-to-host DMA");
  } catch (...) {
    close_fd(user_fd_);
    close_fd(h2c_fd_);
    close_fd(c2h_fd_);
    throw;
  }
}

XdmaRegisterAccess::~XdmaRegisterAccess() {
  close_fd(user_fd_);
  close_fd(h2c_fd_);
  close_fd(c2h_fd_);
}

uint32_t XdmaRegisterAccess::do_read32(uint32_t addr) {
  uint32_t v = 0;  // the driver's ioread32 already gives host order
  pio(false, user_fd_, &v, 4, addr, name_, dev_.user, "register read", addr);
  ++stats_.reg_reads;
  return v;
}

void XdmaRegisterAccess::do_write32(uint32_t addr, uint32_t value) {
  pio(true, user_fd_, &value, 4, addr, name_, dev_.user, "register write", addr);
  ++stats_.reg_writes;
}

bool XdmaRegisterAccess::use_dma(int fd, size_t count, bool fifo) const {
  return fd >= 0 && !fifo && opt_.dma_min_words != 0 && count >= opt_.dma_min_words;
}

uint64_t XdmaRegisterAccess::card_address(uint32_t addr) const { return opt_.dma_base + addr; }

std::vector<uint32_t> XdmaRegisterAccess::burst_read(uint32_t addr, size_t count, bool fifo) {
  if (!use_dma(c2h_fd_, count, fifo)) return RegisterAccess::burst_read(addr, count, fifo);
  check_range("burst_read", addr, count, fifo);
  DmaBuffer buf(count, card_address(addr));
  pio(false, c2h_fd_, buf.p, 4 * count, card_address(addr), name_, dev_.c2h,
      ("DMA read of " + std::to_string(count) + " words").c_str(), addr);
  ++stats_.dma_reads;
  stats_.dma_bytes += 4 * count;
  std::vector<uint32_t> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = le32(buf.p[i]);
  return out;
}

void XdmaRegisterAccess::burst_write(uint32_t addr, std::span<const uint32_t> words, bool fifo) {
  if (!use_dma(h2c_fd_, words.size(), fifo)) return RegisterAccess::burst_write(addr, words, fifo);
  check_range("burst_write", addr, words.size(), fifo);
  DmaBuffer buf(words.size(), card_address(addr));
  for (size_t i = 0; i < words.size(); ++i) buf.p[i] = le32(words[i]);
  pio(true, h2c_fd_, buf.p, 4 * words.size(), card_address(addr), name_, dev_.h2c,
      ("DMA write of " + std::to_string(words.size()) + " words").c_str(), addr);
  ++stats_.dma_writes;
  stats_.dma_bytes += 4 * words.size();
}

// ---------------------------------------------------------------- BAR mmap

BarRegisterAccess::BarRegisterAccess(const std::string& resource_path, std::string name)
    : RegisterAccess(name.empty() ? resource_path : std::move(name), 0), path_(resource_path) {
  fd_ = open_device(path_, name_, "PCI BAR resource file");
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int e = errno;
    close_fd(fd_);
    throw HostError(HostErrorKind::Io, name_ + ": cannot stat " + path_ + ": " + std::strerror(e));
  }
  if (st.st_size <= 0) {
    close_fd(fd_);
    throw HostError(HostErrorKind::Io, name_ + ": " + path_ +
                                           " has size 0: the BAR is not assigned (or this is not a sysfs resource file)");
  }
  map_len_ = static_cast<size_t>(st.st_size);
  map_ = ::mmap(nullptr, map_len_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (map_ == MAP_FAILED) {
    const int e = errno;
    map_ = nullptr;
    close_fd(fd_);
    std::string hint;
    if (e == EPERM || e == EACCES)
      hint = " (permission denied: run as root; a kernel in lockdown mode refuses BAR mmap even to root)";
    else if (e == EINVAL || e == ENODEV)
      hint = " (an I/O-port BAR cannot be mapped; is bar=N the memory BAR?)";
    throw HostError(HostErrorKind::Io, name_ + ": cannot mmap " + std::to_string(map_len_) + " bytes of " + path_ +
                                           ": " + std::strerror(e) + hint);
  }
  size_ = map_len_;
}

BarRegisterAccess::~BarRegisterAccess() {
  if (map_) ::munmap(map_, map_len_);
  close_fd(fd_);
}

uint32_t BarRegisterAccess::do_read32(uint32_t addr) {
  const volatile uint32_t* p = reinterpret_cast<const volatile uint32_t*>(static_cast<const char*>(map_) + addr);
  return le32(*p);
}

void BarRegisterAccess::do_write32(uint32_t addr, uint32_t value) {
  volatile uint32_t* p = reinterpret_cast<volatile uint32_t*>(static_cast<char*>(map_) + addr);
  *p = le32(value);
}

// ---------------------------------------------------------------- pcie:// URIs

int find_xdma_instance(const std::string& device_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::path(device_dir) / "xdma";
  if (!fs::is_directory(dir, ec)) return -1;
  static const std::regex user_re("xdma([0-9]+)_user");
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::smatch m;
    const std::string n = e.path().filename().string();
    if (std::regex_match(n, m, user_re)) return std::stoi(m[1].str());
  }
  return -1;
}

std::unique_ptr<RegisterAccess> open_pcie(const TransportUri& uri, const PcieOptions& options) {
  namespace fs = std::filesystem;
  if (uri.scheme != UriScheme::Pcie)
    throw HostError(HostErrorKind::BadUri, uri.text + ": not a pcie:// URI");
  const std::string addr = pci_address(uri);
  const std::string dir = options.sysfs_devices + "/" + addr;
  std::error_code ec;
  if (!fs::exists(dir, ec))
    throw HostError(HostErrorKind::NoDevice, uri.text + ": no PCI device " + addr + " (" + dir + " does not exist)");
  const std::string resource = dir + "/resource" + std::to_string(uri.bar);

  const int n = find_xdma_instance(dir);
  PcieAccessKind kind = options.access;
  if (kind == PcieAccessKind::Auto) kind = n >= 0 ? PcieAccessKind::Xdma : PcieAccessKind::Bar;

  if (kind == PcieAccessKind::Bar) {
    if (!fs::exists(resource, ec))
      throw HostError(HostErrorKind::NoDevice, uri.text + ": PCI device " + addr + " has no BAR " +
                                                   std::to_string(uri.bar) + " (" + resource + " does not exist)");
    return std::make_unique<BarRegisterAccess>(resource, uri.text);
  }

  if (n < 0)
    throw HostError(HostErrorKind::NoDevice, uri.text + ": the XDMA driver is not bound to PCI device " + addr +
                                                 " (no " + dir + "/xdma/xdmaN_user)");
  const XdmaDevices all = XdmaDevices::instance(n, options.dev_dir, options.dma_channel);
  // The DMA devices are used when the driver created them (sysfs lists them); a listed device
  // whose /dev node is missing is an error when opening.
  const std::string listed = dir + "/xdma/xdma" + std::to_string(n);
  XdmaDevices devs;
  devs.user = all.user;
  if (fs::exists(listed + "_h2c_" + std::to_string(options.dma_channel), ec)) devs.h2c = all.h2c;
  if (fs::exists(listed + "_c2h_" + std::to_string(options.dma_channel), ec)) devs.c2h = all.c2h;
  XdmaOptions xo;
  xo.dma_base = options.dma_base;
  xo.dma_min_words = options.dma_min_words;
  xo.name = uri.text;
  if (const auto sz = fs::file_size(resource, ec); !ec) xo.user_size = sz;
  return std::make_unique<XdmaRegisterAccess>(devs, xo);
}

std::unique_ptr<RegisterAccess> open_pcie(std::string_view uri, const PcieOptions& options) {
  return open_pcie(parse_transport_uri(uri), options);
}

}  // namespace cmnet

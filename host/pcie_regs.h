// Register access to a board on PCIe (pcie://DDDD:BB:DD.F[?bar=N], host/transport_uri.h). On PCIe
// the board's registers are memory-mapped: there is no framing, no sequence number and no reply
// to lose, so this is a RegisterPort (host/register_port.h) rather than a byte-stream Transport.
//
// Two ways in, both plain file operations (so tests point them at regular files):
//   - XdmaRegisterAccess: the Xilinx XDMA driver (dma_ip_drivers/XDMA/linux-kernel). Single
//     registers are pread/pwrite of 4 bytes at offset `addr` on /dev/xdmaN_user (the AXI-Lite
//     user BAR; the driver does one ioread32/iowrite32 per call). Incrementing bursts of at least
//     `dma_min_words` words go through the DMA engines instead: one pwrite on /dev/xdmaN_h2c_C or
//     one pread on /dev/xdmaN_c2h_C, whose file offset is the card (AXI-MM) address
//     `dma_base + addr`. That needs a design where the register block is also reachable from the
//     DMA's AXI-MM master at dma_base; if yours is not, set dma_min_words = 0 (never DMA).
//     The DMA buffer starts at the card address's offset within a page, as the driver's alignment
//     check for incrementing AXI-MM transfers requires (host and card address agree in their low
//     bits). Shorter bursts and FIFO bursts (one address, fifo = true) loop over the user BAR, one
//     register access per word, in order.
//   - BarRegisterAccess: mmap of the sysfs BAR file /sys/bus/pci/devices/BDF/resourceN (no
//     driver needed beyond the PCI core, but root, and a kernel not in lockdown), with volatile
//     32-bit loads and stores; bursts are loops of them.
//
// Byte order: PCIe and AXI are little-endian. Words in a DMA buffer and in the mapped BAR are
// converted from/to little-endian (a no-op on x86 and little-endian ARM); values through
// /dev/xdmaN_user are already in host order (the driver's ioread32 converts).
// Ordering: writes are posted (write32 returns before the card has the value); a later read of
// the same card is ordered after them by PCIe rules, so write-then-poll works without a barrier.
// No interrupts are used: callers poll status registers (as Cm1Board does).
//
// Errors (HostError): a missing device file is NoDevice naming the path; permission denied is
// Io and says to run as root; an unaligned address, or one beyond the end of the BAR (when its
// size is known), is ErrorReply with status proto::Status::BadAddress, like the framed board's
// reply; a failed or short read/write/DMA is Io naming the device, the address and the count
// (Timeout when the XDMA driver gave up on a DMA transfer: ETIMEDOUT after its sgdma_timeout).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/register_port.h"
#include "host/transport_uri.h"

namespace cmnet {

// A memory-mapped RegisterPort: address checks and looped bursts, over a subclass's single
// 32-bit accesses. retries()/set_retries() keep RegisterPort's no-ops: nothing is ever re-sent.
class RegisterAccess : public RegisterPort {
 public:
  uint32_t read32(uint32_t addr) override;
  void write32(uint32_t addr, uint32_t value) override;
  std::vector<uint32_t> burst_read(uint32_t addr, size_t count, bool fifo = false) override;
  void burst_write(uint32_t addr, std::span<const uint32_t> words, bool fifo = false) override;
  std::string name() const override { return name_; }

  // Bytes of register space (the BAR size); 0 if unknown (then only alignment is checked).
  uint64_t size() const { return size_; }

  RegisterAccess(const RegisterAccess&) = delete;
  RegisterAccess& operator=(const RegisterAccess&) = delete;

 protected:
  RegisterAccess(std::string name, uint64_t size) : name_(std::move(name)), size_(size) {}
  // Throws ErrorReply(BadAddress) unless [addr, addr + 4*count) (or just addr, for fifo) is
  // aligned, does not wrap past 0xFFFFFFFF and lies inside size() when that is known.
  void check_range(const char* op, uint32_t addr, size_t count, bool fifo) const;
  // One register access, after the checks.
  virtual uint32_t do_read32(uint32_t addr) = 0;
  virtual void do_write32(uint32_t addr, uint32_t value) = 0;

  std::string name_;
  uint64_t size_;
};

// ---------------------------------------------------------------- XDMA character devices

struct XdmaDevices {
  std::string user;  // AXI-Lite user BAR, e.g. /dev/xdma0_user (required)
  std::string h2c;   // host-to-card DMA, e.g. /dev/xdma0_h2c_0 ("" = no DMA writes)
  std::string c2h;   // card-to-host DMA, e.g. /dev/xdma0_c2h_0 ("" = no DMA reads)
  // The devices of driver instance n, channel `channel`, under dev_dir.
  static XdmaDevices instance(int n, const std::string& dev_dir = "/dev", int channel = 0);
};

struct XdmaOptions {
  uint64_t user_size = 0;      // size of the user BAR in bytes (bounds check); 0 = unknown
  uint64_t dma_base = 0;       // AXI-MM address of register 0 as the DMA engines see it
  size_t dma_min_words = 64;   // incrementing bursts this long or longer use DMA; 0 = never
  std::string name;            // for messages; default: the user device path
};

struct XdmaStats {
  uint64_t reg_reads = 0, reg_writes = 0;  // single-register accesses on the user device
  uint64_t dma_reads = 0, dma_writes = 0;  // DMA transfers (one per burst)
  uint64_t dma_bytes = 0;
};

class XdmaRegisterAccess : public RegisterAccess {
 public:
  // Opens the devices (all given paths, at once): NoDevice naming a missing one.
  explicit XdmaRegisterAccess(XdmaDevices devices, XdmaOptions options = {});
  ~XdmaRegisterAccess() override;

  std::vector<uint32_t> burst_read(uint32_t addr, size_t count, bool fifo = false) override;
  void burst_write(uint32_t addr, std::span<const uint32_t> words, bool fifo = false) override;

  const XdmaDevices& devices() const { return dev_; }
  const XdmaOptions& options() const { return opt_; }
  const XdmaStats& stats() const { return stats_; }

 protected:
  uint32_t do_read32(uint32_t addr) override;
  void do_write32(uint32_t addr, uint32_t value) override;

 private:
  bool use_dma(int fd, size_t count, bool fifo) const;
  uint64_t card_address(uint32_t addr) const;

  XdmaDevices dev_;
  XdmaOptions opt_;
  XdmaStats stats_;
  int user_fd_ = -1, h2c_fd_ = -1, c2h_fd_ = -1;
};

// ---------------------------------------------------------------- sysfs BAR mmap

class BarRegisterAccess : public RegisterAccess {
 public:
  // Maps the whole file at `resource_path` (a sysfs resourceN file: its size is the BAR's).
  // NoDevice if it does not exist; Io for permission denied (suggesting root), an empty file
  // (an unassigned BAR), or a failed mmap (an I/O-port BAR, kernel lockdown).
  explicit BarRegisterAccess(const std::string& resource_path, std::string name = "");
  ~BarRegisterAccess() override;

  const std::string& path() const { return path_; }

 protected:
  uint32_t do_read32(uint32_t addr) override;
  void do_write32(uint32_t addr, uint32_t value) override;

 private:
  std::string path_;
  int fd_ = -1;
  void* map_ = nullptr;
  size_t map_len_ = 0;
};

// ---------------------------------------------------------------- pcie:// URIs

enum class PcieAccessKind { Auto, Xdma, Bar };

struct PcieOptions {
  // Auto: XDMA if the XDMA driver is bound to the device (sysfs lists xdmaN_user), else BAR mmap.
  PcieAccessKind access = PcieAccessKind::Auto;
  std::string sysfs_devices = "/sys/bus/pci/devices";  // tests point these at a temp dir
  std::string dev_dir = "/dev";
  int dma_channel = 0;
  uint64_t dma_base = 0;       // see XdmaOptions
  size_t dma_min_words = 64;   // see XdmaOptions
};

// The XDMA driver instance N bound to the PCI device whose sysfs directory is `device_dir`
// (found as device_dir/xdma/xdmaN_user), or -1 if there is none.
int find_xdma_instance(const std::string& device_dir);

// Opens pcie://BDF[?bar=N]: NoDevice if the PCI device is absent. With XDMA, bar=N names the user
// BAR only to learn its size (for the bounds check); with BAR mmap, the resourceN file to map.
std::unique_ptr<RegisterAccess> open_pcie(const TransportUri& uri, const PcieOptions& options = {});
std::unique_ptr<RegisterAccess> open_pcie(std::string_view uri, const PcieOptions& options = {});

}  // namespace cmnet

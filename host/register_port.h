// What board drivers (host/cm1/cm1_board.h) need from a board: 32-bit register access at byte
// addresses, whatever carries it. Two families implement it:
//   - BoardClient (host/board_client.h): the framed protocol over a byte stream (sim://, uart://,
//     later usb://), with sequence numbers, timeouts and bounded re-sends;
//   - RegisterAccess (host/pcie_regs.h): memory-mapped registers on a PCIe card (pcie://), through
//     the Xilinx XDMA driver's character devices or an mmap of the sysfs BAR file.
// Semantics common to all: addresses are byte addresses of 32-bit registers, 4-byte aligned;
// bursts advance by 4 per word, or stay on one address with fifo = true (a FIFO register: every
// word is a separate write or read of that register, in order). Errors are HostError
// (host/errors.h); an unaligned or out-of-range address is HostError(ErrorReply) with status
// proto::Status::BadAddress on every port, whether the board or the host detected it.
// Not thread-safe: one port per thread (or lock around it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cmnet {

class RegisterPort {
 public:
  virtual ~RegisterPort() = default;

  virtual uint32_t read32(uint32_t addr) = 0;
  virtual void write32(uint32_t addr, uint32_t value) = 0;
  // (Default arguments bind to the static type: every override repeats fifo = false.)
  virtual std::vector<uint32_t> burst_read(uint32_t addr, size_t count, bool fifo = false) = 0;
  virtual void burst_write(uint32_t addr, std::span<const uint32_t> words, bool fifo = false) = 0;

  // What the port talks to, for messages: the URI (or device path) it was opened with.
  virtual std::string name() const = 0;

  // Re-sends after a lost or corrupted reply. Only a link with replies re-sends (BoardClient);
  // a memory-mapped port never does: retries() is 0 and set_retries() is a no-op there.
  // Callers that must not repeat a write (a FIFO burst) set 0 around it and restore afterwards.
  virtual int retries() const { return 0; }
  virtual void set_retries(int) {}

 protected:
  RegisterPort() = default;
  RegisterPort(const RegisterPort&) = default;
  RegisterPort(RegisterPort&&) = default;
  RegisterPort& operator=(const RegisterPort&) = default;
  RegisterPort& operator=(RegisterPort&&) = default;
};

// Opens the board a URI names (host/transport_uri.h) as a RegisterPort: pcie:// gives the PCIe
// register access (host/pcie_regs.h, open_pcie), every other scheme a BoardClient over its
// transport. Callers then drive the board without knowing how it is attached.
struct BoardClientOptions;  // host/board_client.h
struct PcieOptions;         // host/pcie_regs.h
std::unique_ptr<RegisterPort> open_register_port(std::string_view uri);
std::unique_ptr<RegisterPort> open_register_port(std::string_view uri, const BoardClientOptions& client);
std::unique_ptr<RegisterPort> open_register_port(std::string_view uri, const BoardClientOptions& client,
                                                 const PcieOptions& pcie);

}  // namespace cmnet

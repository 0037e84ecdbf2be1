// A small LiteX UARTBone client (the protocol of litex_server --uart; PROTOCOL.md, "UARTBone")
// over any Transport: what LiteX's CommUART does, in C++, for tests and bring-up of boards
// whose frame engine also speaks UARTBone. It borrows the transport, so UARTBone commands can
// be interleaved with BoardClient requests on one link (BoardClient::transport()).
//
// UARTBone has no checksum, no sequence number and no status: a read answers all ones for
// each word whose access failed (uartbone::kFailedRead), a lost byte is found only by the read timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "host/transport.h"

namespace cmnet {

class UartBoneClient {
 public:
  explicit UartBoneClient(Transport& transport, std::chrono::milliseconds timeout = std::chrono::milliseconds(2000))
      : t_(transport), timeout_(timeout) {}

  // Byte addresses, 4-byte aligned (std::invalid_argument otherwise). Bursts longer than 255
  // words are split into several commands (writes into 8-word commands, as LiteX does, unless
  // max_write_words says otherwise). fixed: every word to / from addr.
  uint32_t read32(uint32_t addr);
  void write32(uint32_t addr, uint32_t value);
  std::vector<uint32_t> burst_read(uint32_t addr, size_t count, bool fixed = false);
  void burst_write(uint32_t addr, std::span<const uint32_t> words, bool fixed = false);

  void set_max_write_words(size_t n) { max_write_words_ = n; }
  // Throws HostError Timeout when a read's words do not all arrive within the timeout.
  void set_timeout(std::chrono::milliseconds t) { timeout_ = t; }

 private:
  Transport& t_;
  std::chrono::milliseconds timeout_;
  size_t max_write_words_ = 8;
};

}  // namespace cmnet

// An abstract byte stream to a board: TCP to the simulated board, a serial port, later the
// FT2232H FIFO or PCIe. Framing lives above it (protocol.h, board_client.h).
// Every blocking call takes a deadline; errors are cmnet::HostError (host/errors.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace cmnet {

class Transport {
 public:
  using Clock = std::chrono::steady_clock;

  virtual ~Transport() = default;

  // Writes all of data, or throws HostError: ConnectionClosed (peer gone), Timeout (the peer
  // stopped reading until the deadline passed), Io.
  virtual void write_all(std::span<const uint8_t> data, Clock::time_point deadline) = 0;

  // Waits until at least one byte is available or the deadline passes; returns the number of
  // bytes read (at most buf.size()), 0 at the deadline. Throws HostError ConnectionClosed when
  // the peer closed or reset the link (device vanished), Io for other failures.
  virtual size_t read_some(std::span<uint8_t> buf, Clock::time_point deadline) = 0;

  // Closes the link; later calls throw ConnectionClosed. Safe to call twice.
  virtual void close() = 0;
  virtual bool is_open() const = 0;

  // What the transport talks to, for messages: the URI it was opened with.
  virtual std::string name() const = 0;
};

}  // namespace cmnet

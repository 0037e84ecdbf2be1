// TCP transport to the simulated board (sim://127.0.0.1:PORT). Boost.Asio connects; reads and
// writes are plain blocking calls bounded by SO_RCVTIMEO / SO_SNDTIMEO (one system call each
// when the board answers in time). TCP_NODELAY.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "host/transport.h"

namespace cmnet {

class TcpTransport : public Transport {
 public:
  // Connects within connect_timeout. Throws HostError ConnectionRefused (nothing listens),
  // Timeout, or Io. host is an IPv4 literal or "localhost".
  static std::unique_ptr<TcpTransport> connect(const std::string& host, uint16_t port,
                                               std::chrono::milliseconds connect_timeout);
  ~TcpTransport() override;

  void write_all(std::span<const uint8_t> data, Clock::time_point deadline) override;
  size_t read_some(std::span<uint8_t> buf, Clock::time_point deadline) override;
  void close() override;
  bool is_open() const override;
  std::string name() const override;

  uint16_t local_port() const;

 private:
  struct Impl;
  explicit TcpTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cmnet

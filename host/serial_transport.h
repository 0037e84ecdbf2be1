// Serial-port transport (uart:///dev/ttyUSB1?baud=N): boost::asio::serial_port, raw 8N1, no flow
// control. Also works on a pseudo-terminal, which is how the tests drive it.
#pragma once

#include <memory>
#include <string>

#include "host/transport.h"

namespace cmnet {

class SerialTransport : public Transport {
 public:
  // Throws HostError NoDevice (path missing), Io (cannot open or configure).
  static std::unique_ptr<SerialTransport> open(const std::string& device, uint32_t baud);
  ~SerialTransport() override;

  void write_all(std::span<const uint8_t> data, Clock::time_point deadline) override;
  size_t read_some(std::span<uint8_t> buf, Clock::time_point deadline) override;
  void close() override;
  bool is_open() const override;
  std::string name() const override;

 private:
  struct Impl;
  explicit SerialTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cmnet

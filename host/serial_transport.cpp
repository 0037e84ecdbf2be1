#include "host/serial_transport.h"

#include <boost/asio/serial_port.hpp>
#include <boost/asio/write.hpp>
#include <filesystem>

#include "host/asio_deadline.h"
#include "host/errors.h"

namespace cmnet {

namespace asio = boost::asio;

struct SerialTransport::Impl {
  asio::io_context io;
  asio::serial_port port{io};
  std::string name;
  bool open = false;

  [[noreturn]] void fail(const boost::system::error_code& ec, const char* during) {
    // EOF/EIO on a tty means the device went away (USB adapter unplugged, pty master closed).
    if (ec == asio::error::eof || ec.value() == EIO || ec.value() == ENXIO || ec.value() == ENODEV) {
      open = false;
      boost::system::error_code ignored;
      port.close(ignored);
      throw HostError(HostErrorKind::ConnectionClosed,
                      name + ": device vanished during " + during + ": " + ec.message());
    }
    throw HostError(HostErrorKind::Io, name + ": " + during + " failed: " + ec.message());
  }
};

SerialTransport::SerialTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SerialTransport::~SerialTransport() { close(); }

std::unique_ptr<SerialTransport> SerialTransport::open(const std::string& device, uint32_t baud) {
  auto impl = std::make_unique<Impl>();
  impl->name = "uart://" + device + "?baud=" + std::to_string(baud);
  std::error_code fec;
  if (!std::filesystem::exists(device, fec))
    throw HostError(HostErrorKind::NoDevice, impl->name + ": no such device " + device);
  boost::system::error_code ec;
  impl->port.open(device, ec);
  if (ec) throw HostError(HostErrorKind::Io, impl->name + ": cannot open " + device + ": " + ec.message());
  using sp = asio::serial_port;
  impl->port.set_option(sp::baud_rate(baud), ec);
  if (!ec) impl->port.set_option(sp::character_size(8), ec);
  if (!ec) impl->port.set_option(sp::parity(sp::parity::none), ec);
  if (!ec) impl->port.set_option(sp::stop_bits(sp::stop_bits::one), ec);
  if (!ec) impl->port.set_option(sp::flow_control(sp::flow_control::none), ec);
  if (ec)
    throw HostError(HostErrorKind::Io, impl->name + ": cannot configure " + device + " (" +
                                           std::to_string(baud) + " baud 8N1): " + ec.message());
  impl->open = true;
  return std::unique_ptr<SerialTransport>(new SerialTransport(std::move(impl)));
}

void SerialTransport::write_all(std::span<const uint8_t> data, Clock::time_point deadline) {
  if (!impl_->open)
    throw HostError(HostErrorKind::ConnectionClosed, impl_->name + ": write on a closed port");
  boost::system::error_code ec;
  std::size_t n = 0;
  const bool done = detail::run_with_deadline(
      impl_->io, impl_->port,
      [&](auto handler) { asio::async_write(impl_->port, asio::buffer(data.data(), data.size()), handler); },
      deadline, ec, n);
  if (!done) throw HostError(HostErrorKind::Timeout, impl_->name + ": write timed out");
  if (ec) impl_->fail(ec, "write");
}

size_t SerialTransport::read_some(std::span<uint8_t> buf, Clock::time_point deadline) {
  if (!impl_->open)
    throw HostError(HostErrorKind::ConnectionClosed, impl_->name + ": read on a closed port");
  boost::system::error_code ec;
  std::size_t n = 0;
  const bool done = detail::run_with_deadline(
      impl_->io, impl_->port,
      [&](auto handler) { impl_->port.async_read_some(asio::buffer(buf.data(), buf.size()), handler); },
      deadline, ec, n);
  if (!done) return 0;
  if (ec) impl_->fail(ec, "read");
  return n;
}

void SerialTransport::close() {
  if (!impl_) return;
  impl_->open = false;
  boost::system::error_code ec;
  impl_->port.close(ec);
}

bool SerialTransport::is_open() const { return impl_->open; }
std::string SerialTransport::name() const { return impl_->name; }

}  // namespace cmnet

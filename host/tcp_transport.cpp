#include "host/tcp_transport.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "host/asio_deadline.h"
#include "host/errors.h"

namespace cmnet {

namespace asio = boost::asio;
using asio::ip::tcp;

struct TcpTransport::Impl {
  asio::io_context io;
  tcp::socket socket{io};
  std::string name;
  bool open = false;

  [[noreturn]] void fail_closed(const boost::system::error_code& ec, const char* during) {
    open = false;
    boost::system::error_code ignored;
    socket.close(ignored);
    throw HostError(HostErrorKind::ConnectionClosed,
                    name + ": connection closed by the board (device vanished) during " + during +
                        ": " + ec.message());
  }
};

namespace {

bool is_closed_error(const boost::system::error_code& ec) {
  return ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::error::connection_aborted ||
         ec == asio::error::not_connected || ec == asio::error::bad_descriptor ||
         ec == asio::error::shut_down;
}

}  // namespace

TcpTransport::TcpTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TcpTransport::~TcpTransport() { close(); }

std::unique_ptr<TcpTransport> TcpTransport::connect(const std::string& host, uint16_t port,
                                                    std::chrono::milliseconds connect_timeout) {
  auto impl = std::make_unique<Impl>();
  impl->name = "sim://" + host + ":" + std::to_string(port);
  boost::system::error_code ec;
  const std::string literal = host == "localhost" ? "127.0.0.1" : host;
  const auto address = asio::ip::make_address(literal, ec);
  if (ec)
    throw HostError(HostErrorKind::BadUri, impl->name + ": '" + host + "' is not an IP address");
  const tcp::endpoint ep(address, port);
  std::size_t n = 0;
  const auto deadline = Clock::now() + connect_timeout;
  const bool done = detail::run_with_deadline(
      impl->io, impl->socket,
      [&](auto handler) {
        impl->socket.async_connect(ep, [handler](const boost::system::error_code& e) mutable {
          handler(e, 0);
        });
      },
      deadline, ec, n);
  if (!done)
    throw HostError(HostErrorKind::Timeout, impl->name + ": connect timed out after " +
                                                std::to_string(connect_timeout.count()) + " ms");
  if (ec == asio::error::connection_refused)
    throw HostError(HostErrorKind::ConnectionRefused,
                    impl->name + ": connection refused (no board server listening on port " +
                        std::to_string(port) + "; is cmnet-fakeboard or the simulator running?)");
  if (ec) throw HostError(HostErrorKind::Io, impl->name + ": connect failed: " + ec.message());
  impl->socket.set_option(tcp::no_delay(true), ec);
  impl->open = true;
  return std::unique_ptr<TcpTransport>(new TcpTransport(std::move(impl)));
}

void TcpTransport::write_all(std::span<const uint8_t> data, Clock::time_point deadline) {
  if (!impl_->open)
    throw HostError(HostErrorKind::ConnectionClosed, impl_->name + ": write on a closed connection");
  boost::system::error_code ec;
  std::size_t n = 0;
  // Fast path: the socket buffer usually takes a whole frame at once.
  impl_->socket.non_blocking(true, ec);
  n = impl_->socket.write_some(asio::buffer(data.data(), data.size()), ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    ec.clear();
    n = 0;
  }
  if (ec) {
    if (is_closed_error(ec)) impl_->fail_closed(ec, "write");
    throw HostError(HostErrorKind::Io, impl_->name + ": write failed: " + ec.message());
  }
  if (n == data.size()) return;
  data = data.subspan(n);
  const bool done = detail::run_with_deadline(
      impl_->io, impl_->socket,
      [&](auto handler) { asio::async_write(impl_->socket, asio::buffer(data.data(), data.size()), handler); },
      deadline, ec, n);
  if (!done)
    throw HostError(HostErrorKind::Timeout,
                    impl_->name + ": write timed out (the board stopped reading)");
  if (ec) {
    if (is_closed_error(ec)) impl_->fail_closed(ec, "write");
    throw HostError(HostErrorKind::Io, impl_->name + ": write failed: " + ec.message());
  }
}

size_t TcpTransport::read_some(std::span<uint8_t> buf, Clock::time_point deadline) {
  if (!impl_->open)
    throw HostError(HostErrorKind::ConnectionClosed, impl_->name + ": read on a closed connection");
  boost::system::error_code ec;
  std::size_t n = 0;
  const bool done = detail::run_with_deadline(
      impl_->io, impl_->socket,
      [&](auto handler) { impl_->socket.async_read_some(asio::buffer(buf.data(), buf.size()), handler); },
      deadline, ec, n);
  if (!done) return 0;
  if (ec) {
    if (is_closed_error(ec)) impl_->fail_closed(ec, "read");
    throw HostError(HostErrorKind::Io, impl_->name + ": read failed: " + ec.message());
  }
  return n;
}

void TcpTransport::close() {
  if (!impl_) return;
  impl_->open = false;
  boost::system::error_code ec;
  impl_->socket.shutdown(tcp::socket::shutdown_both, ec);
  impl_->socket.close(ec);
}

bool TcpTransport::is_open() const { return impl_->open; }
std::string TcpTransport::name() const { return impl_->name; }

uint16_t TcpTransport::local_port() const {
  boost::system::error_code ec;
  auto ep = impl_->socket.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

}  // namespace cmnet

#include "host/tcp_transport.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cerrno>
#include <cstring>

#include "host/asio_deadline.h"
#include "host/errors.h"

namespace cmnet {

namespace asio = boost::asio;
using asio::ip::tcp;

// Asio connects (with a deadline); the data path is plain blocking send/recv on the socket,
// whose SO_SNDTIMEO / SO_RCVTIMEO bound each call: two system calls per round trip when the
// board answers in time, as a bare socket makes (Asio's deadline wait made five, and cost the
// driver 15 to 20% of the link's raw rate, cmnet-linkbench). The kernel timeouts are set to
// kSlice and shortened only when a deadline is nearer.
struct TcpTransport::Impl {
  static constexpr std::chrono::milliseconds kSlice{50};
  static constexpr std::chrono::milliseconds kCoarseMargin{20};  // > a kernel tick (HZ >= 100)

  asio::io_context io;
  tcp::socket socket{io};
  std::string name;
  bool open = false;
  Clock::duration timeo[2] = {Clock::duration::zero(), Clock::duration::zero()};  // SO_SNDTIMEO, SO_RCVTIMEO

  [[noreturn]] void fail_closed(const std::string& why, const char* during) {
    open = false;
    boost::system::error_code ignored;
    socket.close(ignored);
    throw HostError(HostErrorKind::ConnectionClosed,
                    name + ": connection closed by the board (device vanished) during " + during + ": " + why);
  }

  // Makes the next blocking call on the socket return by the deadline. Returns false if the
  // deadline has passed.
  bool bound(int which, Clock::time_point deadline) {
    // The usual case, a deadline well beyond the slice and the slice set, from the coarse clock:
    // it is steady_clock's (CLOCK_MONOTONIC) at most a tick late, and a read of it costs no TSC
    // read; cache-cold, the precise clock was a sizeable part of the driver's time.
    timespec ts{};
    if (timeo[which] == kSlice && ::clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0) {
      const Clock::time_point coarse{std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec)};
      if (deadline - coarse > kSlice + kCoarseMargin) return true;
    }
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) return false;
    // Whole microseconds, at least 1 (a zero timeval means "never time out").
    const auto us = std::max<int64_t>(
        1, std::chrono::duration_cast<std::chrono::microseconds>(std::min<Clock::duration>(left, kSlice)).count());
    const Clock::duration want = std::chrono::microseconds(us);
    if (want == timeo[which]) return true;  // the usual case: the slice, already set
    timeval tv{static_cast<time_t>(us / 1000000), static_cast<suseconds_t>(us % 1000000)};
    if (::setsockopt(socket.native_handle(), SOL_SOCKET, which == 0 ? SO_SNDTIMEO : SO_RCVTIMEO, &tv, sizeof tv) != 0)
      throw HostError(HostErrorKind::Io, name + ": setsockopt: " + std::strerror(errno));
    timeo[which] = want;
    return true;
  }
};

namespace {

bool is_closed_errno(int e) {
  return e == ECONNRESET || e == EPIPE || e == ECONNABORTED || e == ENOTCONN || e == EBADF || e == ESHUTDOWN;
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
  // Blocking from here on (async_connect left the descriptor non-blocking).
  impl->socket.native_non_blocking(false, ec);
  if (!ec) impl->socket.non_blocking(false, ec);
  if (ec) throw HostError(HostErrorKind::Io, impl->name + ": cannot make the socket blocking: " + ec.message());
  impl->open = true;
  return std::unique_ptr<TcpTransport>(new TcpTransport(std::move(impl)));
}

void TcpTransport::write_all(std::span<const uint8_t> data, Clock::time_point deadline) {
  if (!impl_->open)
    throw HostError(HostErrorKind::ConnectionClosed, impl_->name + ": write on a closed connection");
  const int fd = impl_->socket.native_handle();
  while (!data.empty()) {
    // A frame usually fits the socket buffer: the send returns at once.
    if (!impl_->bound(0, deadline))
      throw HostError(HostErrorKind::Timeout, impl_->name + ": write timed out (the board stopped reading)");
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data = data.subspan(static_cast<size_t>(n));
      continue;
    }
    const int e = errno;
    if (e == EINTR || e == EAGAIN || e == EWOULDBLOCK) continue;  // the slice ran out: look at the deadline
    if (is_closed_errno(e)) impl_->fail_closed(std::strerror(e), "write");
    throw HostError(HostErrorKind::Io, impl_->name + ": write failed: " + std::strerror(e));
  }
}

size_t TcpTransport::read_some(std::span<uint8_t> buf, Clock::time_point deadline) {
  if (!impl_->open)
    throw HostError(HostErrorKind::ConnectionClosed, impl_->name + ": read on a closed connection");
  if (buf.empty()) return 0;
  const int fd = impl_->socket.native_handle();
  for (;;) {
    ssize_t n;
    if (impl_->bound(1, deadline)) {
      n = ::recv(fd, buf.data(), buf.size(), 0);
    } else {
      n = ::recv(fd, buf.data(), buf.size(), MSG_DONTWAIT);  // the deadline passed: what is there
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    }
    if (n > 0) return static_cast<size_t>(n);
    if (n == 0) impl_->fail_closed("End of file", "read");
    const int e = errno;
    if (e == EINTR || e == EAGAIN || e == EWOULDBLOCK) continue;
    if (is_closed_errno(e)) impl_->fail_closed(std::strerror(e), "read");
    throw HostError(HostErrorKind::Io, impl_->name + ": read failed: " + std::strerror(e));
  }
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

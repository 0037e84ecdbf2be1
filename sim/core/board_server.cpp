#include "sim/core/board_server.h"

#include <spdlog/spdlog.h>

#include <array>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <set>
#include <thread>

namespace cmnet {

namespace asio = boost::asio;
using asio::ip::tcp;
using proto::Cmd;
using proto::Frame;
using proto::Status;

// ---------------------------------------------------------------- MemoryBackend

MemoryBackend::MemoryBackend(uint32_t base, uint64_t size_bytes) : base_(base), size_(size_bytes) {}

void MemoryBackend::check(uint32_t addr) const {
  if (addr < base_ || uint64_t{addr} - base_ >= size_) {
    char b[96];
    std::snprintf(b, sizeof b, "address 0x%08x outside memory [0x%08x, +0x%llx)", addr, base_,
                  static_cast<unsigned long long>(size_));
    throw BackendFault(Status::BadAddress, b);
  }
}

uint32_t MemoryBackend::read(uint32_t addr) {
  std::lock_guard lock(mu_);
  if (busy_ > 0) {
    --busy_;
    throw BackendFault(Status::Busy, "memory backend busy (injected)");
  }
  check(addr);
  ++reads_;
  auto it = mem_.find(addr);
  return it == mem_.end() ? 0 : it->second;
}

void MemoryBackend::write(uint32_t addr, uint32_t value) {
  std::lock_guard lock(mu_);
  if (busy_ > 0) {
    --busy_;
    throw BackendFault(Status::Busy, "memory backend busy (injected)");
  }
  check(addr);
  ++writes_;
  mem_[addr] = value;
}

void MemoryBackend::tick() {
  std::lock_guard lock(mu_);
  ++ticks_;
}

void MemoryBackend::inject_busy(unsigned n) {
  std::lock_guard lock(mu_);
  busy_ = n;
}
uint32_t MemoryBackend::peek(uint32_t addr) const {
  std::lock_guard lock(mu_);
  auto it = mem_.find(addr);
  return it == mem_.end() ? 0 : it->second;
}
void MemoryBackend::poke(uint32_t addr, uint32_t value) {
  std::lock_guard lock(mu_);
  mem_[addr] = value;
}
uint64_t MemoryBackend::reads() const {
  std::lock_guard lock(mu_);
  return reads_;
}
uint64_t MemoryBackend::writes() const {
  std::lock_guard lock(mu_);
  return writes_;
}
uint64_t MemoryBackend::ticks() const {
  std::lock_guard lock(mu_);
  return ticks_;
}

// ---------------------------------------------------------------- request execution

namespace {

bool burst_in_range(uint32_t addr, size_t n, uint8_t flags) {
  if (flags & proto::kFlagNoIncrement) return true;
  return uint64_t{addr} + 4 * (uint64_t{n} - 1) <= 0xFFFFFFFFull;
}

Frame execute_unchecked(const Frame& req, RegisterBackend& be) {
  const size_t len = req.payload.size();
  const bool aligned = (req.addr & 3) == 0;
  const uint32_t step = (req.flags & proto::kFlagNoIncrement) ? 0 : 4;
  switch (static_cast<Cmd>(req.type)) {
    case Cmd::Ping:
      if (len != 0) return make_reply(req, Status::BadLength);
      return make_reply(req, Status::Ok, {uint32_t{proto::kVersion} | (uint32_t{proto::kMaxWords} << 16)});
    case Cmd::Read:
      if (len != 0) return make_reply(req, Status::BadLength);
      if (!aligned) return make_reply(req, Status::BadAddress);
      return make_reply(req, Status::Ok, {be.read(req.addr)});
    case Cmd::Write:
      if (len != 1) return make_reply(req, Status::BadLength);
      if (!aligned) return make_reply(req, Status::BadAddress);
      be.write(req.addr, req.payload[0]);
      return make_reply(req, Status::Ok);
    case Cmd::BurstWrite:
      if (len < 1 || len > proto::kMaxWords) return make_reply(req, Status::BadLength);
      if (!aligned || !burst_in_range(req.addr, len, req.flags)) return make_reply(req, Status::BadAddress);
      for (size_t i = 0; i < len; ++i) be.write(req.addr + static_cast<uint32_t>(i) * step, req.payload[i]);
      return make_reply(req, Status::Ok);
    case Cmd::BurstRead: {
      if (len != 1) return make_reply(req, Status::BadLength);
      const uint32_t n = req.payload[0];
      if (n < 1 || n > proto::kMaxWords) return make_reply(req, Status::BadLength);
      if (!aligned || !burst_in_range(req.addr, n, req.flags)) return make_reply(req, Status::BadAddress);
      std::vector<uint32_t> out(n);
      for (uint32_t i = 0; i < n; ++i) out[i] = be.read(req.addr + i * step);
      return make_reply(req, Status::Ok, std::move(out));
    }
  }
  return make_reply(req, Status::UnknownCommand);
}

}  // namespace

Frame execute_request(const Frame& req, RegisterBackend& be) {
  Frame reply;
  if (req.version != proto::kVersion) {
    reply = make_reply(req, Status::BadVersion);
    reply.version = proto::kVersion;
    return reply;
  }
  if (req.is_reply()) return make_reply(req, Status::UnknownCommand);
  try {
    reply = execute_unchecked(req, be);
  } catch (const BackendFault& f) {
    spdlog::debug("board: {} -> {}: {}", proto::describe(req), proto::status_name(static_cast<uint8_t>(f.status)),
                  f.what());
    reply = make_reply(req, f.status);
  } catch (const std::exception& e) {
    spdlog::warn("board: {} failed in the backend: {}", proto::describe(req), e.what());
    reply = make_reply(req, Status::Internal);
  }
  try {
    be.tick();
  } catch (const std::exception& e) {
    spdlog::warn("board: backend tick failed: {}", e.what());
  }
  return reply;
}

Frame reply_for_event(const proto::DecodeEvent& ev, RegisterBackend& be) {
  using K = proto::DecodeEvent::Kind;
  switch (ev.kind) {
    case K::Frame: return execute_request(ev.frame, be);
    case K::BadCrc: return make_reply(ev.frame, Status::BadCrc);
    case K::BadLength: return make_reply(ev.frame, Status::BadLength);
    case K::BadVersion: {
      Frame r = make_reply(ev.frame, Status::BadVersion);
      r.version = proto::kVersion;
      return r;
    }
    case K::UartBone: break;  // no reply frame
  }
  return make_reply(ev.frame, Status::Internal);
}

void execute_uartbone(const proto::DecodeEvent& ev, RegisterBackend& be, std::vector<uint8_t>& out) {
  const Frame& c = ev.frame;
  const uint32_t step = (c.flags & proto::kFlagNoIncrement) ? 0 : 4;
  const bool write = proto::uartbone::is_write(c.type);
  for (size_t i = 0; i < ev.declared_len; ++i) {
    const uint32_t a = c.addr + static_cast<uint32_t>(i) * step;  // wraps at 4 GiB, as the RTL's
    uint32_t v = proto::uartbone::kFailedRead;
    try {
      if (write) be.write(a, c.payload[i]);
      else v = be.read(a);
    } catch (const std::exception& e) {
      spdlog::debug("board: UARTBone {} at 0x{:08x} failed: {}", write ? "write" : "read", a, e.what());
      v = proto::uartbone::kFailedRead;  // this word only, as LiteX's bus timeout answers it
    }
    if (!write)
      for (int b = 3; b >= 0; --b) out.push_back(static_cast<uint8_t>(v >> (8 * b)));
  }
  if (ev.declared_len == 0) return;  // nothing executed (the RTL does not tick either)
  try {
    be.tick();
  } catch (const std::exception& e) {
    spdlog::warn("board: backend tick failed: {}", e.what());
  }
}

void append_reply(const proto::DecodeEvent& ev, RegisterBackend& be, std::vector<uint8_t>& out) {
  if (ev.kind == proto::DecodeEvent::Kind::UartBone) execute_uartbone(ev, be, out);
  else proto::encode(reply_for_event(ev, be), out);
}

// ---------------------------------------------------------------- server

namespace {
struct Session;
}

struct detail::BoardServerImpl {
  RegisterBackend& backend;
  BoardServerOptions opt;
  asio::io_context io;
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};
  std::set<std::shared_ptr<Session>> sessions;  // I/O thread only
  std::thread thread;
  std::atomic<std::thread::id> io_thread{};
  std::atomic<bool> stopping{false};
  uint16_t port = 0;

  std::atomic<uint64_t> connections{0}, rejected{0}, frames{0}, uartbone{0}, error_replies{0}, garbage{0},
      dropped_partials{0}, idle_closed{0}, active{0};

  BoardServerImpl(RegisterBackend& b, BoardServerOptions o) : backend(b), opt(o) {}
  void do_accept();
  void close_all();
};

namespace {

using Clock = std::chrono::steady_clock;

struct Session : std::enable_shared_from_this<Session> {
  detail::BoardServerImpl& srv;
  tcp::socket sock;
  asio::steady_timer timer;
  proto::FrameDecoder dec{srv.opt.accept_uartbone};
  std::array<uint8_t, 4096> rbuf{};
  std::vector<uint8_t> pending, in_flight;
  bool reading = false, writing = false, closed = false;
  Clock::time_point last_rx, last_activity;
  uint64_t garbage_seen = 0;
  std::string peer;

  Session(detail::BoardServerImpl& s, tcp::socket so) : srv(s), sock(std::move(so)), timer(s.io) {
    boost::system::error_code ec;
    auto ep = sock.remote_endpoint(ec);
    peer = ec ? "?" : ep.address().to_string() + ":" + std::to_string(ep.port());
    sock.set_option(tcp::no_delay(true), ec);
  }

  Clock::duration tick_period() const {
    auto p = std::min(srv.opt.frame_timeout, srv.opt.idle_timeout) / 4;
    return std::clamp<Clock::duration>(p, std::chrono::milliseconds(5), std::chrono::milliseconds(250));
  }

  void start() {
    last_rx = last_activity = Clock::now();
    do_read();
    arm_timer();
  }

  void do_read() {
    if (closed || reading || pending.size() >= srv.opt.max_pending_output) return;
    reading = true;
    sock.async_read_some(asio::buffer(rbuf), [self = shared_from_this()](const boost::system::error_code& ec,
                                                                         std::size_t n) { self->on_read(ec, n); });
  }

  void on_read(const boost::system::error_code& ec, std::size_t n) {
    reading = false;
    if (closed) return;
    if (ec) {
      spdlog::debug("board server: client {} gone: {}", peer, ec.message());
      close();
      return;
    }
    last_rx = last_activity = Clock::now();
    dec.feed(std::span<const uint8_t>(rbuf.data(), n));
    drain_events();
    start_write();
    do_read();
  }

  void drain_events() {
    while (auto ev = dec.next()) {
      if (ev->kind == proto::DecodeEvent::Kind::UartBone) {
        // Named as what it is (LiteX's litex_server / CommUART), not as a frame.
        const auto& c = ev->frame;
        spdlog::debug("board server: client {}: UARTBone {}{} of {} word(s) at 0x{:08x} (word address 0x{:08x})",
                      peer, proto::uartbone::is_write(c.type) ? "write" : "read",
                      (c.flags & proto::kFlagNoIncrement) ? " (fixed address)" : "", ev->declared_len, c.addr,
                      c.addr >> 2);
      } else if (ev->kind != proto::DecodeEvent::Kind::Frame) {
        spdlog::debug("board server: client {}: {} in {}", peer, proto::event_kind_name(ev->kind),
                      proto::describe(ev->frame));
      }
      if (ev->kind == proto::DecodeEvent::Kind::UartBone) {
        ++srv.uartbone;
        execute_uartbone(*ev, srv.backend, pending);
        continue;
      }
      Frame reply = reply_for_event(*ev, srv.backend);
      if (ev->kind == proto::DecodeEvent::Kind::Frame) ++srv.frames;
      if (reply.status != 0) ++srv.error_replies;
      proto::encode(reply, pending);
    }
    srv.garbage += dec.garbage_bytes() - garbage_seen;
    garbage_seen = dec.garbage_bytes();
  }

  void start_write() {
    if (closed || writing || pending.empty()) return;
    in_flight.swap(pending);
    pending.clear();
    writing = true;
    asio::async_write(sock, asio::buffer(in_flight),
                      [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                        self->on_write(ec);
                      });
  }

  void on_write(const boost::system::error_code& ec) {
    writing = false;
    if (closed) return;
    if (ec) {
      spdlog::debug("board server: write to client {} failed: {}", peer, ec.message());
      close();
      return;
    }
    in_flight.clear();
    last_activity = Clock::now();
    start_write();
    do_read();
  }

  void arm_timer() {
    timer.expires_after(tick_period());
    timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec && !self->closed) self->on_timer();
    });
  }

  void on_timer() {
    const auto now = Clock::now();
    if (dec.buffered() > 0 && now - last_rx >= srv.opt.frame_timeout) {
      spdlog::debug("board server: client {}: dropping a partial frame ({} bytes) stalled for {} ms", peer,
                    dec.buffered(), srv.opt.frame_timeout.count());
      while (dec.buffered() > 0) dec.discard_partial();
      ++srv.dropped_partials;
      drain_events();
      start_write();
      do_read();
    }
    if (now - last_activity >= srv.opt.idle_timeout) {
      spdlog::debug("board server: closing client {} after {} ms idle", peer, srv.opt.idle_timeout.count());
      ++srv.idle_closed;
      close();
      return;
    }
    arm_timer();
  }

  void close() {
    if (closed) return;
    closed = true;
    boost::system::error_code ec;
    sock.shutdown(tcp::socket::shutdown_both, ec);
    sock.close(ec);
    timer.cancel();
    --srv.active;
    srv.sessions.erase(shared_from_this());
  }
};

}  // namespace

void detail::BoardServerImpl::do_accept() {
  acceptor.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
    if (stopping || !acceptor.is_open()) return;
    if (ec) {
      if (ec == asio::error::operation_aborted) return;
      spdlog::warn("board server: accept failed: {}; retrying", ec.message());
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this](const boost::system::error_code& e) {
        if (!e) do_accept();
      });
      return;
    }
    if (sessions.size() >= opt.max_clients) {
      ++rejected;
      spdlog::warn("board server: refusing a client: already {} clients", sessions.size());
      boost::system::error_code ignored;
      socket.close(ignored);
    } else {
      ++connections;
      ++active;
      auto s = std::make_shared<Session>(*this, std::move(socket));
      spdlog::debug("board server: client {} connected", s->peer);
      sessions.insert(s);
      s->start();
    }
    do_accept();
  });
}

void detail::BoardServerImpl::close_all() {
  boost::system::error_code ec;
  acceptor.close(ec);
  accept_retry.cancel();
  auto copy = sessions;
  for (auto& s : copy) s->close();
  sessions.clear();
}

BoardServer::BoardServer(RegisterBackend& backend, BoardServerOptions options)
    : impl_(std::make_unique<detail::BoardServerImpl>(backend, options)) {
  const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), options.port);
  boost::system::error_code ec;
  impl_->acceptor.open(ep.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(ep, ec);
  if (!ec) impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("board server: cannot listen on 127.0.0.1:" + std::to_string(options.port) + ": " +
                             ec.message());
  impl_->port = impl_->acceptor.local_endpoint().port();
  impl_->do_accept();
}

BoardServer::~BoardServer() {
  stop();
  // Our thread is joined; if a caller's thread was inside run(), the posted close_all() did it.
  if (impl_->io_thread.load() == std::thread::id{}) impl_->close_all();
}

uint16_t BoardServer::port() const { return impl_->port; }

void BoardServer::start() {
  if (impl_->thread.joinable() || impl_->stopping) return;
  impl_->thread = std::thread([this] { run(); });
}

void BoardServer::run() {
  impl_->io_thread = std::this_thread::get_id();
  for (;;) {
    try {
      impl_->io.run();
      break;
    } catch (const std::exception& e) {
      spdlog::error("board server: handler failed: {}; continuing", e.what());
    }
  }
  impl_->io_thread = std::thread::id{};
}

void BoardServer::stop() {
  if (!impl_->stopping.exchange(true)) {
    asio::post(impl_->io, [impl = impl_.get()] {
      impl->close_all();
      impl->io.stop();
    });
  }
  if (impl_->thread.joinable() && impl_->thread.get_id() != std::this_thread::get_id()) impl_->thread.join();
}

BoardServerStats BoardServer::stats() const {
  BoardServerStats s;
  s.connections = impl_->connections;
  s.rejected_connections = impl_->rejected;
  s.frames = impl_->frames;
  s.uartbone_commands = impl_->uartbone;
  s.error_replies = impl_->error_replies;
  s.garbage_bytes = impl_->garbage;
  s.dropped_partials = impl_->dropped_partials;
  s.idle_closed = impl_->idle_closed;
  s.active_clients = impl_->active;
  return s;
}

}  // namespace cmnet

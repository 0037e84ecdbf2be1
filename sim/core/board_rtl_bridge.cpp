#include "sim/core/board_rtl_bridge.h"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <boost/asio/ip/tcp.hpp>
#include <cerrno>
#include <cstdio>
#include <stdexcept>

namespace cmnet::rtlsim {

namespace asio = boost::asio;
using asio::ip::tcp;

// ---------------------------------------------------------------- UartHostLine

UartHostLine::UartHostLine(int clks_per_bit) : cpb_(clks_per_bit) {
  if (clks_per_bit < 4) throw std::invalid_argument("UartHostLine: clks_per_bit must be >= 4");
}

bool UartHostLine::drive(std::deque<uint8_t>& to_board) {
  if (tx_left_ == 0 && !to_board.empty()) {
    // start bit (0), 8 data bits LSB first, stop bit (1)
    tx_bits_ = static_cast<uint16_t>((1u << 9) | (static_cast<unsigned>(to_board.front()) << 1));
    to_board.pop_front();
    tx_left_ = 10;
    tx_cnt_ = 0;
  }
  if (tx_left_ == 0) return true;
  const bool level = tx_bits_ & 1u;
  if (++tx_cnt_ == cpb_) {
    tx_cnt_ = 0;
    tx_bits_ >>= 1;
    --tx_left_;
  }
  return level;
}

void UartHostLine::sample(bool txd, std::vector<uint8_t>& to_host) {
  switch (rx_state_) {
    case 0:
      if (!txd) {
        rx_state_ = 1;
        rx_cnt_ = 0;
      }
      break;
    case 1:  // the falling edge was this line's first low cycle: sample mid-bit from there
      if (++rx_cnt_ == cpb_ / 2) {
        if (txd) {
          rx_state_ = 0;  // a glitch
        } else {
          rx_state_ = 2;
          rx_cnt_ = 0;
          rx_bit_ = 0;
          rx_byte_ = 0;
        }
      }
      break;
    case 2:
      if (++rx_cnt_ == cpb_) {
        rx_cnt_ = 0;
        rx_byte_ = static_cast<uint8_t>(rx_byte_ | (txd ? 1u << rx_bit_ : 0u));
        if (++rx_bit_ == 8) rx_state_ = 3;
      }
      break;
    default:
      if (++rx_cnt_ == cpb_) {
        if (txd) to_host.push_back(rx_byte_);
        else ++framing_errors_;
        rx_state_ = 0;
      }
      break;
  }
}

// ---------------------------------------------------------------- Ft245Chip

Ft245Chip::Ft245Chip(uint32_t seed, int stall_percent) : rng_(seed), stall_percent_(stall_percent) {}

Ft245Chip::ChipPins Ft245Chip::outputs(const std::deque<uint8_t>& to_board, bool oe_n) const {
  ChipPins p;
  p.rxf_n = to_board.empty() || rx_stall_;
  p.txe_n = tx_stall_;
  // With OE# high the chip does not drive: the FPGA must not use what it reads then.
  p.data = (!oe_n && !to_board.empty()) ? to_board.front() : 0xEE;
  return p;
}

void Ft245Chip::violation(const std::string& what) {
  if (violations_++ == 0) first_violation_ = what;
}

void Ft245Chip::edge(const FpgaPins& f, std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) {
  const ChipPins p = outputs(to_board, f.oe_n);
  if (!f.oe_n && f.data_oe) violation("bus contention: OE# low while the FPGA drives the data bus");
  if (!f.rd_n && f.oe_n) violation("RD# low with OE# high");
  if (!f.wr_n && !f.data_oe) violation("WR# low while the FPGA does not drive the data bus");
  if (!f.rd_n && !f.wr_n) violation("RD# and WR# low together");
  if (!p.rxf_n && !f.rd_n && !f.oe_n) to_board.pop_front();
  if (!p.txe_n && !f.wr_n && f.data_oe) to_host.push_back(f.data_out);
  if (stall_percent_ > 0) {
    std::uniform_int_distribution<int> d(0, 99);
    rx_stall_ = d(rng_) < stall_percent_;
    tx_stall_ = d(rng_) < stall_percent_;
    stalls_ += rx_stall_ + tx_stall_;
  }
}

// ---------------------------------------------------------------- BoardRtlBridge

struct BoardRtlBridge::Impl {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::unique_ptr<tcp::socket> client;
  std::deque<uint8_t> to_board;
  std::vector<uint8_t> to_host;   // produced by the model, not yet written
  size_t written = 0;             // bytes of to_host already written
};

BoardRtlBridge::BoardRtlBridge(ByteLinkModel& model, BridgeOptions options)
    : impl_(std::make_unique<Impl>()), model_(model), opt_(options) {
  const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), options.port);
  boost::system::error_code ec;
  impl_->acceptor.open(ep.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(ep, ec);
  if (!ec) impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (!ec) impl_->acceptor.non_blocking(true, ec);
  if (ec)
    throw std::runtime_error("rtl bridge: cannot listen on 127.0.0.1:" + std::to_string(options.port) + ": " +
                             ec.message());
}

BoardRtlBridge::~BoardRtlBridge() = default;

uint16_t BoardRtlBridge::port() const { return impl_->acceptor.local_endpoint().port(); }

void BoardRtlBridge::run(const std::atomic<bool>& stop) {
  Impl& s = *impl_;
  using Clock = std::chrono::steady_clock;
  std::vector<uint8_t> rbuf(64 * 1024);
  Clock::time_point last_byte = Clock::now();  // the last byte the board took, or a drop
  auto expire = [&](const char* why) {
    std::fprintf(stderr, "rtl bridge: dropping a stalled partial frame or command (%s)\n", why);
    model_.expire_stall(s.to_board, s.to_host);
    ++stats_.expired_stalls;
    last_byte = Clock::now();
  };
  bool stale = false;  // a client left; its partial frame, if any, is still to be dropped
  auto drop_client = [&] {
    boost::system::error_code ec;
    s.client->shutdown(tcp::socket::shutdown_both, ec);
    s.client->close(ec);
    s.client.reset();
    s.to_board.clear();
    stats_.dropped_bytes += s.to_host.size() - s.written;
    s.to_host.clear();
    s.written = 0;
    // A partial frame of the client that left is dropped before the next client's bytes go
    // in: they must not complete it (a serial port cannot tell, a TCP connection can).
    stale = true;
  };

  while (!stop.load()) {
    // Accept a client when none is served; later ones wait in the listen backlog.
    if (!s.client) {
      boost::system::error_code ec;
      tcp::socket sock(s.io);
      s.acceptor.accept(sock, ec);
      if (!ec) {
        sock.non_blocking(true, ec);
        sock.set_option(tcp::no_delay(true), ec);
        s.client = std::make_unique<tcp::socket>(std::move(sock));
        ++stats_.connections;
      }
    }
    // Once the board has taken the bytes of a client that left, drop its partial frame.
    if (stale && s.to_board.empty() && model_.activity() != ByteLinkModel::Activity::Busy) {
      if (model_.activity() == ByteLinkModel::Activity::Waiting) expire("its client left");
      stale = false;
    }
    // Read what the client sent.
    while (s.client && !stale && s.to_board.size() < opt_.max_to_board) {
      boost::system::error_code ec;
      const size_t n = s.client->read_some(asio::buffer(rbuf), ec);
      if (ec == asio::error::would_block) break;
      if (ec) {
        drop_client();
        break;
      }
      s.to_board.insert(s.to_board.end(), rbuf.begin(), rbuf.begin() + static_cast<long>(n));
      stats_.bytes_to_board += n;
    }

    // Clock the model.
    auto act = model_.activity();
    uint64_t budget = 0;
    if (!s.to_board.empty() || act == ByteLinkModel::Activity::Busy) budget = 1 << 16;
    for (uint64_t i = 0; i < budget; ++i) {
      model_.cycle(s.to_board, s.to_host);
      ++stats_.cycles;
      if (s.to_board.empty() && model_.activity() != ByteLinkModel::Activity::Busy) break;
    }
    if (budget > 0) last_byte = Clock::now();
    if (!s.client) {
      stats_.dropped_bytes += s.to_host.size();
      s.to_host.clear();
    }

    // Write what the board sent.
    while (s.client && s.written < s.to_host.size()) {
      boost::system::error_code ec;
      const size_t n = s.client->write_some(asio::buffer(s.to_host.data() + s.written, s.to_host.size() - s.written), ec);
      if (ec == asio::error::would_block) break;
      if (ec) {
        drop_client();
        break;
      }
      s.written += n;
      stats_.bytes_to_host += n;
    }
    if (s.written == s.to_host.size()) {
      s.to_host.clear();
      s.written = 0;
    }

    // Nothing to clock: wait for the sockets. While a partial frame waits no cycles pass; its
    // stall timeout is wall time since the board last took a byte (or was busy).
    act = model_.activity();
    if (!s.to_board.empty() || act == ByteLinkModel::Activity::Busy) {
      last_byte = Clock::now();
      continue;
    }
    const bool waiting = act == ByteLinkModel::Activity::Waiting;
    int wait_ms = 50;
    if (waiting) {
      const auto left = std::chrono::milliseconds(opt_.stall_timeout_ms) - (Clock::now() - last_byte);
      if (left <= Clock::duration::zero()) {
        expire("stall timeout");
        continue;
      }
      wait_ms = static_cast<int>(std::min<int64_t>(
          50, std::chrono::ceil<std::chrono::milliseconds>(left).count()));
    } else {
      last_byte = Clock::now();
    }
    pollfd fds[2];
    nfds_t nfds = 0;
    if (!s.client) fds[nfds++] = {s.acceptor.native_handle(), POLLIN, 0};
    if (s.client) {
      short ev = POLLIN;
      if (s.written < s.to_host.size()) ev |= POLLOUT;
      fds[nfds++] = {s.client->native_handle(), ev, 0};
    }
    ::poll(fds, nfds, wait_ms);
  }
  if (s.client) drop_client();
}

}  // namespace cmnet::rtlsim

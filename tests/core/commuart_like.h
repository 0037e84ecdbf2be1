// A UARTBone client that behaves exactly like LiteX's CommUART (litex/tools/remote/comm_uart.py)
// over pyserial's socket:// URL, the way a new user reaches a simulated board: every command's
// bytes are written in separate writes with a gap between them (CommUART writes the command
// and length, then the address, then the data; over TCP with Nagle the parts arrive tens of
// milliseconds apart; here every byte boundary is split, to be sure), reads are split into
// bursts of at most 255 words, writes into commands of at most max_write_words(baud) words (142 at
// CommUART's default 115200 baud), and it has no timeout of its own: it waits for an answer as
// long as it takes. So a board whose stall timeout is shorter than the gaps hangs this client.
// (The only bound is a hang detector far beyond any answer's time, so a broken board fails the
// test instead of hanging the test run.)
#pragma once

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cmnet::testing_support {

class CommUartLike {
 public:
  // gap: the pause between two writes (every byte is a write of its own). baud: the UART rate
  // CommUART was opened with; it sets the write split (max_write_words), nothing else here.
  CommUartLike(uint16_t port, std::chrono::milliseconds gap, int baud = 115200)
      : gap_(gap), max_write_(max_write_words(baud)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
      throw std::runtime_error("CommUartLike: cannot connect to 127.0.0.1:" + std::to_string(port));
    const int one = 1;  // each write goes out at once: the gaps reach the board as gaps
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~CommUartLike() {
    if (fd_ >= 0) ::close(fd_);
  }
  CommUartLike(const CommUartLike&) = delete;
  CommUartLike& operator=(const CommUartLike&) = delete;

  // CommUART._get_max_write_burst_length: a write command must reach the board well inside
  // UARTBone's 100 ms timeout, so it may take half of that on the wire (10 bits a byte), less
  // the command, length and 4 address bytes; 1..255 words. The same double arithmetic as
  // Python's, so the same truncation: 142 at 115200 baud.
  static size_t max_write_words(int baud) {
    if (baud <= 0) throw std::invalid_argument("CommUartLike: baud must be > 0");
    const double timeout = 0.100 * 0.5;
    const double byte_time = 10.0 / baud;
    const long max_bytes = static_cast<long>(timeout / byte_time);
    const long words = (max_bytes - (2 + 4)) / 4;
    return static_cast<size_t>(std::max(1L, std::min(255L, words)));
  }
  size_t max_write_words() const { return max_write_; }
  // Write commands sent so far (a burst longer than max_write_words() is several).
  size_t write_commands() const { return write_commands_; }

  // CommUART.read(addr, length, burst): commands of at most 255 words.
  std::vector<uint32_t> read(uint32_t byte_addr, size_t n, bool fixed = false) {
    std::vector<uint32_t> out;
    while (out.size() < n) {
      const size_t k = std::min<size_t>(255, n - out.size());
      const uint32_t a = byte_addr + (fixed ? 0u : static_cast<uint32_t>(4 * out.size()));
      send_split(header(fixed ? 0x04 : 0x02, k, a));
      for (size_t i = 0; i < k; ++i) {
        const auto b = recv_exact(4);
        out.push_back(static_cast<uint32_t>(b[0]) << 24 | static_cast<uint32_t>(b[1]) << 16 |
                      static_cast<uint32_t>(b[2]) << 8 | b[3]);
      }
    }
    return out;
  }
  // CommUART.write(addr, data, burst): commands of at most max_write_words(); not answered.
  void write(uint32_t byte_addr, const std::vector<uint32_t>& words, bool fixed = false) {
    for (size_t at = 0; at < words.size(); at += max_write_) {
      const size_t k = std::min(max_write_, words.size() - at);
      auto c = header(fixed ? 0x03 : 0x01, k, byte_addr + (fixed ? 0u : static_cast<uint32_t>(4 * at)));
      for (size_t i = 0; i < k; ++i)
        for (int s = 24; s >= 0; s -= 8) c.push_back(static_cast<uint8_t>(words[at + i] >> s));
      send_split(c);
      ++write_commands_;
    }
  }
  // Any bytes (a cmnet frame, say), one write per byte with the gap between them.
  void send_split(const std::vector<uint8_t>& bytes) {
    for (size_t i = 0; i < bytes.size(); ++i) {
      if (i > 0) std::this_thread::sleep_for(gap_);
      if (::send(fd_, &bytes[i], 1, MSG_NOSIGNAL) != 1) throw std::runtime_error("CommUartLike: send failed");
    }
  }
  std::vector<uint8_t> recv_exact(size_t n) {
    // Hang detector only (see the top): no answer within minutes means the board is broken.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
    std::vector<uint8_t> b(n);
    size_t got = 0;
    while (got < n) {
      pollfd p{fd_, POLLIN, 0};
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("CommUartLike: no answer (the board dropped the command: hang)");
      if (::poll(&p, 1, 100) <= 0) continue;
      const ssize_t k = ::recv(fd_, b.data() + got, n - got, 0);
      if (k <= 0) throw std::runtime_error("CommUartLike: connection closed");
      got += static_cast<size_t>(k);
    }
    return b;
  }
  int fd() const { return fd_; }

 private:
  static std::vector<uint8_t> header(uint8_t cmd, size_t n, uint32_t byte_addr) {
    const uint32_t w = byte_addr >> 2;  // CommUART sends the word address, big-endian
    return {cmd, static_cast<uint8_t>(n), static_cast<uint8_t>(w >> 24), static_cast<uint8_t>(w >> 16),
            static_cast<uint8_t>(w >> 8), static_cast<uint8_t>(w)};
  }
  int fd_ = -1;
  std::chrono::milliseconds gap_;
  size_t max_write_;
  size_t write_commands_ = 0;
};

}  // namespace cmnet::testing_support

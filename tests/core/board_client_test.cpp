// The host driver (host/board_client.h) against scripted transports, against the simulated
// board server (sim/core/board_server.h) over TCP loopback, against a killed cmnet-fakeboard child
// process, and over a pseudo-terminal with the serial transport. Every wait has a deadline.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <functional>
#include <numeric>
#include <random>
#include <thread>

#include "host/board_client.h"
#include "host/tcp_transport.h"
#include "host/uartbone_client.h"
#include "sim/core/board_server.h"
#include "tests/core/commuart_like.h"

extern char** environ;

using namespace cmnet;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Deadlines for things that must happen (a reply, a close, a port line): long enough never to
// pass on a slow or loaded machine, since they only end the wait when something is broken. The
// tests assert what happened, not how fast; the speed of the link is cmnet-linkbench's business.
constexpr auto kReplyTimeout = 10000ms;  // BoardClient timeout where the reply must come
constexpr auto kHangGuard = 30000ms;     // waiting for an event that must happen

// Runs f, expects a HostError of the given kind, returns it.
template <typename F>
HostError expect_host_error(HostErrorKind kind, F&& f) {
  try {
    f();
  } catch (const HostError& e) {
    EXPECT_EQ(e.kind(), kind) << "got " << host_error_kind_name(e.kind()) << ": " << e.what();
    return e;
  }
  ADD_FAILURE() << "no HostError (" << host_error_kind_name(kind) << ") thrown";
  return HostError(kind, "");
}

// ------------------------------------------------------------------ a scripted in-memory link

// Decodes what the client writes and queues whatever the responder returns for each request.
class ScriptedTransport : public Transport {
 public:
  using Responder = std::function<std::vector<uint8_t>(const proto::Frame& req, int index)>;
  explicit ScriptedTransport(Responder r) : responder_(std::move(r)) {}

  void write_all(std::span<const uint8_t> data, Clock::time_point) override {
    if (!open_) throw HostError(HostErrorKind::ConnectionClosed, "scripted: closed");
    dec_.feed(data);
    while (auto e = dec_.next()) {
      requests.push_back(e->frame);
      auto bytes = responder_(e->frame, count_++);
      inbox_.insert(inbox_.end(), bytes.begin(), bytes.end());
    }
  }
  size_t read_some(std::span<uint8_t> buf, Clock::time_point deadline) override {
    if (!open_) throw HostError(HostErrorKind::ConnectionClosed, "scripted: closed");
    if (inbox_.empty()) {
      if (vanish_when_idle) {
        open_ = false;
        throw HostError(HostErrorKind::ConnectionClosed, "scripted: connection closed by the board (device vanished)");
      }
      std::this_thread::sleep_until(deadline);
      return 0;
    }
    const size_t n = std::min({buf.size(), inbox_.size(), max_chunk});
    std::copy_n(inbox_.begin(), n, buf.begin());
    inbox_.erase(inbox_.begin(), inbox_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }
  void close() override { open_ = false; }
  bool is_open() const override { return open_; }
  std::string name() const override { return "scripted://"; }

  std::vector<proto::Frame> requests;
  size_t max_chunk = 7;  // deliver replies in small pieces to exercise the streaming decoder
  bool vanish_when_idle = false;

 private:
  Responder responder_;
  proto::FrameDecoder dec_;
  std::deque<uint8_t> inbox_;
  int count_ = 0;
  bool open_ = true;
};

struct Scripted {
  ScriptedTransport* link;
  BoardClient client;
};

Scripted scripted(ScriptedTransport::Responder r, std::chrono::milliseconds timeout = 100ms, int retries = 2) {
  auto t = std::make_unique<ScriptedTransport>(std::move(r));
  auto* raw = t.get();
  BoardClientOptions o;
  o.timeout = timeout;
  o.retries = retries;
  return Scripted{raw, BoardClient(std::move(t), o)};
}

std::vector<uint8_t> bytes_of(const proto::Frame& f) { return proto::encode(f); }

// ------------------------------------------------------------------ raw sockets for bad clients

int raw_connect(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  return fd;
}

void send_all(int fd, std::span<const uint8_t> b) {
  while (!b.empty()) {
    const ssize_t n = ::send(fd, b.data(), b.size(), MSG_NOSIGNAL);
    ASSERT_GT(n, 0) << std::strerror(errno);
    b = b.subspan(static_cast<size_t>(n));
  }
}

// Reads until one decoder event (or EOF / deadline).
std::optional<proto::DecodeEvent> recv_event(int fd, proto::FrameDecoder& dec, std::chrono::milliseconds timeout = kHangGuard) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (auto e = dec.next()) return e;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return std::nullopt;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    uint8_t buf[4096];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return std::nullopt;
    dec.feed(std::span(buf, static_cast<size_t>(n)));
  }
}

// True if the peer closed the connection within the timeout.
bool wait_for_eof(int fd, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    uint8_t buf[256];
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN)) return true;
  }
  return false;
}

uint16_t unused_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// Accepts connections and never answers.
class SilentServer {
 public:
  SilentServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd_, 4);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 20) > 0) {
          const int c = ::accept(fd_, nullptr, nullptr);
          if (c >= 0) accepted_.push_back(c);
        }
      }
    });
  }
  ~SilentServer() {
    stop_ = true;
    thread_.join();
    for (int c : accepted_) ::close(c);
    ::close(fd_);
  }
  uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::vector<int> accepted_;
  std::thread thread_;
};

// cmnet-fakeboard as a child process.
class FakeboardProcess {
 public:
  FakeboardProcess() {
    int p[2];
    if (::pipe(p) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addclose(&fa, p[0]);
    posix_spawn_file_actions_addclose(&fa, p[1]);
    std::string path = CMNET_FAKEBOARD;
    char* argv[] = {path.data(), const_cast<char*>("--port"), const_cast<char*>("0"), nullptr};
    const int rc = posix_spawn(&pid_, path.c_str(), &fa, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(p[1]);
    if (rc != 0) {
      ::close(p[0]);
      pid_ = -1;
      throw std::runtime_error("cannot spawn " + path + ": " + std::strerror(rc));
    }
    // Read the port line, with a deadline.
    std::string line;
    const auto deadline = Clock::now() + kHangGuard;
    while (line.find('\n') == std::string::npos && Clock::now() < deadline) {
      pollfd pf{p[0], POLLIN, 0};
      if (::poll(&pf, 1, 50) <= 0) continue;
      char buf[64];
      const ssize_t n = ::read(p[0], buf, sizeof buf);
      if (n <= 0) break;
      line.append(buf, static_cast<size_t>(n));
    }
    ::close(p[0]);
    port_ = static_cast<uint16_t>(std::atoi(line.c_str()));
    if (port_ == 0) throw std::runtime_error("cmnet-fakeboard printed no port: '" + line + "'");
  }
  ~FakeboardProcess() { kill(); }
  uint16_t port() const { return port_; }
  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int st = 0;
    ::waitpid(pid_, &st, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
  uint16_t port_ = 0;
};

std::string sim_uri(uint16_t port) { return "sim://127.0.0.1:" + std::to_string(port); }

BoardClientOptions quick(std::chrono::milliseconds timeout = kReplyTimeout, int retries = 1) {
  BoardClientOptions o;
  o.timeout = timeout;
  o.retries = retries;
  o.connect_timeout = kReplyTimeout;
  return o;
}

}  // namespace

// ================================================================== client logic, scripted link

TEST(ClientScripted, RegistersAndBurstsAgainstTheRequestExecutor) {
  MemoryBackend mem;
  auto s = scripted([&](const proto::Frame& req, int) { return bytes_of(execute_request(req, mem)); });
  s.client.write32(0x10, 0xCAFEBABE);
  EXPECT_EQ(s.client.read32(0x10), 0xCAFEBABEu);
  EXPECT_EQ(mem.peek(0x10), 0xCAFEBABEu);
  std::vector<uint32_t> w(600);
  std::iota(w.begin(), w.end(), 1u);
  s.client.burst_write(0x1000, w);
  EXPECT_EQ(s.client.burst_read(0x1000, 600), w);
  EXPECT_EQ(mem.peek(0x1000 + 4 * 599), 600u);
  EXPECT_EQ(s.client.ping(), 1u | (256u << 16));
  // Sequence numbers increase, every request is answered with its own.
  for (size_t i = 1; i < s.link->requests.size(); ++i)
    EXPECT_EQ(static_cast<uint8_t>(s.link->requests[i].seq), static_cast<uint8_t>(s.link->requests[i - 1].seq + 1));
  EXPECT_EQ(s.client.stats().retries, 0u);
}

TEST(ClientScripted, LongBurstsAreSplitIntoMaxPayloadFrames) {
  MemoryBackend mem;
  auto s = scripted([&](const proto::Frame& req, int) { return bytes_of(execute_request(req, mem)); });
  std::vector<uint32_t> w(600, 7);
  s.client.burst_write(0x2000, w);
  ASSERT_EQ(s.link->requests.size(), 3u);
  EXPECT_EQ(s.link->requests[0].payload.size(), 256u);
  EXPECT_EQ(s.link->requests[1].addr, 0x2000u + 1024);
  EXPECT_EQ(s.link->requests[2].payload.size(), 88u);
  s.link->requests.clear();
  s.client.burst_write(0x3000, w, /*fifo=*/true);
  ASSERT_EQ(s.link->requests.size(), 3u);
  for (const auto& r : s.link->requests) {
    EXPECT_EQ(r.addr, 0x3000u);
    EXPECT_EQ(r.flags, proto::kFlagNoIncrement);
  }
}

TEST(ClientScripted, ErrorReplyIsAHostErrorNamingTheError) {
  auto s = scripted([](const proto::Frame& req, int) { return bytes_of(proto::make_reply(req, proto::Status::BadAddress)); });
  const auto e = expect_host_error(HostErrorKind::ErrorReply, [&] { s.client.read32(0x10); });
  EXPECT_EQ(e.status(), static_cast<uint8_t>(proto::Status::BadAddress));
  EXPECT_TRUE(contains(e.what(), "BAD_ADDRESS (0x04)")) << e.what();
  EXPECT_TRUE(contains(e.what(), "READ at 0x00000010")) << e.what();
  EXPECT_EQ(s.link->requests.size(), 1u);  // not retried
}

TEST(ClientScripted, UnknownCommandReplyIsNamed) {
  auto s = scripted([](const proto::Frame& req, int) { return bytes_of(proto::make_reply(req, proto::Status::UnknownCommand)); });
  const auto e = expect_host_error(HostErrorKind::ErrorReply, [&] { s.client.write32(0x10, 1); });
  EXPECT_TRUE(contains(e.what(), "UNKNOWN_COMMAND")) << e.what();
}

TEST(ClientScripted, OutOfSequenceReplyIsASequenceMismatch) {
  auto s = scripted([](const proto::Frame& req, int) {
    proto::Frame r = proto::make_reply(req, proto::Status::Ok, {42});
    r.seq = static_cast<uint8_t>(req.seq + 5);
    return bytes_of(r);
  });
  const auto e = expect_host_error(HostErrorKind::SequenceMismatch, [&] { s.client.read32(0x10); });
  EXPECT_TRUE(contains(e.what(), "sequence mismatch")) << e.what();
  EXPECT_TRUE(contains(e.what(), "READ seq 1, got READ_REPLY seq 6")) << e.what();
}

TEST(ClientScripted, CorruptReplyIsRetriedThenReportedAsCrcFailure) {
  auto s = scripted([](const proto::Frame& req, int) {
    auto b = bytes_of(proto::make_reply(req, proto::Status::Ok, {42}));
    b[15] ^= 0x01;  // a payload bit
    return b;
  });
  const auto e = expect_host_error(HostErrorKind::CrcError, [&] { s.client.read32(0x10); });
  EXPECT_TRUE(contains(e.what(), "failed its CRC")) << e.what();
  EXPECT_TRUE(contains(e.what(), "3 attempts")) << e.what();
  EXPECT_EQ(s.link->requests.size(), 3u);
  EXPECT_EQ(s.client.stats().crc_errors, 3u);
}

TEST(ClientScripted, OneCorruptReplyIsRecoveredByARetry) {
  auto s = scripted([](const proto::Frame& req, int i) {
    auto b = bytes_of(proto::make_reply(req, proto::Status::Ok, {42}));
    if (i == 0) b[b.size() - 1] ^= 0x80;  // the frame CRC itself
    return b;
  });
  EXPECT_EQ(s.client.read32(0x10), 42u);
  EXPECT_EQ(s.client.stats().retries, 1u);
  EXPECT_EQ(s.client.stats().crc_errors, 1u);
}

TEST(ClientScripted, TruncatedReplyTimesOutOnEveryAttempt) {
  auto s = scripted(
      [](const proto::Frame& req, int) {
        const auto b = bytes_of(proto::make_reply(req, proto::Status::Ok, {42}));
        return std::vector<uint8_t>(b.begin(), b.begin() + 17);  // 3 of its 20 bytes missing
      },
      50ms, 1);
  const auto t0 = Clock::now();
  const auto e = expect_host_error(HostErrorKind::Timeout, [&] { s.client.read32(0x10); });
  EXPECT_GE(ms_since(t0), 95);  // both 50 ms attempts were waited out (a lower bound: safe)
  EXPECT_TRUE(contains(e.what(), "timeout after 50 ms")) << e.what();
  EXPECT_TRUE(contains(e.what(), "2 attempts")) << e.what();
  // Each attempt ended at its own deadline: one request, one timeout, one retry per attempt.
  EXPECT_EQ(s.link->requests.size(), 2u);
  EXPECT_EQ(s.client.stats().requests, 2u);
  EXPECT_EQ(s.client.stats().timeouts, 2u);
  EXPECT_EQ(s.client.stats().retries, 1u);
}

TEST(ClientScripted, GarbageBeforeTheReplyIsSkipped) {
  auto s = scripted([](const proto::Frame& req, int) {
    std::vector<uint8_t> b = {0x00, 0xA5, 0x13, 0xA5, 0xA5, 0x01, 0xFF, 0x7E};
    auto r = bytes_of(proto::make_reply(req, proto::Status::Ok, {0x600DF00D}));
    b.insert(b.end(), r.begin(), r.end());
    return b;
  });
  EXPECT_EQ(s.client.read32(0x10), 0x600DF00Du);
  EXPECT_EQ(s.client.stats().garbage_bytes, 8u);
  EXPECT_EQ(s.client.stats().retries, 0u);
}

TEST(ClientScripted, LateReplyToATimedOutAttemptIsDropped) {
  std::optional<proto::Frame> first;
  auto s = scripted(
      [&](const proto::Frame& req, int i) {
        if (i == 0) {
          first = req;  // the board is slow: this reply comes late
          return std::vector<uint8_t>{};
        }
        auto b = bytes_of(proto::make_reply(*first, proto::Status::Ok, {1}));
        auto r = bytes_of(proto::make_reply(req, proto::Status::Ok, {2}));
        b.insert(b.end(), r.begin(), r.end());
        return b;
      },
      50ms, 2);
  EXPECT_EQ(s.client.read32(0x10), 2u);
  EXPECT_EQ(s.client.stats().timeouts, 1u);
  EXPECT_EQ(s.client.stats().stale_replies, 1u);
}

TEST(ClientScripted, BoardBadCrcAndBusyRepliesAreRetried) {
  auto s = scripted([](const proto::Frame& req, int i) {
    if (i == 0) return bytes_of(proto::make_reply(req, proto::Status::BadCrc));
    if (i == 1) return bytes_of(proto::make_reply(req, proto::Status::Busy));
    return bytes_of(proto::make_reply(req, proto::Status::Ok));
  });
  s.client.write32(0x10, 5);
  EXPECT_EQ(s.client.stats().retries, 2u);
  EXPECT_EQ(s.client.stats().busy, 1u);
}

TEST(ClientScripted, BoardAlwaysBusyIsAnErrorReplyNamingBusy) {
  MemoryBackend mem;
  mem.inject_busy(100);
  auto s = scripted([&](const proto::Frame& req, int) { return bytes_of(execute_request(req, mem)); });
  const auto e = expect_host_error(HostErrorKind::ErrorReply, [&] { s.client.read32(0x10); });
  EXPECT_EQ(e.status(), static_cast<uint8_t>(proto::Status::Busy));
  EXPECT_TRUE(contains(e.what(), "BUSY")) << e.what();
}

TEST(ClientScripted, BoardAlwaysReportingBadCrcIsACrcFailure) {
  auto s = scripted([](const proto::Frame& req, int) { return bytes_of(proto::make_reply(req, proto::Status::BadCrc)); });
  const auto e = expect_host_error(HostErrorKind::CrcError, [&] { s.client.write32(0x10, 1); });
  EXPECT_TRUE(contains(e.what(), "BAD_CRC")) << e.what();
}

TEST(ClientScripted, WrongReplyTypeOrLengthIsAProtocolError) {
  auto s = scripted([](const proto::Frame& req, int) {
    proto::Frame r = proto::make_reply(req, proto::Status::Ok, {1});
    r.type = static_cast<uint8_t>(proto::Cmd::Write) | proto::kReplyBit;
    return bytes_of(r);
  });
  auto e = expect_host_error(HostErrorKind::ProtocolError, [&] { s.client.read32(0x10); });
  EXPECT_TRUE(contains(e.what(), "answered by WRITE_REPLY")) << e.what();

  auto s2 = scripted([](const proto::Frame& req, int) { return bytes_of(proto::make_reply(req, proto::Status::Ok, {1, 2})); });
  e = expect_host_error(HostErrorKind::ProtocolError, [&] { s2.client.read32(0x10); });
  EXPECT_TRUE(contains(e.what(), "carries 2 words, expected 1")) << e.what();
}

TEST(ClientScripted, VanishedDeviceIsConnectionClosedAndStaysClosed) {
  auto s = scripted([](const proto::Frame&, int) { return std::vector<uint8_t>{}; });
  s.link->vanish_when_idle = true;
  auto e = expect_host_error(HostErrorKind::ConnectionClosed, [&] { s.client.read32(0x10); });
  EXPECT_TRUE(contains(e.what(), "device vanished")) << e.what();
  e = expect_host_error(HostErrorKind::ConnectionClosed, [&] { s.client.read32(0x10); });
  EXPECT_TRUE(contains(e.what(), "closed")) << e.what();
}

// ================================================================== client + server over TCP

class ClientServer : public ::testing::Test {
 protected:
  void start(BoardServerOptions opt = {}, uint64_t mem_size = uint64_t{1} << 32) {
    mem = std::make_unique<MemoryBackend>(0, mem_size);
    server = std::make_unique<BoardServer>(*mem, opt);
    server->start();
  }
  void TearDown() override {
    if (server) server->stop();
  }
  std::string uri() const { return sim_uri(server->port()); }
  std::unique_ptr<MemoryBackend> mem;
  std::unique_ptr<BoardServer> server;
};

TEST_F(ClientServer, ReadsWritesAndBursts) {
  start();
  auto c = BoardClient::open(uri(), quick());
  EXPECT_EQ(c.ping(), 1u | (256u << 16));
  c.write32(0x100, 0x12345678);
  EXPECT_EQ(c.read32(0x100), 0x12345678u);
  EXPECT_EQ(c.read32(0x104), 0u);  // never written
  std::vector<uint32_t> w(1000);
  std::mt19937 rng(3);
  for (auto& x : w) x = static_cast<uint32_t>(rng());
  c.burst_write(0x10000, w);
  EXPECT_EQ(c.burst_read(0x10000, w.size()), w);
  EXPECT_EQ(mem->peek(0x10000 + 4 * 999), w[999]);
  // FIFO bursts: every word to the same register, the last one stays.
  c.burst_write(0x200, std::vector<uint32_t>{1, 2, 3}, /*fifo=*/true);
  EXPECT_EQ(mem->peek(0x200), 3u);
  EXPECT_EQ(c.burst_read(0x200, 4, /*fifo=*/true), (std::vector<uint32_t>{3, 3, 3, 3}));
  EXPECT_EQ(c.stats().retries, 0u);
  EXPECT_GE(server->stats().frames, 10u);
  EXPECT_GT(mem->ticks(), 0u);  // the tick hook runs after every request
}

TEST_F(ClientServer, BadAddressesAreErrorReplies) {
  start({}, 0x1000);
  auto c = BoardClient::open(uri(), quick());
  auto e = expect_host_error(HostErrorKind::ErrorReply, [&] { c.read32(0x2000); });
  EXPECT_TRUE(contains(e.what(), "BAD_ADDRESS")) << e.what();
  e = expect_host_error(HostErrorKind::ErrorReply, [&] { c.write32(0x2, 1); });  // unaligned
  EXPECT_TRUE(contains(e.what(), "BAD_ADDRESS")) << e.what();
  e = expect_host_error(HostErrorKind::ErrorReply, [&] { c.burst_read(0xFFFFFFF0, 8); });  // wraps
  EXPECT_TRUE(contains(e.what(), "BAD_ADDRESS")) << e.what();
  c.write32(0xFFC, 9);  // the last valid word; the connection is still fine after errors
  EXPECT_EQ(c.read32(0xFFC), 9u);
}

TEST_F(ClientServer, BusyBackendIsRetriedTransparently) {
  start();
  auto c = BoardClient::open(uri(), quick(kReplyTimeout, 3));
  mem->inject_busy(2);
  c.write32(0x40, 77);
  EXPECT_EQ(c.read32(0x40), 77u);
  EXPECT_EQ(c.stats().busy, 2u);
}

TEST(ClientTcp, ServerThatNeverAnswersTimesOutOnEveryAttempt) {
  SilentServer silent;
  auto c = BoardClient::open(sim_uri(silent.port()), quick(200ms, 0));
  const auto t0 = Clock::now();
  auto e = expect_host_error(HostErrorKind::Timeout, [&] { c.read32(0x10); });
  EXPECT_GE(ms_since(t0), 195);  // the 200 ms timeout was waited out (a lower bound: safe)
  EXPECT_TRUE(contains(e.what(), "timeout after 200 ms")) << e.what();
  EXPECT_TRUE(contains(e.what(), "READ at 0x00000010")) << e.what();
  EXPECT_TRUE(contains(e.what(), "(1 attempt)")) << e.what();
  EXPECT_EQ(c.stats().requests, 1u);
  EXPECT_EQ(c.stats().timeouts, 1u);
  EXPECT_EQ(c.stats().retries, 0u);
  // With retries, every attempt waits its own timeout, then the call gives up: (retries + 1)
  // attempts, each one request and one timeout.
  c.set_retries(1);
  const auto t1 = Clock::now();
  e = expect_host_error(HostErrorKind::Timeout, [&] { c.write32(0x10, 1); });
  EXPECT_GE(ms_since(t1), 395);
  EXPECT_TRUE(contains(e.what(), "WRITE at 0x00000010")) << e.what();
  EXPECT_TRUE(contains(e.what(), "(2 attempts)")) << e.what();
  EXPECT_EQ(c.stats().requests, 3u);
  EXPECT_EQ(c.stats().timeouts, 3u);
  EXPECT_EQ(c.stats().retries, 1u);
}

TEST(ClientTcp, ConnectionRefusedIsAClearError) {
  const uint16_t port = unused_port();
  // Refused at once, not waited out: a connect that waited would end in a Timeout instead.
  const auto e = expect_host_error(HostErrorKind::ConnectionRefused, [&] { BoardClient::open(sim_uri(port), quick()); });
  EXPECT_TRUE(contains(e.what(), "connection refused")) << e.what();
  EXPECT_TRUE(contains(e.what(), std::to_string(port))) << e.what();
}

TEST(ClientTcp, KilledFakeboardGivesConnectionClosedNotAHang) {
  FakeboardProcess board;
  auto c = BoardClient::open(sim_uri(board.port()), quick(kReplyTimeout, 2));
  for (uint32_t i = 0; i < 20; ++i) {
    c.write32(4 * i, i * 3);
    ASSERT_EQ(c.read32(4 * i), i * 3);
  }
  board.kill();  // SIGKILL in the middle of the sequence, and reaped
  // Short from here: a client that missed the close would give up with a Timeout (3 x 500 ms),
  // which the expected kind ConnectionClosed rules out.
  c.set_timeout(500ms);
  const auto t0 = Clock::now();
  const auto e = expect_host_error(HostErrorKind::ConnectionClosed, [&] {
    for (uint32_t i = 20; i < 100; ++i) {
      c.write32(4 * i, i);
      c.read32(4 * i);
    }
  });
  // Hang detector only, not a speed bound: the calls above end within about 1.5 s whatever
  // happens (their timeouts); 30 s means something ignored its deadline.
  EXPECT_LT(ms_since(t0), 30000) << "hang: the calls after the kill ignored their deadlines";
  EXPECT_TRUE(contains(e.what(), "connection closed")) << e.what();
  EXPECT_TRUE(contains(e.what(), "device vanished")) << e.what();
  expect_host_error(HostErrorKind::ConnectionClosed, [&] { c.read32(0); });  // and it stays closed
}

TEST_F(ClientServer, GarbageSpewingClientThenDisconnectDoesNotHurtTheNextClient) {
  // With UARTBone on (the default), some of the junk's bytes 0x01..0x04 start UARTBone commands
  // that take the bytes after them as length, address and data: less is skipped as garbage.
  for (const bool uartbone : {false, true}) {
    SCOPED_TRACE(uartbone ? "UARTBone on" : "UARTBone off");
    BoardServerOptions o;
    o.accept_uartbone = uartbone;
    start(o);
    {
      const int fd = raw_connect(server->port());
      ASSERT_GE(fd, 0);
      std::mt19937 rng(11);
      std::vector<uint8_t> junk(20000);
      for (size_t i = 0; i < junk.size(); ++i) junk[i] = i % 64 == 0 ? proto::kSync : static_cast<uint8_t>(rng());
      send_all(fd, junk);
      auto partial = proto::encode(proto::make_burst_write(1, 0, std::vector<uint32_t>(100, 5)));
      send_all(fd, std::span(partial).first(200));  // truncated frame, then vanish
      // Half-close and read the server's replies until it closes: closing with its error
      // replies unread would reset the connection, and a reset drops the junk the server has
      // not read yet (the byte counts below would then depend on timing).
      ::shutdown(fd, SHUT_WR);
      const auto drain_until = std::chrono::steady_clock::now() + kHangGuard;
      char buf[4096];
      while (std::chrono::steady_clock::now() < drain_until) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        if (::recv(fd, buf, sizeof buf, 0) <= 0) break;
      }
      ::close(fd);
    }
    auto c = BoardClient::open(uri(), quick());
    c.write32(0x10, 0xABCD);
    EXPECT_EQ(c.read32(0x10), 0xABCDu);
    const auto st = server->stats();
    if (uartbone) {
      EXPECT_GT(st.uartbone_commands, 10u);
      EXPECT_GE(st.garbage_bytes, 1000u);
    } else {
      EXPECT_EQ(st.uartbone_commands, 0u);
      EXPECT_GE(st.garbage_bytes, 19000u);
    }
    EXPECT_GE(st.connections, 2u);
    c.close();
    server->stop();
  }
}

// LiteX UARTBone commands and protocol frames on one connection (the RTL frame engine is
// checked against this server byte for byte in host_link_rtl_test).
TEST_F(ClientServer, UartBoneCommandsInterleavedWithFrames) {
  start({}, 0x100000);
  auto c = BoardClient::open(uri(), quick(kReplyTimeout, 0));
  UartBoneClient ub(c.transport(), kReplyTimeout);
  ub.write32(0x100, 0xCAFEF00D);
  EXPECT_EQ(c.read32(0x100), 0xCAFEF00Du);
  c.write32(0x104, 0x01020304);
  EXPECT_EQ(ub.read32(0x104), 0x01020304u);
  // Bursts: 300 words are two read commands, and 38 write commands of at most 8 words.
  std::vector<uint32_t> w(300);
  std::iota(w.begin(), w.end(), 0xA5A50000u);
  ub.burst_write(0x2000, w);
  EXPECT_EQ(c.burst_read(0x2000, w.size()), w);
  EXPECT_EQ(ub.burst_read(0x2000, w.size()), w);
  ub.set_max_write_words(255);
  ub.burst_write(0x4000, w);
  c.ping();  // writes are not answered: this reply comes after they ran
  EXPECT_EQ(mem->peek(0x4000 + 4 * 299), w[299]);
  // Fixed address: the last word stays; n reads of one register.
  ub.burst_write(0x200, std::vector<uint32_t>{1, 2, 3}, true);
  c.ping();
  EXPECT_EQ(mem->peek(0x200), 3u);
  EXPECT_EQ(mem->peek(0x204), 0u);
  EXPECT_EQ(ub.burst_read(0x200, 4, true), (std::vector<uint32_t>(4, 3)));
  // A write goes on past a failed word; a read burst straddling the end of the memory answers
  // all ones for the failed words only (as LiteX does), the data for the others.
  ub.burst_write(0xFFFF8, std::vector<uint32_t>{7, 8, 9});
  c.ping();
  EXPECT_EQ(mem->peek(0xFFFF8), 7u);
  EXPECT_EQ(mem->peek(0xFFFFC), 8u);
  constexpr uint32_t F = proto::uartbone::kFailedRead;
  EXPECT_EQ(ub.burst_read(0xFFFF8, 4), (std::vector<uint32_t>{7, 8, F, F}));
  EXPECT_EQ(c.ping(), 1u | (256u << 16));
  const auto st = server->stats();
  EXPECT_EQ(st.garbage_bytes, 0u);
  EXPECT_EQ(st.uartbone_commands, 1u + 1 + 38 + 2 + 2 + 1 + 1 + 1 + 1);
  EXPECT_EQ(c.stats().garbage_bytes, 0u);
}

// LiteX's own tools (issue 14): a client that behaves exactly like CommUART (every byte its own
// write, 60 ms apart; 255-word reads; no timeout of its own) against the software board.
TEST_F(ClientServer, CommUartLikeClientWithSplitWritesAndGaps) {
  using cmnet::testing_support::CommUartLike;
  start({}, 0x100000);
  std::vector<uint32_t> w(300);
  std::iota(w.begin(), w.end(), 0x5A000000u);
  {
    auto c = BoardClient::open(uri(), quick(kReplyTimeout, 0));
    c.burst_write(0x1000, w);
  }
  {
    CommUartLike ub(server->port(), 60ms);
    EXPECT_EQ(ub.read(0x1000, 300), w);  // 255 + 45 words
    ub.write(0x3000, std::vector<uint32_t>{7, 8});
    EXPECT_EQ(ub.read(0x3000, 2), (std::vector<uint32_t>{7, 8}));
    // A burst straddling the end of the memory: all ones for the failed words only.
    constexpr uint32_t F = proto::uartbone::kFailedRead;
    ub.write(0xFFFF8, std::vector<uint32_t>{1, 2});
    EXPECT_EQ(ub.read(0xFFFF8, 3), (std::vector<uint32_t>{1, 2, F}));
    // A frame split at every byte boundary.
    ub.send_split(proto::encode(proto::make_ping(0x42)));
    proto::FrameDecoder dec(false);
    dec.feed(ub.recv_exact(proto::kHeaderBytes + 4 + 2));
    const auto ev = dec.next();
    ASSERT_TRUE(ev.has_value());
    EXPECT_EQ(ev->frame.seq, 0x42);
    // A truncated command is dropped after the frame timeout (500 ms): later bytes are new.
    ub.send_split({0x02, 1, 0x00});
    std::this_thread::sleep_for(1200ms);
    EXPECT_EQ(ub.read(0x3004, 1), (std::vector<uint32_t>{8}));
  }
  const auto st = server->stats();
  EXPECT_EQ(st.uartbone_commands, 2u + 1 + 1 + 1 + 1 + 1);
  EXPECT_GE(st.dropped_partials, 1u);
}

TEST_F(ClientServer, UartBoneCanBeTurnedOff) {
  BoardServerOptions o;
  o.accept_uartbone = false;
  start(o);
  auto c = BoardClient::open(uri(), quick(kReplyTimeout, 0));
  UartBoneClient ub(c.transport(), 200ms);
  ub.write32(0x100, 5);
  expect_host_error(HostErrorKind::Timeout, [&] { ub.read32(0x100); });
  EXPECT_EQ(c.read32(0x100), 0u);
  EXPECT_EQ(server->stats().garbage_bytes, 16u);
}

TEST_F(ClientServer, OversizedLengthGetsBadLengthAndTheConnectionKeepsWorking) {
  start();
  const int fd = raw_connect(server->port());
  ASSERT_GE(fd, 0);
  // A BURST_WRITE header claiming 1000 words (valid header CRC), followed by 4000 filler bytes.
  std::vector<uint8_t> h = {proto::kSync, proto::kVersion, static_cast<uint8_t>(proto::Cmd::BurstWrite), 33, 0, 0, 0, 0,
                            0xE8, 0x03, 0, 0};
  const uint16_t c = proto::crc16_ccitt(h);
  h.push_back(static_cast<uint8_t>(c));
  h.push_back(static_cast<uint8_t>(c >> 8));
  h.insert(h.end(), 4000, 0x11);
  send_all(fd, h);
  proto::FrameDecoder dec;
  auto ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  ASSERT_EQ(ev->kind, proto::DecodeEvent::Kind::Frame);
  EXPECT_EQ(ev->frame.status, static_cast<uint8_t>(proto::Status::BadLength));
  EXPECT_EQ(ev->frame.seq, 33);
  // The same connection still serves requests.
  send_all(fd, proto::encode(proto::make_write(34, 0x80, 99)));
  send_all(fd, proto::encode(proto::make_read(35, 0x80)));
  ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->frame.seq, 34);
  EXPECT_EQ(ev->frame.status, 0);
  ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->frame.seq, 35);
  ASSERT_EQ(ev->frame.payload.size(), 1u);
  EXPECT_EQ(ev->frame.payload[0], 99u);
  ::close(fd);
}

TEST_F(ClientServer, CorruptRequestGetsBadCrcUnknownCommandAndBadVersionReplies) {
  start();
  const int fd = raw_connect(server->port());
  ASSERT_GE(fd, 0);
  proto::FrameDecoder dec;
  auto bad = proto::encode(proto::make_write(1, 0x10, 5));
  bad[14] ^= 0xFF;
  send_all(fd, bad);
  auto ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->frame.status, static_cast<uint8_t>(proto::Status::BadCrc));
  EXPECT_EQ(ev->frame.seq, 1);
  EXPECT_EQ(mem->peek(0x10), 0u);  // not executed

  proto::Frame unknown = proto::make_read(2, 0);
  unknown.type = 0x33;
  send_all(fd, proto::encode(unknown));
  ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->frame.status, static_cast<uint8_t>(proto::Status::UnknownCommand));

  proto::Frame v2 = proto::make_read(3, 0);
  v2.version = 2;
  send_all(fd, proto::encode(v2));
  ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->frame.status, static_cast<uint8_t>(proto::Status::BadVersion));
  EXPECT_EQ(ev->frame.version, proto::kVersion);

  proto::Frame badlen = proto::make_burst_read(4, 0, 0);  // zero-word burst
  send_all(fd, proto::encode(badlen));
  ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->frame.status, static_cast<uint8_t>(proto::Status::BadLength));
  ::close(fd);
}

TEST_F(ClientServer, StalledPartialFrameIsDroppedAfterTheFrameTimeout) {
  BoardServerOptions opt;
  opt.frame_timeout = 100ms;
  start(opt);
  const int fd = raw_connect(server->port());
  ASSERT_GE(fd, 0);
  auto big = proto::encode(proto::make_burst_write(1, 0, std::vector<uint32_t>(200, 1)));
  const auto t0 = Clock::now();
  send_all(fd, std::span(big).first(30));  // the sender stalls mid-frame
  // Wait for the server to drop the partial frame (not a fixed sleep: a server thread that has
  // not run its timer yet would take the READ below as more of the stalled frame).
  const auto give_up = Clock::now() + kHangGuard;
  while (server->stats().dropped_partials == 0 && Clock::now() < give_up) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(server->stats().dropped_partials, 1u) << "the partial frame was never dropped";
  EXPECT_GE(ms_since(t0), 100);  // not before the 100 ms frame timeout (a lower bound: safe)
  send_all(fd, proto::encode(proto::make_read(2, 0x40)));
  proto::FrameDecoder dec;
  auto ev = recv_event(fd, dec);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->frame.seq, 2);
  EXPECT_EQ(ev->frame.status, 0);
  EXPECT_EQ(server->stats().dropped_partials, 1u);
  ::close(fd);
}

TEST_F(ClientServer, IdleClientIsClosedByTheServer) {
  BoardServerOptions opt;
  opt.idle_timeout = 200ms;
  start(opt);
  // t0 before the connect: the server's idle clock starts at the accept, after it.
  const auto t0 = Clock::now();
  const int fd = raw_connect(server->port());
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(wait_for_eof(fd, kHangGuard));
  EXPECT_GE(ms_since(t0), 195);  // not before the 200 ms idle timeout (a lower bound: safe)
  ::close(fd);
  EXPECT_EQ(server->stats().idle_closed, 1u);
}

TEST_F(ClientServer, ClientThatNeverReadsDoesNotBlockOthers) {
  start();
  const int fd = raw_connect(server->port());
  ASSERT_GE(fd, 0);
  // Burst-read requests (20 bytes, 1040-byte replies) until the socket pushes back.
  const auto req = proto::encode(proto::make_burst_read(1, 0, 256));
  size_t sent = 0;
  const auto deadline = Clock::now() + 2s;
  while (Clock::now() < deadline && sent < (32u << 20)) {
    const ssize_t n = ::send(fd, req.data(), req.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      FAIL() << std::strerror(errno);
    }
    sent += static_cast<size_t>(n);
  }
  auto c = BoardClient::open(uri(), quick());
  for (uint32_t i = 0; i < 20; ++i) {
    c.write32(0x1000 + 4 * i, i);
    EXPECT_EQ(c.read32(0x1000 + 4 * i), i);
  }
  ::close(fd);
}

TEST_F(ClientServer, ConcurrentClientsAreAllServed) {
  start();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto c = BoardClient::open(uri(), quick());
      const uint32_t base = 0x100000u * static_cast<uint32_t>(t + 1);
      bool good = true;
      for (uint32_t i = 0; i < 200; ++i) {
        c.write32(base + 4 * i, i ^ static_cast<uint32_t>(t));
        good = good && c.read32(base + 4 * i) == (i ^ static_cast<uint32_t>(t));
      }
      if (good) ++ok;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok, 4);
}

TEST_F(ClientServer, StopClosesClientsWithoutWaitingForThem) {
  // Clients are never closed for idleness here: a stop() that waited for its clients to go
  // would not return (the client below only goes once it sees the close).
  BoardServerOptions o;
  o.idle_timeout = std::chrono::hours(1);
  start(o);
  auto c = BoardClient::open(uri(), quick(kReplyTimeout, 0));
  c.write32(0, 1);
  ASSERT_EQ(server->stats().active_clients, 1u);
  server->stop();
  const auto st = server->stats();
  EXPECT_EQ(st.active_clients, 0u) << "stop() returned with a client still open";
  EXPECT_EQ(st.idle_closed, 0u);
  const auto e = expect_host_error(HostErrorKind::ConnectionClosed, [&] { c.read32(0); });
  EXPECT_TRUE(contains(e.what(), "connection closed by the board")) << e.what();
  EXPECT_EQ(c.stats().timeouts, 0u);  // the close was seen, not waited out
  expect_host_error(HostErrorKind::ConnectionRefused, [&] { BoardClient::open(uri(), quick()); });
}

TEST(BoardServerTest, TooManyClientsAreTurnedAway) {
  MemoryBackend mem;
  BoardServerOptions opt;
  opt.max_clients = 1;
  BoardServer server(mem, opt);
  server.start();
  auto c1 = BoardClient::open(sim_uri(server.port()), quick());
  c1.write32(0, 1);
  const int fd = raw_connect(server.port());
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(wait_for_eof(fd, kHangGuard));
  ::close(fd);
  EXPECT_EQ(server.stats().rejected_connections, 1u);
  EXPECT_EQ(c1.read32(0), 1u);
  server.stop();
}

TEST(BoardServerTest, DestroyWithoutStartOrStopIsClean) {
  MemoryBackend mem;
  { BoardServer server(mem); }
  {
    BoardServer server(mem);
    server.start();
  }
  SUCCEED();
}

// ================================================================== serial transport over a pty

TEST(ClientUart, RegistersOverAPseudoTerminalAndVanishingDevice) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  // A minimal chroot or container may have no /dev/pts: then there is no pty to test over.
  if (master < 0) GTEST_SKIP() << "no pseudo-terminals here (posix_openpt: " << std::strerror(errno) << ")";
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const std::string slave = ::ptsname(master);
  MemoryBackend mem;
  std::atomic<bool> stop{false};
  std::thread board([&] {  // the "board" on the other end of the serial line
    proto::FrameDecoder dec;
    while (!stop) {
      pollfd p{master, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      uint8_t buf[4096];
      const ssize_t n = ::read(master, buf, sizeof buf);
      if (n <= 0) continue;
      dec.feed(std::span(buf, static_cast<size_t>(n)));
      while (auto e = dec.next()) {
        const auto reply = proto::encode(reply_for_event(*e, mem));
        size_t off = 0;
        while (off < reply.size()) {
          const ssize_t w = ::write(master, reply.data() + off, reply.size() - off);
          if (w <= 0) break;
          off += static_cast<size_t>(w);
        }
      }
    }
  });
  {
    auto c = BoardClient::open("uart://" + slave + "?baud=921600", quick(kReplyTimeout, 1));
    EXPECT_TRUE(contains(c.name(), "uart://" + slave));
    c.write32(0x20, 0x5EED);
    EXPECT_EQ(c.read32(0x20), 0x5EEDu);
    std::vector<uint32_t> w(300);
    std::iota(w.begin(), w.end(), 100u);
    c.burst_write(0x400, w);
    EXPECT_EQ(c.burst_read(0x400, w.size()), w);
    // Unplug: the pty master goes away.
    stop = true;
    board.join();
    ::close(master);
    // Seen as a vanished device (a hung-up pty), not waited out as a Timeout.
    const auto e = expect_host_error(HostErrorKind::ConnectionClosed, [&] {
      c.write32(0x20, 1);
      c.read32(0x20);
    });
    EXPECT_TRUE(contains(e.what(), "device vanished")) << e.what();
    EXPECT_EQ(c.stats().timeouts, 0u);
  }
}

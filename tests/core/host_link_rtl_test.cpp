// The board's end of the host link in RTL (hw/common/cmnet_frame_engine.v, cmnet_uart_rx/tx.v,
// cmnet_fifo_phy.v, cmnet_regfile_demo.v):
//   - every module lints clean with `verilator --lint-only -Wall` and synthesizes with yosys
//     synth_ice40 (resource numbers printed and bounded);
//   - the real host driver (BoardClient, sim://) talks over TCP to the verilated test board
//     (RtlBoard, sim/core/host_link_rtl.h): registers, bursts, FIFO bursts, error replies;
//   - raw frames with every error PROTOCOL.md lists get the replies it specifies;
//   - long random streams of good and bad frames, UARTBone commands (complete, truncated,
//     failing) and garbage get, byte for byte, the replies of the software board
//     (proto::FrameDecoder(true) + append_reply, sim/core/board_server.h) running against a C++ copy
//     of the demo register file;
//   - a UARTBone client (host/uartbone_client.h) interleaved with the host driver on one link,
//     and malformed UARTBone commands that must not wedge the link;
//   - the same through the UART pins (CLKS_PER_BIT 4 and 8) and the FT245 FIFO pins.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>

#include "host/board_client.h"
#include "gen/core/protocol.h"
#include "host/tcp_transport.h"
#include "host/uartbone_client.h"
#include "sim/core/board_server.h"
#include "sim/core/host_link_rtl.h"
#include "sim/core/rtl_build.h"
#include "tests/core/commuart_like.h"
#include "tests/core/litex_csr_loader.h"

using namespace cmnet;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;
using proto::Frame;
using proto::Status;

namespace {

// The deadline for replies that must come: it ends a wait only when something is broken, so it
// is long enough never to pass on a slow or loaded machine. (How fast the link is: cmnet-linkbench.)
constexpr auto kReplyWait = 60s;

constexpr uint32_t kId = 0x434D4E31;  // cmnet_regfile_demo's default ID
constexpr uint32_t kAcc = 0x8, kCount = 0xC, kRam = 0x1000;
constexpr uint32_t kRamWords = 1024;  // RAM_AW = 10
constexpr uint32_t kBad = 0x80000000;
constexpr uint32_t kTop = 0xFFFFFFF0;  // RAM words 0..3 again
constexpr uint32_t kHang = 0x10;       // never answers: the engine's bus timeout

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("cmnet-hl-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// ------------------------------------------------------------------ the software reference

// The demo register file (hw/common/cmnet_regfile_demo.v) in C++, for the reference board.
class DemoRegs : public RegisterBackend {
 public:
  uint32_t read(uint32_t a) override {
    if (a == kHang) throw std::runtime_error("no answer");  // -> INTERNAL, as the bus timeout
    if (a == 0) return kId;
    if (a >= 0x400 && a < 0x800) {  // identifier_mem (the default HostLinkRtlConfig's string)
      const std::string id = host_link_identifier(HostLinkRtlConfig{});
      const size_t i = (a - 0x400) / 4;
      return i < id.size() ? static_cast<uint8_t>(id[i]) : 0u;
    }
    if (a == kAcc) return acc;
    if (a == kCount) return count++;
    if (in_ram(a)) return ram[index(a)];
    throw BackendFault(Status::BadAddress, "not decoded");
  }
  void write(uint32_t a, uint32_t v) override {
    if (a == kHang) throw std::runtime_error("no answer");
    if (a == 0 || (a >= 0x400 && a < 0x800)) return;
    if (a == kAcc) acc += v;
    else if (a == kCount) count = v;
    else if (in_ram(a)) ram[index(a)] = v;
    else throw BackendFault(Status::BadAddress, "not decoded");
  }
  // The RAM, and its first 4 words again at 0xFFFFFFF0 (TOP).
  static bool in_ram(uint32_t a) { return (a >= kRam && a < kRam + 4 * kRamWords) || a >= kTop; }
  static uint32_t index(uint32_t a) { return a >= kTop ? (a - kTop) / 4 : (a - kRam) / 4; }
  uint32_t acc = 0, count = 0;
  std::vector<uint32_t> ram = std::vector<uint32_t>(kRamWords, 0);
};

// The replies the software board gives to a byte stream.
std::vector<uint8_t> reference_replies(const std::vector<uint8_t>& stream, DemoRegs& regs, size_t* left_over,
                                       uint64_t* uartbone_commands = nullptr) {
  spdlog::set_level(spdlog::level::err);  // execute_request warns for every INTERNAL (HANG)
  proto::FrameDecoder dec(true);
  dec.feed(stream);
  std::vector<uint8_t> out;
  while (auto ev = dec.next()) append_reply(*ev, regs, out);
  if (left_over) *left_over = dec.buffered();
  if (uartbone_commands) *uartbone_commands = dec.uartbone_commands();
  return out;
}

// Any frame, including ones the encoder refuses to make (bad version, len > 256, bad CRC).
std::vector<uint8_t> raw_frame(uint8_t version, uint8_t type, uint8_t seq, uint32_t addr, uint16_t len_field,
                               const std::vector<uint32_t>& payload, uint8_t flags = 0, uint8_t status = 0) {
  std::vector<uint8_t> f = {proto::kSync, version, type, seq};
  for (int i = 0; i < 4; ++i) f.push_back(static_cast<uint8_t>(addr >> (8 * i)));
  f.push_back(static_cast<uint8_t>(len_field));
  f.push_back(static_cast<uint8_t>(len_field >> 8));
  f.push_back(status);
  f.push_back(flags);
  const uint16_t h = proto::crc16_ccitt(f);
  f.push_back(static_cast<uint8_t>(h));
  f.push_back(static_cast<uint8_t>(h >> 8));
  for (uint32_t w : payload)
    for (int i = 0; i < 4; ++i) f.push_back(static_cast<uint8_t>(w >> (8 * i)));
  const uint16_t c = proto::crc16_ccitt(f);
  f.push_back(static_cast<uint8_t>(c));
  f.push_back(static_cast<uint8_t>(c >> 8));
  return f;
}

std::vector<uint8_t> cat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// A random mix of every kind of request, good and bad, frames and UARTBone commands, with
// garbage between them. max_read_burst < 256 also keeps UARTBone command bytes out of the
// garbage and truncated commands out (both can turn into long reads by chance).
std::vector<uint8_t> random_traffic(std::mt19937& rng, size_t max_bytes, uint32_t max_read_burst = 256) {
  auto u = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  auto words = [&](size_t n) {
    std::vector<uint32_t> w(n);
    for (auto& x : w) x = static_cast<uint32_t>(rng());
    return w;
  };
  auto any_addr = [&]() -> uint32_t {
    switch (u(0, 7)) {
      case 0: return 0;
      case 1: return kAcc;
      case 2: return kCount;
      case 3: return kBad + 4 * u(0, 100);
      case 4: return kRam + 4 * u(0, kRamWords - 1) + u(1, 3);  // unaligned
      case 5: return u(0, 3) ? 0x4 : kHang;                      // a hole; no answer
      default: return kRam + 4 * u(0, kRamWords - 1);
    }
  };
  auto flags = [&]() -> uint8_t { return u(0, 5) == 0 ? static_cast<uint8_t>(u(0, 255)) : 0; };
  auto burst_n = [&]() -> uint32_t { return u(0, 4) == 0 ? u(1, 256) : u(1, 12); };
  auto good = [&]() -> std::vector<uint8_t> {
    const uint8_t seq = static_cast<uint8_t>(rng());
    switch (u(0, 5)) {
      case 0: return proto::encode(proto::make_ping(seq));
      case 1: {
        Frame f = proto::make_read(seq, any_addr());
        f.flags = flags();
        return proto::encode(f);
      }
      case 2: {
        Frame f = proto::make_write(seq, any_addr(), static_cast<uint32_t>(rng()));
        f.flags = flags();
        return proto::encode(f);
      }
      case 3: {
        const uint32_t n = burst_n();
        uint32_t a = u(0, 3) == 0 ? any_addr() : kRam + 4 * u(0, kRamWords - 1);  // may run off the RAM
        uint8_t fl = flags();
        if (u(0, 5) == 0) {
          a = kAcc;
          fl |= proto::kFlagNoIncrement;
        }
        if (u(0, 15) == 0) a = 0xFFFFFFFCu - 4 * u(0, 8);  // runs past 0xFFFFFFFF
        auto w = words(n);
        return proto::encode(proto::make_burst_write(seq, a, w, fl));
      }
      case 4: {
        uint32_t n = std::min(burst_n(), max_read_burst);
        if (u(0, 10) == 0) n = std::vector<uint32_t>{0, 257, 511, 512, 65536 + 5, 0xFFFFFFFF}[u(0, 5)];
        uint32_t a = u(0, 3) == 0 ? any_addr() : kRam + 4 * u(0, kRamWords - 1);
        uint8_t fl = flags();
        if (u(0, 5) == 0) {
          a = kCount;
          fl |= proto::kFlagNoIncrement;
        }
        if (u(0, 15) == 0) a = 0xFFFFFFFCu - 4 * u(0, 8);
        return raw_frame(1, 0x05, seq, a, 1, {n}, fl);
      }
      default: {
        // wrong length for the type
        const uint8_t type = static_cast<uint8_t>(u(1, 5));
        const uint32_t len = type == 4 ? 0 : (type == 3 || type == 5) ? u(2, 4) : u(1, 3);
        return raw_frame(1, type, seq, kRam, static_cast<uint16_t>(len), words(len));
      }
    }
  };

  // UARTBone: writes and reads, incrementing and fixed, to every kind of address (HANG and
  // unmapped ones fail: reads answer all ones), wrapping past 4 GiB, word addresses >= 2^30.
  auto uartbone = [&]() -> std::vector<uint8_t> {
    namespace ub = proto::uartbone;
    uint32_t a = 0;
    switch (u(0, 6)) {
      case 0: a = kAcc; break;
      case 1: a = kCount; break;
      case 2: a = kBad + 4 * u(0, 100); break;
      case 3: a = u(0, 5) ? 0x4 : kHang; break;
      case 4: a = kTop + 4 * u(0, 3); break;
      default: a = kRam + 4 * u(0, kRamWords - 1); break;
    }
    const bool fixed = u(0, 3) == 0;
    uint32_t n = u(0, 9) == 0 ? u(0, 255) : u(1, 8);
    if (a == kHang) n = std::min(n, 3u);  // every word waits out the bus timeout
    std::vector<uint8_t> c;
    if (u(0, 1)) {
      c = ub::encode_write(a, words(n), fixed);
    } else {
      c = ub::encode_read(a, std::min(n, max_read_burst), fixed);
    }
    if (u(0, 7) == 0) c[2] |= static_cast<uint8_t>(u(1, 3) << 6);  // bits the byte address has no room for
    return c;
  };

  std::vector<uint8_t> out;
  while (out.size() < max_bytes) {
    std::vector<uint8_t> item;
    const uint8_t seq = static_cast<uint8_t>(rng());
    const uint32_t kind = u(0, 23);
    if (kind < 9) {
      item = good();
    } else if (kind == 9) {  // not a request type (also replies sent to the board)
      const uint8_t type = std::vector<uint8_t>{0x00, 0x06, 0x7F, 0x81, 0x82, 0x84, 0xFF}[u(0, 6)];
      const uint32_t len = u(0, 2);
      item = raw_frame(1, type, seq, any_addr(), static_cast<uint16_t>(len), words(len), flags());
    } else if (kind == 10) {  // bad version
      const uint32_t len = u(0, 2);
      item = raw_frame(static_cast<uint8_t>(u(0, 1) ? 0 : u(2, 255)), 0x02, seq, kRam, static_cast<uint16_t>(len),
                       words(len));
    } else if (kind == 11) {  // len > 256: the payload is scanned as garbage (here: with frames in it)
      item = raw_frame(1, 0x04, seq, kRam, static_cast<uint16_t>(u(257, 65535)), {});
      item.resize(item.size() - 2);  // no payload, no frame CRC: what follows is "payload"
      if (u(0, 1)) {
        auto g = good();
        item.insert(item.end(), g.begin(), g.end());
      }
    } else if (kind == 12 || kind == 13) {  // corrupted frame CRC or payload
      item = good();
      const size_t at = proto::kHeaderBytes + u(0, static_cast<uint32_t>(item.size() - proto::kHeaderBytes - 1));
      item[at] ^= static_cast<uint8_t>(1u << u(0, 7));
    } else if (kind == 14) {  // corrupted header: the sync byte is stray, rescan after it
      item = good();
      item[u(1, 13)] ^= static_cast<uint8_t>(1u << u(0, 7));
    } else if (kind == 15) {  // a truncated frame swallows what follows until its CRC fails
      item = good();
      item.resize(u(1, static_cast<uint32_t>(item.size() - 1)));
    } else if (kind == 16) {  // stray sync bytes
      item = {proto::kSync};
      if (u(0, 1)) item.push_back(proto::kSync);
      if (u(0, 1)) item.push_back(1);
    } else if (kind >= 20 && kind <= 22) {
      item = uartbone();
    } else if (kind == 23 && max_read_burst >= 256) {  // a truncated command takes what follows
      item = uartbone();
      item.resize(u(1, static_cast<uint32_t>(item.size() - 1)));
    } else {  // garbage
      item.resize(u(1, 40));
      for (auto& b : item) {
        b = u(0, 3) == 0 ? proto::kSync : static_cast<uint8_t>(rng());
        if (max_read_burst < 256 && proto::uartbone::is_command(b)) b = 0;
      }
    }
    out.insert(out.end(), item.begin(), item.end());
  }
  return out;
}

// Pads a stream until the software decoder holds no partial frame at its end (so the RTL,
// which decodes the same way, also replies to everything), ending with a PING.
void close_stream(std::vector<uint8_t>& stream) {
  for (int i = 0;; ++i) {
    proto::FrameDecoder dec(true);
    dec.feed(stream);
    if (dec.buffered() == 0) return;
    ASSERT_LT(i, 10) << "the stream does not settle";
    stream.insert(stream.end(), proto::kMaxFrameBytes + 10, 0x00);
    const auto ping = proto::encode(proto::make_ping(static_cast<uint8_t>(i)));
    stream.insert(stream.end(), ping.begin(), ping.end());
  }
}

// ------------------------------------------------------------------ talking raw bytes

class RawLink {
 public:
  explicit RawLink(uint16_t port) : t_(TcpTransport::connect("127.0.0.1", port, 2000ms)) {}
  void send(const std::vector<uint8_t>& bytes) { t_->write_all(bytes, Clock::now() + 60s); }
  // Reads until n bytes arrived or the timeout passed.
  std::vector<uint8_t> recv(size_t n, std::chrono::milliseconds timeout) {
    std::vector<uint8_t> got;
    std::vector<uint8_t> buf(65536);
    const auto deadline = Clock::now() + timeout;
    while (got.size() < n && Clock::now() < deadline) {
      const size_t k = t_->read_some(std::span(buf.data(), std::min(buf.size(), n - got.size())), deadline);
      got.insert(got.end(), buf.begin(), buf.begin() + static_cast<long>(k));
    }
    return got;
  }
  // Every complete frame that arrives within the timeout.
  std::vector<Frame> frames(size_t expect, std::chrono::milliseconds timeout) {
    std::vector<Frame> out;
    std::vector<uint8_t> buf(4096);
    const auto deadline = Clock::now() + timeout;
    while (out.size() < expect && Clock::now() < deadline) {
      const size_t k = t_->read_some(buf, deadline);
      dec_.feed(std::span(buf.data(), k));
      while (auto e = dec_.next()) {
        EXPECT_EQ(e->kind, proto::DecodeEvent::Kind::Frame) << "a reply failed to decode";
        out.push_back(e->frame);
      }
    }
    return out;
  }
  uint64_t garbage() const { return dec_.garbage_bytes(); }

 private:
  std::unique_ptr<TcpTransport> t_;
  proto::FrameDecoder dec_;
};

std::string hexdiff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  std::ostringstream s;
  s << "got " << got.size() << " bytes, want " << want.size() << "; first difference at byte " << i << ":";
  auto dump = [&](const char* name, const std::vector<uint8_t>& v) {
    s << "\n  " << name << ":";
    for (size_t k = i >= 16 ? i - 16 : 0; k < std::min(v.size(), i + 32); ++k) {
      char b[8];
      std::snprintf(b, sizeof b, "%s%02x", k == i ? " [" : " ", v[k]);
      s << b;
    }
  };
  dump("got ", got);
  dump("want", want);
  return s.str();
}

// The board's register state, for a reference that starts where the board is (COUNT is set to 0).
DemoRegs snapshot(RtlBoard& board) {
  BoardClient c = BoardClient::open(board.uri());
  DemoRegs r;
  r.acc = c.read32(kAcc);
  c.write32(kCount, 0);
  r.ram = c.burst_read(kRam, kRamWords);
  return r;
}

// Counts the reply statuses in a reply stream.
std::map<uint8_t, int> statuses(const std::vector<uint8_t>& replies) {
  proto::FrameDecoder dec;
  dec.feed(replies);
  std::map<uint8_t, int> n;
  while (auto e = dec.next()) ++n[e->frame.status];
  return n;
}

// Sends a stream to the RTL board and checks its replies against the software board's.
void expect_same_replies(RtlBoard& board, const std::vector<uint8_t>& stream, std::chrono::milliseconds timeout,
                         DemoRegs regs = {}) {
  size_t left = 0;
  uint64_t ub_commands = 0;
  const auto want = reference_replies(stream, regs, &left, &ub_commands);
  ASSERT_EQ(left, 0u);
  EXPECT_GT(ub_commands, 10u) << "the stream has (almost) no UARTBone commands";
  // The stream exercises every status the board can send.
  const auto st = statuses(want);
  for (Status s : {Status::Ok, Status::BadCrc, Status::BadLength, Status::UnknownCommand, Status::BadAddress,
                   Status::BadVersion, Status::Internal})
    EXPECT_GT(st.count(static_cast<uint8_t>(s)), 0u) << "no " << proto::status_name(static_cast<uint8_t>(s));
  RawLink link(board.port());
  link.send(stream);
  const auto got = link.recv(want.size(), timeout);
  ASSERT_EQ(got, want) << hexdiff(got, want);
  EXPECT_TRUE(link.recv(1, 100ms).empty()) << "extra bytes after the expected replies";
}

Frame only_frame(RawLink& link) {
  auto f = link.frames(1, kReplyWait);
  if (f.size() != 1) {
    ADD_FAILURE() << "no reply";
    return {};
  }
  return f[0];
}

HostError expect_error_reply(Status status, const std::function<void()>& f) {
  try {
    f();
  } catch (const HostError& e) {
    EXPECT_EQ(e.kind(), HostErrorKind::ErrorReply) << e.what();
    EXPECT_EQ(e.status(), static_cast<uint8_t>(status)) << e.what();
    return e;
  }
  ADD_FAILURE() << "no error reply (" << proto::status_name(static_cast<uint8_t>(status)) << ")";
  return HostError(HostErrorKind::ErrorReply, "");
}

HostLinkRtlConfig config(HostLinkPhy phy, int clks_per_bit = 8, int wait_states = 0) {
  HostLinkRtlConfig c;
  c.phy = phy;
  c.clks_per_bit = clks_per_bit;
  c.wait_states = wait_states;
  return c;
}

std::map<std::string, uint64_t> expect_clean_stop(RtlBoard& board) {
  auto s = board.stop();
  EXPECT_EQ(s["exit_status"], 0u) << read_file(board.log_path());
  EXPECT_EQ(s["overruns"], 0u);
  EXPECT_EQ(s["frame_errors"], 0u);
  EXPECT_EQ(s["host_framing_errors"], 0u);
  EXPECT_GT(s["cycles"], 0u);
  return s;
}

// ------------------------------------------------------------------ lint and synthesis

std::string run_tool(const std::vector<std::string>& cmd, const fs::path& log, int* rc) {
  *rc = run_child(cmd, 600, log.string());
  return read_file(log);
}

std::vector<std::string> hw_paths() {
  std::vector<std::string> p;
  for (const auto& f : host_link_hw_files()) p.push_back(hw_path(f));
  return p;
}

struct LintCase {
  std::string top;
  std::vector<std::string> params;  // -G overrides
};

void PrintTo(const LintCase& k, std::ostream* os) {
  *os << k.top;
  for (const auto& g : k.params) *os << " -G" << g;
}

class HostLinkLint : public ::testing::TestWithParam<LintCase> {};

TEST_P(HostLinkLint, VerilatorWallIsClean) {
  const auto& k = GetParam();
  const fs::path dir = temp_dir("lint");
  std::vector<std::string> cmd = {CMNET_VERILATOR, "--lint-only", "-Wall", "--top-module", k.top};
  for (const auto& g : k.params) cmd.push_back("-G" + g);
  for (const auto& f : hw_paths()) cmd.push_back(f);
  int rc = 0;
  const std::string log = run_tool(cmd, dir / "lint.log", &rc);
  EXPECT_EQ(rc, 0) << log;
  EXPECT_EQ(log.find("%Warning"), std::string::npos) << log;
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Modules, HostLinkLint,
    ::testing::Values(LintCase{"cmnet_uart_rx", {}}, LintCase{"cmnet_uart_rx", {"CLKS_PER_BIT=4"}},
                      LintCase{"cmnet_uart_tx", {"CLKS_PER_BIT=5"}}, LintCase{"cmnet_fifo_phy", {}},
                      LintCase{"cmnet_frame_engine", {}},
                      LintCase{"cmnet_frame_engine", {"FRAME_TIMEOUT=0", "BUS_TIMEOUT=0"}},
                      LintCase{"cmnet_regfile_demo", {"RAM_AW=4", "WAIT_STATES=3"}},
                      LintCase{"cmnet_host_link_testtop", {"PHY=0"}},
                      LintCase{"cmnet_host_link_testtop", {"PHY=1", "CLKS_PER_BIT=4"}},
                      LintCase{"cmnet_host_link_testtop", {"PHY=2", "WAIT_STATES=2"}}),
    [](const ::testing::TestParamInfo<LintCase>& i) {
      std::string n = i.param.top;
      for (const auto& g : i.param.params) n += "_" + g;
      for (auto& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

TEST(HostLinkLint, RejectsTooFewClocksPerBit) {
  const fs::path dir = temp_dir("lintbad");
  int rc = 0;
  const std::string log = run_tool({CMNET_VERILATOR, "--lint-only", "-Wall", "--top-module", "cmnet_uart_rx",
                                    "-GCLKS_PER_BIT=3", hw_path("cmnet_uart_rx.v")},
                                   dir / "lint.log", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(log.find("CLKS_PER_BIT_must_be_at_least_4"), std::string::npos) << log;
  fs::remove_all(dir);
}

struct Ice40Stat {
  int luts = 0, ffs = 0, brams = 0, carries = 0;
};

Ice40Stat parse_stat(const std::string& log) {
  // The last "Printing statistics" block is the top's (flattened) design.
  const size_t at = log.rfind("Printing statistics");
  const std::string s = at == std::string::npos ? log : log.substr(at);
  Ice40Stat r;
  std::regex cell(R"((SB_\w+)\s+(\d+))");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), cell); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    const int n = std::stoi((*it)[2]);
    if (name == "SB_LUT4") r.luts += n;
    else if (name == "SB_RAM40_4K") r.brams += n;
    else if (name == "SB_CARRY") r.carries += n;
    else if (name.rfind("SB_DFF", 0) == 0) r.ffs += n;
  }
  return r;
}

struct SynthCase {
  std::string name;
  std::string top_text;  // a wrapper module named synth_top
  int max_luts, max_ffs, brams;
};

const char* kUartEngine = R"(
module synth_top (input wire clk, input wire rst, input wire rxd, output wire txd,
    output wire bus_valid, output wire bus_write, output wire [31:0] bus_addr, output wire [31:0] bus_wdata,
    input wire bus_ready, input wire [31:0] bus_rdata, input wire bus_err, output wire idle);
  wire rx_valid, rx_ready, tx_valid, tx_ready, fe, rb, tb, st, ov;
  wire [7:0] rx_data, tx_data;
  cmnet_uart_rx #(.CLKS_PER_BIT(104)) rx (.clk(clk), .rst(rst), .rxd(rxd), .out_valid(rx_valid),
      .out_data(rx_data), .frame_err(fe), .busy(rb));
  cmnet_uart_tx #(.CLKS_PER_BIT(104)) tx (.clk(clk), .rst(rst), .in_valid(tx_valid), .in_ready(tx_ready),
      .in_data(tx_data), .txd(txd), .busy(tb));
  cmnet_frame_engine engine (.clk(clk), .rst(rst), .in_valid(rx_valid), .in_ready(rx_ready), .in_data(rx_data), .stall_expired(1'b0),
      .out_valid(tx_valid), .out_ready(tx_ready), .out_data(tx_data), .bus_valid(bus_valid), .bus_write(bus_write),
      .bus_addr(bus_addr), .bus_wdata(bus_wdata), .bus_ready(bus_ready), .bus_rdata(bus_rdata), .bus_err(bus_err),
      .idle(idle), .stalled(st), .overrun(ov));
endmodule
)";

const char* kFifoEngine = R"(
module synth_top (input wire clk, input wire rst, input wire rxf_n, input wire txe_n, output wire rd_n,
    output wire wr_n, output wire oe_n, input wire [7:0] data_in, output wire [7:0] data_out, output wire data_oe,
    output wire bus_valid, output wire bus_write, output wire [31:0] bus_addr, output wire [31:0] bus_wdata,
    input wire bus_ready, input wire [31:0] bus_rdata, input wire bus_err, output wire idle);
  wire rx_valid, rx_ready, tx_valid, tx_ready, pb, st, ov;
  wire [7:0] rx_data, tx_data;
  cmnet_fifo_phy phy (.clk(clk), .rst(rst), .rxf_n(rxf_n), .txe_n(txe_n), .rd_n(rd_n), .wr_n(wr_n), .oe_n(oe_n),
      .data_in(data_in), .data_out(data_out), .data_oe(data_oe), .out_valid(rx_valid), .out_ready(rx_ready),
      .out_data(rx_data), .in_valid(tx_valid), .in_ready(tx_ready), .in_data(tx_data), .busy(pb));
  cmnet_frame_engine engine (.clk(clk), .rst(rst), .in_valid(rx_valid), .in_ready(rx_ready), .in_data(rx_data), .stall_expired(1'b0),
      .out_valid(tx_valid), .out_ready(tx_ready), .out_data(tx_data), .bus_valid(bus_valid), .bus_write(bus_write),
      .bus_addr(bus_addr), .bus_wdata(bus_wdata), .bus_ready(bus_ready), .bus_rdata(bus_rdata), .bus_err(bus_err),
      .idle(idle), .stalled(st), .overrun(ov));
endmodule
)";

void PrintTo(const SynthCase& k, std::ostream* os) { *os << k.name; }

class HostLinkSynth : public ::testing::TestWithParam<SynthCase> {};

TEST_P(HostLinkSynth, SynthesizesForIce40) {
  const auto& k = GetParam();
  const fs::path dir = temp_dir("synth-" + k.name);
  {
    std::ofstream(dir / "synth_top.v") << k.top_text;
  }
  std::string script = "read_verilog";
  for (const auto& f : hw_paths()) script += " " + f;
  script += " " + (dir / "synth_top.v").string() + "; synth_ice40 -top synth_top; stat";
  int rc = 0;
  const std::string log = run_tool({CMNET_YOSYS, "-q", "-p", script, "-l", (dir / "yosys.log").string()},
                                   dir / "yosys.out", &rc);
  const std::string ylog = read_file(dir / "yosys.log");
  ASSERT_EQ(rc, 0) << log << ylog;
  const Ice40Stat s = parse_stat(ylog);
  std::printf("[ iCE40 ] %s: %d SB_LUT4, %d flip-flops, %d SB_CARRY, %d SB_RAM40_4K\n", k.name.c_str(), s.luts,
              s.ffs, s.carries, s.brams);
  RecordProperty("luts", s.luts);
  RecordProperty("ffs", s.ffs);
  RecordProperty("brams", s.brams);
  EXPECT_GT(s.luts, 0);
  EXPECT_LE(s.luts, k.max_luts);
  EXPECT_LE(s.ffs, k.max_ffs);
  EXPECT_EQ(s.brams, k.brams) << "the ring (4) and the read buffer (2) must be block RAM";
  EXPECT_EQ(ylog.find("Latch inferred"), std::string::npos);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Ice40, HostLinkSynth,
                         ::testing::Values(SynthCase{"uart_engine", kUartEngine, 1000, 450, 6},
                                           SynthCase{"fifo_engine", kFifoEngine, 1000, 450, 6}),
                         [](const ::testing::TestParamInfo<SynthCase>& i) { return i.param.name; });

// ------------------------------------------------------------------ BoardClient over TCP to the RTL

BoardClientOptions client_options() {
  BoardClientOptions o;
  o.timeout = 5000ms;
  o.retries = 0;  // the link is lossless: a retry would hide a bug
  return o;
}

// The host driver's whole API against the RTL board.
void exercise_client(RtlBoard& board, size_t long_burst) {
  BoardClient c = BoardClient::open(board.uri(), client_options());
  EXPECT_EQ(c.ping(), 0x01000001u);
  EXPECT_EQ(c.read32(0), kId);

  c.write32(kRam, 0xDEADBEEF);
  c.write32(kRam + 4, 0x01234567);
  EXPECT_EQ(c.read32(kRam), 0xDEADBEEFu);
  EXPECT_EQ(c.read32(kRam + 4), 0x01234567u);
  c.write32(0, 5);  // the ID register ignores writes
  EXPECT_EQ(c.read32(0), kId);

  // Bursts; longer than 256 words the client splits them.
  std::vector<uint32_t> w(long_burst);
  std::mt19937 rng(7);
  for (auto& x : w) x = static_cast<uint32_t>(rng());
  c.burst_write(kRam + 16, w);
  EXPECT_EQ(c.burst_read(kRam + 16, w.size()), w);
  EXPECT_EQ(c.read32(kRam + 16 + 4 * 3), w[3]);

  // NO_INCREMENT bursts: every word to ACC (it sums), n reads of COUNT (it counts).
  c.burst_write(kAcc, std::vector<uint32_t>{1, 2, 3, 400}, true);
  EXPECT_EQ(c.read32(kAcc), 406u);
  c.write32(kCount, 100);
  EXPECT_EQ(c.burst_read(kCount, 5, true), (std::vector<uint32_t>{100, 101, 102, 103, 104}));

  // Errors: not decoded, unaligned, a burst off the end of the RAM (first words done), a burst
  // past 0xFFFFFFFF (rejected before the bus).
  expect_error_reply(Status::BadAddress, [&] { c.read32(kBad); });
  expect_error_reply(Status::BadAddress, [&] { c.write32(0x4, 1); });
  expect_error_reply(Status::BadAddress, [&] { c.read32(kRam + 2); });
  const uint32_t last = kRam + 4 * (kRamWords - 2);
  expect_error_reply(Status::BadAddress,
                     [&] { c.burst_write(last, std::vector<uint32_t>{11, 22, 33, 44}); });
  EXPECT_EQ(c.burst_read(last, 2), (std::vector<uint32_t>{11, 22}));
  expect_error_reply(Status::BadAddress, [&] { c.burst_read(last, 3); });
  // TOP aliases RAM words 0..3: a burst ending at 0xFFFFFFFC is fine, one more word would wrap
  // to ID, and is refused before any access.
  c.write32(kRam + 8, 0xAAAA0008);
  c.write32(kRam + 12, 0xAAAA000C);
  EXPECT_EQ(c.burst_read(kTop + 8, 2), (std::vector<uint32_t>{0xAAAA0008, 0xAAAA000C}));
  expect_error_reply(Status::BadAddress, [&] { c.burst_read(kTop + 8, 3); });
  expect_error_reply(Status::BadAddress, [&] { c.burst_write(kTop + 12, std::vector<uint32_t>{1, 2}); });
  EXPECT_EQ(c.read32(kRam + 12), 0xAAAA000Cu) << "a refused burst wrote";
  EXPECT_EQ(c.read32(0), kId);
  // The link still works after the errors.
  EXPECT_EQ(c.ping(), 0x01000001u);
  EXPECT_EQ(c.stats().garbage_bytes, 0u);
  EXPECT_EQ(c.stats().crc_errors, 0u);
  EXPECT_EQ(c.stats().timeouts, 0u);
}

TEST(HostLinkRtl, BoardClientOverBytes) {
  RtlBoard board(config(HostLinkPhy::Bytes));
  exercise_client(board, 700);
  expect_clean_stop(board);
}

TEST(HostLinkRtl, BoardClientWithWaitStatesAndBackpressure) {
  RtlBoardOptions o;
  o.throttle_percent = 40;  // the host takes reply bytes on 60% of the cycles
  RtlBoard board(config(HostLinkPhy::Bytes, 8, 3), o);
  exercise_client(board, 300);
  expect_clean_stop(board);
}

TEST(HostLinkRtl, ClientsComeAndGo) {
  RtlBoard board(config(HostLinkPhy::Bytes));
  for (int i = 0; i < 3; ++i) {
    BoardClient c = BoardClient::open(board.uri(), client_options());
    c.write32(kRam + 4 * i, 1000u + static_cast<uint32_t>(i));
    EXPECT_EQ(c.read32(kRam + 4 * i), 1000u + static_cast<uint32_t>(i));
    c.close();
  }
  BoardClient c = BoardClient::open(board.uri(), client_options());
  EXPECT_EQ(c.burst_read(kRam, 3), (std::vector<uint32_t>{1000, 1001, 1002}));
  expect_clean_stop(board);
}

// How fast the simulated RTL board answers the host driver: printed as a figure, not asserted
// (wall-clock rates depend on the machine and its load; cmnet-linkbench is the benchmark). What
// is asserted is that every operation in the windows completed, correctly, without a retry.
TEST(HostLinkRtl, Throughput) {
  for (HostLinkPhy phy : {HostLinkPhy::Bytes, HostLinkPhy::Fifo}) {
    RtlBoard board(config(phy));
    BoardClient c = BoardClient::open(board.uri(), client_options());
    std::vector<uint32_t> w(256);
    std::iota(w.begin(), w.end(), 1u);
    uint64_t ops = 0;
    auto rate = [&](const std::function<void()>& op) {
      int n = 0;
      const auto t0 = Clock::now();
      while (Clock::now() - t0 < 300ms) {
        op();
        ++n;
      }
      ops += static_cast<uint64_t>(n);
      return n / std::chrono::duration<double>(Clock::now() - t0).count();
    };
    const double reads = rate([&] { c.read32(kRam); });
    c.burst_write(kRam, w);
    bool same = true;
    const double bursts = rate([&] { same = same && c.burst_read(kRam, 256) == w; });
    EXPECT_TRUE(same);
    const double wbursts = rate([&] { c.burst_write(kRam, w); });
    const auto s = board.stop();
    std::printf("[ rtl board, %s ] read32 %.0f/s, burst_read 256 words %.0f/s (%.2f MB/s), burst_write %.0f/s; "
                "%.1f Mcycles simulated\n",
                host_link_phy_name(phy), reads, bursts, bursts * 1024 / 1e6, wbursts,
                static_cast<double>(s.at("cycles")) / 1e6);
    EXPECT_EQ(c.stats().requests, ops + 1);  // + the burst_write between the windows
    EXPECT_EQ(c.stats().retries, 0u);
    EXPECT_EQ(c.stats().timeouts, 0u);
  }
}

// ------------------------------------------------------------------ error replies, by hand

TEST(HostLinkRtl, ErrorRepliesAsProtocolMdSays) {
  RtlBoard board(config(HostLinkPhy::Bytes));
  RawLink link(board.port());
  auto reply = [&](const std::vector<uint8_t>& req) {
    link.send(req);
    return only_frame(link);
  };

  // BAD_CRC: seq echoed, len 0, and the burst write was not executed.
  {
    auto req = raw_frame(1, 0x04, 0x31, kRam, 2, {0xAAAA5555, 0x12345678});
    req[proto::kHeaderBytes + 1] ^= 0x10;
    const Frame r = reply(req);
    EXPECT_EQ(r.type, 0x84);
    EXPECT_EQ(r.seq, 0x31);
    EXPECT_EQ(r.addr, kRam);
    EXPECT_EQ(r.status, static_cast<uint8_t>(Status::BadCrc));
    EXPECT_TRUE(r.payload.empty());
    const Frame rd = reply(proto::encode(proto::make_burst_read(0x32, kRam, 2)));
    EXPECT_EQ(rd.status, 0);
    EXPECT_EQ(rd.payload, (std::vector<uint32_t>{0, 0})) << "a request that failed its CRC executed";
  }
  // BAD_LENGTH: len > 256 (the payload is skipped as garbage, a frame inside it is found).
  {
    auto req = raw_frame(1, 0x04, 0x40, kRam, 300, {});
    req.resize(req.size() - 2);
    const auto inner = proto::encode(proto::make_write(0x41, kRam + 8, 77));
    // (Not bytes 0x01..0x04: the payload is scanned like any garbage, and they would start
    // UARTBone commands.)
    link.send(cat({req, {0x10, 0x20, 0x30, 0x40}, inner}));
    auto rs = link.frames(2, kReplyWait);
    ASSERT_EQ(rs.size(), 2u);
    EXPECT_EQ(rs[0].seq, 0x40);
    EXPECT_EQ(rs[0].status, static_cast<uint8_t>(Status::BadLength));
    EXPECT_EQ(rs[1].seq, 0x41);
    EXPECT_EQ(rs[1].status, 0);
  }
  // BAD_LENGTH: len wrong for the type; burst counts 0 and 257.
  EXPECT_EQ(reply(raw_frame(1, 0x01, 1, 0, 1, {9})).status, static_cast<uint8_t>(Status::BadLength));
  EXPECT_EQ(reply(raw_frame(1, 0x03, 2, kRam, 0, {})).status, static_cast<uint8_t>(Status::BadLength));
  EXPECT_EQ(reply(raw_frame(1, 0x02, 3, kRam, 1, {1})).status, static_cast<uint8_t>(Status::BadLength));
  EXPECT_EQ(reply(raw_frame(1, 0x04, 4, kRam, 0, {})).status, static_cast<uint8_t>(Status::BadLength));
  EXPECT_EQ(reply(raw_frame(1, 0x05, 5, kRam, 1, {0})).status, static_cast<uint8_t>(Status::BadLength));
  EXPECT_EQ(reply(raw_frame(1, 0x05, 6, kRam, 1, {257})).status, static_cast<uint8_t>(Status::BadLength));
  EXPECT_EQ(reply(raw_frame(1, 0x05, 7, kRam, 1, {0x10000})).status, static_cast<uint8_t>(Status::BadLength));
  EXPECT_EQ(reply(raw_frame(1, 0x05, 8, kRam, 1, {256})).payload.size(), 256u);
  // UNKNOWN_COMMAND: an unknown type, and a reply type sent to the board.
  {
    const Frame r = reply(raw_frame(1, 0x09, 9, 0x1234, 0, {}, 0x06));
    EXPECT_EQ(r.type, 0x89);
    EXPECT_EQ(r.flags, 0x06);
    EXPECT_EQ(r.addr, 0x1234u);
    EXPECT_EQ(r.status, static_cast<uint8_t>(Status::UnknownCommand));
    EXPECT_EQ(reply(raw_frame(1, 0x82, 10, 0, 0, {})).status, static_cast<uint8_t>(Status::UnknownCommand));
  }
  // BAD_ADDRESS: not decoded, unaligned, past 0xFFFFFFFF; NO_INCREMENT makes the last legal.
  EXPECT_EQ(reply(proto::encode(proto::make_read(11, kBad))).status, static_cast<uint8_t>(Status::BadAddress));
  EXPECT_EQ(reply(proto::encode(proto::make_read(12, kRam + 1))).status, static_cast<uint8_t>(Status::BadAddress));
  EXPECT_EQ(reply(proto::encode(proto::make_burst_read(13, 0xFFFFFFFC, 2))).status,
            static_cast<uint8_t>(Status::BadAddress));
  EXPECT_EQ(reply(proto::encode(proto::make_burst_read(14, 0xFFFFFFF8, 3))).status,
            static_cast<uint8_t>(Status::BadAddress));
  EXPECT_EQ(reply(proto::encode(proto::make_burst_read(14, 0xFFFFFFF8, 2))).status, 0);  // TOP: the last words
  EXPECT_EQ(reply(proto::encode(proto::make_burst_read(14, 0xFFFFFFF8, 3, proto::kFlagNoIncrement))).status, 0);
  {
    const Frame r = reply(proto::encode(proto::make_burst_read(15, kCount, 3, proto::kFlagNoIncrement)));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.payload, (std::vector<uint32_t>{0, 1, 2}));
  }
  // INTERNAL: the bus access timed out (BUS_TIMEOUT); the link goes on.
  EXPECT_EQ(reply(proto::encode(proto::make_read(18, kHang))).status, static_cast<uint8_t>(Status::Internal));
  EXPECT_EQ(reply(proto::encode(proto::make_write(19, kHang, 1))).status, static_cast<uint8_t>(Status::Internal));
  EXPECT_EQ(reply(proto::encode(proto::make_read(20, 0))).payload, (std::vector<uint32_t>{kId}));
  // BAD_VERSION: the reply carries version 1.
  {
    link.send(raw_frame(2, 0x02, 16, kRam, 0, {}));
    std::vector<uint8_t> want = proto::encode(proto::make_reply(proto::make_read(16, kRam), Status::BadVersion));
    EXPECT_EQ(link.recv(want.size(), kReplyWait), want);
  }
  // PING's word.
  {
    const Frame r = reply(proto::encode(proto::make_ping(17)));
    EXPECT_EQ(r.type, 0x81);
    EXPECT_EQ(r.payload, (std::vector<uint32_t>{0x01000001}));
  }
  EXPECT_EQ(link.garbage(), 0u) << "the board sent bytes that are not frames";
  expect_clean_stop(board);
}

TEST(HostLinkRtl, GarbageAndStraySyncBytesBetweenFrames) {
  RtlBoard board(config(HostLinkPhy::Bytes));
  RawLink link(board.port());
  const auto w1 = proto::encode(proto::make_write(1, kRam, 0x11111111));
  const auto w2 = proto::encode(proto::make_write(2, kRam + 4, 0x22222222));
  const auto r3 = proto::encode(proto::make_burst_read(3, kRam, 2));
  // Noise, a stray sync whose "header" contains the start of the next frame, a truncated
  // frame whose length swallows the next request (found again on the rescan after BAD_CRC).
  auto truncated = proto::encode(proto::make_burst_write(4, kRam + 64, std::vector<uint32_t>(6, 0x99)));
  truncated.resize(20);
  link.send(cat({{0x00, 0xFF, 0xA5, 0x01}, w1, {0xA5, 0xA5, 0x5A}, w2, {0x13, 0x37}, truncated, r3}));
  auto rs = link.frames(4, kReplyWait);
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0].seq, 1);
  EXPECT_EQ(rs[0].status, 0);
  EXPECT_EQ(rs[1].seq, 2);
  EXPECT_EQ(rs[1].status, 0);
  EXPECT_EQ(rs[2].seq, 4);
  EXPECT_EQ(rs[2].status, static_cast<uint8_t>(Status::BadCrc));
  EXPECT_EQ(rs[3].seq, 3);
  EXPECT_EQ(rs[3].payload, (std::vector<uint32_t>{0x11111111, 0x22222222}));
  expect_clean_stop(board);
}

TEST(HostLinkRtl, StalledPartialFrameIsDroppedAfterTheFrameTimeout) {
  const HostLinkRtlConfig cfg = config(HostLinkPhy::Bytes);
  RtlBoard board(cfg);
  RawLink link(board.port());
  // A header announcing 100 words, 10 of them sent, then nothing: the PING that follows is
  // taken as payload until the stall timeout (wall time: the bridge waits without clocking)
  // expires and the engine's own FRAME_TIMEOUT (50000 cycles, clocked out then) drops the
  // partial frame and rescans.
  auto partial = raw_frame(1, 0x04, 0x50, kRam, 100, std::vector<uint32_t>(100, 0));
  partial.resize(proto::kHeaderBytes + 10);
  link.send(cat({partial, proto::encode(proto::make_ping(0x51))}));
  const Frame r = only_frame(link);  // the PING is answered at all: the partial frame was dropped
  EXPECT_EQ(r.seq, 0x51);
  EXPECT_EQ(r.status, 0);
  // And nothing of the partial frame was executed.
  link.send(proto::encode(proto::make_read(0x52, kRam)));
  EXPECT_EQ(only_frame(link).payload, (std::vector<uint32_t>{0}));
  const auto s = expect_clean_stop(board);
  // The drop waited out FRAME_TIMEOUT in simulated time (a lower bound: safe).
  EXPECT_GE(s.at("cycles"), uint64_t{cfg.frame_timeout_cycles});
}

// ------------------------------------------------------------------ UARTBone

// What litex_server --uart does (host/uartbone_client.h), interleaved with the host driver on
// one connection.
void exercise_uartbone(RtlBoard& board) {
  BoardClient c = BoardClient::open(board.uri(), client_options());
  UartBoneClient ub(c.transport(), 10000ms);
  EXPECT_EQ(ub.read32(0), kId);
  ub.write32(kRam, 0xDEADBEEF);
  EXPECT_EQ(c.read32(kRam), 0xDEADBEEFu);
  c.write32(kRam + 4, 0x01234567);
  EXPECT_EQ(ub.read32(kRam + 4), 0x01234567u);

  // Bursts: 300 words are two read commands, and 38 write commands of 8 words (LiteX's size).
  std::vector<uint32_t> w(300);
  std::mt19937 rng(17);
  for (auto& x : w) x = static_cast<uint32_t>(rng());
  ub.burst_write(kRam + 64, w);
  EXPECT_EQ(c.burst_read(kRam + 64, w.size()), w);
  EXPECT_EQ(ub.burst_read(kRam + 64, w.size()), w);
  std::reverse(w.begin(), w.end());
  ub.set_max_write_words(255);
  ub.burst_write(kRam + 64, w);
  EXPECT_EQ(c.burst_read(kRam + 64, w.size()), w);

  // Fixed-address commands (0x03, 0x04): every word to ACC (it sums), n reads of COUNT.
  const uint32_t acc = c.read32(kAcc);
  ub.burst_write(kAcc, std::vector<uint32_t>{1, 2, 3, 400}, true);
  EXPECT_EQ(c.read32(kAcc), acc + 406);
  c.write32(kCount, 50);
  EXPECT_EQ(ub.burst_read(kCount, 4, true), (std::vector<uint32_t>{50, 51, 52, 53}));
  EXPECT_EQ(c.read32(kCount), 54u);

  // Failed accesses: a read answers all ones for the failed words only (as LiteX does), the
  // data for the others, and makes every access (COUNT counts on); a write goes on past a
  // failed word.
  constexpr uint32_t F = proto::uartbone::kFailedRead;
  const std::vector<uint32_t> ones(3, F);
  EXPECT_EQ(ub.burst_read(kBad, 3), ones);
  EXPECT_EQ(ub.burst_read(kHang, 3, true), ones);  // the bus timeout, three times
  c.write32(kCount, 7);
  // 0x4 unmapped, then ACC, then COUNT: a burst straddling an unmapped word.
  EXPECT_EQ(ub.burst_read(0x4, 3), (std::vector<uint32_t>{F, acc + 406, 7}));
  EXPECT_EQ(c.read32(kCount), 8u);
  // A burst running off the end of the RAM: its words, then all ones for the unmapped words.
  c.write32(kRam + 4 * (kRamWords - 2), 0x11111111);
  c.write32(kRam + 4 * (kRamWords - 1), 0x22222222);
  EXPECT_EQ(ub.burst_read(kRam + 4 * (kRamWords - 2), 4), (std::vector<uint32_t>{0x11111111, 0x22222222, F, F}));
  const uint32_t last = kRam + 4 * (kRamWords - 1);
  ub.burst_write(last, std::vector<uint32_t>{77, 78});  // the second word is off the RAM
  ub.burst_write(0x4, std::vector<uint32_t>{1, 1000});  // unmapped, then ACC
  EXPECT_EQ(c.read32(last), 77u);
  EXPECT_EQ(c.read32(kAcc), acc + 1406);

  // Addresses wrap at 4 GiB: TOP is RAM words 0..3, the word after 0xFFFFFFFC is ID.
  c.write32(kRam + 8, 0xAAAA0008);
  c.write32(kRam + 12, 0xAAAA000C);
  EXPECT_EQ(ub.burst_read(kTop + 8, 3), (std::vector<uint32_t>{0xAAAA0008, 0xAAAA000C, kId}));
  // A word address >= 2^30 has no byte address: its top two bits are dropped.
  c.transport().write_all(std::vector<uint8_t>{0x02, 1, 0xC0, 0x00, 0x04, 0x02}, Clock::now() + kReplyWait);
  std::vector<uint8_t> four(4);
  size_t got = 0;
  while (got < 4) {
    const size_t k = c.transport().read_some(std::span(four).subspan(got), Clock::now() + kReplyWait);
    ASSERT_GT(k, 0u) << "no reply to a UARTBone read at word address 0xC0000402";
    got += k;
  }
  EXPECT_EQ(four, (std::vector<uint8_t>{0xAA, 0xAA, 0x00, 0x08}));  // byte address 0x1008

  EXPECT_EQ(c.ping(), 0x01000001u);
  EXPECT_EQ(c.stats().garbage_bytes, 0u);
  EXPECT_EQ(c.stats().timeouts, 0u);
}

TEST(HostLinkRtl, UartBoneClientInterleavedWithTheDriver) {
  RtlBoard board(config(HostLinkPhy::Bytes));
  exercise_uartbone(board);
  expect_clean_stop(board);
}

TEST(HostLinkUart, UartBoneClientInterleavedWithTheDriver) {
  RtlBoard board(config(HostLinkPhy::Uart, 4));
  exercise_uartbone(board);
  expect_clean_stop(board);
}

// Recovery rules (PROTOCOL.md, "UARTBone"): a command runs only once complete; one whose
// sender stalls for FRAME_TIMEOUT cycles is dropped and the bytes after its command byte are
// rescanned for frames; bytes rescanned after a failed frame never start a command.
TEST(HostLinkRtl, MalformedUartBoneCommandsDoNotWedgeTheLink) {
  namespace ub = proto::uartbone;
  RtlBoard board(config(HostLinkPhy::Bytes));
  {
    RawLink link(board.port());
    auto reply = [&](const std::vector<uint8_t>& req) {
      link.send(req);
      return only_frame(link);
    };
    // A write of 16 words with 2 sent: the PING behind it is taken for its data until the
    // stall drops it, then found on the rescan. Nothing of the write was executed.
    auto w = ub::encode_write(kRam + 0x100, std::vector<uint32_t>(16, 0x55555555));
    w.resize(ub::kHeaderBytes + 8);
    const Frame p = reply(cat({w, proto::encode(proto::make_ping(0x61))}));
    EXPECT_EQ(p.seq, 0x61);
    EXPECT_EQ(p.status, 0);
    EXPECT_EQ(reply(proto::encode(proto::make_burst_read(0x62, kRam + 0x100, 2))).payload,
              (std::vector<uint32_t>{0, 0}));

    // Length 0 does nothing and sends nothing.
    const Frame q = reply(cat({ub::encode_write(kRam, {}), ub::encode_read(kRam, 0),
                               proto::encode(proto::make_read(0x63, kRam + 0x100))}));
    EXPECT_EQ(q.seq, 0x63);
    EXPECT_EQ(q.payload, (std::vector<uint32_t>{0}));

    // A BURST_WRITE failing its CRC: the rescan after its sync byte reads 0x01 0x04 (version,
    // type), a UARTBone write of 4 words to byte address 0x1400 (from seq 0 and addr 0x500),
    // were rescanned bytes commands.
    auto bad = proto::encode(proto::make_burst_write(0x00, 0x500, std::vector<uint32_t>{9, 9, 9, 9}));
    bad[proto::kHeaderBytes + 5] ^= 0x01;
    EXPECT_EQ(reply(bad).status, static_cast<uint8_t>(Status::BadCrc));
    EXPECT_EQ(reply(proto::encode(proto::make_burst_read(0x64, 0x1400, 5))).payload, std::vector<uint32_t>(5, 0))
        << "a corrupted frame's bytes were executed as a UARTBone write";
    EXPECT_EQ(link.garbage(), 0u);
  }
  {
    // A truncated read header, then the driver: its first request completes the command's
    // address (4 bytes of all ones come back, garbage to it) and is lost with what follows;
    // the driver's retry gets through.
    BoardClientOptions o = client_options();
    o.timeout = 1000ms;
    o.retries = 2;
    BoardClient c = BoardClient::open(board.uri(), o);
    c.transport().write_all(std::vector<uint8_t>{ub::kRead, 1, 0x00}, Clock::now() + kReplyWait);
    c.write32(kRam + 0x104, 0x600DF00D);
    EXPECT_EQ(c.read32(kRam + 0x104), 0x600DF00Du);
    EXPECT_GE(c.stats().retries, 1u);
    EXPECT_GE(c.stats().garbage_bytes, 4u);
  }
  expect_clean_stop(board);
}

// LiteX's own tools (issue 14): a client that behaves exactly like CommUART (every byte its own
// write, 60 ms apart: longer than the old 25 ms stall timeout of this board; 255-word reads,
// writes split at 142 words; no timeout of its own) gets every answer. Waiting for its bytes
// costs the board no cycles; the stall timeout is wall time (500 ms by default,
// RtlBoardOptions::stall_timeout_ms).
void exercise_commuart_like(const HostLinkRtlConfig& cfg) {
  using cmnet::testing_support::CommUartLike;
  RtlBoard board(cfg);
  std::vector<uint32_t> w(300);
  std::iota(w.begin(), w.end(), 0x5A000000u);
  {
    BoardClient c = BoardClient::open(board.uri(), client_options());
    c.burst_write(kRam, w);
    c.write32(kRam + 4 * 300, 0x12345678);
  }
  {
    CommUartLike ub(board.port(), 60ms);
    EXPECT_EQ(ub.read(0, 1), (std::vector<uint32_t>{kId}));
    EXPECT_EQ(ub.read(kRam, 300), w);  // 255 + 45 words
    ub.write(kRam + 4 * 400, std::vector<uint32_t>{7, 8});
    EXPECT_EQ(ub.read(kRam + 4 * 400, 2), (std::vector<uint32_t>{7, 8}));
    // A cmnet frame split at every byte boundary, 60 ms apart.
    ub.send_split(proto::encode(proto::make_ping(0x42)));
    proto::FrameDecoder dec(false);
    dec.feed(ub.recv_exact(proto::kHeaderBytes + 4 + 2));
    const auto ev = dec.next();
    ASSERT_TRUE(ev.has_value());
    EXPECT_EQ(ev->frame.seq, 0x42);
    // A truncated command is dropped after the stall timeout: what comes later is a new command.
    ub.send_split({0x02, 1, 0x00});
    std::this_thread::sleep_for(1200ms);
    EXPECT_EQ(ub.read(kRam + 4 * 300, 1), (std::vector<uint32_t>{0x12345678}));
    // A truncated command whose client leaves does not swallow the next client's bytes.
    ub.send_split({0x02, 1, 0x00, 0x00});
  }
  {
    CommUartLike ub(board.port(), 1ms);
    EXPECT_EQ(ub.read(0, 1), (std::vector<uint32_t>{kId}));
    // csr.csv as LiteX's loader reads it; litex_client --ident: identifier_mem's address from
    // it, one character per word until a 0.
    const testing_support::LitexCsrFile csr = testing_support::load_litex_csr_file(board.csr_csv_path());
    ASSERT_TRUE(csr.ok()) << csr.report();
    const uint32_t base = csr.bases.at("identifier_mem");
    ASSERT_EQ(base, 0x400u);
    std::string ident;
    for (uint32_t x : ub.read(base, 256)) {
      if (x == 0) break;
      ident.push_back(static_cast<char>(x));
    }
    EXPECT_EQ(ident, host_link_identifier(cfg));
    // CommUART's write split at 115200 baud: 300 words of demo_ram go as 142 + 142 + 16.
    const auto* ram = testing_support::find_register(csr, "demo_ram");
    ASSERT_NE(ram, nullptr);
    ASSERT_EQ(ub.max_write_words(), 142u);
    std::vector<uint32_t> back(300);
    for (size_t i = 0; i < back.size(); ++i) back[i] = ~w[i];
    const uint32_t below = ub.read(ram->addr + 4 * 499, 1)[0], above = ub.read(ram->addr + 4 * 800, 1)[0];
    ub.write(ram->addr + 4 * 500, back);
    EXPECT_EQ(ub.write_commands(), 3u);
    EXPECT_EQ(ub.read(ram->addr + 4 * 500, 300), back);
    EXPECT_EQ(ub.read(ram->addr + 4 * 499, 1)[0], below);  // the words around it untouched
    EXPECT_EQ(ub.read(ram->addr + 4 * 800, 1)[0], above);
  }
  const auto s = expect_clean_stop(board);
  EXPECT_GE(s.at("expired_stalls"), 2u);
}

TEST(HostLinkRtl, CommUartLikeClientWithSplitWritesAndGaps) { exercise_commuart_like(config(HostLinkPhy::Bytes)); }

TEST(HostLinkUart, CommUartLikeClientWithSplitWritesAndGaps) { exercise_commuart_like(config(HostLinkPhy::Uart, 4)); }

// ------------------------------------------------------------------ against the software board

TEST(HostLinkRtl, RandomTrafficMatchesTheSoftwareBoard) {
  RtlBoard board(config(HostLinkPhy::Bytes));
  std::mt19937 rng(2024);
  auto stream = random_traffic(rng, 200000);
  close_stream(stream);
  expect_same_replies(board, stream, 60s);
  expect_clean_stop(board);
}

TEST(HostLinkRtl, RandomTrafficWithBackpressureAndWaitStates) {
  RtlBoardOptions o;
  o.throttle_percent = 50;
  o.seed = 3;
  RtlBoard board(config(HostLinkPhy::Bytes, 8, 2), o);
  std::mt19937 rng(99);
  auto stream = random_traffic(rng, 50000);
  close_stream(stream);
  expect_same_replies(board, stream, 120s);
  const auto s = expect_clean_stop(board);
  EXPECT_GT(s.at("ring_full"), 0u) << "the ring never filled: the flow control went untested";
}

// ------------------------------------------------------------------ the PHYs

class HostLinkUart : public ::testing::TestWithParam<int> {};

TEST_P(HostLinkUart, BoardClientAndRandomTraffic) {
  RtlBoard board(config(HostLinkPhy::Uart, GetParam()));
  exercise_client(board, 260);
  std::mt19937 rng(static_cast<uint32_t>(GetParam()));
  // The UART cannot be held off: keep the stream within what the ring absorbs while a long
  // reply goes out (the software reference does not model that limit).
  // Long burst reads are left out: a reply longer than its request adds to that backlog.
  auto stream = random_traffic(rng, 6000, 8);
  close_stream(stream);
  expect_same_replies(board, stream, 120s, snapshot(board));
  expect_clean_stop(board);
}

INSTANTIATE_TEST_SUITE_P(ClocksPerBit, HostLinkUart, ::testing::Values(4, 8),
                         [](const ::testing::TestParamInfo<int>& i) { return "cpb" + std::to_string(i.param); });

// The UART pair alone at CLKS_PER_BIT 4, 7, 16: loopback timing, baud error, glitches, framing
// errors and breaks (tests/core/host_link_uart_check.cpp).
TEST(HostLinkUart, EdgeCasesOfTheUartPair) {
  GeneratedDesign d;
  d.top = "cmnet_uart_check";
  for (const char* f : {"cmnet_uart_rx.v", "cmnet_uart_tx.v"}) d.files.emplace_back(f, read_hw_file(f));
  std::ostringstream v;
  v << "module cmnet_uart_check (input wire clk, input wire rst";
  const std::vector<std::pair<char, int>> pairs = {{'a', 4}, {'b', 7}, {'c', 16}};
  for (auto [x, cpb] : pairs)
    v << ",\n  input wire rxd_" << x << ", output wire valid_" << x << ", output wire [7:0] data_" << x
      << ", output wire ferr_" << x << ", input wire tv_" << x << ", output wire tr_" << x
      << ", input wire [7:0] td_" << x << ", output wire txd_" << x;
  v << ");\n";
  for (auto [x, cpb] : pairs)
    v << "  wire rb_" << x << ", tb_" << x << ";\n"
      << "  cmnet_uart_rx #(.CLKS_PER_BIT(" << cpb << ")) rx_" << x << " (.clk(clk), .rst(rst), .rxd(rxd_" << x
      << "), .out_valid(valid_" << x << "), .out_data(data_" << x << "), .frame_err(ferr_" << x << "), .busy(rb_" << x
      << "));\n"
      << "  cmnet_uart_tx #(.CLKS_PER_BIT(" << cpb << ")) tx_" << x << " (.clk(clk), .rst(rst), .in_valid(tv_" << x
      << "), .in_ready(tr_" << x << "), .in_data(td_" << x << "), .txd(txd_" << x << "), .busy(tb_" << x << "));\n";
  v << "endmodule\n";
  d.files.emplace_back("cmnet_uart_check.v", v.str());
  const std::string exe =
      build_verilated_model(d, "cmnet_uart_check", std::string(CMNET_SOURCE_DIR) + "/tests/core/host_link_uart_check.cpp");
  const fs::path dir = temp_dir("uartcheck");
  const int rc = run_child({exe}, 300, (dir / "out.txt").string());
  const std::string out = read_file(dir / "out.txt");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("0 failures"), std::string::npos) << out;
  fs::remove_all(dir);
}

TEST(HostLinkFifo, BoardClientAndRandomTrafficWithStalls) {
  RtlBoardOptions o;
  o.throttle_percent = 25;  // the FT245 reports empty / full on a quarter of the cycles
  o.seed = 5;
  RtlBoard board(config(HostLinkPhy::Fifo, 8, 1), o);
  exercise_client(board, 600);
  std::mt19937 rng(31);
  auto stream = random_traffic(rng, 60000);
  close_stream(stream);
  expect_same_replies(board, stream, 120s, snapshot(board));
  auto s = board.stop();
  EXPECT_EQ(s["exit_status"], 0u) << read_file(board.log_path());
  EXPECT_GT(s["fifo_stalls"], 1000u);
  EXPECT_EQ(s["overruns"], 0u);
  std::printf("[ fifo ] %llu cycles, ring full on %llu of them\n", static_cast<unsigned long long>(s["cycles"]),
              static_cast<unsigned long long>(s["ring_full"]));
}

}  // namespace

#include "gen/core/protocol.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif
#include <cstring>
#include <stdexcept>

namespace cmnet::proto {

namespace {

// Slicing-by-8: kCrc[k][x] is the CRC register after byte x and then k zero bytes, from 0. Eight
// bytes then take eight independent look-ups instead of a chain of eight (a 1 KB burst is CRC'd
// twice per round trip; byte at a time it was a tenth of the driver's time).
constexpr std::array<std::array<uint16_t, 256>, 8> make_crc_tables() {
  std::array<std::array<uint16_t, 256>, 8> t{};
  for (unsigned i = 0; i < 256; ++i) {
    uint16_t c = static_cast<uint16_t>(i << 8);
    for (int b = 0; b < 8; ++b) c = static_cast<uint16_t>((c & 0x8000) ? (c << 1) ^ 0x1021 : (c << 1));
    t[0][i] = c;
  }
  for (size_t k = 1; k < 8; ++k)
    for (unsigned i = 0; i < 256; ++i)
      t[k][i] = static_cast<uint16_t>((t[k - 1][i] << 8) ^ t[0][t[k - 1][i] >> 8]);
  return t;
}
constexpr auto kCrc = make_crc_tables();

uint16_t get16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t get32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
}  // namespace

const char* status_name(uint8_t s) {
  switch (static_cast<Status>(s)) {
    case Status::Ok: return "OK";
    case Status::BadCrc: return "BAD_CRC";
    case Status::BadLength: return "BAD_LENGTH";
    case Status::UnknownCommand: return "UNKNOWN_COMMAND";
    case Status::BadAddress: return "BAD_ADDRESS";
    case Status::Busy: return "BUSY";
    case Status::BadVersion: return "BAD_VERSION";
    case Status::Internal: return "INTERNAL";
  }
  return "UNKNOWN_STATUS";
}

const char* type_name(uint8_t t) {
  const bool reply = t & kReplyBit;
  switch (static_cast<Cmd>(t & ~kReplyBit)) {
    case Cmd::Ping: return reply ? "PING_REPLY" : "PING";
    case Cmd::Read: return reply ? "READ_REPLY" : "READ";
    case Cmd::Write: return reply ? "WRITE_REPLY" : "WRITE";
    case Cmd::BurstWrite: return reply ? "BURST_WRITE_REPLY" : "BURST_WRITE";
    case Cmd::BurstRead: return reply ? "BURST_READ_REPLY" : "BURST_READ";
  }
  return "UNKNOWN_TYPE";
}

const char* event_kind_name(DecodeEvent::Kind k) {
  switch (k) {
    case DecodeEvent::Kind::Frame: return "frame";
    case DecodeEvent::Kind::BadLength: return "bad length";
    case DecodeEvent::Kind::BadCrc: return "bad CRC";
    case DecodeEvent::Kind::BadVersion: return "bad version";
    case DecodeEvent::Kind::UartBone: return "UARTBone command";
  }
  return "?";
}

std::string describe(const Frame& f) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s(0x%02x) seq %u addr 0x%08x len %zu status %s flags 0x%02x",
                type_name(f.type), f.type, f.seq, f.addr, f.payload.size(), status_name(f.status),
                f.flags);
  return buf;
}

namespace {

uint16_t crc16_tables(const uint8_t* p, size_t n, uint16_t crc) {
  // Short inputs (headers, small frames) byte by byte: one table of eight cache lines, where
  // eight tables would be fetched again after every trip through the kernel's TCP stack.
  if (n < 32) {
    for (; n > 0; --n, ++p) crc = static_cast<uint16_t>((crc << 8) ^ kCrc[0][((crc >> 8) ^ *p) & 0xFF]);
    return crc;
  }
  for (; n >= 8; n -= 8, p += 8)
    crc = static_cast<uint16_t>(kCrc[7][(crc >> 8) ^ p[0]] ^ kCrc[6][(crc & 0xFF) ^ p[1]] ^ kCrc[5][p[2]] ^
                                kCrc[4][p[3]] ^ kCrc[3][p[4]] ^ kCrc[2][p[5]] ^ kCrc[1][p[6]] ^ kCrc[0][p[7]]);
  for (; n > 0; --n, ++p) crc = static_cast<uint16_t>((crc << 8) ^ kCrc[0][((crc >> 8) ^ *p) & 0xFF]);
  return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CMNET_CRC_CLMUL 1

// Carry-less multiplication (PCLMULQDQ) folding for long inputs, a burst frame's kilobyte:
// about ten times the tables' speed. With G = x^16 + x^12 + x^5 + 1 and the message M read as
// a polynomial (first byte highest, bit 7 first), the CRC is M * x^16 mod G, after XORing the
// initial register into M's first 16 bits. 16-byte blocks are folded into 128-bit remainders
// (X * x^128 = X_hi * x^192 + X_lo * x^128, and x^k mod G is a 16-bit constant), four of them
// side by side (x^512, x^576); what is left is reduced to 64 bits, whose CRC the tables give.
constexpr uint64_t xpow_mod_g(unsigned k) {  // x^k mod G
  uint32_t r = 1;
  for (unsigned i = 0; i < k; ++i) {
    r <<= 1;
    if (r & 0x10000) r ^= 0x11021;
  }
  return r;
}

#define CMNET_CLMUL_TARGET __attribute__((target("pclmul,ssse3")))

CMNET_CLMUL_TARGET inline __m128i load(const uint8_t* q) {  // 16 bytes, the first one highest
  const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)), reverse);
}

CMNET_CLMUL_TARGET inline __m128i fold(__m128i x, __m128i k) {  // x * x^(128 * lanes) mod G, 128 bits wide
  return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x11), _mm_clmulepi64_si128(x, k, 0x00));
}

CMNET_CLMUL_TARGET uint16_t crc16_clmul(const uint8_t* p, size_t n, uint16_t crc) {
  const __m128i k1 = _mm_set_epi64x(static_cast<long long>(xpow_mod_g(192)), static_cast<long long>(xpow_mod_g(128)));
  const __m128i k4 = _mm_set_epi64x(static_cast<long long>(xpow_mod_g(576)), static_cast<long long>(xpow_mod_g(512)));
  const __m128i init = _mm_set_epi64x(static_cast<long long>(uint64_t{crc} << 48), 0);

  __m128i acc;
  if (n >= 64) {
    __m128i x0 = _mm_xor_si128(load(p), init), x1 = load(p + 16), x2 = load(p + 32), x3 = load(p + 48);
    p += 64;
    n -= 64;
    for (; n >= 64; n -= 64, p += 64) {
      x0 = _mm_xor_si128(fold(x0, k4), load(p));
      x1 = _mm_xor_si128(fold(x1, k4), load(p + 16));
      x2 = _mm_xor_si128(fold(x2, k4), load(p + 32));
      x3 = _mm_xor_si128(fold(x3, k4), load(p + 48));
    }
    acc = _mm_xor_si128(fold(_mm_xor_si128(fold(_mm_xor_si128(fold(x0, k1), x1), k1), x2), k1), x3);
  } else {
    acc = _mm_xor_si128(load(p), init);
    p += 16;
    n -= 16;
  }
  for (; n >= 16; n -= 16, p += 16) acc = _mm_xor_si128(fold(acc, k1), load(p));

  // 128 -> 64 bits: X_hi * (x^64 mod G) + X_lo is up to 79 bits; once more with its top 15.
  const __m128i k64 = _mm_set_epi64x(0, static_cast<long long>(xpow_mod_g(64)));
  const __m128i w = _mm_xor_si128(_mm_clmulepi64_si128(acc, k64, 0x01), _mm_move_epi64(acc));
  const __m128i z = _mm_xor_si128(_mm_clmulepi64_si128(w, k64, 0x01), _mm_move_epi64(w));
  const auto v = static_cast<uint64_t>(_mm_cvtsi128_si64(z));
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
  return crc16_tables(p, n, crc16_tables(bytes, 8, 0));
}

bool have_clmul() {
  static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3");
  return yes;
}
#endif

}  // namespace

uint16_t crc16_ccitt(std::span<const uint8_t> data, uint16_t crc) {
#ifdef CMNET_CRC_CLMUL
  if (data.size() >= 64 && have_clmul()) return crc16_clmul(data.data(), data.size(), crc);
#endif
  return crc16_tables(data.data(), data.size(), crc);
}

void encode(const Frame& f, std::vector<uint8_t>& out) {
  encode(f.type, f.seq, f.addr, f.flags, f.payload, out, f.status, f.version);
}

void encode(uint8_t type, uint8_t seq, uint32_t addr, uint8_t flags, std::span<const uint32_t> payload,
            std::vector<uint8_t>& out, uint8_t status, uint8_t version) {
  if (payload.size() > kMaxWords)
    throw std::invalid_argument("cmnet protocol: payload of " + std::to_string(payload.size()) +
                                " words exceeds the maximum of " + std::to_string(kMaxWords));
  // Sized once and written in place: a 1 KB burst costs no per-byte bookkeeping.
  const size_t start = out.size();
  out.resize(start + kHeaderBytes + 4 * payload.size() + kTrailerBytes);
  uint8_t* p = out.data() + start;
  auto at16 = [](uint8_t* q, uint16_t v) {
    q[0] = static_cast<uint8_t>(v);
    q[1] = static_cast<uint8_t>(v >> 8);
  };
  auto at32 = [](uint8_t* q, uint32_t v) {
    for (int i = 0; i < 4; ++i) q[i] = static_cast<uint8_t>(v >> (8 * i));
  };
  p[0] = kSync;
  p[1] = version;
  p[2] = type;
  p[3] = seq;
  at32(p + 4, addr);
  at16(p + 8, static_cast<uint16_t>(payload.size()));
  p[10] = status;
  p[11] = flags;
  const uint16_t hcrc = crc16_ccitt(std::span<const uint8_t>(p, 12));
  at16(p + 12, hcrc);
  if constexpr (std::endian::native == std::endian::little) {
    if (!payload.empty()) std::memcpy(p + kHeaderBytes, payload.data(), 4 * payload.size());  // wire order already
  } else {
    for (size_t i = 0; i < payload.size(); ++i) at32(p + kHeaderBytes + 4 * i, payload[i]);
  }
  // The frame CRC goes on from the header CRC's register (bytes 0..11 are not read twice).
  const size_t body = kHeaderBytes + 4 * payload.size();
  at16(p + body, crc16_ccitt(std::span<const uint8_t>(p + 12, body - 12), hcrc));
}

std::vector<uint8_t> encode(const Frame& f) {
  std::vector<uint8_t> out;
  encode(f, out);
  return out;
}

Frame make_ping(uint8_t seq) {
  Frame f;
  f.type = static_cast<uint8_t>(Cmd::Ping);
  f.seq = seq;
  return f;
}
Frame make_read(uint8_t seq, uint32_t addr) {
  Frame f;
  f.type = static_cast<uint8_t>(Cmd::Read);
  f.seq = seq;
  f.addr = addr;
  return f;
}
Frame make_write(uint8_t seq, uint32_t addr, uint32_t value) {
  Frame f;
  f.type = static_cast<uint8_t>(Cmd::Write);
  f.seq = seq;
  f.addr = addr;
  f.payload = {value};
  return f;
}
Frame make_burst_write(uint8_t seq, uint32_t addr, std::span<const uint32_t> words, uint8_t flags) {
  Frame f;
  f.type = static_cast<uint8_t>(Cmd::BurstWrite);
  f.seq = seq;
  f.addr = addr;
  f.flags = flags;
  f.payload.assign(words.begin(), words.end());
  return f;
}
Frame make_burst_read(uint8_t seq, uint32_t addr, uint16_t count, uint8_t flags) {
  Frame f;
  f.type = static_cast<uint8_t>(Cmd::BurstRead);
  f.seq = seq;
  f.addr = addr;
  f.flags = flags;
  f.payload = {count};
  return f;
}
Frame make_reply(const Frame& req, Status status, std::vector<uint32_t> payload) {
  Frame f;
  f.type = static_cast<uint8_t>(req.type | kReplyBit);
  f.seq = req.seq;
  f.addr = req.addr;
  f.flags = req.flags;
  f.status = static_cast<uint8_t>(status);
  f.payload = std::move(payload);
  return f;
}

namespace uartbone {

namespace {
std::vector<uint8_t> header(uint8_t cmd, uint32_t byte_addr, size_t count) {
  if (byte_addr & 3) throw std::invalid_argument("UARTBone: address not 4-byte aligned");
  if (count > kMaxWords)
    throw std::invalid_argument("UARTBone: " + std::to_string(count) + " words, more than " +
                                std::to_string(kMaxWords));
  const uint32_t word = byte_addr >> 2;
  return {cmd, static_cast<uint8_t>(count), static_cast<uint8_t>(word >> 24), static_cast<uint8_t>(word >> 16),
          static_cast<uint8_t>(word >> 8), static_cast<uint8_t>(word)};
}
}  // namespace

std::vector<uint8_t> encode_write(uint32_t byte_addr, std::span<const uint32_t> words, bool fixed) {
  auto out = header(fixed ? kWriteFixed : kWrite, byte_addr, words.size());
  for (uint32_t w : words)
    for (int i = 3; i >= 0; --i) out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  return out;
}

std::vector<uint8_t> encode_read(uint32_t byte_addr, size_t count, bool fixed) {
  return header(fixed ? kReadFixed : kRead, byte_addr, count);
}

}  // namespace uartbone

void FrameDecoder::reset() {
  begin_ = end_ = 0;
  seen_ = 0;
  events_.clear();
}

void FrameDecoder::feed(std::span<const uint8_t> data) {
  // Take at most as many bytes as fit; process() then always leaves fewer than kMaxFrameBytes
  // buffered (an incomplete frame is shorter than the longest frame), so the loop progresses.
  while (!data.empty()) {
    if (begin_ > 0 && end_ == buf_.size()) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    const size_t n = std::min(data.size(), buf_.size() - end_);
    std::memcpy(buf_.data() + end_, data.data(), n);
    end_ += n;
    data = data.subspan(n);
    process();
  }
}

bool FrameDecoder::discard_partial() {
  if (buffered() == 0) return false;
  skip(1, true, buffered());
  process();
  return true;
}

std::optional<DecodeEvent> FrameDecoder::next() {
  if (events_.empty()) return std::nullopt;
  DecodeEvent e = std::move(events_.front());
  events_.pop_front();
  return e;
}

void FrameDecoder::skip(size_t n, bool garbage, size_t examined) {
  seen_ = std::max(seen_, examined);
  seen_ = seen_ > n ? seen_ - n : 0;
  begin_ += n;
  if (garbage) garbage_ += n;
  if (begin_ == end_) begin_ = end_ = 0;
}

void FrameDecoder::process() {
  for (;;) {
    const uint8_t* p = buf_.data() + begin_;
    const size_t avail = end_ - begin_;
    if (avail == 0) return;
    if (starts_uartbone(0)) {
      if (avail < uartbone::kHeaderBytes) return;
      DecodeEvent ev;
      ev.kind = DecodeEvent::Kind::UartBone;
      ev.frame.type = p[0];
      ev.declared_len = p[1];
      const uint32_t word = (uint32_t{p[2]} << 24) | (uint32_t{p[3]} << 16) | (uint32_t{p[4]} << 8) | p[5];
      ev.frame.addr = word << 2;  // the word address's top two bits fall off: 32-bit byte addresses
      ev.frame.flags = (p[0] == uartbone::kWriteFixed || p[0] == uartbone::kReadFixed) ? kFlagNoIncrement : 0;
      const size_t data = uartbone::is_write(p[0]) ? 4 * size_t{p[1]} : 0;
      const size_t total = uartbone::kHeaderBytes + data;
      if (avail < total) return;  // a write runs only once all its data is in
      ev.frame.payload.resize(data / 4);
      for (size_t i = 0; i < data / 4; ++i) {
        const uint8_t* w = p + uartbone::kHeaderBytes + 4 * i;
        ev.frame.payload[i] = (uint32_t{w[0]} << 24) | (uint32_t{w[1]} << 16) | (uint32_t{w[2]} << 8) | w[3];
      }
      ++uartbone_commands_;
      events_.push_back(std::move(ev));
      skip(total, false, total);
      continue;
    }
    if (p[0] != kSync) {
      // Garbage up to the next sync byte, or the next byte that may start a UARTBone command.
      size_t n = 0;
      if (!uartbone_) {
        const void* s = std::memchr(p, kSync, avail);
        n = s ? static_cast<size_t>(static_cast<const uint8_t*>(s) - p) : avail;
      } else {
        n = 1;
        while (n < avail && p[n] != kSync && !starts_uartbone(n)) ++n;
      }
      skip(n, true, n);
      continue;
    }
    if (avail < kHeaderBytes) return;  // wait for the rest of the header
    const uint16_t hcrc = crc16_ccitt(std::span(p, 12));
    if (hcrc != get16(p + 12)) {
      skip(1, true, kHeaderBytes);  // a stray sync byte (or a corrupted header): hunt for the next one
      continue;
    }
    DecodeEvent ev;
    ev.frame.version = p[1];
    ev.frame.type = p[2];
    ev.frame.seq = p[3];
    ev.frame.addr = get32(p + 4);
    ev.declared_len = get16(p + 8);
    ev.frame.status = p[10];
    ev.frame.flags = p[11];
    if (ev.frame.version != kVersion) {
      ev.kind = DecodeEvent::Kind::BadVersion;
      ++errors_;
      events_.push_back(std::move(ev));
      skip(kHeaderBytes, false, kHeaderBytes);  // we cannot know a foreign version's frame length
      continue;
    }
    if (ev.declared_len > kMaxWords) {
      ev.kind = DecodeEvent::Kind::BadLength;
      ++errors_;
      events_.push_back(std::move(ev));
      skip(kHeaderBytes, false, kHeaderBytes);  // the oversized payload is never buffered: it is scanned as garbage
      continue;
    }
    const size_t total = kHeaderBytes + 4 * size_t{ev.declared_len} + kTrailerBytes;
    if (avail < total) return;  // wait for payload and trailer
    // The frame CRC goes on from the header CRC's register (bytes 0..11 are not read twice).
    if (crc16_ccitt(std::span(p + 12, total - kTrailerBytes - 12), hcrc) != get16(p + total - kTrailerBytes)) {
      ev.kind = DecodeEvent::Kind::BadCrc;
      ++errors_;
      events_.push_back(std::move(ev));
      skip(1, false, total);  // the length may be what got corrupted: rescan from the next byte
      continue;
    }
    ev.kind = DecodeEvent::Kind::Frame;
    ev.frame.payload.resize(ev.declared_len);
    if constexpr (std::endian::native == std::endian::little) {
      if (ev.declared_len > 0) std::memcpy(ev.frame.payload.data(), p + kHeaderBytes, 4 * size_t{ev.declared_len});
    } else {
      for (size_t i = 0; i < ev.declared_len; ++i) ev.frame.payload[i] = get32(p + kHeaderBytes + 4 * i);
    }
    ++frames_;
    events_.push_back(std::move(ev));
    skip(total, false, total);
  }
}

}  // namespace cmnet::proto

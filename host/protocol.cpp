#include "host/protocol.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace cmnet::proto {

namespace {

constexpr std::array<uint16_t, 256> make_crc_table() {
  std::array<uint16_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) {
    uint16_t c = static_cast<uint16_t>(i << 8);
    for (int b = 0; b < 8; ++b) c = static_cast<uint16_t>((c & 0x8000) ? (c << 1) ^ 0x1021 : (c << 1));
    t[i] = c;
  }
  return t;
}
constexpr auto kCrcTable = make_crc_table();

uint16_t get16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t get32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
void put16(std::vector<uint8_t>& o, uint16_t v) {
  o.push_back(static_cast<uint8_t>(v));
  o.push_back(static_cast<uint8_t>(v >> 8));
}
void put32(std::vector<uint8_t>& o, uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(static_cast<uint8_t>(v >> (8 * i)));
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

uint16_t crc16_ccitt(std::span<const uint8_t> data, uint16_t crc) {
  for (uint8_t b : data) crc = static_cast<uint16_t>((crc << 8) ^ kCrcTable[((crc >> 8) ^ b) & 0xFF]);
  return crc;
}

void encode(const Frame& f, std::vector<uint8_t>& out) {
  if (f.payload.size() > kMaxWords)
    throw std::invalid_argument("cmnet protocol: payload of " + std::to_string(f.payload.size()) +
                                " words exceeds the maximum of " + std::to_string(kMaxWords));
  const size_t start = out.size();
  out.reserve(start + kHeaderBytes + 4 * f.payload.size() + kTrailerBytes);
  out.push_back(kSync);
  out.push_back(f.version);
  out.push_back(f.type);
  out.push_back(f.seq);
  put32(out, f.addr);
  put16(out, static_cast<uint16_t>(f.payload.size()));
  out.push_back(f.status);
  out.push_back(f.flags);
  put16(out, crc16_ccitt(std::span(out).subspan(start, 12)));
  for (uint32_t w : f.payload) put32(out, w);
  put16(out, crc16_ccitt(std::span(out).subspan(start)));
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
    if (crc16_ccitt(std::span(p, 12)) != get16(p + 12)) {
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
    if (crc16_ccitt(std::span(p, total - kTrailerBytes)) != get16(p + total - kTrailerBytes)) {
      ev.kind = DecodeEvent::Kind::BadCrc;
      ++errors_;
      events_.push_back(std::move(ev));
      skip(1, false, total);  // the length may be what got corrupted: rescan from the next byte
      continue;
    }
    ev.kind = DecodeEvent::Kind::Frame;
    ev.frame.payload.resize(ev.declared_len);
    for (size_t i = 0; i < ev.declared_len; ++i) ev.frame.payload[i] = get32(p + kHeaderBytes + 4 * i);
    ++frames_;
    events_.push_back(std::move(ev));
    skip(total, false, total);
  }
}

}  // namespace cmnet::proto

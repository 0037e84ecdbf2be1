#include "host/board_client.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "host/transport_uri.h"

namespace cmnet {

namespace {

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

std::string hex8(uint8_t v) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%02x", v);
  return b;
}

std::string describe_request(const proto::Frame& r, std::span<const uint32_t> payload) {
  std::string s = std::string(proto::type_name(r.type)) + " at " + hex32(r.addr);
  if (r.type == static_cast<uint8_t>(proto::Cmd::BurstWrite))
    s += " (" + std::to_string(payload.size()) + " words)";
  if (r.type == static_cast<uint8_t>(proto::Cmd::BurstRead) && !r.payload.empty())
    s += " (" + std::to_string(r.payload[0]) + " words)";
  return s;
}

constexpr size_t kAbandonedMax = 32;

uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

// The usual reply: the bytes read are exactly one frame, the one waited for, OK, with the
// expected number of words. It is checked (both CRCs) and its words copied out here, straight
// from the receive buffer; anything else goes through the decoder, which would accept this frame
// and no more. (The decoder's buffering and event queue were over a quarter of the driver's
// instructions per register round trip.)
bool take_exact_reply(std::span<const uint8_t> b, uint8_t type, uint8_t seq, std::span<uint32_t> reply) {
  const size_t words = reply.size();
  if (b.size() != proto::kHeaderBytes + 4 * words + proto::kTrailerBytes) return false;
  if (b[0] != proto::kSync || b[1] != proto::kVersion || b[2] != type || b[3] != seq || le16(&b[8]) != words ||
      b[10] != static_cast<uint8_t>(proto::Status::Ok))
    return false;
  const uint16_t hcrc = proto::crc16_ccitt(b.first(12));
  if (hcrc != le16(&b[12]) || proto::crc16_ccitt(b.subspan(12, b.size() - 14), hcrc) != le16(&b[b.size() - 2]))
    return false;
  for (size_t i = 0; i < words; ++i) {
    const uint8_t* w = &b[proto::kHeaderBytes + 4 * i];
    reply[i] = static_cast<uint32_t>(w[0]) | (static_cast<uint32_t>(w[1]) << 8) | (static_cast<uint32_t>(w[2]) << 16) |
               (static_cast<uint32_t>(w[3]) << 24);
  }
  return true;
}

}  // namespace

BoardClient::BoardClient(std::unique_ptr<Transport> transport, BoardClientOptions options)
    : transport_(std::move(transport)), options_(options), rx_(4096) {}

BoardClient::BoardClient(BoardClient&&) noexcept = default;
BoardClient& BoardClient::operator=(BoardClient&&) noexcept = default;
BoardClient::~BoardClient() = default;

BoardClient BoardClient::open(std::string_view uri, BoardClientOptions options) {
  return BoardClient(open_transport(uri, options.connect_timeout), options);
}

std::string BoardClient::name() const { return transport_ ? transport_->name() : "(no transport)"; }

void BoardClient::close() {
  if (transport_) transport_->close();
}

void BoardClient::transact(proto::Frame req, std::span<const uint32_t> payload, std::span<uint32_t> reply) {
  if (payload.empty()) payload = req.payload;
  const size_t expect_words = reply.size();
  auto what_request = [&](const proto::Frame& r) { return describe_request(r, payload); };
  if (!transport_ || !transport_->is_open())
    throw HostError(HostErrorKind::ConnectionClosed, name() + ": connection is closed");
  const uint8_t want_type = static_cast<uint8_t>(req.type | proto::kReplyBit);
  const int attempts = std::max(0, options_.retries) + 1;
  HostErrorKind last_kind = HostErrorKind::Timeout;
  uint8_t last_status = 0;
  std::string last_detail;

  for (int attempt = 1; attempt <= attempts; ++attempt) {
    if (attempt > 1) ++stats_.retries;
    req.seq = next_seq_++;
    abandoned_.erase(std::remove(abandoned_.begin(), abandoned_.end(), req.seq), abandoned_.end());
    tx_.clear();
    proto::encode(req.type, req.seq, req.addr, req.flags, payload, tx_);
    const auto deadline = Transport::Clock::now() + options_.timeout;
    ++stats_.requests;
    transport_->write_all(tx_, deadline);

    bool retry = false;
    while (!retry) {
      while (auto ev = decoder_.next()) {
        using K = proto::DecodeEvent::Kind;
        if (ev->kind == K::BadCrc) {
          ++stats_.crc_errors;
          last_kind = HostErrorKind::CrcError;
          last_detail = "the reply failed its CRC";
          spdlog::debug("{}: reply to {} failed its CRC (attempt {}/{})", name(), what_request(req), attempt, attempts);
          retry = true;
          break;
        }
        if (ev->kind == K::BadVersion) {
          decoder_.reset();
          throw HostError(HostErrorKind::ProtocolError,
                          name() + ": the board speaks protocol version " + std::to_string(ev->frame.version) +
                              ", this host speaks version " + std::to_string(proto::kVersion));
        }
        if (ev->kind == K::BadLength) {
          decoder_.reset();
          throw HostError(HostErrorKind::ProtocolError,
                          name() + ": reply to " + what_request(req) + " declares " +
                              std::to_string(ev->declared_len) + " payload words, more than the maximum " +
                              std::to_string(proto::kMaxWords));
        }
        proto::Frame& f = ev->frame;
        if (f.seq != req.seq) {
          auto it = std::find(abandoned_.begin(), abandoned_.end(), f.seq);
          if (it != abandoned_.end() && f.is_reply()) {
            abandoned_.erase(it);
            ++stats_.stale_replies;
            spdlog::debug("{}: dropped late reply seq {} ({})", name(), f.seq, proto::describe(f));
            continue;
          }
          decoder_.reset();
          throw HostError(HostErrorKind::SequenceMismatch,
                          name() + ": sequence mismatch: sent " + proto::type_name(req.type) + " seq " +
                              std::to_string(req.seq) + ", got " + proto::type_name(f.type) + " seq " +
                              std::to_string(f.seq));
        }
        if (f.type != want_type) {
          decoder_.reset();
          throw HostError(HostErrorKind::ProtocolError,
                          name() + ": " + proto::type_name(req.type) + " seq " + std::to_string(req.seq) +
                              " answered by " + proto::type_name(f.type) + " (" + hex8(f.type) + ")");
        }
        const auto status = static_cast<proto::Status>(f.status);
        if (status == proto::Status::BadCrc || status == proto::Status::Busy) {
          last_kind = status == proto::Status::BadCrc ? HostErrorKind::CrcError : HostErrorKind::ErrorReply;
          last_status = f.status;
          last_detail = status == proto::Status::BadCrc
                            ? "the board reported BAD_CRC for the request (link corrupts host-to-board data)"
                            : "the board answered BUSY (0x05)";
          if (status == proto::Status::Busy) {
            ++stats_.busy;
            std::this_thread::sleep_for(options_.busy_backoff);
          }
          retry = true;
          break;
        }
        if (status != proto::Status::Ok) {
          throw HostError(HostErrorKind::ErrorReply,
                          name() + ": " + what_request(req) + " failed: board replied " +
                              proto::status_name(f.status) + " (" + hex8(f.status) + ")",
                          f.status);
        }
        if (f.payload.size() != expect_words) {
          throw HostError(HostErrorKind::ProtocolError,
                          name() + ": reply to " + what_request(req) + " carries " +
                              std::to_string(f.payload.size()) + " words, expected " + std::to_string(expect_words));
        }
        stats_.garbage_bytes = decoder_.garbage_bytes();
        std::copy(f.payload.begin(), f.payload.end(), reply.begin());
        return;
      }
      if (retry) break;
      size_t n = 0;
      try {
        n = transport_->read_some(rx_, deadline);
      } catch (const HostError&) {
        decoder_.reset();
        throw;
      }
      if (n == 0) {
        ++stats_.timeouts;
        abandoned_.push_back(req.seq);
        if (abandoned_.size() > kAbandonedMax) abandoned_.pop_front();
        decoder_.reset();  // drop a partial reply; its tail will be skipped as garbage
        last_kind = HostErrorKind::Timeout;
        last_detail = "";
        spdlog::debug("{}: no reply to {} seq {} within {} ms (attempt {}/{})", name(), what_request(req), req.seq,
                      options_.timeout.count(), attempt, attempts);
        retry = true;
        break;
      }
      const std::span<const uint8_t> got(rx_.data(), n);
      if (decoder_.buffered() == 0 && !decoder_.has_event() && take_exact_reply(got, want_type, req.seq, reply)) {
        stats_.garbage_bytes = decoder_.garbage_bytes();  // as on the decoder's path (earlier garbage)
        return;
      }
      decoder_.feed(got);
    }
  }
  stats_.garbage_bytes = decoder_.garbage_bytes();
  const std::string tries = std::to_string(attempts) + (attempts == 1 ? " attempt" : " attempts");
  if (last_kind == HostErrorKind::Timeout)
    throw HostError(HostErrorKind::Timeout,
                    name() + ": timeout after " + std::to_string(options_.timeout.count()) +
                        " ms waiting for the reply to " + what_request(req) + " (" + tries + ")");
  throw HostError(last_kind, name() + ": " + what_request(req) + " failed on all " + tries + ": " + last_detail,
                  last_status);
}

uint32_t BoardClient::read32(uint32_t addr) {
  uint32_t v = 0;
  transact(proto::make_read(0, addr), {}, std::span(&v, 1));
  return v;
}

void BoardClient::write32(uint32_t addr, uint32_t value) {
  proto::Frame req;  // make_write's header; the value goes from here, not allocated in a payload
  req.type = static_cast<uint8_t>(proto::Cmd::Write);
  req.addr = addr;
  transact(std::move(req), std::span(&value, 1), {});
}

uint32_t BoardClient::ping() {
  uint32_t v = 0;
  transact(proto::make_ping(0), {}, std::span(&v, 1));
  return v;
}

void BoardClient::burst_write(uint32_t addr, std::span<const uint32_t> words, bool fifo) {
  const uint8_t flags = fifo ? proto::kFlagNoIncrement : 0;
  while (!words.empty()) {
    const size_t n = std::min(words.size(), proto::kMaxWords);
    proto::Frame req = proto::make_burst_write(0, addr, {}, flags);  // the words go from where they are
    transact(std::move(req), words.first(n), {});
    words = words.subspan(n);
    if (!fifo) addr += static_cast<uint32_t>(4 * n);
  }
}

std::vector<uint32_t> BoardClient::burst_read(uint32_t addr, size_t count, bool fifo) {
  const uint8_t flags = fifo ? proto::kFlagNoIncrement : 0;
  std::vector<uint32_t> out(count);
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(count - done, proto::kMaxWords);
    transact(proto::make_burst_read(0, addr, static_cast<uint16_t>(n), flags), {}, std::span(out).subspan(done, n));
    done += n;
    if (!fifo) addr += static_cast<uint32_t>(4 * n);
  }
  return out;
}

}  // namespace cmnet

// cmnet host-link protocol, version 1: one framed request/response protocol over any byte stream
// (TCP to the simulated board, UART or FT2232H FIFO to a real one). host/PROTOCOL.md documents
// every byte; this header is the single source of the constants.
//
// Frame (little-endian), 16 + 4*len bytes:
//   0 sync 0xA5 | 1 version | 2 type | 3 seq | 4..7 addr | 8..9 len (payload words) |
//   10 status | 11 flags | 12..13 header CRC (bytes 0..11) | payload len*u32 |
//   frame CRC (bytes 0 .. 13+4*len)
// Both CRCs are CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, no final xor).
//
// The board side also accepts LiteX UARTBone commands on the same stream (PROTOCOL.md,
// "UARTBone"); FrameDecoder(true) decodes them, the uartbone namespace below encodes them.
//
// Pure C++20, no Boost/spdlog: the libFuzzer target compiles this file on its own with clang++.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cmnet::proto {

inline constexpr uint8_t kSync = 0xA5;
inline constexpr uint8_t kVersion = 1;
inline constexpr size_t kHeaderBytes = 14;   // including the header CRC
inline constexpr size_t kTrailerBytes = 2;   // frame CRC
inline constexpr size_t kMaxWords = 256;     // payload limit, enforced by encoder and decoder
inline constexpr size_t kMaxFrameBytes = kHeaderBytes + 4 * kMaxWords + kTrailerBytes;  // 1040

// Request types. A reply has the request's type with kReplyBit set.
enum class Cmd : uint8_t {
  Ping = 0x01,        // len 0; reply len 1: version | kMaxWords << 16
  Read = 0x02,        // len 0; reply len 1: the register value
  Write = 0x03,       // len 1: the value; reply len 0
  BurstWrite = 0x04,  // len n (1..256): the values; reply len 0
  BurstRead = 0x05,   // len 1: word count n (1..256); reply len n
};
inline constexpr uint8_t kReplyBit = 0x80;

// Flag bits (byte 11). Requests only; replies echo them.
inline constexpr uint8_t kFlagNoIncrement = 0x01;  // burst: every word goes to / comes from addr (FIFO)

// Reply status (byte 10). Requests carry 0.
enum class Status : uint8_t {
  Ok = 0x00,
  BadCrc = 0x01,          // the request's frame CRC failed
  BadLength = 0x02,       // len > 256, or len wrong for the command, or burst count 0 / > 256
  UnknownCommand = 0x03,  // type is not a request type
  BadAddress = 0x04,      // unaligned, out of the board's range, or burst wraps past 0xFFFFFFFF
  Busy = 0x05,            // the board cannot take the request now; retry
  BadVersion = 0x06,      // version byte is not 1
  Internal = 0x07,        // the board failed executing the request
};

const char* status_name(uint8_t status);  // "BAD_ADDRESS", ... or "UNKNOWN_STATUS"
const char* type_name(uint8_t type);      // "READ", "READ_REPLY", ... or "UNKNOWN_TYPE"

struct Frame {
  uint8_t version = kVersion;
  uint8_t type = 0;
  uint8_t seq = 0;
  uint8_t status = 0;
  uint8_t flags = 0;
  uint32_t addr = 0;
  std::vector<uint32_t> payload;

  bool is_reply() const { return (type & kReplyBit) != 0; }
  bool operator==(const Frame&) const = default;
};

std::string describe(const Frame& f);  // one line for logs and error messages

// CRC-16/CCITT-FALSE. check("123456789") == 0x29B1.
uint16_t crc16_ccitt(std::span<const uint8_t> data, uint16_t crc = 0xFFFF);

// Appends the encoded frame to out. Throws std::invalid_argument for payload.size() > kMaxWords.
void encode(const Frame& f, std::vector<uint8_t>& out);
std::vector<uint8_t> encode(const Frame& f);
// The same from the fields, with the payload where it is (no Frame to copy it into).
void encode(uint8_t type, uint8_t seq, uint32_t addr, uint8_t flags, std::span<const uint32_t> payload,
            std::vector<uint8_t>& out, uint8_t status = 0, uint8_t version = kVersion);

// Request builders.
Frame make_ping(uint8_t seq);
Frame make_read(uint8_t seq, uint32_t addr);
Frame make_write(uint8_t seq, uint32_t addr, uint32_t value);
Frame make_burst_write(uint8_t seq, uint32_t addr, std::span<const uint32_t> words, uint8_t flags = 0);
Frame make_burst_read(uint8_t seq, uint32_t addr, uint16_t count, uint8_t flags = 0);
// A reply to req (same seq, addr, flags; type | kReplyBit).
Frame make_reply(const Frame& req, Status status, std::vector<uint32_t> payload = {});

// LiteX UARTBone (litex/soc/cores/uart.py, Stream2Wishbone): command byte, word count, word
// address (byte address / 4) big-endian, then for writes the words big-endian. Reads are
// answered with the words big-endian, writes not at all. No checksum, no status.
namespace uartbone {
inline constexpr uint8_t kWrite = 0x01;       // incrementing address
inline constexpr uint8_t kRead = 0x02;
inline constexpr uint8_t kWriteFixed = 0x03;  // every word to / from the same address (newer LiteX)
inline constexpr uint8_t kReadFixed = 0x04;
inline constexpr size_t kHeaderBytes = 6;
inline constexpr size_t kMaxWords = 255;
// What a read answers for each word whose access failed (not decoded, or no answer within the
// bus timeout), as LiteX's bus timeout does; the other words of the command answer their data.
inline constexpr uint32_t kFailedRead = 0xFFFFFFFF;

inline constexpr bool is_command(uint8_t b) { return b >= kWrite && b <= kReadFixed; }
inline constexpr bool is_write(uint8_t cmd) { return cmd == kWrite || cmd == kWriteFixed; }
// byte_addr must be 4-byte aligned (std::invalid_argument otherwise), as must count / the word
// count be within 0..kMaxWords.
std::vector<uint8_t> encode_write(uint32_t byte_addr, std::span<const uint32_t> words, bool fixed = false);
std::vector<uint8_t> encode_read(uint32_t byte_addr, size_t count, bool fixed = false);
}  // namespace uartbone

// What the streaming decoder hands out: a complete, CRC-checked frame, or a framing error
// whose header passed its CRC (so type/seq/addr are trustworthy enough to address a reply),
// or (a board-side decoder only) a complete UARTBone command.
struct DecodeEvent {
  enum class Kind : uint8_t {
    Frame,       // `frame` is complete and valid
    BadLength,   // header says len > kMaxWords; payload not read (scanned as garbage)
    BadCrc,      // header fine, frame CRC failed; `frame` has header fields, no payload
    BadVersion,  // header CRC fine but version != kVersion
    UartBone,    // frame.type: the command byte; frame.addr: the byte address (word address
                 // << 2, mod 2^32); frame.flags: kFlagNoIncrement for 0x03 / 0x04;
                 // declared_len: the word count; frame.payload: the write data
  };
  Kind kind = Kind::Frame;
  Frame frame;
  uint16_t declared_len = 0;  // the len field as received
};

const char* event_kind_name(DecodeEvent::Kind k);

// Streaming decoder: feed bytes as they arrive, in any split; take events with next().
// Bytes before a sync byte, and sync bytes whose header CRC fails, are skipped as garbage,
// so the decoder resynchronises on the next valid header. Memory is bounded: it never holds
// more than kMaxFrameBytes of input, whatever the stream says (events queue up to one per
// 6 input bytes until taken with next()).
//
// With accept_uartbone (the board's side), a UARTBone command byte where a sync byte could
// start a frame begins a UARTBone command instead of being garbage, except in bytes that are
// being rescanned after a failed frame (a header or frame CRC failure, a dropped partial):
// those are searched for sync bytes only, so a corrupted frame never becomes bus writes.
// hw/common/cmnet_frame_engine.v decodes exactly so.
class FrameDecoder {
 public:
  FrameDecoder() = default;
  explicit FrameDecoder(bool accept_uartbone) : uartbone_(accept_uartbone) {}
  void feed(std::span<const uint8_t> data);
  std::optional<DecodeEvent> next();
  bool has_event() const { return !events_.empty(); }

  size_t buffered() const { return end_ - begin_; }  // bytes of an incomplete frame held
  uint64_t garbage_bytes() const { return garbage_; }
  uint64_t frames() const { return frames_; }
  uint64_t errors() const { return errors_; }
  uint64_t uartbone_commands() const { return uartbone_commands_; }
  void reset();  // drop buffered bytes and queued events (statistics kept)
  // Give up on the incomplete frame (or UARTBone command) at the front (its sender stalled):
  // skip its first byte and rescan what follows, which may hold complete frames. Returns
  // whether anything was held.
  bool discard_partial();

 private:
  void process();
  // Moves past n bytes, the first `examined` of which were decoded (so a later rescan of them
  // looks for sync bytes only).
  void skip(size_t n, bool garbage, size_t examined = 0);
  bool starts_uartbone(size_t offset) const {
    return uartbone_ && offset >= seen_ && uartbone::is_command(buf_[begin_ + offset]);
  }

  std::array<uint8_t, kMaxFrameBytes> buf_{};
  size_t begin_ = 0, end_ = 0;
  size_t seen_ = 0;  // bytes from begin_ on that were decoded before: rescanned, not fresh
  bool uartbone_ = false;
  std::deque<DecodeEvent> events_;
  uint64_t garbage_ = 0, frames_ = 0, errors_ = 0, uartbone_commands_ = 0;
};

}  // namespace cmnet::proto

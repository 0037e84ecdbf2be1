// Frame codec and streaming decoder of the host-link protocol (gen/core/protocol.h).
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "gen/core/protocol.h"

using namespace cmnet::proto;

namespace {

std::vector<DecodeEvent> decode_all(std::span<const uint8_t> bytes, FrameDecoder* dec_out = nullptr) {
  FrameDecoder local;
  FrameDecoder& dec = dec_out ? *dec_out : local;
  dec.feed(bytes);
  std::vector<DecodeEvent> out;
  while (auto e = dec.next()) out.push_back(std::move(*e));
  return out;
}

std::vector<uint32_t> iota_words(size_t n, uint32_t start = 0x11223344) {
  std::vector<uint32_t> w(n);
  for (size_t i = 0; i < n; ++i) w[i] = start + static_cast<uint32_t>(i) * 0x01010101u;
  return w;
}

// A raw header with a valid header CRC, for frames the encoder refuses to make.
std::vector<uint8_t> raw_header(uint8_t version, uint8_t type, uint8_t seq, uint32_t addr, uint16_t len) {
  std::vector<uint8_t> h = {kSync, version, type, seq,
                            static_cast<uint8_t>(addr), static_cast<uint8_t>(addr >> 8),
                            static_cast<uint8_t>(addr >> 16), static_cast<uint8_t>(addr >> 24),
                            static_cast<uint8_t>(len), static_cast<uint8_t>(len >> 8), 0, 0};
  const uint16_t c = crc16_ccitt(h);
  h.push_back(static_cast<uint8_t>(c));
  h.push_back(static_cast<uint8_t>(c >> 8));
  return h;
}

std::vector<Frame> all_kinds() {
  const auto w17 = iota_words(17);
  const auto w256 = iota_words(256, 7);
  std::vector<Frame> v = {
      make_ping(0),
      make_read(1, 0x00000000),
      make_read(2, 0xFFFFFFFC),
      make_write(3, 0x1000, 0xDEADBEEF),
      make_burst_write(4, 0x2000, w17),
      make_burst_write(5, 0x3000, w256, kFlagNoIncrement),
      make_burst_read(6, 0x4000, 256),
      make_burst_read(255, 0x4000, 1, kFlagNoIncrement),
  };
  const size_t nreq = v.size();
  for (size_t i = 0; i < nreq; ++i) v.push_back(make_reply(v[i], Status::Ok, iota_words(i * 3)));
  for (uint8_t s = 1; s <= 7; ++s) v.push_back(make_reply(v[1], static_cast<Status>(s)));
  return v;
}

}  // namespace

TEST(Crc16, CcittFalseCheckValue) {
  const std::string s = "123456789";
  EXPECT_EQ(crc16_ccitt(std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size())), 0x29B1);
  EXPECT_EQ(crc16_ccitt({}), 0xFFFF);
}

// crc16_ccitt takes a faster path for long inputs (carry-less multiplication where the CPU
// has it); it must agree with the bit-at-a-time definition at every length, start value and
// alignment.
TEST(Crc16, EveryLengthAndStartValueAgreesWithTheDefinition) {
  auto bitwise = [](std::span<const uint8_t> d, uint16_t crc) {
    for (uint8_t b : d) {
      crc = static_cast<uint16_t>(crc ^ (b << 8));
      for (int i = 0; i < 8; ++i) crc = static_cast<uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : (crc << 1));
    }
    return crc;
  };
  std::mt19937 rng(5);
  std::vector<uint8_t> buf(1200);
  for (auto& b : buf) b = static_cast<uint8_t>(rng());
  for (size_t len = 0; len <= 1100; len += (len < 200 ? 1 : 37)) {
    const size_t off = rng() % 16;
    const auto crc = static_cast<uint16_t>(rng());
    const std::span<const uint8_t> d(buf.data() + off, len);
    ASSERT_EQ(crc16_ccitt(d, crc), bitwise(d, crc)) << "length " << len << ", start " << crc;
  }
  const std::vector<uint8_t> ff(1040, 0xFF), zero(1040, 0);
  EXPECT_EQ(crc16_ccitt(ff), bitwise(ff, 0xFFFF));
  EXPECT_EQ(crc16_ccitt(zero), bitwise(zero, 0xFFFF));
}

TEST(Codec, ByteLayoutOfAWriteFrameMatchesProtocolMd) {
  const auto b = encode(make_write(0x42, 0x12345678, 0xCAFEF00D));
  ASSERT_EQ(b.size(), 16u + 4u);
  EXPECT_EQ(b[0], 0xA5);  // sync
  EXPECT_EQ(b[1], 0x01);  // version
  EXPECT_EQ(b[2], 0x03);  // WRITE
  EXPECT_EQ(b[3], 0x42);  // seq
  EXPECT_EQ(b[4], 0x78);  // addr, little-endian
  EXPECT_EQ(b[5], 0x56);
  EXPECT_EQ(b[6], 0x34);
  EXPECT_EQ(b[7], 0x12);
  EXPECT_EQ(b[8], 1);  // len = 1 word
  EXPECT_EQ(b[9], 0);
  EXPECT_EQ(b[10], 0);  // status
  EXPECT_EQ(b[11], 0);  // flags
  const uint16_t hcrc = crc16_ccitt(std::span(b).first(12));
  EXPECT_EQ(b[12], hcrc & 0xFF);
  EXPECT_EQ(b[13], hcrc >> 8);
  EXPECT_EQ(b[14], 0x0D);  // payload word, little-endian
  EXPECT_EQ(b[17], 0xCA);
  const uint16_t fcrc = crc16_ccitt(std::span(b).first(18));
  EXPECT_EQ(b[18], fcrc & 0xFF);
  EXPECT_EQ(b[19], fcrc >> 8);
}

TEST(Codec, RoundTripAllFrameKinds) {
  for (const Frame& f : all_kinds()) {
    const auto bytes = encode(f);
    EXPECT_EQ(bytes.size(), kHeaderBytes + 4 * f.payload.size() + kTrailerBytes);
    const auto ev = decode_all(bytes);
    ASSERT_EQ(ev.size(), 1u) << describe(f);
    EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::Frame);
    EXPECT_EQ(ev[0].frame, f) << describe(f);
    EXPECT_EQ(ev[0].declared_len, f.payload.size());
  }
}

TEST(Codec, StreamOfFramesFedOneByteAtATime) {
  std::vector<uint8_t> stream;
  const auto frames = all_kinds();
  for (const Frame& f : frames) encode(f, stream);
  FrameDecoder dec;
  std::vector<Frame> got;
  for (uint8_t b : stream) {
    dec.feed(std::span(&b, 1));
    while (auto e = dec.next()) {
      ASSERT_EQ(e->kind, DecodeEvent::Kind::Frame);
      got.push_back(e->frame);
    }
  }
  EXPECT_EQ(got, frames);
  EXPECT_EQ(dec.buffered(), 0u);
  EXPECT_EQ(dec.garbage_bytes(), 0u);
  EXPECT_EQ(dec.frames(), frames.size());
}

TEST(Codec, EncoderRejectsOversizedPayload) {
  Frame f = make_burst_write(1, 0, iota_words(kMaxWords + 1));
  EXPECT_THROW(encode(f), std::invalid_argument);
  f.payload.resize(kMaxWords);
  EXPECT_NO_THROW(encode(f));
}

TEST(Codec, EveryPayloadOrTrailerBitFlipIsACrcErrorNeverAFrame) {
  const Frame f = make_burst_write(9, 0x100, iota_words(5));
  const auto good = encode(f);
  for (size_t bit = 0; bit < good.size() * 8; ++bit) {
    auto bad = good;
    bad[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    const auto ev = decode_all(bad);
    for (const auto& e : ev) ASSERT_NE(e.kind, DecodeEvent::Kind::Frame) << "bit " << bit;
    if (bit / 8 >= kHeaderBytes) {
      // Header intact: the decoder reports the CRC failure with the request's seq for the reply.
      ASSERT_FALSE(ev.empty()) << "bit " << bit;
      EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::BadCrc);
      EXPECT_EQ(ev[0].frame.seq, 9);
      EXPECT_EQ(ev[0].frame.type, static_cast<uint8_t>(Cmd::BurstWrite));
    }
  }
}

TEST(Codec, CorruptedFrameThenValidFrameResynchronises) {
  auto bytes = encode(make_write(1, 0x10, 0x55555555));
  bytes[15] ^= 0x40;  // payload corrupted
  encode(make_read(2, 0x20), bytes);
  const auto ev = decode_all(bytes);
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::BadCrc);
  EXPECT_EQ(ev[1].kind, DecodeEvent::Kind::Frame);
  EXPECT_EQ(ev[1].frame, make_read(2, 0x20));
}

TEST(Codec, TruncatedFrameWaitsForTheRest) {
  const auto bytes = encode(make_burst_write(3, 0x40, iota_words(10)));
  FrameDecoder dec;
  dec.feed(std::span(bytes).first(bytes.size() - 1));
  EXPECT_FALSE(dec.next().has_value());
  EXPECT_EQ(dec.buffered(), bytes.size() - 1);
  dec.feed(std::span(bytes).last(1));
  auto e = dec.next();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->kind, DecodeEvent::Kind::Frame);
  EXPECT_EQ(dec.buffered(), 0u);
}

TEST(Codec, TruncatedHeaderWaitsToo) {
  const auto bytes = encode(make_read(3, 0x40));
  FrameDecoder dec;
  dec.feed(std::span(bytes).first(5));
  EXPECT_FALSE(dec.next().has_value());
  EXPECT_EQ(dec.buffered(), 5u);
}

TEST(Codec, OversizedLengthIsAnErrorWithoutBufferingThePayload) {
  auto bytes = raw_header(kVersion, static_cast<uint8_t>(Cmd::BurstWrite), 77, 0x100, 1000);
  // The claimed 4000-byte payload (sync-free filler), then a valid frame.
  bytes.insert(bytes.end(), 4000, 0x5A);
  encode(make_read(78, 0x200), bytes);
  FrameDecoder dec;
  std::vector<DecodeEvent> ev;
  for (size_t i = 0; i < bytes.size(); i += 100) {
    dec.feed(std::span(bytes).subspan(i, std::min<size_t>(100, bytes.size() - i)));
    EXPECT_LE(dec.buffered(), kMaxFrameBytes);
    while (auto e = dec.next()) ev.push_back(std::move(*e));
  }
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::BadLength);
  EXPECT_EQ(ev[0].declared_len, 1000);
  EXPECT_EQ(ev[0].frame.seq, 77);
  EXPECT_EQ(ev[1].kind, DecodeEvent::Kind::Frame);
  EXPECT_EQ(ev[1].frame.seq, 78);
  EXPECT_EQ(dec.garbage_bytes(), 4000u);
}

TEST(Codec, LengthJustOverTheLimitIsRejectedAndAtTheLimitAccepted) {
  auto ev = decode_all(raw_header(kVersion, static_cast<uint8_t>(Cmd::BurstWrite), 1, 0, kMaxWords + 1));
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::BadLength);
  ev = decode_all(encode(make_burst_write(1, 0, iota_words(kMaxWords))));
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::Frame);
}

TEST(Codec, GarbageBeforeAValidFrameIsSkipped) {
  std::mt19937 rng(42);
  std::vector<uint8_t> bytes(3000);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  for (size_t i = 0; i < bytes.size(); i += 97) bytes[i] = kSync;  // plenty of false syncs
  const size_t garbage = bytes.size();
  const Frame f = make_burst_read(12, 0x800, 64);
  encode(f, bytes);
  FrameDecoder dec;
  const auto ev = decode_all(bytes, &dec);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev.back().kind, DecodeEvent::Kind::Frame);
  EXPECT_EQ(ev.back().frame, f);
  EXPECT_EQ(dec.garbage_bytes(), garbage);
}

TEST(Codec, MegabyteOfGarbageNeverGrowsTheBuffer) {
  std::mt19937 rng(7);
  std::vector<uint8_t> chunk(65536);
  FrameDecoder dec;
  for (int round = 0; round < 16; ++round) {
    for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = i % 50 == 0 ? kSync : static_cast<uint8_t>(rng());
    dec.feed(chunk);
    EXPECT_LE(dec.buffered(), kMaxFrameBytes);
    while (dec.next()) {
    }
  }
  const auto f = encode(make_ping(5));
  while (dec.discard_partial()) {  // the stream stalled: flush any false-sync partial
  }
  EXPECT_EQ(dec.buffered(), 0u);
  dec.feed(f);
  std::optional<DecodeEvent> last;
  while (auto e = dec.next()) last = std::move(e);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->kind, DecodeEvent::Kind::Frame);
}

TEST(Codec, WrongVersionIsReported) {
  auto bytes = raw_header(2, static_cast<uint8_t>(Cmd::Read), 4, 0, 0);
  bytes.push_back(0);
  bytes.push_back(0);
  const auto ev = decode_all(bytes);
  ASSERT_GE(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::BadVersion);
  EXPECT_EQ(ev[0].frame.version, 2);
  EXPECT_EQ(ev[0].frame.seq, 4);
}

TEST(Codec, DiscardPartialRecoversAFrameHiddenBehindAStalledOne) {
  // A sender wrote the header of a 200-word burst, gave up, and sent a read.
  auto bytes = raw_header(kVersion, static_cast<uint8_t>(Cmd::BurstWrite), 1, 0, 200);
  bytes.insert(bytes.end(), {1, 2, 3, 4});
  const Frame read = make_read(2, 0x40);
  encode(read, bytes);
  FrameDecoder dec;
  dec.feed(bytes);
  EXPECT_FALSE(dec.next().has_value());  // still waiting for 800 payload bytes
  EXPECT_TRUE(dec.discard_partial());
  auto e = dec.next();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->kind, DecodeEvent::Kind::Frame);
  EXPECT_EQ(e->frame, read);
  EXPECT_EQ(dec.buffered(), 0u);
  EXPECT_FALSE(dec.discard_partial());
}

TEST(Codec, ResetDropsState) {
  const auto bytes = encode(make_read(1, 0));
  FrameDecoder dec;
  dec.feed(std::span(bytes).first(10));
  dec.reset();
  EXPECT_EQ(dec.buffered(), 0u);
  dec.feed(bytes);
  EXPECT_TRUE(dec.next().has_value());
}

// ------------------------------------------------------------------ UARTBone (board side)

TEST(UartBone, EncodingIsLiteXs) {
  // Write 2 words at byte address 0x1000 (word address 0x400), big-endian everywhere.
  const std::vector<uint32_t> w = {0x11223344, 0xA5000001};
  EXPECT_EQ(uartbone::encode_write(0x1000, w),
            (std::vector<uint8_t>{0x01, 2, 0x00, 0x00, 0x04, 0x00, 0x11, 0x22, 0x33, 0x44, 0xA5, 0x00, 0x00, 0x01}));
  EXPECT_EQ(uartbone::encode_read(0xFFFFFFFC, 255, true),
            (std::vector<uint8_t>{0x04, 255, 0x3F, 0xFF, 0xFF, 0xFF}));
  EXPECT_THROW(uartbone::encode_read(0x1002, 1), std::invalid_argument);
  EXPECT_THROW(uartbone::encode_read(0x1000, 256), std::invalid_argument);
}

TEST(UartBone, OnlyABoardSideDecoderTakesCommands) {
  const auto cmd = uartbone::encode_write(0x20, std::vector<uint32_t>{7});
  const auto host = decode_all(cmd);
  EXPECT_TRUE(host.empty());  // garbage to the host's decoder
  FrameDecoder board(true);
  const auto ev = decode_all(cmd, &board);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::UartBone);
  EXPECT_EQ(ev[0].frame.type, uartbone::kWrite);
  EXPECT_EQ(ev[0].frame.addr, 0x20u);
  EXPECT_EQ(ev[0].frame.flags, 0);
  EXPECT_EQ(ev[0].declared_len, 1);
  EXPECT_EQ(ev[0].frame.payload, (std::vector<uint32_t>{7}));
  EXPECT_EQ(board.garbage_bytes(), 0u);
  EXPECT_EQ(board.uartbone_commands(), 1u);
}

TEST(UartBone, CommandsAndFramesInterleavedInAnySplit) {
  std::vector<uint8_t> s;
  auto add = [&](const std::vector<uint8_t>& b) { s.insert(s.end(), b.begin(), b.end()); };
  add(encode(make_read(1, 0x100)));
  add(uartbone::encode_read(0x200, 3, true));
  add({0x00, 0x77});  // garbage
  add(uartbone::encode_write(0x300, iota_words(255)));
  add(encode(make_burst_write(2, 0x400, iota_words(5))));
  add(uartbone::encode_write(0x500, {}));  // length 0
  // Whole, and one byte at a time: the same events.
  FrameDecoder whole(true);
  const auto a = decode_all(s, &whole);
  FrameDecoder bytewise(true);
  std::vector<DecodeEvent> b;
  for (uint8_t x : s) {
    bytewise.feed(std::span(&x, 1));
    while (auto e = bytewise.next()) b.push_back(std::move(*e));
  }
  ASSERT_EQ(a.size(), 5u);
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].kind, b[i].kind);
    EXPECT_EQ(a[i].frame, b[i].frame);
  }
  EXPECT_EQ(a[0].kind, DecodeEvent::Kind::Frame);
  EXPECT_EQ(a[1].kind, DecodeEvent::Kind::UartBone);
  EXPECT_EQ(a[1].frame.flags, kFlagNoIncrement);
  EXPECT_EQ(a[1].declared_len, 3);
  EXPECT_EQ(a[2].frame.payload, iota_words(255));
  EXPECT_EQ(a[3].frame.payload, iota_words(5));
  EXPECT_EQ(a[4].declared_len, 0);
  EXPECT_EQ(whole.garbage_bytes(), 2u);
  EXPECT_EQ(whole.buffered(), 0u);
}

TEST(UartBone, AWordAddressAbove4GiBWraps) {
  FrameDecoder d(true);
  const auto ev = decode_all(std::vector<uint8_t>{0x02, 1, 0xC0, 0x00, 0x00, 0x05}, &d);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].frame.addr, 0x14u);
}

TEST(UartBone, ACorruptedFrameIsRescannedForSyncOnlyNeverForCommands) {
  // A BURST_WRITE whose payload is corrupted: after BAD_CRC the bytes after its sync byte are
  // rescanned. They start 0x01 (the version), 0x04 (the type)...: a UARTBone write of 4 words,
  // were they not rescanned bytes.
  auto bad = encode(make_burst_write(9, 0x1000, iota_words(4)));
  bad[kHeaderBytes + 3] ^= 0x40;
  auto s = bad;
  const auto good = uartbone::encode_read(0x40, 1);
  s.insert(s.end(), good.begin(), good.end());
  FrameDecoder d(true);
  const auto ev = decode_all(s, &d);
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].kind, DecodeEvent::Kind::BadCrc);
  EXPECT_EQ(ev[1].kind, DecodeEvent::Kind::UartBone);  // the command after it is fresh
  EXPECT_EQ(ev[1].frame.addr, 0x40u);
  EXPECT_EQ(d.garbage_bytes(), bad.size() - 1);
  // A stray sync byte: its 13 header bytes are rescanned for sync only.
  std::vector<uint8_t> t = {kSync};
  const auto w = uartbone::encode_write(0x80, std::vector<uint32_t>{0x10, 0x20, 0x30});  // 18 bytes
  t.insert(t.end(), w.begin(), w.end());
  FrameDecoder d2(true);
  const auto ev2 = decode_all(t, &d2);
  EXPECT_TRUE(ev2.empty());  // the command's first 13 bytes were the stray sync's header
  EXPECT_EQ(d2.garbage_bytes(), t.size());
  EXPECT_EQ(d2.buffered(), 0u);
}

TEST(UartBone, AStalledCommandIsDroppedAndWhatFollowsRescanned) {
  // A write of 16 words with 2 sent; a PING behind it is taken as its data until the sender
  // is given up on (discard_partial), then found on the rescan.
  auto s = uartbone::encode_write(0x100, iota_words(16));
  s.resize(uartbone::kHeaderBytes + 8);
  const auto ping = encode(make_ping(5));
  s.insert(s.end(), ping.begin(), ping.end());
  FrameDecoder d(true);
  EXPECT_TRUE(decode_all(s, &d).empty());
  EXPECT_EQ(d.buffered(), s.size());
  EXPECT_TRUE(d.discard_partial());
  auto e = d.next();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->kind, DecodeEvent::Kind::Frame);
  EXPECT_EQ(e->frame.seq, 5);
  EXPECT_EQ(d.uartbone_commands(), 0u);  // nothing of the stalled command ran
  EXPECT_EQ(d.buffered(), 0u);
}

TEST(Names, StatusAndTypeNames) {
  EXPECT_STREQ(status_name(0), "OK");
  EXPECT_STREQ(status_name(1), "BAD_CRC");
  EXPECT_STREQ(status_name(2), "BAD_LENGTH");
  EXPECT_STREQ(status_name(3), "UNKNOWN_COMMAND");
  EXPECT_STREQ(status_name(4), "BAD_ADDRESS");
  EXPECT_STREQ(status_name(5), "BUSY");
  EXPECT_STREQ(status_name(6), "BAD_VERSION");
  EXPECT_STREQ(status_name(7), "INTERNAL");
  EXPECT_STREQ(status_name(99), "UNKNOWN_STATUS");
  EXPECT_STREQ(type_name(0x02), "READ");
  EXPECT_STREQ(type_name(0x85), "BURST_READ_REPLY");
  EXPECT_STREQ(type_name(0x7E), "UNKNOWN_TYPE");
  const Frame r = make_reply(make_read(3, 0x10), Status::BadAddress);
  EXPECT_EQ(r.type, 0x82);
  EXPECT_EQ(r.seq, 3);
  EXPECT_NE(describe(r).find("BAD_ADDRESS"), std::string::npos);
}

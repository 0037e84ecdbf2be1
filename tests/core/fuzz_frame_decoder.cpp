// libFuzzer target for the streaming frame decoder (gen/core/protocol.h). Checks, for any input:
//  - the decoder never holds more than kMaxFrameBytes;
//  - feeding the input in arbitrary chunks gives exactly the events of feeding it whole;
//  - every decoded frame re-encodes and decodes to itself, with a payload within the limit;
//  - errors carry a header that passed its CRC (BadLength only for len > kMaxWords);
//  - all of that for the board side's decoder too (FrameDecoder(true): UARTBone commands),
//    whose commands are well-formed and re-encode to their bytes.
// Built by tests/host.cmake with clang++ -fsanitize=fuzzer,address,undefined.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gen/core/protocol.h"

using namespace cmnet::proto;

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_frame_decoder: invariant violated: %s\n", what);
    std::abort();
  }
}

bool same(const DecodeEvent& a, const DecodeEvent& b) {
  return a.kind == b.kind && a.frame == b.frame && a.declared_len == b.declared_len;
}

std::vector<DecodeEvent> drain(FrameDecoder& d) {
  std::vector<DecodeEvent> v;
  while (auto e = d.next()) v.push_back(std::move(*e));
  return v;
}

void run(std::span<const uint8_t> in, bool uartbone) {
  const uint8_t* data = in.data();
  const size_t size = in.size();
  FrameDecoder whole(uartbone);
  whole.feed(in);
  check(whole.buffered() <= kMaxFrameBytes, "whole: buffer bound");
  const auto ev_whole = drain(whole);

  // Chunk sizes taken from the data itself (1..64 bytes), events drained as they come.
  FrameDecoder chunked(uartbone);
  std::vector<DecodeEvent> ev_chunked;
  size_t pos = 0, k = 0;
  while (pos < size) {
    const size_t n = std::min<size_t>(size - pos, 1 + (data[k++ % size] & 63));
    chunked.feed(in.subspan(pos, n));
    check(chunked.buffered() <= kMaxFrameBytes, "chunked: buffer bound");
    for (auto& e : drain(chunked)) ev_chunked.push_back(std::move(e));
    pos += n;
  }
  check(ev_whole.size() == ev_chunked.size(), "chunked: same number of events");
  for (size_t i = 0; i < ev_whole.size(); ++i) check(same(ev_whole[i], ev_chunked[i]), "chunked: same events");
  check(whole.buffered() == chunked.buffered(), "chunked: same remainder");
  check(whole.garbage_bytes() == chunked.garbage_bytes(), "chunked: same garbage count");

  for (const auto& e : ev_whole) {
    switch (e.kind) {
      case DecodeEvent::Kind::Frame: {
        check(e.frame.version == kVersion, "frame: version");
        check(e.frame.payload.size() <= kMaxWords, "frame: payload bound");
        check(e.frame.payload.size() == e.declared_len, "frame: length");
        const auto bytes = encode(e.frame);
        FrameDecoder again;
        again.feed(bytes);
        auto r = again.next();
        check(r.has_value() && r->kind == DecodeEvent::Kind::Frame && r->frame == e.frame, "frame: re-encode");
        check(!again.next().has_value() && again.buffered() == 0, "frame: nothing left");
        break;
      }
      case DecodeEvent::Kind::BadLength:
        check(e.declared_len > kMaxWords, "bad length: really too long");
        break;
      case DecodeEvent::Kind::BadVersion:
        check(e.frame.version != kVersion, "bad version: really another version");
        break;
      case DecodeEvent::Kind::BadCrc:
        check(e.declared_len <= kMaxWords && e.frame.payload.empty(), "bad crc: header only");
        break;
      case DecodeEvent::Kind::UartBone: {
        check(uartbone, "UARTBone: only on the board side");
        check(uartbone::is_command(e.frame.type) && e.declared_len <= uartbone::kMaxWords, "UARTBone: command");
        const bool fixed = e.frame.flags == kFlagNoIncrement;
        const auto bytes = uartbone::is_write(e.frame.type)
                               ? uartbone::encode_write(e.frame.addr, e.frame.payload, fixed)
                               : uartbone::encode_read(e.frame.addr, e.declared_len, fixed);
        FrameDecoder again(true);
        again.feed(bytes);
        auto r = again.next();
        check(r.has_value() && r->kind == DecodeEvent::Kind::UartBone && r->frame == e.frame &&
                  r->declared_len == e.declared_len,
              "UARTBone: re-encode");
        break;
      }
    }
  }

  // After a stall, flushing leaves nothing behind.
  while (whole.discard_partial()) {
  }
  check(whole.buffered() == 0, "discard_partial: empties the buffer");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> in(data, size);
  run(in, false);
  run(in, true);
  return 0;
}

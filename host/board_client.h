// The host driver API: register and burst access to a board over any Transport, speaking the
// protocol of protocol.h. Not thread-safe: one client per thread (or lock around it).
//
// Reliability: every request carries a fresh 8-bit sequence number; a reply must carry the same.
// A request is re-sent (with a new sequence number) at most `retries` times when no complete
// reply arrives within `timeout`, when the reply fails its CRC, or when the board answers
// BAD_CRC or BUSY. Every other error reply is thrown at once. A late reply to an attempt that
// timed out is recognised by its sequence number and dropped; any other unexpected sequence
// number is a HostError(SequenceMismatch). So one call takes at most (retries+1) * timeout.
// Note: a retried write may execute twice if only its reply was lost (harmless for registers,
// not for FIFO bursts: set retries = 0 for those).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "host/errors.h"
#include "gen/core/protocol.h"
#include "host/register_port.h"
#include "host/transport.h"

namespace cmnet {

struct BoardClientOptions {
  std::chrono::milliseconds timeout{1000};  // per attempt: from sending to the complete reply
  int retries = 2;                          // re-sends after the first attempt
  std::chrono::milliseconds busy_backoff{1};
  std::chrono::milliseconds connect_timeout{2000};  // for open()
};

struct BoardClientStats {
  uint64_t requests = 0;       // frames sent (attempts)
  uint64_t retries = 0;
  uint64_t timeouts = 0;       // attempts with no complete reply in time
  uint64_t crc_errors = 0;     // replies that failed their CRC
  uint64_t busy = 0;           // BUSY replies
  uint64_t stale_replies = 0;  // late replies to timed-out attempts, dropped
  uint64_t garbage_bytes = 0;  // bytes the decoder skipped while resynchronising
};

class BoardClient : public RegisterPort {
 public:
  explicit BoardClient(std::unique_ptr<Transport> transport, BoardClientOptions options = {});
  // Parses the URI (transport_uri.h) and opens the transport.
  static BoardClient open(std::string_view uri, BoardClientOptions options = {});

  BoardClient(BoardClient&&) noexcept;
  BoardClient& operator=(BoardClient&&) noexcept;
  ~BoardClient() override;

  // Addresses are byte addresses of 32-bit registers and must be 4-byte aligned (else the board
  // answers BAD_ADDRESS). Bursts advance by 4 per word, or stay put with fifo = true; bursts
  // longer than proto::kMaxWords are split into several requests.
  uint32_t read32(uint32_t addr) override;
  void write32(uint32_t addr, uint32_t value) override;
  void burst_write(uint32_t addr, std::span<const uint32_t> words, bool fifo = false) override;
  std::vector<uint32_t> burst_read(uint32_t addr, size_t count, bool fifo = false) override;
  // Returns the board's identification word: protocol version | max payload words << 16.
  uint32_t ping();

  void set_timeout(std::chrono::milliseconds t) { options_.timeout = t; }
  void set_retries(int r) override { options_.retries = r; }
  int retries() const override { return options_.retries; }
  const BoardClientOptions& options() const { return options_; }
  const BoardClientStats& stats() const { return stats_; }
  Transport& transport() { return *transport_; }
  std::string name() const override;
  void close();

 private:
  // Sends request (its words: payload, or request.payload when that is empty; a burst write's
  // are not copied) and waits for the OK reply, whose words go to reply (its size is the number
  // expected).
  void transact(proto::Frame request, std::span<const uint32_t> payload, std::span<uint32_t> reply);

  std::unique_ptr<Transport> transport_;
  BoardClientOptions options_;
  BoardClientStats stats_;
  proto::FrameDecoder decoder_;
  uint8_t next_seq_ = 1;
  std::deque<uint8_t> abandoned_;  // seqs of attempts that timed out, whose replies may still come
  std::vector<uint8_t> tx_;
  std::vector<uint8_t> rx_;
};

}  // namespace cmnet

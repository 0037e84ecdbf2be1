// The simulated board's host-link server: a TCP server (Boost.Asio, bound to 127.0.0.1 only)
// that decodes protocol frames (gen/core/protocol.h) and executes them against a RegisterBackend,
// replying with frames. Like the RTL frame engine, it also executes LiteX UARTBone commands on
// the same stream (PROTOCOL.md, "UARTBone"). It survives bad clients (garbage, truncated or oversized frames, abrupt
// disconnects, clients that never read) and keeps serving the next one.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "gen/core/protocol.h"

namespace cmnet {

namespace detail {
struct BoardServerImpl;
}

// What the server executes requests against: the Verilator model of the board, or a fake.
// All calls come from the server's single I/O thread.
class RegisterBackend {
 public:
  virtual ~RegisterBackend() = default;
  // addr is a 4-byte-aligned byte address. Throw BackendFault to answer with an error status
  // (BAD_ADDRESS, BUSY...); any other exception is answered with INTERNAL.
  virtual uint32_t read(uint32_t addr) = 0;
  virtual void write(uint32_t addr, uint32_t value) = 0;
  // Called once after every executed request (e.g. to advance a simulation clock).
  virtual void tick() {}
};

struct BackendFault : std::runtime_error {
  BackendFault(proto::Status s, const std::string& what) : std::runtime_error(what), status(s) {}
  proto::Status status;
};

// A register file in memory: words at 4-byte-aligned addresses in [base, base + size_bytes),
// unwritten words read as 0. Thread-safe (tests peek while the server runs).
class MemoryBackend : public RegisterBackend {
 public:
  explicit MemoryBackend(uint32_t base = 0, uint64_t size_bytes = uint64_t{1} << 32);
  uint32_t read(uint32_t addr) override;
  void write(uint32_t addr, uint32_t value) override;
  void tick() override;

  // The next n accesses throw BackendFault(BUSY) (tests of the client's retry).
  void inject_busy(unsigned n);
  uint32_t peek(uint32_t addr) const;
  void poke(uint32_t addr, uint32_t value);
  uint64_t reads() const;
  uint64_t writes() const;
  uint64_t ticks() const;

 private:
  void check(uint32_t addr) const;
  mutable std::mutex mu_;
  uint32_t base_;
  uint64_t size_;
  std::map<uint32_t, uint32_t> mem_;
  unsigned busy_ = 0;
  uint64_t reads_ = 0, writes_ = 0, ticks_ = 0;
};

// Executes one decoded request against the backend and returns the reply (never throws).
proto::Frame execute_request(const proto::Frame& request, RegisterBackend& backend);
// The reply for a frame or framing-error event: execute_request for frames, an error reply for
// framing errors. (A UARTBone command has no reply frame: use append_reply.)
proto::Frame reply_for_event(const proto::DecodeEvent& event, RegisterBackend& backend);
// Executes a UARTBone command event and appends its reply: a read's words big-endian,
// uartbone::kFailedRead for each word whose access failed; nothing for a write. Every word is accessed,
// failed or not (as LiteX does). Never throws.
void execute_uartbone(const proto::DecodeEvent& event, RegisterBackend& backend, std::vector<uint8_t>& out);
// The reply bytes for any decoder event (what the board sends back), appended to out.
void append_reply(const proto::DecodeEvent& event, RegisterBackend& backend, std::vector<uint8_t>& out);

struct BoardServerOptions {
  uint16_t port = 0;                              // 0: an ephemeral port, see port()
  std::chrono::milliseconds idle_timeout{60000};  // close a client silent (or not reading) this long
  std::chrono::milliseconds frame_timeout{500};   // drop a partial frame stalled this long
  size_t max_clients = 8;                         // further connections are closed at once
  size_t max_pending_output = 64 * 1024;          // stop reading from a client that does not read
  bool accept_uartbone = true;                    // execute UARTBone commands too
};

struct BoardServerStats {
  uint64_t connections = 0;
  uint64_t rejected_connections = 0;
  uint64_t frames = 0;           // requests executed
  uint64_t uartbone_commands = 0;
  uint64_t error_replies = 0;    // replies with a non-OK status
  uint64_t garbage_bytes = 0;    // bytes skipped resynchronising
  uint64_t dropped_partials = 0; // partial frames dropped after frame_timeout
  uint64_t idle_closed = 0;      // clients closed for idle_timeout
  uint64_t active_clients = 0;
};

class BoardServer {
 public:
  // Binds 127.0.0.1:port and listens at once (so port() is valid); serves after start()/run().
  // Throws std::runtime_error if the port cannot be bound.
  explicit BoardServer(RegisterBackend& backend, BoardServerOptions options = {});
  ~BoardServer();  // stop()
  BoardServer(const BoardServer&) = delete;
  BoardServer& operator=(const BoardServer&) = delete;

  uint16_t port() const;
  void start();  // serve in a background thread
  void run();    // serve in the calling thread until stop()
  // Closes the listener and every client and ends run()/the thread. Thread-safe, idempotent.
  void stop();
  BoardServerStats stats() const;

 private:
  std::unique_ptr<detail::BoardServerImpl> impl_;
};

}  // namespace cmnet

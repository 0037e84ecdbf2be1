// The bridge between the host link's TCP transport (sim://127.0.0.1:PORT, host/tcp_transport.h)
// and a cycle-based model of a board (a Verilated RTL model): it owns a listener on 127.0.0.1,
// serves one client at a time, and moves bytes between the socket and the model every clock
// cycle. The model side is abstract (ByteLinkModel), so the bridge knows nothing of Verilator;
// the pin-level host-side models of the PHYs (UART line, FT245 chip) are here too, for
// harnesses that drive a board's real pins instead of its byte stream.
//
// The clock runs only when needed: flat out while bytes are in flight or the board is busy;
// not at all when the board is idle or only a partial frame (or UARTBone command) waits for
// more bytes. A real host's gaps between the parts of one command are wall time (CommUART
// writes a command's header and its address separately, Nagle may hold the second part
// ~40 ms), so the stall timeout of a simulated board is wall time too: a partial frame is
// dropped (ByteLinkModel::expire_stall) once no byte has come for stall_timeout_ms, never
// sooner, and at once when its client leaves, so it never swallows the next client's bytes.
//
// Single-threaded: run() polls the sockets between batches of cycles. No Boost or Verilator
// library to link (Asio is header-only), so a Verilator --exe harness can compile it.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace cmnet::rtlsim {

// A clocked board model whose host link is a stream of bytes.
class ByteLinkModel {
 public:
  enum class Activity { Busy, Waiting, Idle };
  virtual ~ByteLinkModel() = default;
  // One clock cycle. Takes the bytes the link accepts this cycle from the front of to_board
  // and appends the bytes the board sent this cycle to to_host.
  virtual void cycle(std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) = 0;
  // Busy: keep clocking. Waiting: only a partial frame waits for bytes; the clock stops (the
  // bridge times the stall in wall time). Idle: nothing in flight; the clock stops until the
  // host sends something.
  virtual Activity activity() const = 0;
  // Called while Waiting, when the stall timeout has passed: drop the partial frame (the frame
  // engine's stall_expired input, or its own FRAME_TIMEOUT clocked out), clocking as needed.
  virtual void expire_stall(std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) = 0;
};

// The host's end of an 8N1 UART at clks_per_bit board clocks per bit, one call per cycle.
class UartHostLine {
 public:
  explicit UartHostLine(int clks_per_bit);
  // The level of the board's receive pin for this cycle; takes the next byte from to_board
  // when the previous character (including its stop bit) is finished.
  bool drive(std::deque<uint8_t>& to_board);
  // The level of the board's transmit pin this cycle; received bytes go to to_host.
  void sample(bool txd, std::vector<uint8_t>& to_host);
  bool busy() const { return tx_left_ > 0 || rx_state_ != 0; }
  uint64_t framing_errors() const { return framing_errors_; }

 private:
  int cpb_;
  uint16_t tx_bits_ = 0;  // LSB is on the line
  int tx_left_ = 0;       // bit-cycles still to send, including the current one
  int tx_cnt_ = 0;
  int rx_state_ = 0;      // 0 idle, 1 start, 2 data, 3 stop
  int rx_cnt_ = 0, rx_bit_ = 0;
  uint8_t rx_byte_ = 0;
  uint64_t framing_errors_ = 0;
};

// The FT245 synchronous FIFO chip (FT2232H channel A) as cmnet_fifo_phy.v's timing model
// describes it: a byte moves at a rising edge when the strobes and the chip's status were low
// in the cycle before. Its receive FIFO is the host's byte queue; stall_percent of the cycles
// it reports "empty" / "full" at random (as USB packet boundaries do), to exercise the PHY's
// flow control. Protocol violations (RD# without OE#, both sides driving the bus, WR# while
// not driving) are counted; the first is described.
class Ft245Chip {
 public:
  struct ChipPins {
    bool rxf_n = true, txe_n = true;
    uint8_t data = 0;  // what the chip drives (meaningful while oe_n is low)
  };
  struct FpgaPins {
    bool rd_n = true, wr_n = true, oe_n = true, data_oe = false;
    uint8_t data_out = 0;
  };
  Ft245Chip(uint32_t seed, int stall_percent);
  // The chip's outputs for this cycle; data follows the FPGA's oe_n of this cycle.
  ChipPins outputs(const std::deque<uint8_t>& to_board, bool oe_n) const;
  // The rising edge: moves at most one byte each way, then draws the next cycle's stalls.
  void edge(const FpgaPins& fpga, std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host);
  uint64_t violations() const { return violations_; }
  const std::string& first_violation() const { return first_violation_; }
  uint64_t stalls() const { return stalls_; }

 private:
  void violation(const std::string& what);
  std::mt19937 rng_;
  int stall_percent_;
  bool rx_stall_ = false, tx_stall_ = false;
  uint64_t violations_ = 0, stalls_ = 0;
  std::string first_violation_;
};

struct BridgeOptions {
  uint16_t port = 0;                     // 0: ephemeral, see port()
  uint64_t stall_timeout_ms = 500;        // wall time a partial frame may wait for its next byte
  size_t max_to_board = 1 << 20;         // stop reading the socket beyond this backlog
};

struct BridgeStats {
  uint64_t cycles = 0;
  uint64_t bytes_to_board = 0;
  uint64_t bytes_to_host = 0;  // written to a client
  uint64_t connections = 0;
  uint64_t dropped_bytes = 0;  // board output with no client to take it
  uint64_t expired_stalls = 0; // partial frames dropped (stall timeout, or their client left)
};

class BoardRtlBridge {
 public:
  // Binds 127.0.0.1:port and listens at once (so port() is valid). Throws std::runtime_error.
  explicit BoardRtlBridge(ByteLinkModel& model, BridgeOptions options = {});
  ~BoardRtlBridge();
  BoardRtlBridge(const BoardRtlBridge&) = delete;
  BoardRtlBridge& operator=(const BoardRtlBridge&) = delete;

  uint16_t port() const;
  // Serves until `stop` is true (checked at least every 50 ms). One client at a time, as a
  // serial port: the next connection waits in the listen backlog until the current client
  // leaves. When a client leaves, bytes it sent that the board has not taken yet are dropped,
  // and so is board output until the next client connects.
  void run(const std::atomic<bool>& stop);
  const BridgeStats& stats() const { return stats_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ByteLinkModel& model_;
  BridgeOptions opt_;
  BridgeStats stats_;
};

}  // namespace cmnet::rtlsim

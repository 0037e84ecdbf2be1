// The host driver of the CM-5 data network's network interfaces on the stream board
// (gen/cm5data/cm5data_stream.h): every leaf has a cm5data_ni per side (left and right
// networks), reached through the board's bridge by register-access units. The registers are
// named as in the one register map, gen/cm5data/cm5data_ni_regmap.h (the bridge's own, DRAIN and
// PACE, in its kBridgeRegisters): the driver writes them, reads them (a read's reply comes back
// as a unit), sends a message through SEND_DATA and SEND, takes one through RECV_HEAD and
// RECV_DATA, and reads the counters.
//
// The board clocks only while it runs, so each exchange runs the board (run = 1) until every
// reply is in, then stops it (unless keep_running). A message unit the board delivers meanwhile
// (a side whose DRAIN bit is set) is kept for take_messages().
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "host/stream_board.h"

namespace cmnet {

struct Cm5NiAccess {
  uint32_t leaf = 0;
  int side = 0;          // 0 left, 1 right
  uint32_t reg = 0;      // cm5nimap::reg_index / bridge_index
  bool write = false;
  uint32_t data = 0;
  bool bridge = false;   // a bridge register (DRAIN, PACE), not the NI's
};
Cm5NiAccess cm5_ni_write(uint32_t leaf, int side, std::string_view reg, uint32_t value);
Cm5NiAccess cm5_ni_read(uint32_t leaf, int side, std::string_view reg);
Cm5NiAccess cm5_bridge_write(uint32_t leaf, std::string_view reg, uint32_t value);
Cm5NiAccess cm5_bridge_read(uint32_t leaf, std::string_view reg);
// The unit of an access.
StreamUnit cm5_ni_unit(const Cm5NiAccess& a);

// A message taken out of a receive FIFO (RECV_HEAD's fields, then the data words).
struct Cm5NiReceived {
  bool crc_ok = false, fell = false;
  int tag = 0, len = 0;
  std::vector<uint32_t> data;
};

// The NI's counters of one side (CNT_*), and its INTERRUPT flag.
struct Cm5NiCounterSet {
  uint32_t sent = 0, received = 0, refused = 0, interrupts = 0, crc_errors = 0, address_errors = 0;
  uint32_t interrupt = 0;
  bool operator==(const Cm5NiCounterSet&) const = default;
};
inline constexpr const char* kCm5NiCounterRegs[] = {"CNT_SENT", "CNT_RECEIVED", "CNT_REFUSED", "CNT_INTERRUPTS",
                                                    "CNT_CRC_ERRORS", "CNT_ADDR_ERRORS", "INTERRUPT"};

class Cm5NiDriver {
 public:
  explicit Cm5NiDriver(StreamBoard& board, double timeout_s = 60);
  bool keep_running = false;  // leave run = 1 after an exchange

  void write(uint32_t leaf, int side, std::string_view reg, uint32_t value);
  uint32_t read(uint32_t leaf, int side, std::string_view reg);
  void write_bridge(uint32_t leaf, std::string_view reg, uint32_t value);
  uint32_t read_bridge(uint32_t leaf, std::string_view reg);
  // Many accesses in one exchange (each leaf's in order): the values read, in order. HostError
  // (Timeout) when a reply does not come, (Protocol) when one is not the access's.
  std::vector<uint32_t> access(const std::vector<Cm5NiAccess>& accesses);

  // SEND_DATA for each word, then SEND {mark, tag, dst}; the STATUS read after it says whether
  // the message went into the send FIFO (false: refused for room or an address error: STATUS).
  bool send(uint32_t leaf, int side, uint32_t dst, int tag, const std::vector<uint32_t>& data, bool mark = false);
  // RECV_HEAD, then RECV_DATA for each data word not yet read: the front whole message.
  std::optional<Cm5NiReceived> receive(uint32_t leaf, int side);
  // Every counter of one side, or of every (leaf, side) in one exchange (index leaf * 2 + side).
  Cm5NiCounterSet counters(uint32_t leaf, int side);
  std::vector<Cm5NiCounterSet> all_counters(uint32_t leaves);

  std::vector<StreamUnit> take_messages();
  // Runs the board until `done` (polled every few ms) or, with no `done`, until it is not busy;
  // HostError (Timeout) after timeout_s. Stops it after unless keep_running.
  void run_until(const std::function<bool()>& done = {});

 private:
  StreamBoard& b_;
  double timeout_s_;
  std::vector<StreamUnit> messages_;
};

}  // namespace cmnet

// The host driver of the stream board (gen/core/stream_board.h): one driver for every family's
// board. It finds the STRM block, reads the board's self-description from its info ROM (the
// family, parameters, regions, counter names), loads units of words into leaves, takes what the
// leaves deliver, reads every counter by name and checks conservation per region. A family's
// runner only encodes its workload into units and decodes the units that come back.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gen/core/stream_board.h"
#include "host/board_blocks.h"
#include "host/conservation.h"
#include "host/register_port.h"

namespace cmnet {

// A unit: the words of one message, operation or command, to or from one leaf.
struct StreamUnit {
  uint32_t leaf = 0;
  std::vector<uint32_t> words;
  bool operator==(const StreamUnit&) const = default;
};

struct CounterReading {
  StreamCounter counter;
  uint32_t value = 0;
};

class StreamBoard {
 public:
  // Walks the block list and reads the info ROM. HostError naming the port when there is no
  // STRM block; InputError when the info text is malformed.
  explicit StreamBoard(RegisterPort& port);

  const BoardHeader& header() const { return header_; }
  const StreamInfo& info() const { return info_; }
  uint32_t fifo_words() const { return fifo_words_; }

  void set_run(bool run);
  void clear();  // counters, CYCLES, TX_UNITS, RX_UNITS
  uint32_t status();
  bool busy() { return (status() & 1u) != 0; }
  uint64_t cycles();
  uint32_t tx_free();

  // Writes one unit into the transmit FIFO (HostError naming the leaf when it does not fit:
  // check tx_free first, or use run_units). A unit must have at least one word.
  void send(const StreamUnit& unit);
  // Several units in one burst (their words must fit in the FIFO's free words together).
  void send(const std::vector<StreamUnit>& units);
  // Takes every whole unit the receive FIFO holds (a unit's tail still on its way waits).
  std::vector<StreamUnit> receive();
  std::vector<CounterReading> counters();
  // Conservation per region from counter readings: In = Out + Held.
  std::vector<RegionCount> regions(const std::vector<CounterReading>& c) const;

 private:
  RegisterPort& port_;
  BoardHeader header_;
  BoardBlock block_;
  StreamInfo info_;
  uint32_t fifo_words_ = 0;
  StreamUnit partial_;  // words of a unit whose last word has not come yet
  bool have_partial_ = false;
};

struct StreamRunOptions {
  double timeout_s = 60;  // no progress (nothing sent, nothing received, busy) for this long
  bool load_before_run = false;  // write units while stopped (as far as the FIFO holds), then run
  std::function<void(size_t sent, size_t received)> progress;  // called now and then
  // A family that paces its units by what the board answers (credits) gives them one at a time
  // instead of a list: pull(delivered, next) fills `next` and returns 1, returns 0 when it has
  // nothing to send yet, -1 when it has sent everything. `delivered` is every unit received so far.
  std::function<int(const std::vector<StreamUnit>& delivered, StreamUnit& next)> pull;
};

struct StreamRunResult {
  std::vector<StreamUnit> delivered;  // in the order the board delivered them
  std::vector<CounterReading> counters;
  uint64_t cycles = 0;
  double host_seconds = 0;
  size_t sent = 0;  // units sent
};

// Throws InputError when a run of `units` units could wrap the board's counters
// (info.counter_bits): run_units checks it before sending.
void check_units_per_run(const StreamInfo& info, uint64_t units);

// clear, run, send every unit (or every unit opt.pull gives; `units` must then be empty),
// (draining the receive FIFO whenever the transmit FIFO is full),
// wait until the board is idle and `expect_units` units came back (0 = just idle), read the
// counters, stop. HostError(Timeout) naming what is missing when nothing moves for timeout_s.
StreamRunResult run_units(StreamBoard& board, const std::vector<StreamUnit>& units, size_t expect_units,
                          const StreamRunOptions& opt = {});

}  // namespace cmnet

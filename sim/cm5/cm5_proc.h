// The CM-5 machine's processors as its workload runs them: one per leaf and side, on the data
// network interface's register bus (gen/cm5data/cm5data_ni_regmap.h; one access a cycle, a read's
// value the state at the start of the cycle). Header-only and engine-neutral: the RTL harness
// (sim/cm5/cm5_machine_main.cpp) drives it on the emitted NI's ports, the model
// (sim/cm5/cm5_machine_model.cpp) on the model NI's register adapter, so both engines see the
// same program and compare cycle by cycle. It is the workload (as a push rule is), not the model.
//
// The program: messages go in order, each from its release cycle. With one waiting, read
// STATUS; with room for the whole message (head, data, CRC) write its data words (SEND_DATA),
// then SEND (accepted: the room only grows meanwhile); without room, poll once (below) and try
// again. Otherwise poll: read RECV_HEAD; a whole message there: read its data words
// (RECV_DATA), the last takes it out of the receive FIFO.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "gen/cm5data/cm5data_ni_regmap.h"

namespace cmnet::cm5mach {

struct Access {
  bool valid = false, write = false;
  uint32_t addr = 0, data = 0;
};

struct Outgoing {
  uint32_t dst = 0;
  int tag = 0;
  std::vector<uint32_t> data;  // 1..max_words words
  uint64_t release = 0;
};

struct Incoming {
  uint64_t cycle = 0;  // the cycle RECV_HEAD said it was there
  uint32_t head = 0;   // RECV_HEAD as read
  std::vector<uint32_t> words;
  bool operator==(const Incoming&) const = default;
};

class Processor {
 public:
  void add(const Outgoing& m) { out_.push_back(m); }
  bool sending_done() const { return out_.empty() && state_ != kSend; }
  const std::vector<Incoming>& received() const { return in_; }
  const std::vector<uint64_t>& sends() const { return sends_; }  // the cycle of each SEND write

  Access next(uint64_t t) {
    using cm5nimap::index;
    switch (state_) {
      case kSend: {
        const Outgoing& m = out_.front();
        if (k_ < m.data.size()) return {true, true, index("SEND_DATA"), m.data[k_]};
        return {true, true, index("SEND"), (static_cast<uint32_t>(m.tag & 15) << 20) | (m.dst & 0xFFFFu)};
      }
      case kRecv: return {true, false, index("RECV_DATA"), 0};
      case kIdle: break;
    }
    if (!out_.empty() && out_.front().release <= t && !poll_turn_) return {true, false, index("STATUS"), 0};
    return {true, false, index("RECV_HEAD"), 0};
  }

  // After the cycle's access: the read's value (ignored for a write).
  void done(uint64_t t, const Access& a, uint32_t value) {
    using cm5nimap::index;
    switch (state_) {
      case kSend:
        if (a.addr == index("SEND")) {
          sends_.push_back(t);
          out_.pop_front();
          state_ = kIdle;
          k_ = 0;
        } else {
          ++k_;
        }
        return;
      case kRecv:
        cur_.words.push_back(value);
        if (cur_.words.size() == ((cur_.head >> 16) & 7u)) {
          in_.push_back(cur_);
          state_ = kIdle;
        }
        return;
      case kIdle: break;
    }
    if (a.addr == index("STATUS")) {
      const uint32_t space = (value >> 8) & 0xFFu;
      if (space >= out_.front().data.size() + 2) state_ = kSend;
      else poll_turn_ = true;
      k_ = 0;
    } else {
      poll_turn_ = false;
      if (value >> 31) {
        cur_ = Incoming{t, value, {}};
        state_ = kRecv;
      }
    }
  }

 private:
  enum State { kIdle, kSend, kRecv };
  State state_ = kIdle;
  std::deque<Outgoing> out_;
  size_t k_ = 0;
  bool poll_turn_ = false;
  Incoming cur_;
  std::vector<Incoming> in_;
  std::vector<uint64_t> sends_;
};

}  // namespace cmnet::cm5mach

// Cycle-level reference model of the CM-5 data network, written from the paper (section 3):
// a 4-ary fat tree of router chips with 4 children and 2 or 4 parents; messages go up to the
// least common ancestor of source and destination, each chip choosing pseudorandomly (its own
// seedable LFSR) among the unobstructed parent links, then down the single path by the
// destination's digits; flow control on every link (nothing is dropped), blocked messages
// buffered at the chip's inputs (cut-through), fair round-robin arbitration on every output,
// a message counter on every link end (Kirchhoff: into a chip = out of it + held in it).
//
// Where the paper is silent, the model makes these named choices (the RTL makes the same):
//  - a cycle moves one flit of link_bits per link; flits of a message are contiguous;
//  - flow control by credits: a sender holds one credit per free flit of the receiver's input
//    buffer (buffer_words words); a credit comes back, registered, one cycle after the flit
//    left the buffer; a link's flit is registered at the sender (one cycle on the wire);
//  - an input asks for an output once the whole head word is in its buffer; a chip decides with
//    the state at the start of the cycle, the granted input moves its first flit the cycle after;
//  - unobstructed parent = not allocated to a message and holding a credit; the choice is the
//    (r mod n)-th of the n unobstructed parents in port order, r = LFSR bits [4k +: 4] for
//    child input k; LFSR: 16-bit Fibonacci x^16 + x^14 + x^13 + x^11 + 1, one step per cycle,
//    seeded per chip by cm5_chip_seed;
//  - round-robin per output: the first requesting input at or after the output's pointer; the
//    pointer moves to just after the granted input;
//  - an output is released the cycle after its message's last flit and can be granted again then;
//  - a leaf takes every flit at once and returns its credit the next cycle; it sends its messages
//    in order, one flit per cycle while it holds credits, from the message's inject cycle;
//  - CRC: every chip input checks the CRC of what leaves its buffer (cm5_crc_status), forwards the
//    proper CRC while the flits match and its complement from the first one that does not, and
//    counts a primary or a secondary error when the last flit leaves;
//  - all-fall-down: a message whose head has the mark, or that reaches the head of an input of a
//    chip in the mode, falls: it asks for child port (i + rot) mod 4 (i the input, parents
//    numbered 0.. among themselves, rot = cm5_afd_rot) and leaves with the mark set and U as it
//    came; a chip's mode is read when the head asks;
//  - map-out: a climbing message chooses only among the parents its chip may use for its
//    destination (cm5_chip_mapout).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_params.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

struct Cm5DataDelivery {
  bool delivered = false;
  uint64_t sent = 0;      // cycle the first flit was on the source's leaf link
  uint64_t arrived = 0;   // cycle the last flit was on the destination's leaf link
  uint32_t at_leaf = 0;   // the leaf it arrived at
  std::vector<uint32_t> words;  // as received (U = 0 in the head word)
  bool crc_ok = false;
  Cm5Crc crc = Cm5Crc::primary;  // what the leaf's check found
  int copies = 0;         // deliveries of this message (1 when all is well)
  bool refused = false;   // refused at the sender's interface (a mapped-out leaf): never sent
  bool ambiguous = false; // RTL: one of several equal messages in flight, which one a guess
};

struct Cm5DataChipCounters {
  std::vector<uint64_t> in, out;  // messages whose head crossed each port (children, then parents)
  uint64_t crc_primary = 0, crc_secondary = 0;  // messages this chip found with a bad CRC
};

// What an output port did, in cycles: moved a flit; was allocated to a message but had no credit
// (the receiver's buffer full: blocked downstream); was allocated with a credit but its input
// had no flit (starved upstream); was granted (the arbitration cycle); was free.
struct Cm5DataPortStats {
  uint64_t moving = 0, no_credit = 0, no_flit = 0, granting = 0, free = 0;
};

struct Cm5DataModelOptions {
  uint64_t max_cycles = 1000000;
  bool stop_when_done = true;   // stop once every message is delivered
  bool check_every_cycle = false;  // Kirchhoff on every chip every cycle (tests)
  // Per output port of every chip, what each cycle was (the saturation study): off by default
  // (it turns off the idle-chip shortcut).
  bool link_stats = false;
  // All-fall-down: the cycle each chip enters the mode (by chip; empty or ~0: never).
  std::vector<uint64_t> afd_at;
};

constexpr uint64_t kCm5Never = ~0ull;

struct Cm5DataRunResult {
  std::vector<Cm5DataDelivery> deliveries;  // by message
  std::vector<Cm5DataChipCounters> chips;
  uint64_t cycles = 0;
  bool completed = false;
  uint64_t flit_hops = 0;      // flits moved over links (leaf links included)
  uint64_t delivered = 0;
  uint64_t leaf_injected = 0;  // messages whose head left a leaf
  uint64_t refused = 0;        // messages refused at the sender (mapped-out leaves)
  uint64_t kirchhoff_violations = 0;  // chip-cycles where in - out != held (check_every_cycle)
  uint64_t max_held = 0;
  double seconds = 0;          // wall time of the simulation loop
  std::vector<std::vector<Cm5DataPortStats>> port_stats;  // [chip][output port] (link_stats)
};

// The network alone, one cycle at a time, for drivers with their own leaves (the network
// interface, request/reply processors). A cycle: read what each leaf sees (the chip's
// registers: a credit for the leaf's sends, a flit), drive each leaf's link (a flit, and the
// credit for a flit the leaf took out of its receive buffer), then step().
class Cm5DataNetwork {
 public:
  explicit Cm5DataNetwork(const Cm5DataParams& p, const Cm5DataModelOptions& opt = {});
  ~Cm5DataNetwork();
  Cm5DataNetwork(Cm5DataNetwork&&) noexcept;
  const Cm5DataParams& params() const;
  uint64_t cycle() const;
  bool tx_credit(uint32_t leaf) const;   // one flit of the leaf's input buffer freed
  bool rx_valid(uint32_t leaf) const;    // a flit for the leaf
  uint32_t rx_data(uint32_t leaf) const;
  int64_t rx_msg(uint32_t leaf) const;   // the message id the sender gave the flit
  void drive(uint32_t leaf, bool tx_valid, uint32_t tx_data, int64_t tx_msg, bool rx_credit);
  void step();
  uint64_t flit_hops() const;  // over chip outputs
  uint64_t kirchhoff_violations() const;
  uint64_t max_held() const;
  std::vector<Cm5DataChipCounters> counters() const;
  std::vector<std::vector<Cm5DataPortStats>> port_stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_;
};

Cm5DataRunResult run_cm5data_model(const Cm5DataParams& p, const Cm5DataTraffic& t, const Cm5DataModelOptions& opt = {});

// The 16-bit LFSR the chips use: one step.
uint16_t cm5_lfsr_step(uint16_t s);

}  // namespace cmnet

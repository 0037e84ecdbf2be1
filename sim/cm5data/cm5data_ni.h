// The network interface of one processing node (section 2 of the paper) and the left and right
// networks (section 3: "two independent, interleaved networks"; requests on one side, replies
// on the other, the round-trip protocol that cannot deadlock). Model only (no RTL yet).
//
// Per side (0 = left, 1 = right), as built:
//  - send FIFO of send_words 32-bit words: the processor writes a whole message (destination,
//    length, tag, data); it is accepted only if the FIFO has room for all of it (the paper's
//    processor "checks whether the message was accepted ... and can try again later"); the NI
//    adds the routing instructions and the CRC and sends a flit per cycle while it holds
//    credits (the network's buffer of the leaf link);
//  - receive FIFO of recv_flits flits (at least the link's credits plus the longest message):
//    the NI returns a credit to the network, one per cycle, while the FIFO keeps room for every
//    flit the network may still send; the processor takes whole messages out;
//  - the 16-bit tag mask register: a message whose tag's bit is set raises the interrupt
//    (sticky until the processor clears it) when it is complete in the receive FIFO;
//  - counters: messages sent (head left), received (complete), refused (send FIFO full),
//    interrupts, CRC errors seen, address errors (a message to a leaf mapped out of the address
//    space, or any message from a mapped-out leaf: refused for good, never sent).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "sim/cm5data/cm5data_model.h"

namespace cmnet {

struct Cm5DataNiConfig {
  int send_words = 8;    // per side
  int recv_flits = 0;    // per side; 0: the link's credits plus two longest messages
};

struct Cm5DataNiCounters {
  uint64_t sent = 0, received = 0, refused = 0, interrupts = 0, crc_errors = 0, address_errors = 0;
};

struct Cm5DataNiMessage {
  uint32_t src = 0;  // the leaf it came from, as the data says (the network does not carry it)
  int len = 1, tag = 0;
  std::vector<uint32_t> data;
  Cm5Crc crc = Cm5Crc::ok;
  bool fell = false;  // all-fall-down mark
};

class Cm5DataNi {
 public:
  Cm5DataNi(const Cm5DataParams& p, uint32_t leaf, const Cm5DataNiConfig& cfg);
  // Processor side.
  // false: the send FIFO is full (try again later), or `dst` is not reachable (an address error).
  bool send(int side, uint32_t dst, int tag, const std::vector<uint32_t>& data);
  // dst is in the address space (and in this leaf's partition, if it is in one) and this leaf
  // is not mapped out.
  bool reachable(uint32_t dst) const { return p_.may_address(leaf_, dst); }
  bool can_receive(int side) const;
  Cm5DataNiMessage receive(int side);
  Cm5DataNiMessage peek(int side) const;  // the front whole message, left in the FIFO
  // The FIFOs' state (the memory-mapped NI's status registers read these).
  int send_words(int side) const { return static_cast<int>(side_[side].send_fifo.size()); }
  int recv_flits(int side) const { return static_cast<int>(side_[side].rx.size()); }
  int recv_messages(int side) const { return static_cast<int>(side_[side].rx_msgs.size()); }
  uint16_t tag_mask = 0;
  bool interrupt = false;  // sticky; the processor clears it
  const Cm5DataNiCounters& counters(int side) const { return side_[side].cnt; }
  // Network side, once per cycle per side, before the network steps.
  void cycle(int side, Cm5DataNetwork& net);
  bool idle() const;  // nothing to send, nothing received and not taken

 private:
  struct Side {
    std::deque<uint32_t> send_fifo;  // words of whole messages, CRC included
    int flit = 0;                    // next flit of the front message
    int credits = 0;                 // the network's buffer flits we may fill
    std::deque<uint32_t> rx;         // received flits
    std::deque<int> rx_msgs;         // flits of each complete message in rx
    int rx_partial = 0, rx_total = 0;
    int net_credits = 0;             // flits the network may still send us
    Cm5DataNiCounters cnt;
  };
  Cm5DataParams p_;
  uint32_t leaf_;
  int send_cap_, recv_cap_;
  Side side_[2];
};

// A saturating request/reply load (the fetch-deadlock scenario of section 2): every processor
// sends `requests` requests to random processors as fast as its NI accepts them; a processor
// that receives a request must send a reply; it holds at most `reply_slots` replies it has not
// yet got into its send FIFO and stops taking requests while they are full; it always takes
// replies. `two_networks`: requests on the left, replies on the right (the paper's protocol);
// false: both on the left (what the paper says may deadlock).
struct Cm5DataRoundTripOptions {
  int requests = 8;
  int reply_slots = 1;
  bool two_networks = true;
  uint64_t max_cycles = 200000;
  uint64_t stall_cycles = 5000;  // no flit moved on any link this long: deadlock
  uint64_t seed = 1;
  Cm5DataNiConfig ni;
};

struct Cm5DataRoundTripResult {
  bool completed = false;   // every request answered
  bool deadlocked = false;  // nothing moved for stall_cycles with work left
  uint64_t cycles = 0, requests_sent = 0, replies_received = 0;
  std::vector<Cm5DataNiCounters> left, right;  // per leaf
  std::vector<Cm5DataChipCounters> left_chips, right_chips;
};

Cm5DataRoundTripResult run_cm5data_roundtrip(const Cm5DataParams& p, const Cm5DataRoundTripOptions& o);

}  // namespace cmnet

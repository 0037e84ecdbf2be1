// The CM-5 machine's second view (issue 26), from Leiserson et al. 1992 at the level its user
// reasons at: the data network "promises to eventually accept and deliver all messages" (each
// processor reads every message sent to it on that network, once, with its tag and data), and
// router-done is Kirchhoff's current law: "the network interfaces keep track of the number of
// messages that enter and leave the data network", the control network sums the counts, and
// the router is done when the sum is zero. The sum is the control network oracle's router-done
// (sim/cm5ctl/oracle): a lost message keeps it under way, a created one signals an error. It
// shares nothing with the emitters, params or cycle models.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet::cm5_oracle {

struct Message {
  uint32_t src = 0, dst = 0;
  int side = 0;  // 0: left network, 1: right
  int tag = 0;
  std::vector<uint32_t> data;
};

struct Read {  // a message a processor read from its interface
  uint32_t leaf = 0;
  int side = 0;
  int tag = 0;
  std::vector<uint32_t> data;
  bool crc_ok = true;
};

// A fault on one leaf's counting (the machine's test hook): the next message whole at its
// interface is not counted (lost) or counted twice (duplicated).
struct CountFault {
  uint32_t leaf = 0;
  bool duplicate = false;
};

struct RouterDone {  // one leaf's router-done result
  uint32_t leaf = 0;
  int64_t sum = 0;  // the counts' sum as presented (signed)
  bool error = false;
};

struct Machine {
  uint32_t leaves = 4;
  int word_bits = 32;  // the control network's word
  std::vector<Message> sent;
  std::vector<CountFault> faults;
};

struct Run {
  std::vector<Read> reads;
  std::vector<int64_t> counters;  // each leaf's interface count at the end (empty: not checked)
  bool router_done_pushed = true;  // every leaf pushed router-done after its last send
  std::vector<RouterDone> router_done;  // empty: it never completed
};

// Every way `r` departs from the paper, one sentence each; empty when it agrees.
std::vector<std::string> disagreements(const Machine& m, const Run& r);

}  // namespace cmnet::cm5_oracle

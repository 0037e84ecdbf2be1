// CM-1's second view (issue 26), written from Kahle, Kuszmaul and Hillis, "The Connection
// Machine Message Router", at the level a user reasons at: every message is delivered to its
// destination processor with its VP-ADDRESS and DATA; in the ejector's OR mode "if two
// bitstreams are switched to the same processor then the two bitstreams are OR'ed together
// bitwise", in the other mode one message is ejected per processor per petit cycle; a processor
// injects at most one message per petit cycle, so a delivery cycle is at least as long as the
// longest sender's list. It shares nothing with the emitter, the params or the cycle model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet::cm1_oracle {

enum class Ejection { kOrCombine, kOnePerPetit };

struct Sent {
  uint32_t src = 0, dst = 0;  // processors
  uint64_t vp = 0, data = 0;
};

struct Received {
  uint64_t petit = 0;  // the petit cycle of the delivery cycle it arrived in
  uint32_t dst = 0;
  uint64_t vp = 0, data = 0;
};

struct DeliveryCycle {
  Ejection ejection = Ejection::kOrCombine;
  std::vector<Sent> sent;
  std::vector<Received> received;
  uint64_t petit_cycles = 0;  // the delivery cycle's length as the run reports it
  // OR mode: how many ways to split one processor's messages into its receptions are tried
  // before only the necessary conditions are checked for it (the split is a set partition).
  uint64_t search_budget = 200000;
};

// Every way `d` departs from the paper, one sentence each ("processor 5: ..."); empty when it
// agrees.
std::vector<std::string> disagreements(const DeliveryCycle& d);

// A delivery cycle as a board tallies it, per processor, instead of reception by reception: how
// many receptions, the XOR of their check words (a reception's {DATA, VP-ADDRESS} as one number,
// its low 32 bits), the sum of their petit cycles (mod 2^32), the messages it injected.
struct Tally {
  uint64_t receptions = 0, xor_word = 0, petit_sum = 0, injected = 0;
};
struct TalliedCycle {
  Ejection ejection = Ejection::kOrCombine;
  std::vector<Sent> sent;
  std::vector<Tally> processors;  // every processor of the machine, by number
  int vp_bits = 0;                // the VP-ADDRESS's width: where DATA starts in a check word
  uint64_t petit_cycles = 0;
  uint64_t search_budget = 200000;  // OR mode: splits tried, as for DeliveryCycle
};
// What the tallies can show of the same promises: every processor injects its own messages; one
// reception per petit cycle per processor, so r receptions have a petit sum no less than
// 0 + 1 + ... + (r - 1) and no more than the r latest petit cycles'; one-per-petit mode: one
// reception per message, their words' XOR; OR mode: at least one and at most one per message,
// the XOR of the ORs of some split of them into that many groups.
std::vector<std::string> disagreements(const TalliedCycle& d);

}  // namespace cmnet::cm1_oracle

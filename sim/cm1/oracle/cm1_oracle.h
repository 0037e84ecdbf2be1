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

}  // namespace cmnet::cm1_oracle

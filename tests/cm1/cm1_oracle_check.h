// A CM-1 run in the oracle's terms (sim/cm1/oracle: the paper's view, sharing no code with the
// model): the RTL's receptions of one delivery cycle checked against what the paper promises.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/cm1/cm1_rtl.h"
#include "sim/cm1/oracle/cm1_oracle.h"

namespace cmnet {

inline cm1_oracle::DeliveryCycle cm1_oracle_cycle(const Traffic& t, const std::vector<Cm1Reception>& rx,
                                                  EjectMode mode, uint64_t petit_cycles) {
  cm1_oracle::DeliveryCycle d;
  d.ejection = mode == EjectMode::kOrCombine ? cm1_oracle::Ejection::kOrCombine : cm1_oracle::Ejection::kOnePerPetit;
  for (const Message& m : t.messages) d.sent.push_back({m.src, m.dst, m.vp, m.data});
  for (const Cm1Reception& r : rx) d.received.push_back({r.petit, r.dst, r.vp, r.data});
  d.petit_cycles = petit_cycles;
  return d;
}

inline std::string joined_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "  " + x + "\n";
  return s;
}

// Fails the test, listing each disagreement, unless the receptions are what the paper promises.
inline void expect_oracle_agrees(const Traffic& t, const std::vector<Cm1Reception>& rx, EjectMode mode,
                                 uint64_t petit_cycles, const std::string& what) {
  const auto v = cm1_oracle::disagreements(cm1_oracle_cycle(t, rx, mode, petit_cycles));
  EXPECT_TRUE(v.empty()) << what << ": the paper's view disagrees:\n" << joined_lines(v);
}

}  // namespace cmnet

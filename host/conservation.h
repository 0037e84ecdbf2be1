// Message conservation, checked the same way for every family: in every region the board
// reports (a chip, a subtree, the whole network), messages injected = delivered + in flight.
// A family turns its counters into regions; the host checks and reports them here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet {

struct RegionCount {
  std::string region;      // e.g. "network", "chip 3", "subtree 1.2"
  uint64_t injected = 0;   // messages that entered the region from its endpoints or links
  uint64_t delivered = 0;  // messages that left it (delivered to endpoints or sent on)
  uint64_t in_flight = 0;  // messages held inside it when the counters were read
};

struct ConservationCheck {
  bool ok = true;
  std::vector<std::string> violations;  // "chip 3: injected 10 != delivered 8 + in flight 1"
  // One line for a report: "OK (n regions)" or the first violation and how many there are.
  std::string summary() const;
};

ConservationCheck check_conservation(const std::vector<RegionCount>& regions);

}  // namespace cmnet

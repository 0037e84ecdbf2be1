#include "host/conservation.h"

namespace cmnet {

ConservationCheck check_conservation(const std::vector<RegionCount>& regions) {
  ConservationCheck c;
  for (const RegionCount& r : regions) {
    if (r.injected == r.delivered + r.in_flight) continue;
    c.ok = false;
    c.violations.push_back(r.region + ": injected " + std::to_string(r.injected) + " != delivered " +
                           std::to_string(r.delivered) + " + in flight " + std::to_string(r.in_flight));
  }
  if (regions.empty()) {
    c.ok = false;
    c.violations.push_back("no regions reported");
  }
  return c;
}

std::string ConservationCheck::summary() const {
  if (ok) return "OK";
  return "VIOLATED: " + violations.front() +
         (violations.size() > 1 ? " (and " + std::to_string(violations.size() - 1) + " more)" : "");
}

}  // namespace cmnet

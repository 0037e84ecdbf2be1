// The checks that fail a test with each disagreement of a CM-5 data network run with the
// functional oracle (the run in its terms: sim/cm5data/cm5data_oracle_view.h).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/cm5data/cm5data_oracle_view.h"

namespace cmnet {

// Fails the test, listing the disagreements, unless the run is what the paper promises.
inline void expect_cm5_oracle_agrees(const Cm5DataParams& p, const Cm5DataTraffic& t, const Cm5DataRunResult& r,
                                     bool all_fall_down, const std::string& what) {
  const auto v = cm5_oracle_disagreements(p, t, r, all_fall_down);
  EXPECT_TRUE(v.empty()) << what << ": the paper's view (cm5data oracle) disagrees:\n" << cm5_oracle_report(v);
}

// Fails the test, listing the disagreements, unless a run read through the interfaces is what
// the paper promises (cm5_oracle_untimed_disagreements).
inline void expect_cm5_oracle_agrees_untimed(const Cm5DataParams& p, const Cm5DataTraffic& t,
                                             const std::vector<Cm5UntimedDelivery>& got, const std::string& what) {
  const auto v = cm5_oracle_untimed_disagreements(p, t, got);
  EXPECT_TRUE(v.empty()) << what << ": the paper's view (cm5data oracle, untimed) disagrees:\n" << cm5_oracle_report(v);
}

}  // namespace cmnet

// The CM-5 control network's workloads and runs in the functional oracle's terms
// (sim/cm5ctl/oracle/cm5ctl_oracle.h): each partition's operations given to the oracle over the
// partition's subtree (a leaf not in use takes part as one that abstains from everything and
// its results are dropped), a multi-word addition (ADD / UADD, then ADDC / UADDC words) as one
// operation of several words, router-done with each leaf's final data network counter; the
// oracle's answers compared with a run's results, result by result. The tests use it on the
// model's and the RTL's runs; `cmnet run` and `cmnet sweep` on the board's (host/cm5ctl).
#pragma once

#include <string>
#include <vector>

#include "gen/cm5ctl/cm5ctl_params.h"
#include "sim/cm5ctl/cm5ctl_ops.h"
#include "sim/cm5ctl/oracle/cm5ctl_oracle.h"

namespace cmnet::cm5ctl_view {

// The oracle's options as the hardware chose them (gen/cm5ctl/README.md, "As built").
cm5ctl_oracle::Options as_built_oracle_options(const Cm5ctlParams& p);

// What every leaf should receive, by the oracle, in the results' form (cycles 0).
Cm5Expected oracle_expected(const Cm5ctlParams& p, const Cm5Workload& w);

// Every disagreement of a run's results (either engine's) with the oracle's, each naming the
// leaf, the operation and what was expected and got (at most 20, then a count); empty when
// they agree. A result with the error bit is compared by its flags only (the values of
// mixed-up operations are not defined).
std::vector<std::string> oracle_disagreements(const Cm5ctlParams& p, const Cm5Workload& w,
                                              const std::vector<Cm5Result>& results);
std::vector<std::string> oracle_disagreements(const Cm5ctlParams& p, const Cm5Workload& w, const Cm5Expected& got);

// A run with faults (link bits flipped, broadcasts colliding or dropped) against the oracle's
// fault-free answers: a result the hardware marks with the error bit is a fault reported and
// only counted; every unmarked combining result must be the oracle's for that operation, and a
// leaf's unmarked broadcasts must be the oracle's in its order (a dropped one may be missing).
// A run may stop early: results missing at the end are not disagreements. (A link error is a
// hard error that voids every result since: the callers check only runs without one.)
std::vector<std::string> oracle_disagreements_under_faults(const Cm5ctlParams& p, const Cm5Workload& w,
                                                            const std::vector<Cm5Result>& results);
std::vector<std::string> oracle_disagreements_under_faults(const Cm5ctlParams& p, const Cm5Workload& w,
                                                            const Cm5Expected& got);

// `got`'s results per leaf put in `want`'s order where only the order within a class is known
// (the stream board keeps each function's order, not the order between functions): each leaf's
// results taken class by class as `want`'s sequence names them, those left over after.
Cm5Expected in_order_of(const Cm5Expected& want, const Cm5Expected& got, int (*class_of)(const Cm5Result&));

// The list as one string, a line each ("" when empty): for EXPECT_EQ(..., "").
std::string joined(const std::vector<std::string>& lines);

}  // namespace cmnet::cm5ctl_view

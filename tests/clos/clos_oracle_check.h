// The clos tests' adapter to the functional oracle (sim/clos/oracle): a run's results (the RTL's,
// the model's) in the oracle's terms, and the list of disagreements, each naming the circuit or
// request and what was expected against what came. Empty: the run agrees with the paper.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/clos/clos_circuit_setup.h"
#include "sim/clos/clos_ctrl_rtl.h"
#include "sim/clos/clos_rtl.h"
#include "sim/clos/clos_tree_rtl.h"
#include "sim/clos/oracle/clos_oracle.h"
#include "sim/clos/oracle/clos_tree_oracle.h"

namespace cmnet::clos_test {

clos_oracle::Net oracle_net(const ClosParams& p);
// As built: one busy status per leaf, idle outputs read 0, READY at least 3 steps after the CSR.
clos_oracle::Options oracle_options();

// A set-up through the hnodes (either engine): each leaf's requests in order (a request is over
// when its ODCR is handled at h_o), the handled messages and READYs, the configuration writes.
std::vector<std::string> oracle_setup(const ClosParams& p, const std::vector<ClosLeafRequest>& requests,
                                      const std::vector<ClosLogged>& log, const std::vector<ClosCfgLogged>& writes);
std::vector<std::string> oracle_setup(const ClosParams& p, const ClosCircuitSetup& s);
inline std::vector<std::string> oracle_setup(const ClosParams& p, const std::vector<ClosLeafRequest>& requests,
                                             const ClosCtrlRtlRun& r) {
  return oracle_setup(p, requests, r.log, r.writes);
}

// A case of the switch's RTL run: its circuits (dest) routed through its settings, all at once.
// `offline`: the settings come from the off-line router (it may rearrange).
std::vector<std::string> oracle_case(const ClosParams& p, const ClosRtlCase& k, bool offline);
// The verbose cases' words: what each input sent, what every output read.
std::vector<std::string> oracle_words(const ClosParams& p, const std::vector<ClosRtlCase>& cases, const ClosRtlRun& run);

// `cmnet sim`'s circuit lines (either engine): the off-line router's middles, the words sent and
// where they arrived.
std::vector<std::string> oracle_sim_lines(const ClosParams& p, const std::vector<nlohmann::json>& lines);
// `cmnet run`'s run.json "circuits" on the board: each circuit's words as sent and as they arrived.
std::vector<std::string> oracle_board_circuits(const ClosParams& p, const nlohmann::json& circuits);

// The tree-shaped packet network's RTL run: every message where the paper's routing ends.
std::vector<std::string> oracle_tree(const ClosTreeLayout& l, const std::vector<ClosTreeMessage>& msgs,
                                     const std::vector<ClosTreeArrival>& arrivals);

// The first few disagreements, one a line, for a test's message.
std::string oracle_report(const std::vector<std::string>& v);

}  // namespace cmnet::clos_test

// A user's connection set (sim/clos/clos_circuit_file.h) set up through the hnodes, CONNECT's
// parallel set-up: every source leaf sends its CSR at once, holds its circuit WORDS cycles
// (rounds) after READY and releases it (ODCR). On the model (ClosProtocolModel driven in rounds:
// round r handles, in order, every message sent in round r - 1) or on the RTL (the hnodes'
// engines, clos_ctrl_top, each message they handle handed to the model in their order and what
// they send compared with the model's step: run_clos_ctrl_rtl). Per circuit: when it was set up
// and released, its middle switch, the CANCELs, blocked selections and RESENDs it met.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_config.h"
#include "sim/clos/clos_circuit_file.h"
#include "sim/clos/clos_ctrl_rtl.h"

namespace cmnet {

struct ClosCircuitOutcome {
  ClosCircuitRequest req;
  bool ready = false;                      // READY reached the source leaf
  uint64_t ready_at = 0, released_at = 0;  // READY; the DDCR handled at h_d (cycle or round)
  int middle = -1;                         // the middle switch of the circuit (its ACK's)
  uint64_t crs = 0;                        // CRs handled at h_d for it (1 + those sent again)
  uint64_t cancels = 0;                    // CANCELs (a race at the middle switch's RelayTable)
  uint64_t blocked = 0;                    // selections that found no free middle switch (RESEND "blocked")
  uint64_t resends = 0;                    // RESENDs after the CANCEL limit or a wait
};

struct ClosCircuitSetup {
  std::string engine;      // "model" (time in rounds) or "rtl" (time in clock cycles)
  std::vector<ClosCircuitOutcome> circuits;  // in the file's order
  uint64_t time = 0;       // rounds or cycles until the last circuit was released
  uint64_t handled = 0;    // messages the hnodes handled
  bool done = false;       // every circuit set up and released, the model idle, the RTL agreeing with it
  std::string error;       // otherwise why (the model's invariant, the RTL's first difference)
  std::vector<ClosLogged> log;        // every message handled and every READY, at its round or cycle
  std::vector<ClosCfgLogged> writes;  // every configuration write, at its round or cycle
};

// InputError without hnodes (hnode_dims 0).
ClosCircuitSetup setup_circuits_model(const ClosParams& p, const std::vector<ClosCircuitRequest>& c);
ClosCircuitSetup setup_circuits_rtl(const ClosConfig& cfg, const std::vector<ClosCircuitRequest>& c,
                                    const TraceWindow& trace = {});

// Each circuit's outcome from a log of handled messages and READYs (every message names its
// request by the originating leaf, the circuit's source).
std::vector<ClosCircuitOutcome> circuit_outcomes(const std::vector<ClosCircuitRequest>& c,
                                                 const std::vector<ClosLogged>& log);

}  // namespace cmnet

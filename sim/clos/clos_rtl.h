// Runs circuits over the emitted Clos network RTL (Verilator): for each case the configuration
// port loads the settings (only the entries that changed since the previous case), then random
// data words go in at every input port and every output is checked, bit-exact, against the
// circuits the case means (dest), not against the settings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_config.h"
#include "gen/clos/clos_router.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

struct ClosRtlCase {
  std::vector<int> dest;  // input i's data must arrive at output dest[i] (-1: nowhere)
  ClosSettings settings;  // what the configuration port loads
  uint64_t words = 4;     // data words per input port
  bool verbose = false;   // report every word (ClosRtlRun::rx, ClosRtlRun::outputs)
};

struct ClosRx {
  uint64_t case_no = 0, word = 0;
  int src = 0, dst = 0;
  uint64_t sent = 0, got = 0;
};

struct ClosOut {  // an output port's word in a verbose case, whether a circuit ends there or not
  uint64_t case_no = 0, word = 0;
  int port = 0;
  uint64_t got = 0;
};

struct ClosRtlRun {
  uint64_t cases = 0;       // cases the harness reported
  uint64_t words = 0;       // data words driven (per input port, summed over cases)
  uint64_t mismatches = 0;  // output words that differed from what the circuits mean
  uint64_t cfg_writes = 0;  // configuration writes issued
  std::vector<std::string> first_mismatches;  // "case word output got want"
  std::vector<ClosRx> rx;   // the verbose cases' words
  std::vector<ClosOut> outputs;  // the verbose cases' words at every output
};

// The data words the harness drives in case `case_no` of a run with `seed`, [word][input port]
// (it draws them itself with the same clos_next_data_word, sim/clos/clos_data_words.h, from
// seed * 1000003 + case_no, input ports in order). The model engine drives these, so both engines
// send the same words for the same seed.
std::vector<std::vector<uint64_t>> clos_case_words(const ClosParams& p, uint64_t seed, uint64_t case_no, uint64_t words);

// `trace`: an FST waveform of the run, its window in clock cycles from the first after reset.
ClosRtlRun run_clos_rtl(const ClosConfig& cfg, const std::vector<ClosRtlCase>& cases, uint64_t seed = 1,
                        double timeout_s = 600, const TraceWindow& trace = {});

}  // namespace cmnet

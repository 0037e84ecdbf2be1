// Runs traffic on the emitted CM-5 data network RTL (Verilator, sim/cm5data/cm5data_network_main.cpp)
// and returns what the model returns: per message the cycle it left its leaf and the cycle it
// arrived, the words received, every chip's counters.
#pragma once

#include "gen/cm5data/cm5data_config.h"
#include "sim/core/rtl_build.h"
#include "sim/cm5data/cm5data_model.h"

namespace cmnet {

struct Cm5DataRtlOptions {
  uint64_t max_cycles = 1000000;
  double timeout_s = 1200;
  std::vector<uint64_t> afd_at;  // as Cm5DataModelOptions::afd_at
  TraceWindow trace;             // an FST waveform of the run (cycles from the first of the run)
};

// Received messages are matched to the traffic by their words (the head word with U and the
// all-fall-down mark zeroed, the data words; not the CRC word, not the leaf: a falling message
// lands anywhere); a message corrupted on the way (fault injection) goes to the unmatched message
// it differs least from. Equal messages in flight together (the leaves cannot tell them apart)
// are told apart by a second run whose messages carry their traffic index as first data word;
// if that run's arrivals differ from the first's, the earliest sent candidate is taken and the
// delivery marked `ambiguous`. `seconds` is the harness's simulation time only.
Cm5DataRunResult run_cm5data_rtl(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const Cm5DataRtlOptions& opt = {});

// The words a message arrives with: its words with the head word's U field zeroed.
std::vector<uint32_t> cm5_expected_words(const Cm5DataParams& p, const Cm5DataMessage& m);

}  // namespace cmnet

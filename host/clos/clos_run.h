// `cmnet run` for the Clos family on the stream board (gen/clos/clos_emitter.h: clos_stream_spec):
// the host sets up a permutation of circuits (every leaf one unit: {destination, data words}),
// the hnodes' engines on the board set the circuits up in parallel, the data crosses the switch,
// the destinations deliver {source, data words}; the host reads the counters back and compares
// with the model: which leaf receives which words (bit-exact), one READY per circuit, nothing
// dropped, and the set-up model (ClosProtocolModel) establishing the same circuits.
#pragma once

#include <cstdint>
#include <cstdio>

#include "gen/clos/clos_config.h"
#include "host/stream_runner.h"

namespace cmnet {

struct ClosRunOptions {
  uint64_t seed = 1;
  int words = 4;  // data words per circuit (1..clos_stream_max_words())
};

StreamWorkload clos_permutation_workload(const ClosConfig& cfg, const ClosRunOptions& o);
StreamRunOutcome run_clos_stream(const ClosConfig& cfg, const ClosRunOptions& o, const StreamRunArgs& a,
                                 std::FILE* out = stdout);

}  // namespace cmnet

// `cmnet run` for the Clos family on the stream board (gen/clos/clos_emitter.h: clos_stream_spec):
// the host sets up a permutation of circuits (every leaf one unit: {destination, data words}), or
// a user's connection set (`--traffic FILE`, sim/clos/clos_circuit_file.h: every source leaf one
// unit, a leaf with no circuit sends nothing); the hnodes' engines on the board set the circuits
// up in parallel, the data crosses the switch, the destinations deliver {source, data words}; the
// host reads the counters back and compares with the model: which leaf receives which words (bit-exact), one READY per circuit, nothing
// dropped, and the set-up model (ClosProtocolModel) establishing the same circuits. The data words
// are drawn from --seed alike for both. The report's run.json "circuits" and circuits.csv give
// every circuit's words as sent and as they arrived.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gen/clos/clos_config.h"
#include "host/stream_runner.h"

namespace cmnet {

struct ClosRunOptions {
  uint64_t seed = 1;
  int words = 4;  // data words per circuit (1..clos_stream_max_words()); a file's default WORDS
  std::string traffic;  // a connection-set file instead of the permutation ("" = none)
};

StreamWorkload clos_permutation_workload(const ClosConfig& cfg, const ClosRunOptions& o);
// The file's circuits (InputError as the file's reader, FILE:LINE:, and for a circuit with more
// words than clos_stream_max_words(), FILE:LINE: naming the limit).
StreamWorkload clos_circuit_file_workload(const ClosConfig& cfg, const std::string& path, int default_words,
                                          uint64_t seed);
StreamRunOutcome run_clos_stream(const ClosConfig& cfg, const ClosRunOptions& o, const StreamRunArgs& a,
                                 std::FILE* out = stdout);

// `cmnet sweep` on the stream board. Offered load: circuits requested per leaf, k rounds of
// random permutations (no leaf to itself), each leaf's requests one after another as the leaf
// takes them (its next once its DDCR is handled). Accepted: circuits established per leaf (the
// board's READYs / N) beside the set-up model's for the same requests; a point agrees when the
// READY counts are equal, every circuit's words arrive bit-exact at its destination and no word
// is dropped. The board's own rate (circuits and data words per 1,000 cycles) is printed after
// the sweep and written to sweep_rate.csv (the model has no cycles to compare it with).
struct ClosSweepOptions {
  uint64_t seed = 1;
  int words = 2;                    // data words per circuit
  std::vector<int> circuits = {1, 2, 4};  // offered: circuits requested per leaf
};
StreamWorkload clos_rounds_workload(const ClosConfig& cfg, int rounds, int words, uint64_t seed);
bool run_clos_sweep(const ClosConfig& cfg, const ClosSweepOptions& o, const StreamRunArgs& a, std::FILE* out = stdout);

}  // namespace cmnet

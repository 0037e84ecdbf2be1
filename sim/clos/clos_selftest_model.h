// The Clos self-test's traffic and expectations (gen/clos/clos_selftest.h). A workload (rounds
// of random permutations from a seed, or a user's connection-set file) becomes each leaf's
// circuits with their data words (clos_data_words.h's generator from the seed, in leaf order);
// per output leaf the circuits, words and XOR of the data it must receive follow from it.
//
// The engines' counts and the cycle the last leaf finishes come from the engines' reference
// run (run_clos_ctrl_rtl): clos_ctrl_top in Verilator with its leaves played by the harness
// exactly as the board's leaves play them (think 1, hold = the circuit's words + 1: the board
// registers READY and DDCR), every message
// it handles handed to the set-up model (ClosProtocolModel), which must send exactly what the
// engines sent. The family has no cycle model of the engines (the model is message by message),
// so this run, checked message by message by the model, is the board's timing reference. It
// throws ConfigError when the model disagrees, a request is left unfinished or a WaitingQueue
// overflows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/clos/clos_selftest.h"
#include "sim/clos/clos_circuit_file.h"

namespace cmnet {

// `rounds` random permutations (each a derangement: no leaf to itself), each circuit `words`
// data words. ConfigError for rounds outside 1..kClosSelfTestMaxCircuits or more words than a
// leaf's ROM holds.
ClosSelfTest clos_selftest_rounds(const ClosConfig& cfg, uint64_t seed, int rounds, int words);
// A connection set (sim/clos/clos_circuit_file.h): each line's source leaf sends one circuit of
// its WORDS words, named `name` in the top's header. InputError for more than a leaf's ROM holds.
ClosSelfTest clos_selftest_of(const ClosConfig& cfg, const std::vector<ClosCircuitRequest>& c, const std::string& name,
                              uint64_t seed);

}  // namespace cmnet

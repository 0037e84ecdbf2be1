// A user's connection set for the Clos family, read from a text file (`cmnet sim --traffic F`):
// one circuit a line,
//
//   SRC DST [WORDS]
//
// SRC the input port (the originating leaf), DST the output port (the destination leaf), both
// 0..N-1 and different (a circuit joins two leaves); WORDS the data words it carries (0..4096,
// default --per-proc): on the switch, WORDS words cross it; in the hnodes' set-up the leaf holds
// its circuit WORDS cycles (RTL) or rounds (model) after READY, one word each, then releases it.
// A port is the source of one circuit at most and the destination of one at most. '#' starts a
// comment; blank lines are skipped. Errors: InputError "FILE:LINE: field K 'NAME' value V: why"
// (a field that is not a number: "FILE:LINE: field K 'TEXT': not a number").
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "gen/clos/clos_params.h"

namespace cmnet {

struct ClosCircuitRequest {
  int src = 0, dst = 0;
  int words = 0;
  int line = 0;  // in the file
};

constexpr int kClosMaxCircuitWords = 4096;

std::vector<ClosCircuitRequest> parse_clos_circuits(std::istream& in, const std::string& name, const ClosParams& p,
                                                    int default_words);
std::vector<ClosCircuitRequest> read_clos_circuit_file(const std::string& path, const ClosParams& p, int default_words);

// Input port -> output port of its circuit, -1 for a port that sends nothing (N entries).
std::vector<int> circuit_dests(const std::vector<ClosCircuitRequest>& c, const ClosParams& p);

}  // namespace cmnet

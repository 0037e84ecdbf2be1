// A routing pattern: the messages each processor sends, in the order it sends them.
// Read from a traffic file (one message per line: SRC DST DATA [VP]) or made by a named
// pattern generator. Processor numbers are global: chip * P + proc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_message.h"
#include "gen/cm1/cm1_params.h"

namespace cmnet {

// Parses a traffic file. Lines: "SRC DST DATA [VP]" (decimal SRC/DST/VP, hex DATA with or
// without 0x); '#' starts a comment; blank lines are ignored. Throws cmnet::InputError naming
// the file, line and field on anything malformed or out of range for `p`.
Traffic read_traffic_file(const std::string& path, const Cm1Params& p);
Traffic parse_traffic(const std::string& text, const std::string& name, const Cm1Params& p);
std::string format_traffic(const Traffic& t);
// Throws cmnet::InputError ("WHERE: message I: field 'DST' value 70000 out of range 0..4095")
// if any message does not fit `p` (processor numbers, DATA width, VP width).
void check_traffic(const Traffic& t, const Cm1Params& p, const std::string& where);

// Named patterns: "permutation" (random permutation), "many-to-one" (random destinations),
// "hot-spot" (a quarter of the sources to processor 0, the rest random), "bit-complement",
// "transpose", "identity". `per_proc` messages per processor (the VP ratio), random data.
std::vector<std::string> pattern_names();
Traffic make_pattern(const std::string& name, const Cm1Params& p, uint64_t seed, int per_proc = 1);

}  // namespace cmnet

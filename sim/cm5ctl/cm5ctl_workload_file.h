// A user's own CM-5 control network workload, read from a text file (`cmnet sim --traffic F`,
// `cmnet run --traffic F`): one operation a line, in the order every leaf pushes them.
//
//   reduce      COMB V0 V1 .. V(N-1)   a reduction; COMB or, xor, max, add, uadd, addc, uaddc
//   scan-fwd    COMB V0 .. V(N-1)      a forward (parallel prefix) scan; scan-bwd backward
//   segscan-fwd COMB V0 .. V(N-1)      a segmented scan (segscan-bwd backward): |V sets that
//                                      leaf's segment bit (a segment starts there)
//   barrier     B0 .. B(N-1)           a sync OR (barrier) of one bit, 0 or 1, from every leaf
//   broadcast   LEAF VALUE [KIND]      LEAF broadcasts VALUE; KIND user (default), supervisor,
//                                      interrupt, utility
//   global      CYCLE LEAF BITS        from CYCLE on LEAF's global inputs are BITS (0..7: bit 0
//                                      asynchronous OR 0, bit 1 OR 1 (privileged), bit 2 hard error)
//
// A value is decimal (negative: two's complement in W bits) or 0x hex, within -2^(W-1)..2^W - 1;
// `-` is a leaf that abstains. A multi-word addition is an add (uadd) line, least significant
// word first, then one addc (uaddc) line per further word, of the same operation with the same
// abstain and segment marks. Broadcasts all come from one leaf (the software's order of
// broadcasts is per source; two sources collide in the tree, which the paper makes an error).
// '#' starts a comment; blank lines are skipped. Errors: InputError "FILE:LINE: field K 'TEXT': why".
#pragma once

#include <istream>
#include <string>

#include "sim/cm5ctl/cm5ctl_ops.h"

namespace cmnet {

// `leaves` and `word_bits` are the config's (N and W); `name` names the file in messages.
Cm5Workload parse_cm5ctl_workload(std::istream& in, const std::string& name, int leaves, int word_bits);
Cm5Workload read_cm5ctl_workload(const std::string& path, int leaves, int word_bits);

}  // namespace cmnet

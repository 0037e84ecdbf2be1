// The CM-5 control network on the stream board (hw/common/STREAM_BOARD.md): `cm5ctl_stream`, the
// module with the stream port around cm5ctl_tree, its counters, and the unit format.
//
// A unit is one operation, two words (host -> leaf): word 0 {seg[8], segmented[7], comb[6:4],
// kind[3:2], abstain[1], broadcast[0]} (a broadcast with comb 7 is a flush), word 1 the data
// (W bits). A result is a unit of two words (leaf -> host): word 0 {abstained[8], err[7],
// ovf[6], comb[5:3], kind[2:1], broadcast[0]}, word 1 the data.
// Each leaf in use has a result FIFO of kResultDepth; the module injects an operation only when
// every leaf that will get its result (the leaf itself; for a broadcast, its whole partition)
// owes fewer results than that, so a result never finds its FIFO full (the tree cannot wait).
// Counters, per leaf i: leaf<i>.due (In: results this leaf is owed, one per operation it
// pushes, one per broadcast in its partition), leaf<i>.results (Out: delivered to the host),
// leaf<i>.pending (Held: owed, not delivered), leaf<i>.pushed (Other: units taken); a region per
// partition (and "not-in-use" for leaves outside every partition or mapped out: their units are
// taken and dropped).
#pragma once

#include <cstdint>
#include <vector>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/core/design.h"
#include "gen/core/stream_board.h"

namespace cmnet {

constexpr int kCm5ResultDepth = 16;

// The network (emit_cm5ctl) plus cm5ctl_stream.v; top cm5ctl_stream.
GeneratedDesign emit_cm5ctl_stream(const Cm5ctlConfig& cfg);
// The board spec: the stream design and the counter list.
StreamBoardSpec cm5ctl_stream_spec(const Cm5ctlConfig& cfg);

namespace cm5unit {
// Operation -> the unit's two words; result word 0 + data -> its fields (see above).
std::vector<uint32_t> encode_op(bool broadcast, bool abstain, uint8_t kind, uint8_t comb, bool segmented, bool seg,
                                uint32_t data);
struct Decoded {
  bool broadcast = false, ovf = false, err = false, abstained = false;
  uint8_t kind = 0, comb = 0;
  uint32_t data = 0;
};
Decoded decode_result(uint32_t word0, uint32_t word1);
}  // namespace cm5unit

}  // namespace cmnet

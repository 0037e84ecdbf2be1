// `cmnet run` / `cmnet sweep` for the hypercube network on the stream board
// (gen/hcube/hcube_stream.h): a traffic encoded into units (every message with its generation
// tick, tag and its packets' or worm's bytes, then the start unit), run through the shared host
// driver (host/stream_runner.h); the board's segments reassembled as the RTL harnesses do (by
// source and first-hop dimension) and every message (bytes, first and last tick), every port
// counter and the leaf counters compared with the reference model.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gen/hcube/hcube_stream.h"
#include "host/stream_runner.h"
#include "sim/hcube/hcube_model.h"

namespace cmnet {

// Throws InputError naming the message and node when a message does not fit a store slot (see
// hcube_stream.h), or the traffic has more messages than the tags number. Any number of messages
// streams through (the stores and receive FIFOs hold back the network, not the workload).
void hcube_board_check_fits(const HcubeParams& p, const HcubeTraffic& t);
// The message units of a traffic, in traffic order, with slot 0 in their tags.
std::vector<StreamUnit> hcube_units(const HcubeParams& p, const HcubeTraffic& t);
// A credit unit from the board (a slot free again).
bool hcube_credit(const StreamUnit& u);
// The host's pacing (StreamRunOptions::pull): the start, then each node's messages in order into
// slots the board reported free (the one needed soonest first: smallest generation tick), and
// each node's end once its messages have all gone.
std::function<int(const std::vector<StreamUnit>&, StreamUnit&)> hcube_pull(const HcubeParams& p,
                                                                             const HcubeTraffic& t);
// The board's deliveries as the destination reassembles them (ticks as the board counted them);
// A segment stream that does not parse counts as bad reassemblies. `keep`: every reassembled
// message also in received (the tests' oracle check).
HcubeRunResult hcube_board_result(const HcubeParams& p, const HcubeTraffic& t, const StreamRunResult& got,
                                  bool keep = false);

struct HcubeBoardCheck {
  std::vector<ReportRow> rows;
  bool agrees = false;
  uint64_t data_bytes = 0;   // data bytes of the messages delivered (board)
  uint64_t board_ticks = 0, model_ticks = 0;  // tick of the last arrival
};
HcubeBoardCheck hcube_check_board(const HcubeParams& p, const HcubeTraffic& t, const StreamRunResult& got);

StreamWorkload hcube_workload(const HcubeConfig& cfg, const HcubeTraffic& t, const std::string& name);
StreamRunOutcome run_hcube_board(const HcubeConfig& cfg, const HcubeTraffic& t, const std::string& name,
                                 const StreamRunArgs& a, std::FILE* out = stdout);

// `cmnet sweep`: the paper's workload (pattern, exponential lengths of mean `mean_len`,
// `per_node` messages per node) at mean generation gaps of 1,600 .. 50 ticks; offered load the
// messages generated per 1,000 ticks per node, accepted the data bytes delivered per tick per
// node until the last arrival (board's ticks against the model's). Every point is checked to fit
// before the board starts.
std::vector<double> hcube_sweep_gaps();
HcubeTraffic hcube_sweep_traffic(const HcubeParams& p, const std::string& pattern, uint64_t seed, double gap,
                                 int per_node, double mean_len);
bool run_hcube_sweep(const HcubeConfig& cfg, const std::string& pattern, uint64_t seed, int per_node,
                     const StreamRunArgs& a, std::FILE* out = stdout);

}  // namespace cmnet

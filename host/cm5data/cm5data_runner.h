// `cmnet run` for the CM-5 data network on the stream board (gen/cm5data/cm5data_stream.h): a
// traffic encoded into units (each message: the unit head word, the data words), run through
// the shared host driver (host/stream_runner.h), the deliveries and counters compared with the
// reference model, the shared run report written.
#pragma once

#include <string>

#include "gen/cm5data/cm5data_stream.h"
#include "host/stream_runner.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

// The units of a traffic, in traffic order (each leaf's in its order), after one control unit
// per leaf setting its tag mask when `masks` is not empty (masks[x] for leaf x).
std::vector<StreamUnit> cm5data_units(const Cm5DataParams& p, const Cm5DataTraffic& t,
                                      const std::vector<uint16_t>& masks = {});

// The workload: units, the expected count, and the comparison with the model (every message
// delivered once, on its side, at its destination, with the words the model of that side's
// network delivers; per leaf the accepted, delivered and interrupt counters against the traffic
// and the masks; nothing held).
StreamWorkload cm5data_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                const std::vector<uint16_t>& masks = {});

StreamRunOutcome run_cm5data_board(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                   const StreamRunArgs& a, std::FILE* out = stdout,
                                   const std::vector<uint16_t>& masks = {});

}  // namespace cmnet

// `cmnet run` for the CM-5 data network on the stream board (gen/cm5data/cm5data_stream.h): a
// traffic encoded into units (each message: the unit head word, the data words), run through
// the shared host driver (host/stream_runner.h), the deliveries and counters compared with the
// reference model, the shared run report written.
#pragma once

#include <string>

#include "gen/cm5data/cm5data_stream.h"
#include "host/cm5data/cm5data_ni_driver.h"
#include "sim/cm5data/cm5data_model.h"
#include "host/stream_runner.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

// The units of a traffic, in traffic order (each leaf's in its order), after one control unit
// per leaf setting its tag mask when `masks` is not empty (masks[x] for leaf x).
std::vector<StreamUnit> cm5data_units(const Cm5DataParams& p, const Cm5DataTraffic& t,
                                      const std::vector<uint16_t>& masks = {});

// `cmnet run --pattern`'s traffic: the pattern's messages as requests on the left network and a
// reply to each on the right (the paper's round trip: requests on one network, replies on the
// other), and the tag masks it sets (every tag at the odd leaves, none at the even ones).
Cm5DataTraffic cm5data_with_replies(const Cm5DataTraffic& requests);
std::vector<uint16_t> cm5data_run_masks(const Cm5DataParams& p);

// `cmnet sweep` on the stream board (host/stream_runner.h's run_stream_sweep): offered load is a
// rate, messages per cycle per leaf (`rates`; empty: cm5data_sweep_rates), set by the stream
// module's pacer (PACE): every leaf's messages of the point (the pattern, per_leaf each, left
// network) wait in its NI's send FIFO, and its k-th starts no earlier than the pacer's k-th
// token. Accepted throughput: messages delivered per cycle per leaf, to the last message whole
// at its receiver (the board's network.last_arrival counter, counted from the pacer's start;
// the model's run of the same traffic with each message's inject cycle the pacer's). A point
// agrees when every message comes back as the model delivers it and the leaf counters are right.
// per_leaf is capped by the NIs' send FIFOs (cm5data_sweep_per_leaf).
int cm5data_sweep_per_leaf(const Cm5DataParams& p, int max_per_leaf);
std::vector<double> cm5data_sweep_rates(const Cm5DataParams& p);
uint32_t cm5_pace_rate(double messages_per_cycle);  // the PACE rate field (InputError out of range)
double cm5_pace_rate_value(uint32_t rate);
Cm5DataTraffic cm5data_sweep_traffic(const Cm5DataParams& p, const std::string& pattern, uint64_t seed, int per_leaf,
                                     uint32_t rate);
StreamWorkload cm5data_sweep_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, uint32_t rate,
                                      const std::string& name);
bool run_cm5data_sweep(const Cm5DataConfig& cfg, const std::string& pattern, uint64_t seed, int max_per_leaf,
                       const StreamRunArgs& a, std::FILE* out = stdout, std::vector<double> rates = {});

// The board's run of traffic `t` against the models of its two networks: the rows of the report
// (every message delivered once, on its side, at its destination, with the words the model of
// that side's network delivers; per leaf the accepted, delivered and interrupt counters against
// the traffic and the masks; nothing held), whether they all agree, and the flits delivered on
// the board and in the models with the models' cycles (for accepted throughput).
struct Cm5BoardCheck {
  std::vector<ReportRow> rows;
  bool agrees = false;
  uint64_t board_flits = 0, model_flits = 0, model_cycles = 0;
  // The cycles to the last message whole at its receiver: the board's counter, the models'.
  uint64_t board_last_arrival = 0, model_last_arrival = 0;
  std::vector<Cm5DataChipCounters> model_chips[2];
  // Per (leaf, side), index leaf * 2 + side: the NI counters the models' runs give.
  std::vector<Cm5NiCounterSet> model_ni;
  size_t ni_counters_checked = 0;
};
// Adds the rows comparing the NIs' counters (read after the run, minus `before`) with c.model_ni.
void cm5data_check_ni_counters(Cm5BoardCheck& c, const std::vector<Cm5NiCounterSet>& after,
                               const std::vector<Cm5NiCounterSet>& before);
Cm5BoardCheck cm5data_check_board(const Cm5DataParams& p, const Cm5DataTraffic& t, const std::vector<uint16_t>& masks,
                                  const StreamRunResult& got);

// The workload: units, the expected count, and the comparison with the model (every message
// delivered once, on its side, at its destination, with the words the model of that side's
// network delivers; per leaf the accepted, delivered and interrupt counters against the traffic
// and the masks; nothing held).
// With `ni`, the comparison also reads every NI's counters through it and checks what the run
// added to `ni_before` against the model's.
StreamWorkload cm5data_workload(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                const std::vector<uint16_t>& masks = {}, Cm5NiDriver* ni = nullptr,
                                const std::vector<Cm5NiCounterSet>& ni_before = {});

StreamRunOutcome run_cm5data_board(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const std::string& name,
                                   const StreamRunArgs& a, std::FILE* out = stdout,
                                   const std::vector<uint16_t>& masks = {});

}  // namespace cmnet

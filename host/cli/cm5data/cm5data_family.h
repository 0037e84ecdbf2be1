// The CM-5 data network family (Leiserson et al. 1992, section 3): the fat-tree router chip and
// whole fat trees of it. Cm5DataFamily implements the family interface with the cm5data
// generator (gen/cm5data), reference model and RTL runner (sim/cm5data).
#pragma once

#include <string>

#include "host/cli/family.h"
#include "host/cli/sim_lines.h"
#include "gen/cm5data/cm5data_config.h"
#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

class Cm5DataFamily final : public Family {
 public:
  std::string name() const override { return "cm5data"; }
  CMNET_FAMILY_MEMBERS
  std::vector<std::string> bench_sections() const override { return {"paper-slots", "paper-16384", "saturation", "request-stage", "cabled"}; }
  void add_commands(CLI::App& app) const override;
};

void add_cabled_command(CLI::App& app);  // cm5data_cabled_cmd.cpp
// The split over boards' run time against the cable's bit time and delay (bench section "cabled").
nlohmann::ordered_json cm5data_cabled_figures(bool quick);  // cm5data_cabled_bench.cpp


// Message i's line in `cmnet sim` (host/cli/sim_lines.h): sent from its leaf when its first flit
// was on the leaf link, arrived when the last was on the destination's, with the data words it
// arrived with; ambiguous when the RTL engine could not tell it from an equal message.
SimRecord cm5data_sim_record(size_t i, const Cm5DataMessage& m, const Cm5DataDelivery& d);

int cm5data_bench(const BenchArgs& a);  // cm5data_bench.cpp
// The CM-5's router chip (W = 4, 2-word input buffers, 5-word messages, 4 children) with
// `parents` parents and `slots` message slots per input (0: FIFO inputs), and its network
// interface (64 leaves), as modules placed alone on the iCE40 (cmnet bench, bench-fpga).
PlaceableModule cm5data_router_placeable(int parents, int slots, int request_stage = 0);  // cm5data_bench.cpp
PlaceableModule cm5data_ni_placeable();                            // cm5data_bench.cpp

}  // namespace cmnet

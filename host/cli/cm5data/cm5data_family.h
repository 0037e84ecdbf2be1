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
  std::string title() const override;
  std::vector<std::string> patterns() const override;
  std::vector<std::string> build_modes() const override;
  std::vector<std::string> figures() const override;
  void check(const NetworkConfig& cfg) const override;
  std::string canonical_json(const NetworkConfig& cfg) const override;
  GeneratedDesign emit(const NetworkConfig& cfg) const override;
  std::string summary(const NetworkConfig& cfg) const override;
  GeneratedDesign board_top(const NetworkConfig& cfg, const Board& board,
                            const BuildArgs& args) const override;
  int sim(const NetworkConfig& cfg, const SimArgs& args) const override;
  int run(const NetworkConfig& cfg, const RunArgs& args) const override;
  std::unique_ptr<SimBoard> start_board(const NetworkConfig& cfg, const BoardArgs& args) const override;
  int sweep(const NetworkConfig& cfg, const SweepArgs& args) const override;
  int bench(const BenchArgs& args) const override;
  std::vector<std::string> bench_sections() const override { return {"paper-slots", "saturation"}; }
};


// Message i's line in `cmnet sim` (host/cli/sim_lines.h): sent from its leaf when its first flit
// was on the leaf link, arrived when the last was on the destination's, with the data words it
// arrived with; ambiguous when the RTL engine could not tell it from an equal message.
SimRecord cm5data_sim_record(size_t i, const Cm5DataMessage& m, const Cm5DataDelivery& d);

int cm5data_bench(const BenchArgs& a);  // cm5data_bench.cpp

}  // namespace cmnet

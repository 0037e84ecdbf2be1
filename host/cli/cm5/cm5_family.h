// The CM-5 machine family: the data network (cm5data) and the control network (cm5ctl) over the
// same leaves, router-done fed by the data network's interface counters (gen/cm5/README.md).
// `cmnet gen` and `cmnet sim` (both engines); no board, run, sweep or bench of its own (each
// network's family has them).
#pragma once

#include <string>

#include "host/cli/family.h"
#include "gen/cm5/cm5_config.h"

namespace cmnet {

class Cm5Family final : public Family {
 public:
  std::string name() const override { return "cm5"; }
  std::string title() const override;
  std::vector<std::string> patterns() const override;
  // No board of its own: "none" names that (board_top refuses it, pointing at the two families).
  std::vector<std::string> build_modes() const override { return {"none"}; }
  std::vector<std::string> figures() const override;
  void check(const NetworkConfig& cfg) const override;
  std::string canonical_json(const NetworkConfig& cfg) const override;
  GeneratedDesign emit(const NetworkConfig& cfg) const override;
  std::string summary(const NetworkConfig& cfg) const override;
  GeneratedDesign board_top(const NetworkConfig& cfg, const Board& board, const BuildArgs& args) const override;
  int sim(const NetworkConfig& cfg, const SimArgs& args) const override;
  int run(const NetworkConfig& cfg, const RunArgs& args) const override;
  std::unique_ptr<SimBoard> start_board(const NetworkConfig& cfg, const BoardArgs& args) const override;
  int sweep(const NetworkConfig& cfg, const SweepArgs& args) const override;
  int bench(const BenchArgs& args) const override;
};

}  // namespace cmnet

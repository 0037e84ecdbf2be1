// The Clos family (CONNECT, Li and Rishe 1991): the three-stage Clos circuit network N(m, n, r),
// its off-line router and the reference model of its parallel circuit set-up. ClosFamily
// implements the family interface; the functions below are its commands.
#pragma once

#include <string>

#include "gen/clos/clos_config.h"
#include "host/cli/family.h"

namespace cmnet {

class ClosFamily final : public Family {
 public:
  std::string name() const override { return "clos"; }
  std::string title() const override;
  std::vector<std::string> patterns() const override;
  std::vector<std::string> build_modes() const override;
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

// `cmnet sim` (clos_sim.cpp): route the pattern (off-line router when m >= n, first fit
// otherwise), load the settings, send per_proc words over every circuit; JSON lines out.
int clos_sim(const ClosConfig& cfg, const SimArgs& a);
// `cmnet bench` (clos_bench.cpp).
int clos_bench(const BenchArgs& a);

}  // namespace cmnet

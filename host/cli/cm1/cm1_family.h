// The CM-1 family (Kahle, Kuszmaul, Hillis 1989): the message router chip and hypercube networks
// of it. Cm1Family implements the family interface by calling the CM-1 generator, model,
// harnesses and board driver; the functions below are its commands.
#pragma once

#include <string>

#include "host/cli/family.h"
#include "gen/cm1/cm1_board_emitter.h"
#include "gen/cm1/cm1_config.h"

namespace cmnet {

class Cm1Family final : public Family {
 public:
  std::string name() const override { return "cm1"; }
  CMNET_FAMILY_MEMBERS
  std::vector<std::string> bench_sections() const override { return {"figure12", "boards"}; }
  void add_commands(CLI::App& app) const override;
};

// The commands (one file each in host/cli/cm1/).
int cm1_sim(const Cm1Config& cfg, const SimArgs& a);                        // cm1_sim.cpp
int cm1_run(const Cm1Config& cfg, const RunArgs& a);                        // cm1_run.cpp
int cm1_sweep(const Cm1Config& cfg, const SweepArgs& a);                    // cm1_run.cpp
int cm1_bench(const BenchArgs& a);                                          // cm1_bench.cpp
int run_demo(const std::string& config_path, const std::string& out_dir,    // cm1_demo.cpp
             const std::string& pattern, uint64_t seed);
void add_demo_command(CLI::App& app);                                       // cm1_demo.cpp
void add_cube_command(CLI::App& app);                                       // cm1_cube.cpp
// `cmnet bench --only boards`: sizes and Fmax per board, the largest network per board.
int cm1_boards_bench(const BenchArgs& a);                                   // cm1_fpga_bench.cpp
// The chip top (`--mode chip`) of `cfg` through the flow on `b` at o's seeds (cm1_fpga_bench.cpp).
FpgaMeasurement cm1_chip_top_on(const Cm1Config& cfg, const Board& b, const FpgaRunOptions& o);
// The self-test tops' reset, LED and blink options from a board file (cm1_fpga_bench.cpp).
BoardTopOptions top_options(const Board& b);
// The board top of `a.mode` ("" = network) for `b` (cm1_family.cpp).
GeneratedDesign cm1_board_top(const Cm1Config& cfg, const Board& b, const BuildArgs& a);

}  // namespace cmnet

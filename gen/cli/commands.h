// Pieces of the cmnet command line shared between its subcommands.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "gen/cm1/cm1_config.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_rtl.h"

namespace cmnet {

struct SimOutcome {
  std::vector<Cm1Delivery> deliveries;
  std::vector<Cm1Reception> receptions;
  std::vector<Cm1ChipCounters> chips;
  uint64_t petit_cycles = 0;
  uint64_t bit_times = 0;
  bool completed = false;
  double seconds = 0;
};

SimOutcome simulate(const Cm1Config& cfg, const Traffic& traffic, EjectMode mode,
                    const std::string& engine, uint64_t max_petit);
void write_jsonl(const std::string& path, const Cm1Config& cfg, const Traffic& traffic,
                 const SimOutcome& o, const std::string& engine, EjectMode mode);

// A subcommand registered with CLI11's callback() ends by throwing this with its exit code.
struct CommandExit {
  int code;
};

// `demo` (the README's main job) and `bench`, in their own files.
void register_extra_commands(CLI::App& app);
void register_bench_command(CLI::App& app);
void register_run_command(CLI::App& app);
// `build`, `flash`, `bench-fpga` (the FPGA flow), in build_cmd.cpp.
void register_build_commands(CLI::App& app);
// `cube` (the multi-board top simulated as 2^c boards), in cube_cmd.cpp.
void register_cube_command(CLI::App& app);
int run_extra_commands(CLI::App& app);

}  // namespace cmnet

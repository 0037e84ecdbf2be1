// Pieces of the cmnet command line shared between its subcommands.
#pragma once

#include <CLI/CLI.hpp>

namespace cmnet {

// A subcommand registered with CLI11's callback() ends by throwing this with its exit code.
struct CommandExit {
  int code;
};

// `build` and `flash` (the FPGA flow, network-neutral), in build_cmd.cpp.
void register_build_commands(CLI::App& app);
// `board`: a family's simulated board serving alone, in board_cmd.cpp.
void register_board_command(CLI::App& app);

}  // namespace cmnet

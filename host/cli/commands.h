// Pieces of the cmnet command line shared between its subcommands.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace cmnet {

// A subcommand registered with CLI11's callback() ends by throwing this with its exit code.
struct CommandExit {
  int code;
};

// A command's `--json FILE`: writes `j` there and says so (nothing when `path` is empty);
// InputError when the file cannot be written.
void write_json_option(const std::string& path, const nlohmann::ordered_json& j);

// `build` and `flash` (the FPGA flow, network-neutral), in build_cmd.cpp.
void register_build_commands(CLI::App& app);
// `board`: a family's simulated board serving alone, in board_cmd.cpp.
void register_board_command(CLI::App& app);

}  // namespace cmnet

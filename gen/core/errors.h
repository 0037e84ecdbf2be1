// The error types every cmnet entry point throws for bad input. Messages name what and where.
#pragma once

#include <stdexcept>
#include <string>

namespace cmnet {

// A parameter or config value out of range, or a malformed config file.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A malformed traffic file or other user input file.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace cmnet

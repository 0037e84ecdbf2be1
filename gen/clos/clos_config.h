// A Clos network config: the shared envelope (gen/core/config.h) with its "clos" object parsed
// into ClosParams. {"network": "clos", "name": "...", "clos": {"m": 3, "n": 2, "r": 4,
// "width": 8, "hnode_dims": 1, "cancel_limit": 3}}
#pragma once

#include <string>

#include "gen/clos/clos_params.h"
#include "gen/core/config.h"

namespace cmnet {

struct ClosConfig {
  std::string name = "clos";
  ClosParams clos;
};

// Parses and validates the envelope's "clos" object; ConfigError names the file and the field.
ClosConfig clos_config(const NetworkConfig& env);
ClosConfig parse_clos_config(const std::string& text, const std::string& where);
// The canonical JSON (every default filled in; what `cmnet gen` writes as config.json).
std::string config_to_json(const ClosConfig& cfg);

}  // namespace cmnet

// A CM-1 network config: the shared envelope (gen/core/config.h) with its "cm1" object parsed
// into Cm1Params. {"network": "cm1", "name": "...", "cm1": {"cube_dims": 4, "rows": 7,
// "procs_per_chip": 16, "vp_bits": 0, "data_bits": 8, "eject_mode": "or"|"one", "queue_depth": 4}}
#pragma once

#include <string>

#include "gen/cm1/cm1_params.h"
#include "gen/core/config.h"

namespace cmnet {

struct Cm1Config {
  std::string name = "cm1";
  Cm1Params cm1;
};

// Parses and validates the envelope's "cm1" object; ConfigError names the file and the field.
Cm1Config cm1_config(const NetworkConfig& env);
Cm1Config parse_cm1_config(const std::string& text, const std::string& where);
Cm1Config load_cm1_config(const std::string& path);
// The canonical JSON (what `cmnet gen` writes as config.json).
std::string config_to_json(const Cm1Config& cfg);

}  // namespace cmnet

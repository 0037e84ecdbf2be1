// A CM-5 data network config: the shared envelope (gen/core/config.h) with its "cm5data" object
// parsed into Cm5DataParams. {"network": "cm5data", "name": "...", "cm5data": {"height": 2,
// "parents": "cm5" | "full" | [2, 4, ...], "link_bits": 4, "max_words": 5, "buffer_words": 2,
// "seed": 1}}
#pragma once

#include <string>

#include "gen/cm5data/cm5data_params.h"
#include "gen/core/config.h"

namespace cmnet {

struct Cm5DataConfig {
  std::string name = "cm5data";
  Cm5DataParams cm5;
};

// Parses and validates the envelope's "cm5data" object; ConfigError names the file and the field.
Cm5DataConfig cm5data_config(const NetworkConfig& env);
Cm5DataConfig parse_cm5data_config(const std::string& text, const std::string& where);
// The canonical JSON, every default filled in.
std::string config_to_json(const Cm5DataConfig& cfg);

}  // namespace cmnet

// A hypercube config: the shared envelope (gen/core/config.h) with its "hcube" object parsed
// into HcubeParams. {"network": "hcube", "name": "...", "hcube": {"dims": 3, "scheme": "packet" |
// "wormhole", "routing": "fixed" | "quasi", "packet_bytes": 20, "buffers": 16,
// "ticks_per_byte": 2, "arb_ticks": 4, "seed": 1}}
#pragma once

#include <string>

#include "gen/core/config.h"
#include "gen/hcube/hcube_params.h"

namespace cmnet {

struct HcubeConfig {
  std::string name = "hcube";
  HcubeParams hc;
};

// Parses and validates the envelope's "hcube" object; ConfigError names the file and the field.
HcubeConfig hcube_config(const NetworkConfig& env);
HcubeConfig parse_hcube_config(const std::string& text, const std::string& where);
// The canonical JSON, every default filled in.
std::string config_to_json(const HcubeConfig& cfg);

}  // namespace cmnet

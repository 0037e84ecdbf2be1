// Network descriptions read from a JSON config file and validated with errors that name the
// file, the field, the value and the allowed range.
#pragma once

#include <string>

#include "gen/cm1_params.h"

namespace cmnet {

enum class NetworkKind { kCm1 };

struct NetworkConfig {
  NetworkKind kind = NetworkKind::kCm1;
  std::string name = "cm1";
  Cm1Params cm1;
};

// {"network": "cm1", "name": "...", "cm1": {"cube_dims": 4, "rows": 7, "procs_per_chip": 16,
//  "vp_bits": 0, "data_bits": 8, "eject_mode": "or"|"one", "queue_depth": 4}}
NetworkConfig load_config_file(const std::string& path);
NetworkConfig parse_config(const std::string& text, const std::string& where);
std::string config_to_json(const NetworkConfig& cfg);

}  // namespace cmnet

// A CM-5 control network config: the shared envelope (gen/core/config.h) with its "cm5ctl"
// object parsed into Cm5ctlParams. {"network": "cm5ctl", "name": "...", "cm5ctl": {"leaves": 16,
// "word_bits": 32, "up_width": 6, "down_width": 5, "queue_depth": 0, "aside_depth": 0,
// "leaf_fifo_depth": 4, "broadcast_window": 4, "root_queue_depth": 2, "crc_bits": 0, "partitions": [1], "mapped_out": [],
// "chip_nodes": 1}} (0 = derived).
#pragma once

#include <string>

#include "gen/cm5ctl/cm5ctl_params.h"
#include "gen/core/config.h"

namespace cmnet {

struct Cm5ctlConfig {
  std::string name = "cm5ctl";
  Cm5ctlParams p;
};

// Parses and validates the envelope's "cm5ctl" object; ConfigError names the file and the field.
Cm5ctlConfig cm5ctl_config(const NetworkConfig& env);
Cm5ctlConfig parse_cm5ctl_config(const std::string& text, const std::string& where);
// The canonical JSON (what `cmnet gen` writes as config.json).
std::string config_to_json(const Cm5ctlConfig& cfg);

}  // namespace cmnet

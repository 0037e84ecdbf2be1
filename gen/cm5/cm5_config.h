// A CM-5 machine config: a data network (cm5data) and a control network (cm5ctl) over the same
// N leaves, router-done fed by the data network's interface counters. The shared envelope
// (gen/core/config.h) with its "cm5" object holding the two families' own objects:
// {"network": "cm5", "name": "...", "cm5": {"leaves": 16, "cm5data": {...}, "cm5ctl": {...}}}.
// "leaves" is optional; cm5ctl.leaves defaults to the data network's 4^height. Leaves that do not
// agree are refused naming the field.
#pragma once

#include <string>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/cm5data/cm5data_config.h"
#include "gen/core/config.h"

namespace cmnet {

struct Cm5MachineConfig {
  std::string name = "cm5";
  Cm5DataConfig data;
  Cm5ctlConfig ctl;
  int leaves() const { return ctl.p.leaves; }
};

Cm5MachineConfig cm5_machine_config(const NetworkConfig& env);
Cm5MachineConfig parse_cm5_machine_config(const std::string& text, const std::string& where);
// The canonical JSON, both sections with every default filled in.
std::string config_to_json(const Cm5MachineConfig& cfg);

}  // namespace cmnet

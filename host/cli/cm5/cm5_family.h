// The CM-5 machine family: the data network (cm5data) and the control network (cm5ctl) over the
// same leaves, router-done fed by the data network's interface counters (gen/cm5/README.md).
// `cmnet gen` and `cmnet sim` (both engines); no board, run, sweep or bench of its own (each
// network's family has them).
#pragma once

#include <string>

#include "host/cli/family.h"
#include "gen/cm5/cm5_config.h"

namespace cmnet {

class Cm5Family final : public Family {
 public:
  std::string name() const override { return "cm5"; }
  CMNET_FAMILY_MEMBERS
};

}  // namespace cmnet

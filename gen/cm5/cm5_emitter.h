// Emits the CM-5 machine: the data network (cm5data_network on the left, cm5data_network_r on
// the right, a cm5data_ni per leaf and side) and the control network (cm5ctl_tree) over the
// same N leaves, and the top cm5_machine that wires each leaf's interface counter (messages its
// two NIs accepted for the data network minus messages whole in their receive FIFOs) into the
// control network leaf's router-done input rd_count. Test hooks per leaf: lose_next /
// dup_next arm the leaf's counter so that the next message whole at its interface is not
// counted (a message the network lost) or counted twice (one it duplicated).
#pragma once

#include <string>

#include "gen/cm5/cm5_config.h"
#include "gen/core/design.h"

namespace cmnet {

// Every file: both families' modules, cm5_machine.v, filelist.f, manifest.json, config.json.
GeneratedDesign emit_cm5_machine(const Cm5MachineConfig& cfg);
std::string cm5_machine_manifest_json(const Cm5MachineConfig& cfg);

}  // namespace cmnet

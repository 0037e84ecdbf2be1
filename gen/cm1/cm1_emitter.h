// Emits the Verilog of a CM-1 network from its description: the router chip (injector, c
// heart columns, ejector, buffers, counters, built from the primitives in hw/), the network
// top (2^c routers wired as a hypercube, with processor endpoints), a filelist and a JSON
// manifest with the parameters, the derived figures and the counter map.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gen/cm1/cm1_config.h"
#include "gen/core/design.h"
#include "gen/cm1/cm1_params.h"

namespace cmnet {

// The per-chip counters, in the order of their cnt_sel index (gen/cm1/cm1_counter_list.h).
std::vector<std::string> cm1_counter_names(const Cm1Params& p);

// Widths shared by the emitter and every harness that drives the network top.
struct Cm1Widths {
  int phase = 0;      // PW: phase counter width
  int sel = 0;        // counter select width
  int proc_field = 0; // PAW: PROC-ADDRESS field width in the load port (>= 1)
  int vp_field = 0;   // VW: VP field width in the load port (>= 1)
  int rx_word = 0;    // V + D
  int queue_log2 = 0; // QW
  int gproc = 0;      // width of a global processor number
  int fault_dim = 0;  // width of the network top's fault_dim port
};
Cm1Widths cm1_widths(const Cm1Params& p);

GeneratedDesign emit_cm1(const Cm1Config& cfg);
std::string cm1_manifest_json(const Cm1Config& cfg);
}  // namespace cmnet

// Runs traffic on the emitted hypercube network RTL (Verilator: sim/hcube/hcube_network_main.cpp
// for the packet scheme, sim/hcube/hcube_worm_main.cpp for the wormhole routers)
// and returns what the model returns: per message the ticks its first packet and its last byte
// arrived (reassembled from the ejected bytes), every port's counters.
#pragma once

#include "gen/hcube/hcube_config.h"
#include "sim/core/rtl_build.h"
#include "sim/hcube/hcube_model.h"

namespace cmnet {

struct HcubeRtlOptions {
  uint64_t max_cycles = 10000000;
  double timeout_s = 1200;
  bool keep_received = false;
  TraceWindow trace;  // an FST waveform of the run (ticks from the first after reset)
};

HcubeRunResult run_hcube_rtl(const HcubeConfig& cfg, const HcubeTraffic& t, const HcubeRtlOptions& opt = {});

// The bytes of packet k of message m as a source sends it: destination and source (LE), the
// first packet then length (LE, 4 bytes) and type (LE, 2 bytes), then data. The source field's
// top 4 bits (the first-hop dimension) are left 0: the chip writes them.
std::vector<uint8_t> hcube_packet_bytes(const HcubeParams& p, const HcubeMessage& m, uint64_t k);
// The wormhole routers' tags: each message's age rank (generation tick, then traffic order: the
// model's priority); runtime_error beyond the routers' 16-bit tags.
std::vector<uint32_t> hcube_worm_tags(const HcubeParams& p, const HcubeTraffic& t);
// The bytes of message m as a worm: the first packet's 10 header bytes, then all its data.
std::vector<uint8_t> hcube_worm_bytes(const HcubeParams& p, const HcubeMessage& m);

}  // namespace cmnet

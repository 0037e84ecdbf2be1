// Emits the Verilog of a CM-5 data network: the router chip (one module per parent count used,
// cm5data_router_p2 / _p4 / _p0 for the top level, on the input buffer primitive
// hw/cm5data/cm5data_fifo.v), the whole fat tree of N leaves (cm5data_network: every chip an
// explicit, named instance, every link an explicit assignment, the leaf links as ports), a
// filelist and a JSON manifest with the parameters, the derived figures and the counter map.
#pragma once

#include <string>
#include <vector>

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/design.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

// Widths of the router's and the network's ports, shared with the harnesses.
struct Cm5DataWidths {
  int port = 0;     // PW: bits of a port index (4 + P ports)
  int credit = 0;   // bits of a credit counter (0..buffer flits)
  int count = 0;    // bits of a FIFO count
  int remain = 0;   // bits of a flit counter of one message (up to 9 words)
  int sel = 0;      // counter select of a router
  int chip = 0;     // chip select of the network top
};
Cm5DataWidths cm5_widths(const Cm5DataParams& p, int parents);

// Counter names of a router with `parents` parent ports, in cnt_sel order: in_c0..in_c3,
// in_p0.., out_c0..out_c3, out_p0.. (messages whose head crossed that port).
std::vector<std::string> cm5_counter_names(int parents);

// The router module alone (for synthesis of one chip): module cm5data_router_p<P>.
GeneratedDesign emit_cm5data_router(const Cm5DataParams& p, int parents);
// One chip of the network (`chip`: its global index) with its straps tied as the network ties
// them, top cm5data_chip (the chip as an FPGA build of the network has it: for size and Fmax).
GeneratedDesign emit_cm5data_chip(const Cm5DataParams& p, uint32_t chip);
// The whole network (routers, cm5data_network top, filelist, manifest, config).
GeneratedDesign emit_cm5data(const Cm5DataConfig& cfg);
std::string cm5data_manifest_json(const Cm5DataConfig& cfg);
// The network top alone under another module name (the stream board's right network: the
// same routers, its own seeds).
std::string emit_cm5data_network_module(const Cm5DataParams& p, const std::string& module);

// The Verilog functions the modules that make or check messages share: crc32w(c, d), the CRC-32
// (0x04C11DB7, MSB first) of one more word; with `with_climb`, climb(s, d), the levels a message
// from leaf s climbs above its first chip to reach leaf d (leaf numbers of 2 x height bits).
void emit_cm5data_functions(VerilogWriter& v, int height, bool with_climb);

// The largest height the whole-network Verilog is emitted for (1,024 leaves).
constexpr int kCm5MaxEmitHeight = 5;

}  // namespace cmnet

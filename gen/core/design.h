// A generated design (file name -> contents, and its top), written to and read back from a
// directory, and the hand-written primitives of hw/ it is assembled from. Network-neutral:
// every family's emitters produce one of these, and the flow, the harnesses and the host take it.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gen/core/text_file.h"

namespace cmnet {

struct GeneratedDesign {
  std::string top;                                         // top module name
  std::vector<std::pair<std::string, std::string>> files;  // file name -> contents
  std::vector<std::string> verilog_files() const;          // file names in compile order
  std::vector<std::pair<std::string, std::string>> verilog_sources() const;  // those files, with their text
};

// Writes every file into `dir` (created if needed). Returns the paths written.
std::vector<std::string> write_design(const GeneratedDesign& d, const std::string& dir);
// The Verilog files a directory's filelist.f names, in its order (what write_design wrote).
GeneratedDesign read_design(const std::string& dir, const std::string& top);
// One Verilog file name per line, in compile order: the design's filelist.f.
std::string filelist(const GeneratedDesign& d);

// A FuseSoC core description (CAPI=2) of the design's Verilog, so the emitted IP drops into a
// FuseSoC/Edalize flow: VLNV cmnet:<library>:<name>:<version> (name sanitized to [A-Za-z0-9_.-]),
// one fileset in compile order, a default target with the design's top and a Verilator lint target.
std::string fusesoc_core(const GeneratedDesign& d, const std::string& library, const std::string& name,
                         const std::string& version, const std::string& description);

// Directory holding the hand-written primitives (CMNET_HW_DIR, else the source tree's hw/). The
// primitives sit in one folder per family plus common/; a design names them by file name only.
std::string hw_dir();
// The path of primitive `name` (e.g. "cm1_injector.v") in hw_dir()'s folders; ConfigError when
// no folder or more than one holds it.
std::string hw_path(const std::string& name);
// The text of one primitive; ConfigError naming the path when it cannot be read.
std::string read_hw_file(const std::string& name);


// Bits to count 0..x-1 (0 for x <= 1): ceil(log2(x)).
constexpr int clog2(uint64_t x) { return x <= 1 ? 0 : static_cast<int>(std::bit_width(x - 1)); }

}  // namespace cmnet

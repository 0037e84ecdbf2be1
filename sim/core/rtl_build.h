// Builds a Verilator model of a generated design with a harness main, once per distinct
// (design, harness, Verilator) and caches it: $CMNET_CACHE, else $XDG_CACHE_HOME/cmnet, else
// ~/.cache/cmnet. Concurrent builders of the same model wait for each other (flock).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/core/design.h"
#include "gen/core/process.h"  // run_child, for callers that ran it from here

namespace cmnet {

std::string rtl_cache_dir();

// Returns the path of the built executable. Throws std::runtime_error with the tail of
// Verilator's log when the build fails.
// `top` is the module to verilate (one of the design's modules). `key_files` are sources the
// harness reads in other ways than by #include "..." of a project header (those are found and
// hashed here): their contents join the cache key so that a change rebuilds the model.
std::string build_verilated_model(const GeneratedDesign& design, const std::string& top,
                                  const std::string& harness_cpp,
                                  const std::vector<std::string>& extra_cflags = {},
                                  const std::vector<std::string>& key_files = {},
                                  const std::vector<std::string>& verilator_flags = {});

// An FST trace requested of a harness (sim/core/harness_driver.h): the file and the window of
// cycles counted from the harness's time origin.
struct TraceWindow {
  std::string file;  // "" = no trace
  uint64_t from = 0, to = UINT64_MAX;
  bool on() const { return !file.empty(); }
  // The environment entries that ask the harness for it.
  std::vector<std::string> env() const;
};

// The Verilator flags of a model that writes FST traces (sim/core/harness_driver.h).
inline const std::vector<std::string>& trace_flags() {
  static const std::vector<std::string> f = {"--trace-fst", "--trace-structs"};
  return f;
}

}  // namespace cmnet

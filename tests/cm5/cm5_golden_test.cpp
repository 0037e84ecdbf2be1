// The emitted Verilog of every CM-5 machine example config (`cmnet gen`: both networks, the
// interfaces and router-done's counters), pinned by SHA-256 digest (tests/cm5/golden_digests.txt):
// a refactor that changes one byte of the RTL fails here. After an intended change of the RTL,
// regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include "gen/cm5/cm5_config.h"
#include "gen/cm5/cm5_emitter.h"
#include "gen/core/config.h"

namespace cmnet {
namespace {

std::map<std::string, std::string> current_digests() {
  GoldenDigests g;
  for (const auto& path : golden_examples("cm5_")) {
    const Cm5MachineConfig cfg = cm5_machine_config(load_config_file(path.string()));
    g.add(path.stem().string() + "/gen", emit_cm5_machine(cfg));
  }
  return g.files;
}

TEST(Cm5Golden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(golden_file("cm5"), current_digests());
}

}  // namespace
}  // namespace cmnet

// The emitted Verilog of every hypercube example config (`cmnet gen`) and of its
// stream board (the board top, hcube_stream.v inside), pinned by SHA-256 digest
// (tests/hcube/golden_digests.txt): a refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include "gen/core/config.h"
#include "gen/hcube/hcube_config.h"
#include "gen/hcube/hcube_emitter.h"
#include "gen/hcube/hcube_stream.h"

namespace cmnet {
namespace {

std::map<std::string, std::string> current_digests() {
  GoldenDigests g;
  for (const auto& path : golden_examples("hcube_")) {
    const HcubeConfig cfg = hcube_config(load_config_file(path.string()));
    const std::string stem = path.stem().string();
    g.add(stem + "/gen", emit_hcube(cfg));
    g.add_stream(stem + "/board", hcube_stream_spec(cfg));
    // Receive FIFOs of other sizes than the defaults.
    HcubeStreamSizes z;
    z.rx_byte_bits = 10;
    z.rx_seg_bits = 4;
    g.add_stream(stem + "/board-rx", hcube_stream_spec(cfg, z));
  }
  return g.files;
}

TEST(HcubeGolden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(golden_file("hcube"), current_digests());
}

}  // namespace
}  // namespace cmnet

// The emitted Verilog of every hypercube example config (`cmnet gen`) and of its
// stream board (the board top, hcube_stream.v inside), pinned by SHA-256 digest
// (tests/hcube/golden_digests.txt), and of the self-test top of each wormhole one it is for
// (a 2-LED board with a reset button, the paper's workload shape, 2 messages per node): a refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include "gen/core/config.h"
#include "gen/hcube/hcube_config.h"
#include "gen/hcube/hcube_emitter.h"
#include "gen/hcube/hcube_selftest.h"
#include "gen/hcube/hcube_stream.h"
#include "sim/hcube/hcube_selftest_model.h"

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
    if (!cfg.hc.packet() && cfg.hc.dims <= kHcubeSelfTestMaxDims) {
      board_parts::SelfTestPins pins;
      pins.led_active_low = {true, true};
      const HcubeTraffic t = make_hcube_workload(cfg.hc.dims, "uniform", 24, 60, 2, 1);
      g.add(stem + "/selftest", emit_hcube_selftest(cfg, hcube_selftest_of(cfg.hc, t, "uniform", 1, 2), pins));
    }
  }
  return g.files;
}

TEST(HcubeGolden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(golden_file("hcube"), current_digests());
}

}  // namespace
}  // namespace cmnet

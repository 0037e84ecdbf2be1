// The emitted Verilog of every CM-5 control network example config (`cmnet gen`) and of its
// stream board (the board top, cm5ctl_stream.v inside), pinned by SHA-256 digest
// (tests/cm5ctl/golden_digests.txt): a refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "gen/cm5ctl/cm5ctl_stream.h"
#include "gen/core/config.h"

namespace cmnet {
namespace {

std::map<std::string, std::string> current_digests() {
  GoldenDigests g;
  for (const auto& path : golden_examples("cm5ctl_")) {
    Cm5ctlConfig cfg = cm5ctl_config(load_config_file(path.string()));
    const std::string stem = path.stem().string();
    g.add(stem + "/gen", emit_cm5ctl(cfg));
    g.add_stream(stem + "/board", cm5ctl_stream_spec(cfg));
    // Both send sides of the stream module for every example: the staging register alone and
    // the send FIFOs per function.
    cfg.p.send_fifo_depth = cfg.p.send_fifo_depth == 0 ? 4 : 0;
    g.add_stream(stem + "/board-send" + std::to_string(cfg.p.send_fifo_depth), cm5ctl_stream_spec(cfg));
  }
  return g.files;
}

TEST(Cm5ctlGolden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(golden_file("cm5ctl"), current_digests());
}

}  // namespace
}  // namespace cmnet

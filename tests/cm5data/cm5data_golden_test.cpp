// The emitted Verilog of every cm5data example config, pinned by SHA-256 digest
// (tests/cm5data/golden_digests.txt): the network, the NI design, the stream module, the stream
// board top, the self-test top and the split over boards. A refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include <map>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_cabled.h"
#include "gen/cm5data/cm5data_config.h"
#include "gen/cm5data/cm5data_emitter.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/cm5data/cm5data_selftest.h"
#include "gen/cm5data/cm5data_stream.h"
#include "gen/core/config.h"
#include "gen/core/stream_board.h"
#include "sim/cm5data/cm5data_selftest_model.h"
#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

board_parts::SelfTestPins board_pins() {
  board_parts::SelfTestPins p;
  p.led_active_low = {true, true, true};
  return p;
}

std::map<std::string, std::string> current_digests() {
  GoldenDigests g;
  const auto add = [&](const std::string& design, const GeneratedDesign& d) { g.add(design, d); };
  // Every file of one config under `stem` (the stream board only where it can be built).
  auto add_config = [&](const std::string& stem, const Cm5DataConfig& cfg) {
    add(stem + "/gen", emit_cm5data(cfg));
    add(stem + "/ni", emit_cm5data_ni(cfg));
    if (cfg.cm5.slots == 0) {  // the board's NIs count credits per flit: no stream board with slots
      add(stem + "/stream", emit_cm5data_stream(cfg));
    }
    if (cfg.cm5.slots == 0 && cfg.cm5.leaves() <= 16) {  // 64 leaves: more counters than the board's window
      HostBoardOptions uart;
      uart.clock_hz = 12000000;
      add(stem + "/board-uart", emit_stream_board(cm5data_stream_spec(cfg), uart));
      HostBoardOptions fifo;
      fifo.phy = HostLinkPhy::Fifo;
      fifo.reset_button = false;
      add(stem + "/board-fifo", emit_stream_board(cm5data_stream_spec(cfg), fifo));
    }
    if (cfg.cm5.leaves() <= 16) {  // the self-test top's ROMs: small networks keep the test cheap
      add(stem + "/selftest-sim", emit_cm5data_selftest(cfg, cm5_selftest_traffic(cfg.cm5, "random", 5, 2), sim_pins()));
      add(stem + "/selftest-board",
          emit_cm5data_selftest(cfg, cm5_selftest_traffic(cfg.cm5, "permutation", 1, 1), board_pins()));
    }
    if (cfg.cm5.height == 1) {  // the split over boards: every board and the simulation top
      const Cm5CabledTraffic t = cm5_cabled_traffic(cfg.cm5, "random", 5, 2);
      add(stem + "/cabled-sim", emit_cm5data_cabled(cfg, t, sim_pins(), Cm5CabledTop::kSim, {}));
      Cm5CabledOptions rom;
      rom.interfaces = false;
      rom.board = 3;
      add(stem + "/cabled-rom-leaf", emit_cm5data_cabled(cfg, t, board_pins(), Cm5CabledTop::kLeaf, rom));
    }
  };
  for (const auto& path : golden_examples("cm5data_")) {
    const Cm5DataConfig cfg = cm5data_config(load_config_file(path.string()));
    if (cfg.cm5.height > kCm5MaxEmitHeight) continue;  // the paper's machine runs on the model only
    const std::string stem = path.stem().string();
    add_config(stem, cfg);
  }
  // What no example has: message slots, one-flit words, leaves mapped out of the address space.
  const Cm5DataConfig base = cm5data_config(load_config_file(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5data_16.json"));
  Cm5DataConfig slots = base;
  slots.cm5.slots = 2;
  validate(slots.cm5, "slots");
  add_config("variant_slots", slots);
  Cm5DataConfig staged = base;
  staged.cm5.request_stage = 1;
  validate(staged.cm5, "staged");
  add_config("variant_request_stage", staged);
  Cm5DataConfig wide = base;
  wide.cm5.link_bits = 32;
  validate(wide.cm5, "w32");
  add_config("variant_w32", wide);
  Cm5DataConfig mapped = base;
  mapped.cm5.link_bits = 16;
  mapped.cm5.mapped_out_leaves = {5};
  validate(mapped.cm5, "mapped");
  add_config("variant_mapped", mapped);
  return g.files;
}

TEST(Cm5DataGolden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(golden_file("cm5data"), current_digests());
}

}  // namespace
}  // namespace cmnet

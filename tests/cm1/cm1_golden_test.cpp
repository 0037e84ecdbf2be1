// The emitted Verilog of every example config, and of every CM-1 board top, pinned by SHA-256
// digest (tests/cm1/golden_digests.txt): a refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include <map>
#include <sstream>

#include "sim/cm1/cm1_selftest.h"
#include "gen/cm1/cm1_cube_board_emitter.h"
#include "gen/cm1/cm1_emitter.h"
#include "gen/cm1/cm1_host_board_emitter.h"
#include "gen/cm1/cm1_config.h"

namespace cmnet {
namespace {

std::map<std::string, std::string> current_digests() {
  GoldenDigests g;
  const auto add = [&](const std::string& design, const GeneratedDesign& d) { g.add(design, d); };
  for (const auto& path : golden_examples("cm1_")) {
    const Cm1Config cfg = load_cm1_config(path.string());
    const std::string stem = path.stem().string();
    add(stem + "/gen", emit_cm1(cfg));
  }
  const Cm1Config board = load_cm1_config(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm1_board.json");
  add("cm1_board/top-network", cm1_board_top(board, BoardTopOptions{}));
  add("cm1_board/top-chip", cm1_chip_board_top(board, BoardTopOptions{}));
  add("cm1_board/host-uart", emit_cm1_host_board(board, HostBoardOptions{}));
  HostBoardOptions fifo;
  fifo.phy = HostLinkPhy::Fifo;
  fifo.reset_button = false;
  add("cm1_board/host-fifo", emit_cm1_host_board(board, fifo));
  const Cm1Config cube = load_cm1_config(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm1_cube_c2.json");
  add("cm1_cube_c2/top-cube", cm1_cube_board_top(cube, CubeTopOptions{}));
  return g.files;
}

TEST(Cm1Golden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(golden_file("cm1"), current_digests());
}

}  // namespace
}  // namespace cmnet

// The emitted Verilog of every example config, and of every CM-1 board top, pinned by SHA-256
// digest (tests/cm1/golden_digests.txt): a refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/cm1/cm1_selftest.h"
#include "gen/cm1/cm1_cube_board_emitter.h"
#include "gen/cm1/cm1_emitter.h"
#include "gen/cm1/cm1_host_board_emitter.h"
#include "gen/cm1/cm1_config.h"
#include "tests/core/sha256.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

const std::string kGolden = std::string(CMNET_SOURCE_DIR) + "/tests/cm1/golden_digests.txt";

// "<design>/<file> <sha256>" for every file of every design, sorted.
std::map<std::string, std::string> current_digests() {
  std::map<std::string, std::string> out;
  auto add = [&](const std::string& design, const GeneratedDesign& d) {
    for (const auto& [name, text] : d.files) out[design + "/" + name] = testing::sha256_hex(text);
  };
  std::vector<fs::path> examples;
  for (const auto& e : fs::directory_iterator(std::string(CMNET_SOURCE_DIR) + "/gen/examples"))
    if (e.path().extension() == ".json" && e.path().filename().string().rfind("cm1_", 0) == 0)
      examples.push_back(e.path());  // the CM-1 family's examples (other families pin their own)
  std::sort(examples.begin(), examples.end());
  for (const auto& path : examples) {
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
  return out;
}

TEST(Cm1Golden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(kGolden, current_digests());
}

}  // namespace
}  // namespace cmnet

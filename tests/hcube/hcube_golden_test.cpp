// The emitted Verilog of every hypercube example config (`cmnet gen`) and of its
// stream board (the board top, hcube_stream.v inside), pinned by SHA-256 digest
// (tests/hcube/golden_digests.txt): a refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "gen/hcube/hcube_config.h"
#include "gen/hcube/hcube_emitter.h"
#include "gen/hcube/hcube_stream.h"
#include "gen/core/config.h"
#include "gen/core/errors.h"
#include "gen/core/stream_board.h"
#include "tests/core/sha256.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

const std::string kGolden = std::string(CMNET_SOURCE_DIR) + "/tests/hcube/golden_digests.txt";

// "<design>/<file> <sha256>" for every file of every design, sorted.
std::map<std::string, std::string> current_digests() {
  std::map<std::string, std::string> out;
  auto add = [&](const std::string& design, const GeneratedDesign& d) {
    for (const auto& [name, text] : d.files) out[design + "/" + name] = testing::sha256_hex(text);
  };
  // The stream design (the family's module with the stream port) always; the whole board where
  // the register map holds its counters (the paper-sized examples have too many).
  auto add_stream = [&](const std::string& design, const StreamBoardSpec& spec) {
    add(design + "-stream", spec.network);
    try {
      add(design, emit_stream_board(spec, HostBoardOptions{}));
    } catch (const ConfigError&) {
    }
  };
  std::vector<fs::path> examples;
  for (const auto& e : fs::directory_iterator(std::string(CMNET_SOURCE_DIR) + "/gen/examples"))
    if (e.path().extension() == ".json" && e.path().filename().string().rfind("hcube_", 0) == 0)
      examples.push_back(e.path());
  std::sort(examples.begin(), examples.end());
  for (const auto& path : examples) {
    const HcubeConfig cfg = hcube_config(load_config_file(path.string()));
    const std::string stem = path.stem().string();
    add(stem + "/gen", emit_hcube(cfg));
    add_stream(stem + "/board", hcube_stream_spec(cfg));
    // Receive FIFOs of other sizes than the defaults.
    HcubeStreamSizes z;
    z.rx_byte_bits = 10;
    z.rx_seg_bits = 4;
    add_stream(stem + "/board-rx", hcube_stream_spec(cfg, z));
  }
  return out;
}

TEST(HcubeGolden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(kGolden, current_digests());
}

}  // namespace
}  // namespace cmnet

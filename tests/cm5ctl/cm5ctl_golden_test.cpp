// The emitted Verilog of every CM-5 control network example config (`cmnet gen`) and of its
// stream board (the board top, cm5ctl_stream.v inside), pinned by SHA-256 digest
// (tests/cm5ctl/golden_digests.txt): a refactor that changes one byte of the RTL fails here.
// After an intended change of the RTL, regenerate with CMNET_UPDATE_GOLDEN=1 and commit the file.
#include <gtest/gtest.h>

#include "tests/core/golden.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "gen/cm5ctl/cm5ctl_stream.h"
#include "gen/core/config.h"
#include "gen/core/errors.h"
#include "gen/core/stream_board.h"
#include "tests/core/sha256.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

const std::string kGolden = std::string(CMNET_SOURCE_DIR) + "/tests/cm5ctl/golden_digests.txt";

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
    if (e.path().extension() == ".json" && e.path().filename().string().rfind("cm5ctl_", 0) == 0)
      examples.push_back(e.path());
  std::sort(examples.begin(), examples.end());
  for (const auto& path : examples) {
    Cm5ctlConfig cfg = cm5ctl_config(load_config_file(path.string()));
    const std::string stem = path.stem().string();
    add(stem + "/gen", emit_cm5ctl(cfg));
    add_stream(stem + "/board", cm5ctl_stream_spec(cfg));
    // Both send sides of the stream module for every example: the staging register alone and
    // the send FIFOs per function.
    cfg.p.send_fifo_depth = cfg.p.send_fifo_depth == 0 ? 4 : 0;
    add_stream(stem + "/board-send" + std::to_string(cfg.p.send_fifo_depth), cm5ctl_stream_spec(cfg));
  }
  return out;
}

TEST(Cm5ctlGolden, EmittedVerilogIsByteIdenticalToTheCheckedInDigests) {
  expect_golden(kGolden, current_digests());
}

}  // namespace
}  // namespace cmnet

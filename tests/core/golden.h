// The golden-digest check every family's golden test runs: the emitted files' SHA-256 against the
// checked-in list (CMNET_UPDATE_GOLDEN=1 rewrites the list instead).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gen/core/design.h"
#include "gen/core/errors.h"
#include "gen/core/stream_board.h"
#include "tests/core/sha256.h"

namespace cmnet {

// "<design>/<file> <sha256>" for every file of every design a family's golden test adds.
struct GoldenDigests {
  std::map<std::string, std::string> files;

  void add(const std::string& design, const GeneratedDesign& d) {
    for (const auto& [name, text] : d.files) files[design + "/" + name] = testing::sha256_hex(text);
  }
  // The stream design (the family's module with the stream port) always; the whole board where
  // the register map holds its counters (the paper-sized examples have too many).
  void add_stream(const std::string& design, const StreamBoardSpec& spec) {
    add(design + "-stream", spec.network);
    try {
      add(design, emit_stream_board(spec, HostBoardOptions{}));
    } catch (const ConfigError&) {
    }
  }
};

// The example configs of one family (gen/examples/<prefix>*.json), sorted.
inline std::vector<std::filesystem::path> golden_examples(const std::string& prefix) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(CMNET_SOURCE_DIR) + "/gen/examples"))
    if (e.path().extension() == ".json" && e.path().filename().string().rfind(prefix, 0) == 0)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The checked-in list of a family: tests/<family>/golden_digests.txt.
inline std::string golden_file(const std::string& family) {
  return std::string(CMNET_SOURCE_DIR) + "/tests/" + family + "/golden_digests.txt";
}

inline void expect_golden(const std::string& path, const std::map<std::string, std::string>& now) {
  if (const char* u = std::getenv("CMNET_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream out(path);
    for (const auto& [k, v] : now) out << k << ' ' << v << '\n';
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " is missing";
  std::map<std::string, std::string> want;
  std::string k, v;
  while (in >> k >> v) want[k] = v;
  ASSERT_FALSE(want.empty());
  for (const auto& [name, digest] : want) {
    const auto it = now.find(name);
    if (it == now.end()) {
      ADD_FAILURE() << name << ": no longer emitted";
      continue;
    }
    EXPECT_EQ(it->second, digest) << name << ": emitted bytes changed";
  }
  for (const auto& [name, digest] : now)
    EXPECT_TRUE(want.count(name)) << name << ": emitted but not pinned (" << digest << ")";
}

}  // namespace cmnet

// The golden-digest check every family's golden test runs: the emitted files' SHA-256 against the
// checked-in list (CMNET_UPDATE_GOLDEN=1 rewrites the list instead).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

namespace cmnet {

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

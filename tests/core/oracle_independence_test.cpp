// The second view stays independent (issue 26): every family's functional oracle, in
// sim/<family>/oracle/, is written from the paper and shares no code, table or helper with the
// emitter, the params or the cycle model. So its files include only system headers (<...>) and
// files of its own oracle folder (cm5's may use cm5data's and cm5ctl's oracles, the machine being
// built from those two networks), and its CMake targets link no project library but those oracles
// (and cmnet_options, the build flags).
// The tests adapt a run's results to the oracle's terms; the oracle never reaches back.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// The oracle folders a family's oracle may reach besides its own.
std::set<std::string> reachable(const std::string& family) {
  std::set<std::string> s = {family};
  if (family == "cm5") s.insert({"cm5data", "cm5ctl"});
  return s;
}

// The family of "sim/<family>/oracle/..." or "".
std::string oracle_family(const std::string& path) {
  static const std::regex re(R"(^sim/([\w]+)/oracle/.*)");
  std::smatch m;
  return std::regex_match(path, m, re) ? m[1].str() : "";
}

std::vector<std::string> oracle_files(const fs::path& root) {
  std::vector<std::string> out;
  if (!fs::exists(root / "sim")) return out;
  for (const auto& e : fs::recursive_directory_iterator(root / "sim")) {
    const std::string rel = fs::relative(e.path(), root).generic_string();
    if (e.is_regular_file() && !oracle_family(rel).empty()) out.push_back(rel);
  }
  return out;
}

// Every #include "..." of an oracle source that leaves the oracles it may reach.
std::vector<std::string> include_violations(const fs::path& root) {
  static const std::regex inc(R"(^\s*#\s*include\s*"([^"]+)\")");
  std::vector<std::string> out;
  for (const auto& rel : oracle_files(root)) {
    const std::string ext = fs::path(rel).extension().string();
    if (ext != ".h" && ext != ".cpp") continue;
    const std::string fam = oracle_family(rel);
    std::ifstream f(root / rel);
    int n = 0;
    for (std::string line; std::getline(f, line);) {
      ++n;
      std::smatch m;
      if (!std::regex_search(line, m, inc)) continue;
      std::string to = m[1].str();
      if (to.find('/') == std::string::npos) to = fs::path(rel).parent_path().generic_string() + "/" + to;
      if (!reachable(fam).count(oracle_family(to)))
        out.push_back(rel + ":" + std::to_string(n) + ": #include \"" + m[1].str() +
                      "\": an oracle includes only system headers and its own oracle folder");
    }
  }
  return out;
}

// Every library an oracle's CMakeLists links that is not a reachable oracle (cmnet_<family>_oracle).
std::vector<std::string> link_violations(const fs::path& root) {
  static const std::regex link(R"(target_link_libraries\(\s*[\w-]+([^)]*)\))");
  static const std::regex word(R"([\w:-]+)");
  static const std::regex oracle_lib(R"(cmnet_(\w+)_oracle)");
  // cmnet_options: warnings, sanitizers and the include root, no code.
  static const std::set<std::string> keywords = {"PUBLIC", "PRIVATE", "INTERFACE", "cmnet_options"};
  std::vector<std::string> out;
  for (const auto& rel : oracle_files(root)) {
    if (fs::path(rel).filename() != "CMakeLists.txt") continue;
    std::ifstream f(root / rel);
    const std::string text(std::istreambuf_iterator<char>(f), {});
    for (std::sregex_iterator i(text.begin(), text.end(), link), end; i != end; ++i) {
      const std::string deps = (*i)[1];
      for (std::sregex_iterator w(deps.begin(), deps.end(), word); w != end; ++w) {
        const std::string lib = (*w)[0];
        std::smatch m;
        if (keywords.count(lib)) continue;
        if (std::regex_match(lib, m, oracle_lib) && reachable(oracle_family(rel)).count(m[1].str())) continue;
        out.push_back(rel + ": links " + lib + ": an oracle links only the oracles it may reach");
      }
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "  " + x + "\n";
  return s;
}

TEST(OracleIndependence, EveryFamilyHasAnOracle) {
  std::vector<std::string> missing;
  for (const auto& e : fs::directory_iterator(fs::path(CMNET_SOURCE_DIR) / "sim"))
    if (e.is_directory() && e.path().filename() != "core" && !fs::exists(e.path() / "oracle" / "CMakeLists.txt"))
      missing.push_back(e.path().filename().string());
  EXPECT_TRUE(missing.empty()) << "families without sim/<family>/oracle/: " << ::testing::PrintToString(missing);
}

TEST(OracleIndependence, OraclesIncludeOnlyThemselves) {
  const auto v = include_violations(CMNET_SOURCE_DIR);
  EXPECT_TRUE(v.empty()) << joined(v);
}

TEST(OracleIndependence, OraclesLinkOnlyOracles) {
  const auto v = link_violations(CMNET_SOURCE_DIR);
  EXPECT_TRUE(v.empty()) << joined(v);
}

// The checker itself: each kind of reach is caught, naming file and line; the allowed ones pass.
TEST(OracleIndependence, TheCheckerCatchesSharedCode) {
  const fs::path root = fs::temp_directory_path() / ("cmnet_oracles_" + std::to_string(::getpid()));
  fs::remove_all(root);
  const auto put = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  put("sim/clos/oracle/a.h", "#include <vector>\n#include \"b.h\"\n#include \"sim/clos/oracle/b.h\"\n");
  put("sim/clos/oracle/b.cpp", "#include \"gen/clos/clos_params.h\"\n#include \"sim/clos/clos_model.h\"\n");
  put("sim/cm5/oracle/c.cpp", "#include \"sim/cm5data/oracle/d.h\"\n#include \"sim/hcube/oracle/e.h\"\n");
  put("sim/clos/oracle/CMakeLists.txt",
      "add_library(cmnet_clos_oracle b.cpp)\ntarget_link_libraries(cmnet_clos_oracle PUBLIC cmnet_clos_sim)\n");
  put("sim/cm5/oracle/CMakeLists.txt",
      "add_library(cmnet_cm5_oracle c.cpp)\ntarget_link_libraries(cmnet_cm5_oracle PUBLIC cmnet_cm5ctl_oracle)\n");
  put("sim/clos/clos_model.cpp", "#include \"gen/clos/clos_params.h\"\n");  // not an oracle: not judged here
  const auto inc = include_violations(root);
  const auto lnk = link_violations(root);
  fs::remove_all(root);
  const std::string all = joined(inc) + joined(lnk);
  ASSERT_EQ(inc.size(), 3u) << all;
  EXPECT_NE(all.find("sim/clos/oracle/b.cpp:1: #include \"gen/clos/clos_params.h\""), std::string::npos) << all;
  EXPECT_NE(all.find("sim/clos/oracle/b.cpp:2: #include \"sim/clos/clos_model.h\""), std::string::npos) << all;
  EXPECT_NE(all.find("sim/cm5/oracle/c.cpp:2: #include \"sim/hcube/oracle/e.h\""), std::string::npos) << all;
  ASSERT_EQ(lnk.size(), 1u) << all;
  EXPECT_NE(lnk[0].find("sim/clos/oracle/CMakeLists.txt: links cmnet_clos_sim"), std::string::npos) << all;
}

}  // namespace

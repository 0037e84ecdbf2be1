// The house's layering, enforced: every #include "..." and every CMake link in the tree runs one
// way, and no family's folder reaches into another family's. README.md ("Dependencies run one
// way") states exactly these rules:
//   1. Layers, bottom to top: gen/ (0); sim/ and bitstreams/ (1, neither reaches the other);
//      host/ (2); host/cli/ (3); tests/ (4). A file or CMakeLists may reach its own layer's
//      folder (same top folder) or a lower layer, never a higher one.
//   2. Families: under a top folder, each family has a folder (gen/cm1, sim/cm1, host/cli/cm1,
//      tests/cm1 ...); shared parts live in core/ (or common/, and host/cli's own files). A family
//      reaches only its own folders and the shared ones (cm5, the machine built from the two CM-5
//      networks, also reaches cm5data and cm5ctl). A shared part reaches no family, except the
//      family registry (host/cli/families.cpp) and the registry's tests (tests/core/families_test.cpp).
// A CMake link is judged from the CMakeLists it is written in to the folder its target is defined in.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::set<std::string> kTops = {"gen", "sim", "bitstreams", "host", "tests"};
const std::set<std::string> kShared = {"core", "common"};
const std::set<std::string> kRegistries = {"host/cli/families.cpp", "tests/core/families_test.cpp"};

std::vector<std::string> split_path(const std::string& p) {
  std::vector<std::string> v;
  std::stringstream s(p);
  for (std::string e; std::getline(s, e, '/');) v.push_back(e);
  return v;
}

bool is_cli(const std::vector<std::string>& v) { return v.size() >= 2 && v[0] == "host" && v[1] == "cli"; }

int layer_of(const std::vector<std::string>& v) {
  if (is_cli(v)) return 3;
  static const std::map<std::string, int> rank = {{"gen", 0}, {"sim", 1}, {"bitstreams", 1}, {"host", 2}, {"tests", 4}};
  return rank.at(v[0]);
}

// The family folder a path is in ("" for a shared part: core/, common/, a top folder's own files).
std::string family_of(const std::vector<std::string>& v) {
  const size_t i = is_cli(v) ? 2 : 1;
  if (v.size() <= i + 1) return "";  // a file directly in the top folder (or host/cli)
  return kShared.count(v[i]) ? "" : v[i];
}

// Why `from` (a file or CMakeLists, relative to the root) may not reach `to` (a file or folder),
// or "" if it may.
std::string violation(const std::string& from, const std::string& to) {
  const auto a = split_path(from), b = split_path(to);
  const int la = layer_of(a), lb = layer_of(b);
  if (lb > la || (lb == la && a[0] != b[0] && !(is_cli(a) && is_cli(b))))
    return "layer: " + a[0] + (is_cli(a) ? "/cli" : "") + " may not reach " + b[0] + (is_cli(b) ? "/cli" : "");
  const std::string fa = family_of(a), fb = family_of(b);
  if (fb.empty() || fa == fb) return "";
  if (fa == "cm5" && (fb == "cm5data" || fb == "cm5ctl")) return "";
  if (fa.empty())
    return kRegistries.count(from) ? "" : "family: a shared part may not reach family " + fb;
  return "family: " + fa + " may not reach family " + fb;
}

// Fuzzer inputs are data, not source.
bool skipped(const fs::path& rel) { return rel.generic_string().find("fuzz_corpus") != std::string::npos; }

// The path in `line`'s #include "...", or "" (std::regex is slow under the sanitizers).
std::string included(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return "";
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return "";
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || line[i] != '"') return "";
  const size_t j = line.find('"', i + 1);
  return j == std::string::npos ? "" : line.substr(i + 1, j - i - 1);
}

// Every offending #include "top/..." in .h/.cpp files under the root's top folders.
std::vector<std::string> include_violations(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& top : kTops) {
    if (!fs::exists(root / top)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      const fs::path rel = fs::relative(e.path(), root);
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || skipped(rel) || (ext != ".h" && ext != ".cpp")) continue;
      std::ifstream f(e.path());
      int n = 0;
      for (std::string line; std::getline(f, line);) {
        ++n;
        const std::string to = included(line);
        if (to.empty() || !kTops.count(split_path(to)[0])) continue;  // a system or generated header
        const std::string why = violation(rel.generic_string(), to);
        if (!why.empty()) out.push_back(rel.generic_string() + ":" + std::to_string(n) + ": #include \"" + to + "\": " + why);
      }
    }
  }
  return out;
}

struct CMakeFile {
  std::string rel;   // the CMakeLists.txt, relative to the root
  std::string text;
};

int line_at(const std::string& text, size_t pos) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// Every offending target_link_libraries() / cmnet_test(... LIBS ...) between the project's own targets.
std::vector<std::string> link_violations(const fs::path& root) {
  std::vector<CMakeFile> files;
  for (const auto& top : kTops) {
    if (!fs::exists(root / top)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      const fs::path rel = fs::relative(e.path(), root);
      if (e.path().filename() != "CMakeLists.txt" || skipped(rel)) continue;
      std::ifstream f(e.path());
      files.push_back({rel.generic_string(), std::string(std::istreambuf_iterator<char>(f), {})});
    }
  }
  std::map<std::string, std::string> where;  // target -> the CMakeLists defining it
  const std::regex def(R"((?:add_library|add_executable|cmnet_test)\(\s*([\w-]+))");
  for (const auto& c : files)
    for (std::sregex_iterator i(c.text.begin(), c.text.end(), def), end; i != end; ++i) where[(*i)[1]] = c.rel;
  std::vector<std::string> out;
  const std::regex link(R"((?:target_link_libraries\(\s*[\w-]+|cmnet_test\([^)]*?LIBS)([^)]*)\))");
  const std::regex word(R"([\w:-]+)");
  for (const auto& c : files) {
    for (std::sregex_iterator i(c.text.begin(), c.text.end(), link), end; i != end; ++i) {
      const std::string deps = (*i)[1];
      const int line = line_at(c.text, static_cast<size_t>(i->position(0)));
      for (std::sregex_iterator w(deps.begin(), deps.end(), word); w != end; ++w) {
        const auto it = where.find((*w)[0]);
        if (it == where.end()) continue;  // an outside library or a keyword
        const std::string why = violation(c.rel, it->second);
        if (!why.empty()) out.push_back(c.rel + ":" + std::to_string(line) + ": links " + it->first + " (" + it->second + "): " + why);
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

TEST(Layers, EveryIncludeRunsOneWay) {
  const auto v = include_violations(CMNET_SOURCE_DIR);
  EXPECT_TRUE(v.empty()) << v.size() << " includes against the layers:\n" << joined(v);
}

TEST(Layers, EveryCMakeLinkRunsOneWay) {
  const auto v = link_violations(CMNET_SOURCE_DIR);
  EXPECT_TRUE(v.empty()) << v.size() << " links against the layers:\n" << joined(v);
}

// The checker itself: a tree with one of each wrong kind is caught, naming file and line; the
// allowed directions pass.
TEST(Layers, TheCheckerCatchesEachKindOfWrongDirection) {
  const fs::path root = fs::temp_directory_path() / ("cmnet_layers_" + std::to_string(::getpid()));
  fs::remove_all(root);
  const auto put = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  put("gen/cm1/a.h", "#include \"gen/core/x.h\"\n#include \"sim/cm1/model.h\"\n");  // up a layer
  put("sim/core/b.h", "#include \"gen/cm1/e.h\"\n");                                // shared -> family
  put("sim/clos/c.cpp", "// x\n#include \"sim/hcube/d.h\"\n#include \"gen/clos/e.h\"\n");  // family -> family
  put("sim/cm5/f.cpp", "#include \"sim/cm5data/m.h\"\n#include \"sim/cm5ctl/m.h\"\n");   // allowed
  put("bitstreams/g.cpp", "#include \"sim/core/h.h\"\n");                            // sibling layer
  put("host/cli/families.cpp", "#include \"host/cli/cm1/cm1_family.h\"\n");         // the registry
  put("host/cli/build_cmd.cpp", "#include \"host/cli/cm1/cm1_family.h\"\n");        // not the registry
  put("gen/core/CMakeLists.txt", "add_library(core_lib x.cpp)\ntarget_link_libraries(core_lib PUBLIC sim_lib)\n");
  put("sim/core/CMakeLists.txt", "add_library(sim_lib y.cpp)\ntarget_link_libraries(sim_lib PUBLIC core_lib)\n");
  const auto inc = include_violations(root);
  const auto lnk = link_violations(root);
  fs::remove_all(root);
  const std::string all = joined(inc) + joined(lnk);
  EXPECT_EQ(inc.size(), 5u) << all;
  EXPECT_NE(all.find("gen/cm1/a.h:2: #include \"sim/cm1/model.h\": layer"), std::string::npos) << all;
  EXPECT_NE(all.find("sim/core/b.h:1: #include \"gen/cm1/e.h\": family: a shared part"), std::string::npos) << all;
  EXPECT_NE(all.find("sim/clos/c.cpp:2: #include \"sim/hcube/d.h\": family: clos may not reach family hcube"),
            std::string::npos) << all;
  EXPECT_NE(all.find("bitstreams/g.cpp:1: #include \"sim/core/h.h\": layer"), std::string::npos) << all;
  EXPECT_NE(all.find("host/cli/build_cmd.cpp:1:"), std::string::npos) << all;
  ASSERT_EQ(lnk.size(), 1u) << all;
  EXPECT_NE(lnk[0].find("gen/core/CMakeLists.txt:2: links sim_lib (sim/core/CMakeLists.txt): layer"), std::string::npos)
      << all;
}

}  // namespace

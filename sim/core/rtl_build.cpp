#include "sim/core/rtl_build.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <set>
#include <thread>

#include "gen/core/process.h"
#include "gen/core/progress.h"

namespace cmnet {
namespace fs = std::filesystem;
namespace {

uint64_t fnv1a(uint64_t h, const std::string& s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string tail(const std::string& path, size_t n) {
  std::string s;
  try {
    s = read_file(path);
  } catch (...) {
    return "(no log)";
  }
  return s.size() > n ? "..." + s.substr(s.size() - n) : s;
}

struct FileLock {
  int fd;
  explicit FileLock(const std::string& path) : fd(::open(path.c_str(), O_CREAT | O_RDWR, 0644)) {
    if (fd < 0) throw std::runtime_error("cannot open lock file " + path);
    ::flock(fd, LOCK_EX);
  }
  ~FileLock() {
    ::flock(fd, LOCK_UN);
    ::close(fd);
  }
};

// Project files named by `#include "..."` in `path` and, transitively, in those (sorted).
std::set<std::string> project_includes(const std::string& path) {
  const std::string src = CMNET_SOURCE_DIR;
  std::set<std::string> seen;
  std::vector<std::string> todo = {path};
  while (!todo.empty()) {
    const std::string f = todo.back();
    todo.pop_back();
    std::istringstream in(read_file(f));
    std::string line;
    while (std::getline(in, line)) {
      const auto k = line.find("#include \"");
      if (k == std::string::npos || line.find_first_not_of(" \t") != k) continue;
      const auto e = line.find('"', k + 10);
      if (e == std::string::npos) continue;
      const std::string inc = src + "/" + line.substr(k + 10, e - k - 10);
      if (fs::is_regular_file(inc) && seen.insert(inc).second) todo.push_back(inc);
    }
  }
  return seen;
}

// ccache on PATH, or "" (CMNET_CCACHE=0 turns it off). Every model compiles the same Verilator
// runtime (verilated.cpp, verilated_threads.cpp, verilated_fst_c.cpp: about 8 of a small model's
// 13 s of g++ at -O1); through ccache only the first model of a machine pays for it.
std::string objcache() {
  if (const char* e = std::getenv("CMNET_CCACHE"); e != nullptr && std::string(e) == "0") return "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && ::access((d + "/ccache").c_str(), X_OK) == 0) return d + "/ccache";
  return "";
}

}  // namespace

std::vector<std::string> TraceWindow::env() const {
  if (!on()) return {};
  return {"CMNET_TRACE=" + fs::absolute(file).string(), "CMNET_TRACE_FROM=" + std::to_string(from),
          "CMNET_TRACE_TO=" + std::to_string(std::min<uint64_t>(to, INT64_MAX))};
}

std::string rtl_cache_dir() {
  if (const char* e = std::getenv("CMNET_CACHE")) return e;
  if (const char* x = std::getenv("XDG_CACHE_HOME")) return std::string(x) + "/cmnet";
  if (const char* h = std::getenv("HOME")) return std::string(h) + "/.cache/cmnet";
  return "/tmp/cmnet-cache";
}

std::string build_verilated_model(const GeneratedDesign& design, const std::string& top,
                                  const std::string& harness_cpp,
                                  const std::vector<std::string>& extra_cflags,
                                  const std::vector<std::string>& key_files,
                                  const std::vector<std::string>& verilator_flags) {
  const std::string src = CMNET_SOURCE_DIR;
  uint64_t h = 1469598103934665603ull;
  // What is compiled makes the key; the design's description files (its config and manifest,
  // which name the config) do not: two configs that emit the same hardware share one model.
  for (const auto& [name, text] : design.files)
    if (name != "config.json" && name != "manifest.json") h = fnv1a(fnv1a(h, name), text);
  h = fnv1a(h, read_file(harness_cpp));
  // The project headers the harness includes (and theirs) join the key: a change rebuilds.
  for (const auto& f : project_includes(harness_cpp)) h = fnv1a(fnv1a(h, f), read_file(f));
  h = fnv1a(h, top);
  for (const auto& f : extra_cflags) h = fnv1a(h, f);
  for (const auto& f : key_files) h = fnv1a(h, read_file(f));
  for (const auto& f : verilator_flags) h = fnv1a(h, "V" + f);
  h = fnv1a(h, CMNET_VERILATOR);
  // CMNET_RTL_BUILD=quick (the tests' setting): the model's C++ at -O1 everywhere, about a
  // quarter faster to build than -O2/-Os and a little slower to run (measured on the 64-leaf
  // cm5data network: 82 s against 112 s; -O0 builds in 69 s but runs 3.4 times slower), which
  // suits short test runs; otherwise optimised (benchmarks, long simulations). Part of the key.
  const char* build_env = std::getenv("CMNET_RTL_BUILD");
  const bool quick = build_env != nullptr && std::string(build_env) == "quick";
  if (quick) h = fnv1a(h, "quick");
  char key[32];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(h));
  const fs::path dir = fs::path(rtl_cache_dir()) / (top + "-" + key);
  fs::create_directories(dir.parent_path());
  FileLock lock(dir.string() + ".lock");
  const fs::path exe = dir / "obj" / ("V" + top);
  if (fs::exists(exe)) return exe.string();

  fs::create_directories(dir / "rtl");
  write_design(design, (dir / "rtl").string());
  std::string cflags = std::string(quick ? "-O1" : "-O2") + " -std=c++20 -I" + src;
  for (const auto& f : extra_cflags) cflags += " " + f;
  std::vector<std::string> cmd = {CMNET_VERILATOR, "--cc", "--exe", "--build", "-j", "2",
                                  "--top-module", top, "-Wno-fatal", "--x-assign", "fast",
                                  "-Mdir", (dir / "obj").string(), "-CFLAGS", cflags,
                                  "-MAKEFLAGS", "-s"};
  if (quick) cmd.insert(cmd.end(), {"-MAKEFLAGS", "OPT_FAST=-O1 OPT_SLOW=-O1 OPT_GLOBAL=-O1"});
  if (const std::string cc = objcache(); !cc.empty()) cmd.insert(cmd.end(), {"-MAKEFLAGS", "OBJCACHE=" + cc});
  cmd.insert(cmd.end(), verilator_flags.begin(), verilator_flags.end());
  for (const auto& f : design.verilog_files()) cmd.push_back((dir / "rtl" / f).string());
  cmd.push_back(fs::absolute(harness_cpp).string());
  const std::string log = (dir / "build.log").string();
  Progress progress("building the Verilator model of " + top + " (first use; cached in " + dir.string() + ")");
  const int rc = run_child(cmd, 3600, log, {}, progress.ticker());
  progress.done(rc == 0 ? "built in " + std::to_string(static_cast<int>(progress.seconds())) + " s"
                        : "FAILED (exit " + std::to_string(rc) + ")");
  if (rc != 0 || !fs::exists(exe))
    throw std::runtime_error("Verilator build of " + top + " failed (exit " +
                             std::to_string(rc) + "), log " + log + ":\n" + tail(log, 3000));
  return exe.string();
}

}  // namespace cmnet

#include "sim/rtl_build.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

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

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string tail(const std::string& path, size_t n) {
  std::string s;
  try {
    s = slurp(path);
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

}  // namespace

std::string rtl_cache_dir() {
  if (const char* e = std::getenv("CMNET_CACHE")) return e;
  if (const char* x = std::getenv("XDG_CACHE_HOME")) return std::string(x) + "/cmnet";
  if (const char* h = std::getenv("HOME")) return std::string(h) + "/.cache/cmnet";
  return "/tmp/cmnet-cache";
}

int run_child(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!log_path.empty()) {
    posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      throw std::runtime_error(argv[0] + " did not finish within " + std::to_string(timeout_s) +
                               " s and was killed");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string build_verilated_model(const GeneratedDesign& design, const std::string& top,
                                  const std::string& harness_cpp,
                                  const std::vector<std::string>& extra_cflags,
                                  const std::vector<std::string>& key_files) {
  const std::string src = CMNET_SOURCE_DIR;
  uint64_t h = 1469598103934665603ull;
  for (const auto& [name, text] : design.files) h = fnv1a(fnv1a(h, name), text);
  h = fnv1a(h, slurp(harness_cpp));
  h = fnv1a(h, slurp(src + "/sim/verilator_ports.h"));
  h = fnv1a(h, slurp(src + "/sim/cm1_harness_io.h"));
  h = fnv1a(h, top);
  for (const auto& f : extra_cflags) h = fnv1a(h, f);
  for (const auto& f : key_files) h = fnv1a(h, slurp(f));
  h = fnv1a(h, CMNET_VERILATOR);
  char key[32];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(h));
  const fs::path dir = fs::path(rtl_cache_dir()) / (top + "-" + key);
  fs::create_directories(dir.parent_path());
  FileLock lock(dir.string() + ".lock");
  const fs::path exe = dir / "obj" / ("V" + top);
  if (fs::exists(exe)) return exe.string();

  fs::create_directories(dir / "rtl");
  write_design(design, (dir / "rtl").string());
  std::string cflags = "-O2 -std=c++20 -I" + src;
  for (const auto& f : extra_cflags) cflags += " " + f;
  std::vector<std::string> cmd = {CMNET_VERILATOR, "--cc", "--exe", "--build", "-j", "2",
                                  "--top-module", top, "-Wno-fatal", "--x-assign", "fast",
                                  "-Mdir", (dir / "obj").string(), "-CFLAGS", cflags,
                                  "-MAKEFLAGS", "-s"};
  for (const auto& f : design.verilog_files()) cmd.push_back((dir / "rtl" / f).string());
  cmd.push_back(fs::absolute(harness_cpp).string());
  const std::string log = (dir / "build.log").string();
  const int rc = run_child(cmd, 3600, log);
  if (rc != 0 || !fs::exists(exe))
    throw std::runtime_error("Verilator build of " + top + " failed (exit " +
                             std::to_string(rc) + "), log " + log + ":\n" + tail(log, 3000));
  return exe.string();
}

}  // namespace cmnet

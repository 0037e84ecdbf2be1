#include "sim/core/harness_run.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "gen/core/process.h"
#include "gen/core/text_file.h"

namespace cmnet {
namespace {

// The work directory, removed when the run ends, by return or by throw.
class WorkDir {
 public:
  WorkDir() {
    char tmpl[] = "/tmp/cmnet-harness-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("cannot create a temporary directory for a harness run");
    path_ = tmpl;
  }
  ~WorkDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  std::string file(const char* name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

HarnessRunResult run_harness(const std::string& what, const std::string& exe, const std::string& input,
                             double timeout_s, const std::vector<std::string>& env,
                             const std::function<void(double)>& on_wait, bool output_file) {
  const WorkDir work;
  const std::string in = work.file("in.txt"), out = work.file("out.txt"), log = work.file("log.txt");
  {
    std::ofstream f(in, std::ios::binary);
    f << input;
    if (!f) throw std::runtime_error(what + ": cannot write the harness input " + in);
  }
  std::vector<std::string> argv = {exe, in};
  if (output_file) argv.push_back(out);
  const int rc = run_child(argv, timeout_s, log, env, on_wait);
  HarnessRunResult r;
  r.log = read_file_or_empty(log);
  if (rc != 0) throw std::runtime_error(what + " failed (exit " + std::to_string(rc) + "): " + r.log);
  if (output_file) r.out = read_file_or_empty(out);
  return r;
}

}  // namespace cmnet

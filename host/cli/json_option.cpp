// A command's `--json FILE` (host/cli/commands.h).
#include <cstdio>
#include <fstream>

#include "gen/core/errors.h"
#include "host/cli/commands.h"

namespace cmnet {

void write_json_option(const std::string& path, const nlohmann::ordered_json& j) {
  if (path.empty()) return;
  std::ofstream out(path);
  if (!out) throw InputError("--json " + path + ": cannot write");
  out << j.dump(2) << "\n";
  if (!out.flush()) throw InputError("--json " + path + ": cannot write");
  std::printf("   wrote %s\n", path.c_str());
}

}  // namespace cmnet

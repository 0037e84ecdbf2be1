#include "gen/core/text_file.h"

#include <fstream>
#include <sstream>

namespace cmnet {

std::optional<std::string> try_read_file(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

}  // namespace cmnet

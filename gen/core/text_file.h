// Reading a whole file, written once for every layer: configs, traffic files, board files,
// hw/ primitives, tool and harness logs.
#pragma once

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include "gen/core/errors.h"

namespace cmnet {

// The bytes of `path`, or nothing when it cannot be opened or read (errno says why).
std::optional<std::string> try_read_file(const std::string& path);

// A log or a tool's output that may be missing: its text, or "" (the absence shows elsewhere).
inline std::string read_file_or_empty(const std::string& path) { return try_read_file(path).value_or(""); }

// The bytes of `path`; throws `Error` ("PATH: cannot read WHAT: No such file or directory")
// when it cannot be read. `what` names the kind of file for the user ("traffic file").
template <class Error = ConfigError>
std::string read_file(const std::string& path, const std::string& what = "file") {
  std::optional<std::string> text = try_read_file(path);
  if (!text) throw Error(path + ": cannot read " + what + ": " + std::strerror(errno ? errno : EIO));
  return std::move(*text);
}

}  // namespace cmnet

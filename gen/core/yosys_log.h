// What a yosys log says that yosys's exit code does not. Yosys warns about a net with
// "multiple conflicting drivers" and still exits 0; Verilator may simulate the same RTL as meant
// (a slice of one vector written by several always blocks), so RTL == model holds while
// nextpnr refuses the netlist. Every synthesis cmnet runs, in the flow and in the tests, fails
// on it through this one check.
#pragma once

#include <string>

namespace cmnet {

// "" when the log is clean; else the offending lines (at most `max_lines`).
inline std::string yosys_netlist_problems(const std::string& log, int max_lines = 8) {
  std::string out;
  int n = 0;
  for (size_t at = log.find("multiple conflicting drivers"); at != std::string::npos;
       at = log.find("multiple conflicting drivers", at + 1)) {
    const size_t b = log.rfind('\n', at);
    const size_t begin = b == std::string::npos ? 0 : b + 1;
    const size_t e = log.find('\n', at);
    if (n++ < max_lines) out += log.substr(begin, (e == std::string::npos ? log.size() : e) - begin) + "\n";
  }
  if (n > max_lines) out += "(" + std::to_string(n - max_lines) + " more)\n";
  return out;
}

}  // namespace cmnet

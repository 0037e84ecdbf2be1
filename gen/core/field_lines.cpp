#include "gen/core/field_lines.h"

#include <fstream>
#include <sstream>

#include "gen/core/errors.h"

namespace cmnet {

uint64_t FieldLine::num(size_t i, const char* name, uint64_t lo, uint64_t hi, int base) const {
  const std::string& s = fields.at(i);
  size_t used = 0;
  unsigned long long v = 0;
  bool ok = !s.empty() && s[0] != '-' && s[0] != '+';
  try {
    v = ok ? std::stoull(s, &used, base) : 0;
  } catch (...) {
    ok = false;
  }
  if (!ok || used != s.size() || v < lo || v > hi)
    throw InputError(error(i, name, "out of range " + std::to_string(lo) + ".." + std::to_string(hi)));
  return v;
}

std::string FieldLine::error(size_t i, const char* name, const std::string& what) const {
  return at + "field '" + name + "' value " + fields.at(i) + " " + what;
}

std::vector<FieldLine> read_field_lines(std::istream& in, const std::string& name) {
  std::vector<FieldLine> out;
  std::string text;
  for (int ln = 1; std::getline(in, text); ++ln) {
    std::istringstream ss(text.substr(0, text.find('#')));
    FieldLine l;
    for (std::string f; ss >> f;) l.fields.push_back(f);
    if (l.fields.empty()) continue;
    l.at = name + ":" + std::to_string(ln) + ": ";
    l.line = ln;
    out.push_back(std::move(l));
  }
  if (in.bad()) throw InputError(name + ": cannot read");
  return out;
}

std::vector<FieldLine> read_field_lines_file(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open " + what);
  return read_field_lines(in, path);
}

}  // namespace cmnet

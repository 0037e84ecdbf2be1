#include "sim/clos/clos_circuit_file.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gen/core/errors.h"
#include "gen/core/field_lines.h"

namespace cmnet {

std::vector<ClosCircuitRequest> parse_clos_circuits(std::istream& in, const std::string& name, const ClosParams& p,
                                                    int default_words) {
  static const char* const kField[] = {"SRC", "DST", "WORDS"};
  const int N = p.ports();
  std::vector<ClosCircuitRequest> out;
  std::vector<int> src_line(static_cast<size_t>(N), 0), dst_line(static_cast<size_t>(N), 0);
  for (const FieldLine& l : read_field_lines(in, name)) {
    const std::vector<std::string>& f = l.fields;
    const std::string& at = l.at;
    const int ln = l.line;
    long long v[3] = {0, 0, default_words};
    const long long hi[3] = {N - 1, N - 1, kClosMaxCircuitWords};
    for (size_t k = 0; k < f.size() && k < 3; ++k) {
      const std::string field = "field " + std::to_string(k + 1) + " '" + kField[k] + "'";
      char* end = nullptr;
      errno = 0;
      v[k] = std::strtoll(f[k].c_str(), &end, 10);
      if (errno || *end || end == f[k].c_str() || !(f[k][0] == '-' || (f[k][0] >= '0' && f[k][0] <= '9')))
        throw InputError(at + "field " + std::to_string(k + 1) + " '" + f[k] + "': not a number (" + kField[k] + ")");
      if (v[k] < 0 || v[k] > hi[k])
        throw InputError(at + field + " value " + f[k] + " out of range 0.." + std::to_string(hi[k]));
    }
    if (f.size() < 2) throw InputError(at + "field 2 'DST' missing, expected 'SRC DST [WORDS]'");
    if (f.size() > 3) throw InputError(at + "field 4 '" + f[3] + "': one field too many, expected 'SRC DST [WORDS]'");
    const auto s = static_cast<size_t>(v[0]), d = static_cast<size_t>(v[1]);
    if (s == d) throw InputError(at + "field 2 'DST' value " + f[1] + ": a circuit joins two leaves (DST = SRC)");
    if (src_line[s])
      throw InputError(at + "field 1 'SRC' value " + f[0] + ": already the source of a circuit (line " +
                       std::to_string(src_line[s]) + ")");
    if (dst_line[d])
      throw InputError(at + "field 2 'DST' value " + f[1] + ": already the destination of a circuit (line " +
                       std::to_string(dst_line[d]) + ")");
    src_line[s] = dst_line[d] = ln;
    out.push_back({static_cast<int>(s), static_cast<int>(d), static_cast<int>(v[2]), ln});
  }
  if (out.empty()) throw InputError(name + ": no circuit (one 'SRC DST [WORDS]' a line)");
  return out;
}

std::vector<ClosCircuitRequest> read_clos_circuit_file(const std::string& path, const ClosParams& p, int default_words) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the circuit file");
  return parse_clos_circuits(in, path, p, default_words);
}

std::vector<int> circuit_dests(const std::vector<ClosCircuitRequest>& c, const ClosParams& p) {
  std::vector<int> dest(static_cast<size_t>(p.ports()), -1);
  for (const ClosCircuitRequest& x : c) dest.at(static_cast<size_t>(x.src)) = x.dst;
  return dest;
}

}  // namespace cmnet

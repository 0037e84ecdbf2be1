#include "sim/cm5ctl/cm5ctl_workload_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "gen/core/errors.h"
#include "gen/core/field_lines.h"

namespace cmnet {
namespace {

// The fields are leaves' values more than named ones: an error names field K by its place.
[[noreturn]] void fail(const FieldLine& l, size_t k, const std::string& why) {
  throw InputError(l.at + "field " + std::to_string(k + 1) + " '" + l.fields[k] + "': " + why);
}
[[noreturn]] void fail_line(const FieldLine& l, const std::string& why) { throw InputError(l.at + why); }

// A whole-field integer: decimal (maybe negative) or 0x hex.
std::optional<long long> integer(const std::string& s, bool* negative) {
  if (s.empty()) return std::nullopt;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const char* b = s.c_str();
  char* end = nullptr;
  errno = 0;
  *negative = s[0] == '-';
  if (*negative) {
    const long long v = std::strtoll(b, &end, 10);
    if (errno || *end || end == b) return std::nullopt;
    return v;
  }
  if (!hex && !(s[0] >= '0' && s[0] <= '9')) return std::nullopt;
  const unsigned long long v = std::strtoull(hex ? b + 2 : b, &end, hex ? 16 : 10);
  if (errno || *end || end == (hex ? b + 2 : b) || v > static_cast<unsigned long long>(INT64_MAX)) return std::nullopt;
  return static_cast<long long>(v);
}

// Field k (or `text`, a part of it) as an integer in lo..hi.
long long number(const FieldLine& l, size_t k, long long lo, long long hi, const std::string* text = nullptr) {
  bool neg = false;
  const auto v = integer(text ? *text : l.fields[k], &neg);
  if (!v) fail(l, k, "not a number (decimal or 0x hex)");
  if (*v < lo || *v > hi) fail(l, k, "out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return *v;
}

// Field k as a W-bit word: -2^(W-1)..2^W - 1, negative values in two's complement.
uint64_t word(const FieldLine& l, size_t k, int w, const std::string* text = nullptr) {
  const long long lo = -(1ll << (w - 1)), hi = static_cast<long long>(cm5::mask(w));
  return static_cast<uint64_t>(number(l, k, lo, hi, text)) & cm5::mask(w);
}

int index_of(const FieldLine& l, size_t k, const std::vector<std::string>& names, const char* what) {
  for (size_t i = 0; i < names.size(); ++i)
    if (l.fields[k] == names[i]) return static_cast<int>(i);
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  fail(l, k, std::string("not ") + what + " (allowed: " + all + ")");
}

const std::vector<std::string> kCombNames = {"or", "xor", "max", "add", "uadd", "addc", "uaddc"};
const std::vector<std::string> kBcastNames = {"user", "supervisor", "interrupt", "utility"};

struct Parser {
  int n, w;
  Cm5Workload out;
  std::optional<uint32_t> broadcaster;
  size_t broadcaster_line = 0;
  // The last combining line (a multi-word addition's next word must follow on from it).
  std::vector<Cm5Op> last;
  size_t last_line = 0;

  void values_count(const FieldLine& l, size_t first) const {
    const size_t got = l.fields.size() - first;
    if (got != static_cast<size_t>(n))
      fail_line(l, std::to_string(got) + " values after '" + l.fields[0] + "', the network has " + std::to_string(n) +
                   " leaves (one value or '-' each)");
  }

  // reduce / scan-fwd / scan-bwd / segscan-fwd / segscan-bwd COMB V0 .. V(N-1)
  void combine(const FieldLine& l, uint8_t kind, bool segmented) {
    if (l.fields.size() < 2) fail_line(l, "'" + l.fields[0] + "' needs a combiner and a value per leaf");
    const uint8_t comb = static_cast<uint8_t>(index_of(l, 1, kCombNames, "a combiner"));
    values_count(l, 2);
    std::vector<Cm5Op> ops(static_cast<size_t>(n));
    for (size_t i = 0; i < ops.size(); ++i) {
      const size_t k = i + 2;
      Cm5Op& o = ops[i];
      o.kind = kind;
      o.comb = comb;
      o.segmented = segmented;
      const std::string& v = l.fields[k];
      if (v == "-") {
        o.abstain = true;
        continue;
      }
      if (!v.empty() && v[0] == '|') {
        if (!segmented) fail(l, k, "a segment bit ('|') in an unsegmented operation (segscan-fwd, segscan-bwd take them)");
        o.seg = true;
        const std::string rest = v.substr(1);
        o.data = word(l, k, w, &rest);
      } else {
        o.data = word(l, k, w);
      }
    }
    if (comb == cm5::kAddc || comb == cm5::kUaddc) chain(l, ops);
    for (size_t i = 0; i < ops.size(); ++i) out.leaf[i].push_back(ops[i]);
    last = ops;
    last_line = static_cast<size_t>(l.line);
  }

  // An addc / uaddc word goes on from the line before's addition: same operation and marks.
  void chain(const FieldLine& l, const std::vector<Cm5Op>& ops) const {
    const std::string prev = last_line ? " (line " + std::to_string(last_line) + ")" : "";
    const bool signed_add = ops[0].comb == cm5::kAddc;
    if (last.empty() || !cm5::is_add(last[0].comb) || cm5::is_signed_add(last[0].comb) != signed_add)
      fail(l, 1, std::string("goes on from ") + (signed_add ? "an add or addc" : "a uadd or uaddc") +
                 " on the combining line before" + prev);
    if (last[0].kind != ops[0].kind || last[0].segmented != ops[0].segmented)
      fail(l, 0, "a multi-word addition's words are one operation: the line before" + prev + " is '" +
                 (last[0].segmented ? "seg" : "") + cm5::kind_name(last[0].kind) + "'");
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].abstain != last[i].abstain || ops[i].seg != last[i].seg)
        fail(l, i + 2, "a multi-word addition's words have the abstain and segment marks of its first word" + prev);
  }

  void barrier(const FieldLine& l) {
    values_count(l, 1);
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
      Cm5Op o;
      o.kind = cm5::kSync;
      o.comb = cm5::kOr;
      if (l.fields[i + 1] == "-") o.abstain = true;
      else o.data = static_cast<uint64_t>(number(l, i + 1, 0, 1));
      out.leaf[i].push_back(o);
    }
    last.clear();  // a barrier ends any multi-word addition
  }

  void broadcast(const FieldLine& l) {
    if (l.fields.size() < 3 || l.fields.size() > 4) fail_line(l, "expected 'broadcast LEAF VALUE [KIND]'");
    const uint32_t leaf = static_cast<uint32_t>(number(l, 1, 0, n - 1));
    if (broadcaster && *broadcaster != leaf)
      fail(l, 1, "every broadcast of a file comes from one leaf (leaf " + std::to_string(*broadcaster) +
                 " broadcasts on line " + std::to_string(broadcaster_line) + ")");
    broadcaster = leaf;
    broadcaster_line = broadcaster_line ? broadcaster_line : static_cast<size_t>(l.line);
    Cm5Op o;
    o.broadcast = true;
    o.kind = l.fields.size() == 4 ? static_cast<uint8_t>(index_of(l, 3, kBcastNames, "a broadcast kind")) : cm5::kUser;
    o.comb = 0;
    o.data = word(l, 2, w);
    out.leaf[leaf].push_back(o);
  }

  void global(const FieldLine& l) {
    if (l.fields.size() != 4) fail_line(l, "expected 'global CYCLE LEAF BITS'");
    Cm5GlobalIn g;
    g.cycle = static_cast<uint64_t>(number(l, 1, 0, 1ll << 40));
    g.leaf = static_cast<uint32_t>(number(l, 2, 0, n - 1));
    g.value = static_cast<uint8_t>(number(l, 3, 0, 7));
    out.globals.push_back(g);
  }

  void line(const FieldLine& l) {
    const std::string& op = l.fields[0];
    if (op == "reduce") combine(l, cm5::kReduce, false);
    else if (op == "scan-fwd") combine(l, cm5::kScanFwd, false);
    else if (op == "scan-bwd") combine(l, cm5::kScanBwd, false);
    else if (op == "segscan-fwd") combine(l, cm5::kScanFwd, true);
    else if (op == "segscan-bwd") combine(l, cm5::kScanBwd, true);
    else if (op == "barrier") barrier(l);
    else if (op == "broadcast") broadcast(l);
    else if (op == "global") global(l);
    else
      fail(l, 0, "not an operation (allowed: reduce, scan-fwd, scan-bwd, segscan-fwd, segscan-bwd, barrier, "
                 "broadcast, global)");
  }
};

// The workload of a file's lines.
Cm5Workload workload_of(const std::vector<FieldLine>& lines, const std::string& name, int leaves, int word_bits) {
  Parser p{leaves, word_bits, {}, {}, 0, {}, 0};
  p.out.name = name;
  p.out.leaf.resize(static_cast<size_t>(leaves));
  for (const FieldLine& l : lines) p.line(l);
  if (p.out.multi_ops() == 0 && p.out.broadcasts() == 0)
    throw InputError(name + ": no operation (reduce, scan-fwd, scan-bwd, segscan-fwd, segscan-bwd, barrier, broadcast)");
  // The model and the board take global inputs in cycle order; the file may give them in any.
  std::stable_sort(p.out.globals.begin(), p.out.globals.end(),
                   [](const Cm5GlobalIn& a, const Cm5GlobalIn& b) { return a.cycle < b.cycle; });
  return p.out;
}

}  // namespace

Cm5Workload parse_cm5ctl_workload(std::istream& in, const std::string& name, int leaves, int word_bits) {
  return workload_of(read_field_lines(in, name), name, leaves, word_bits);
}

Cm5Workload read_cm5ctl_workload(const std::string& path, int leaves, int word_bits) {
  return workload_of(read_field_lines_file(path, "the workload file"), path, leaves, word_bits);
}

}  // namespace cmnet

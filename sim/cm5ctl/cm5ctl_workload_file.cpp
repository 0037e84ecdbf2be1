#include "sim/cm5ctl/cm5ctl_workload_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "gen/core/errors.h"

namespace cmnet {
namespace {

// One line's fields and where they are, for the messages.
struct Line {
  std::string at;  // "FILE:LINE: "
  std::vector<std::string> f;
  [[noreturn]] void fail(size_t k, const std::string& why) const {
    throw InputError(at + "field " + std::to_string(k + 1) + " '" + f[k] + "': " + why);
  }
  [[noreturn]] void fail_line(const std::string& why) const { throw InputError(at + why); }
};

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
long long number(const Line& l, size_t k, long long lo, long long hi, const std::string* text = nullptr) {
  bool neg = false;
  const auto v = integer(text ? *text : l.f[k], &neg);
  if (!v) l.fail(k, "not a number (decimal or 0x hex)");
  if (*v < lo || *v > hi) l.fail(k, "out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return *v;
}

// Field k as a W-bit word: -2^(W-1)..2^W - 1, negative values in two's complement.
uint64_t word(const Line& l, size_t k, int w, const std::string* text = nullptr) {
  const long long lo = -(1ll << (w - 1)), hi = static_cast<long long>(cm5::mask(w));
  return static_cast<uint64_t>(number(l, k, lo, hi, text)) & cm5::mask(w);
}

int index_of(const Line& l, size_t k, const std::vector<std::string>& names, const char* what) {
  for (size_t i = 0; i < names.size(); ++i)
    if (l.f[k] == names[i]) return static_cast<int>(i);
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  l.fail(k, std::string("not ") + what + " (allowed: " + all + ")");
}

const std::vector<std::string> kCombNames = {"or", "xor", "max", "add", "uadd", "addc", "uaddc"};
const std::vector<std::string> kBcastNames = {"user", "supervisor", "interrupt", "utility"};

struct Parser {
  std::string name;
  int n, w;
  Cm5Workload out;
  std::optional<uint32_t> broadcaster;
  size_t broadcaster_line = 0;
  // The last combining line (a multi-word addition's next word must follow on from it).
  std::vector<Cm5Op> last;
  size_t last_line = 0;

  void values_count(const Line& l, size_t first) const {
    const size_t got = l.f.size() - first;
    if (got != static_cast<size_t>(n))
      l.fail_line(std::to_string(got) + " values after '" + l.f[0] + "', the network has " + std::to_string(n) +
                  " leaves (one value or '-' each)");
  }

  // reduce / scan-fwd / scan-bwd / segscan-fwd / segscan-bwd COMB V0 .. V(N-1)
  void combine(const Line& l, uint8_t kind, bool segmented, size_t ln) {
    if (l.f.size() < 2) l.fail_line("'" + l.f[0] + "' needs a combiner and a value per leaf");
    const uint8_t comb = static_cast<uint8_t>(index_of(l, 1, kCombNames, "a combiner"));
    values_count(l, 2);
    std::vector<Cm5Op> ops(static_cast<size_t>(n));
    for (size_t i = 0; i < ops.size(); ++i) {
      const size_t k = i + 2;
      Cm5Op& o = ops[i];
      o.kind = kind;
      o.comb = comb;
      o.segmented = segmented;
      const std::string& v = l.f[k];
      if (v == "-") {
        o.abstain = true;
        continue;
      }
      if (!v.empty() && v[0] == '|') {
        if (!segmented) l.fail(k, "a segment bit ('|') in an unsegmented operation (segscan-fwd, segscan-bwd take them)");
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
    last_line = ln;
  }

  // An addc / uaddc word goes on from the line before's addition: same operation and marks.
  void chain(const Line& l, const std::vector<Cm5Op>& ops) const {
    const std::string prev = last_line ? " (line " + std::to_string(last_line) + ")" : "";
    const bool signed_add = ops[0].comb == cm5::kAddc;
    if (last.empty() || !cm5::is_add(last[0].comb) || cm5::is_signed_add(last[0].comb) != signed_add)
      l.fail(1, std::string("goes on from ") + (signed_add ? "an add or addc" : "a uadd or uaddc") +
                    " on the combining line before" + prev);
    if (last[0].kind != ops[0].kind || last[0].segmented != ops[0].segmented)
      l.fail(0, "a multi-word addition's words are one operation: the line before" + prev + " is '" +
                    (last[0].segmented ? "seg" : "") + cm5::kind_name(last[0].kind) + "'");
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].abstain != last[i].abstain || ops[i].seg != last[i].seg)
        l.fail(i + 2, "a multi-word addition's words have the abstain and segment marks of its first word" + prev);
  }

  void barrier(const Line& l) {
    values_count(l, 1);
    for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
      Cm5Op o;
      o.kind = cm5::kSync;
      o.comb = cm5::kOr;
      if (l.f[i + 1] == "-") o.abstain = true;
      else o.data = static_cast<uint64_t>(number(l, i + 1, 0, 1));
      out.leaf[i].push_back(o);
    }
    last.clear();  // a barrier ends any multi-word addition
  }

  void broadcast(const Line& l, size_t ln) {
    if (l.f.size() < 3 || l.f.size() > 4) l.fail_line("expected 'broadcast LEAF VALUE [KIND]'");
    const uint32_t leaf = static_cast<uint32_t>(number(l, 1, 0, n - 1));
    if (broadcaster && *broadcaster != leaf)
      l.fail(1, "every broadcast of a file comes from one leaf (leaf " + std::to_string(*broadcaster) +
                    " broadcasts on line " + std::to_string(broadcaster_line) + ")");
    broadcaster = leaf;
    broadcaster_line = broadcaster_line ? broadcaster_line : ln;
    Cm5Op o;
    o.broadcast = true;
    o.kind = l.f.size() == 4 ? static_cast<uint8_t>(index_of(l, 3, kBcastNames, "a broadcast kind")) : cm5::kUser;
    o.comb = 0;
    o.data = word(l, 2, w);
    out.leaf[leaf].push_back(o);
  }

  void global(const Line& l) {
    if (l.f.size() != 4) l.fail_line("expected 'global CYCLE LEAF BITS'");
    Cm5GlobalIn g;
    g.cycle = static_cast<uint64_t>(number(l, 1, 0, 1ll << 40));
    g.leaf = static_cast<uint32_t>(number(l, 2, 0, n - 1));
    g.value = static_cast<uint8_t>(number(l, 3, 0, 7));
    out.globals.push_back(g);
  }

  void line(const std::string& text, size_t ln) {
    Line l;
    l.at = name + ":" + std::to_string(ln) + ": ";
    std::istringstream ss(text.substr(0, text.find('#')));
    for (std::string t; ss >> t;) l.f.push_back(t);
    if (l.f.empty()) return;
    const std::string& op = l.f[0];
    if (op == "reduce") combine(l, cm5::kReduce, false, ln);
    else if (op == "scan-fwd") combine(l, cm5::kScanFwd, false, ln);
    else if (op == "scan-bwd") combine(l, cm5::kScanBwd, false, ln);
    else if (op == "segscan-fwd") combine(l, cm5::kScanFwd, true, ln);
    else if (op == "segscan-bwd") combine(l, cm5::kScanBwd, true, ln);
    else if (op == "barrier") barrier(l);
    else if (op == "broadcast") broadcast(l, ln);
    else if (op == "global") global(l);
    else
      l.fail(0, "not an operation (allowed: reduce, scan-fwd, scan-bwd, segscan-fwd, segscan-bwd, barrier, "
                "broadcast, global)");
  }
};

}  // namespace

Cm5Workload parse_cm5ctl_workload(std::istream& in, const std::string& name, int leaves, int word_bits) {
  Parser p{name, leaves, word_bits, {}, {}, 0, {}, 0};
  p.out.name = name;
  p.out.leaf.resize(static_cast<size_t>(leaves));
  std::string text;
  size_t ln = 0;
  while (std::getline(in, text)) p.line(text, ++ln);
  if (in.bad()) throw InputError(name + ": cannot read the workload file");
  if (p.out.multi_ops() == 0 && p.out.broadcasts() == 0)
    throw InputError(name + ": no operation (reduce, scan-fwd, scan-bwd, segscan-fwd, segscan-bwd, barrier, broadcast)");
  // The model and the board take global inputs in cycle order; the file may give them in any.
  std::stable_sort(p.out.globals.begin(), p.out.globals.end(),
                   [](const Cm5GlobalIn& a, const Cm5GlobalIn& b) { return a.cycle < b.cycle; });
  return p.out;
}

Cm5Workload read_cm5ctl_workload(const std::string& path, int leaves, int word_bits) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the workload file");
  return parse_cm5ctl_workload(in, path, leaves, word_bits);
}

}  // namespace cmnet

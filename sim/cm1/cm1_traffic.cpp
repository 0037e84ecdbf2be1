// Traffic files and named routing patterns.
#include "sim/cm1/cm1_traffic.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gen/core/errors.h"
#include "gen/core/text_file.h"

namespace cmnet {

namespace {

constexpr const char* kFieldNames[4] = {"SRC", "DST", "DATA", "VP"};

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t mask_bits(int bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

[[noreturn]] void fail(const std::string& where, int line, const std::string& what) {
  throw InputError(where + ":" + std::to_string(line) + ": " + what);
}

bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }

// Decimal field: digits only; returns false on overflow past uint64 (reported as out of range).
void parse_decimal(std::string_view tok, const char* field, uint64_t hi, const std::string& where, int line,
                   uint64_t* out) {
  std::string_view digits = tok;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative || (!digits.empty() && digits[0] == '+')) digits.remove_prefix(1);
  if (digits.empty()) {
    fail(where, line, std::string("field '") + field + "' value '" + std::string(tok) +
                          "' is not a decimal number");
  }
  uint64_t v = 0;
  bool overflow = false;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') {
      fail(where, line, std::string("field '") + field + "' value '" + std::string(tok) +
                            "' is not a decimal number");
    }
    const uint64_t d = static_cast<uint64_t>(ch - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    if (!overflow) v = v * 10 + d;
  }
  if (negative && v == 0 && !overflow) {  // "-0" is zero
    *out = 0;
    return;
  }
  if (negative || overflow || v > hi) {
    fail(where, line, std::string("field '") + field + "' value " + std::string(tok) + " out of range 0.." +
                          std::to_string(hi));
  }
  *out = v;
}

// Hex field with optional 0x; `bits` wide at most.
void parse_hex(std::string_view tok, const char* field, int bits, const std::string& where, int line,
               uint64_t* out) {
  std::string_view digits = tok;
  if (digits.size() >= 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
  if (digits.empty()) {
    fail(where, line, std::string("field '") + field + "' value '" + std::string(tok) + "' is not a hex number");
  }
  uint64_t v = 0;
  bool overflow = false;
  for (char ch : digits) {
    int d;
    if (ch >= '0' && ch <= '9') {
      d = ch - '0';
    } else if (ch >= 'a' && ch <= 'f') {
      d = ch - 'a' + 10;
    } else if (ch >= 'A' && ch <= 'F') {
      d = ch - 'A' + 10;
    } else {
      fail(where, line, std::string("field '") + field + "' value '" + std::string(tok) +
                            "' is not a hex number");
    }
    if (v >> 60) overflow = true;
    if (!overflow) v = (v << 4) | static_cast<uint64_t>(d);
  }
  const uint64_t hi = mask_bits(bits);
  if (overflow || v > hi) {
    fail(where, line, std::string("field '") + field + "' value " + std::string(tok) + " out of range 0x0.." +
                          hex(hi) + " (" + std::to_string(bits) + " bits)");
  }
  *out = v;
}

// Uniform integer in [0, n) from a 64-bit generator, by rejection (portable, unlike
// std::uniform_int_distribution whose algorithm differs between standard libraries).
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  if (n <= 1) return 0;
  const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
  for (;;) {
    const uint64_t x = rng();
    if (x >= threshold) return x % n;
  }
}

}  // namespace

void check_traffic(const Traffic& t, const Cm1Params& p, const std::string& where) {
  const uint64_t nproc = static_cast<uint64_t>(p.processors());
  const uint64_t dmask = mask_bits(p.data_bits);
  const uint64_t vmask = mask_bits(p.vp_bits);
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Message& m = t.messages[i];
    auto bad = [&](const char* field, const std::string& value, const std::string& range) {
      throw InputError(where + ": message " + std::to_string(i) + ": field '" + field + "' value " + value +
                       " out of range " + range);
    };
    if (m.src >= nproc) bad("SRC", std::to_string(m.src), "0.." + std::to_string(nproc - 1));
    if (m.dst >= nproc) bad("DST", std::to_string(m.dst), "0.." + std::to_string(nproc - 1));
    if (m.data & ~dmask) bad("DATA", hex(m.data), "0x0.." + hex(dmask) + " (" + std::to_string(p.data_bits) + " bits)");
    if (m.vp & ~vmask) bad("VP", std::to_string(m.vp), "0.." + std::to_string(vmask));
  }
}

Traffic parse_traffic(const std::string& text, const std::string& name, const Cm1Params& p) {
  Traffic t;
  const uint64_t max_proc = static_cast<uint64_t>(p.processors()) - 1;
  const uint64_t max_vp = mask_bits(p.vp_bits);
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);

    std::string_view tok[5];
    int ntok = 0;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && is_space(line[i])) ++i;
      if (i >= line.size()) break;
      const size_t start = i;
      while (i < line.size() && !is_space(line[i])) ++i;
      if (ntok == 4) {
        fail(name, line_no, "unexpected extra field '" + std::string(line.substr(start, i - start)) +
                                "' (expected SRC DST DATA [VP])");
      }
      tok[ntok++] = line.substr(start, i - start);
    }
    if (ntok == 0) continue;
    if (ntok < 3) {
      fail(name, line_no, std::string("missing field '") + kFieldNames[ntok] + "' (expected SRC DST DATA [VP])");
    }
    Message m;
    uint64_t v = 0;
    parse_decimal(tok[0], "SRC", max_proc, name, line_no, &v);
    m.src = static_cast<uint32_t>(v);
    parse_decimal(tok[1], "DST", max_proc, name, line_no, &v);
    m.dst = static_cast<uint32_t>(v);
    parse_hex(tok[2], "DATA", p.data_bits, name, line_no, &m.data);
    if (ntok == 4) {
      parse_decimal(tok[3], "VP", max_vp, name, line_no, &v);
      m.vp = static_cast<uint32_t>(v);
    }
    t.messages.push_back(m);
  }
  return t;
}

Traffic read_traffic_file(const std::string& path, const Cm1Params& p) {
  return parse_traffic(read_file<InputError>(path, "traffic file"), path, p);
}

std::string format_traffic(const Traffic& t) {
  std::string out = "# SRC DST DATA VP\n";
  out.reserve(out.size() + t.messages.size() * 24);
  char buf[96];
  for (const Message& m : t.messages) {
    std::snprintf(buf, sizeof buf, "%u %u 0x%llx %u\n", m.src, m.dst, static_cast<unsigned long long>(m.data),
                  m.vp);
    out += buf;
  }
  return out;
}

std::vector<std::string> pattern_names() {
  return {"permutation", "many-to-one", "hot-spot", "bit-complement", "transpose", "identity"};
}

Traffic make_pattern(const std::string& name, const Cm1Params& p, uint64_t seed, int per_proc) {
  enum Kind { kPerm, kMany, kHot, kComplement, kTranspose, kIdentity } kind;
  if (name == "permutation") {
    kind = kPerm;
  } else if (name == "many-to-one") {
    kind = kMany;
  } else if (name == "hot-spot") {
    kind = kHot;
  } else if (name == "bit-complement") {
    kind = kComplement;
  } else if (name == "transpose") {
    kind = kTranspose;
  } else if (name == "identity") {
    kind = kIdentity;
  } else {
    std::string valid;
    for (const std::string& n : pattern_names()) valid += (valid.empty() ? "" : ", ") + n;
    throw InputError("unknown traffic pattern '" + name + "' (valid: " + valid + ")");
  }
  if (per_proc < 1 || per_proc > 65536) {
    throw InputError("traffic pattern '" + name + "': per_proc = " + std::to_string(per_proc) +
                     " out of range 1..65536");
  }
  validate(p, "traffic pattern '" + name + "'");

  const uint32_t n = static_cast<uint32_t>(p.processors());
  int nbits = 0;
  while ((uint64_t{1} << nbits) < n) ++nbits;
  const uint32_t nmask = static_cast<uint32_t>(mask_bits(nbits));
  const uint64_t dmask = mask_bits(p.data_bits);
  const uint64_t nvp = p.vp_bits > 0 ? (uint64_t{1} << p.vp_bits) : 1;

  std::mt19937_64 rng(seed);
  Traffic t;
  t.messages.reserve(static_cast<size_t>(n) * static_cast<size_t>(per_proc));
  std::vector<uint32_t> perm;
  if (kind == kPerm) perm.resize(n);

  for (int round = 0; round < per_proc; ++round) {
    if (kind == kPerm) {
      // Fisher-Yates shuffle of the identity, a fresh permutation each round.
      for (uint32_t i = 0; i < n; ++i) perm[i] = i;
      for (uint32_t i = n; i > 1; --i) {
        const uint32_t j = static_cast<uint32_t>(uniform_below(rng, i));
        std::swap(perm[i - 1], perm[j]);
      }
    }
    for (uint32_t src = 0; src < n; ++src) {
      Message m;
      m.src = src;
      switch (kind) {
        case kPerm:
          m.dst = perm[src];
          break;
        case kMany:
          m.dst = static_cast<uint32_t>(uniform_below(rng, n));
          break;
        case kHot:
          m.dst = uniform_below(rng, 4) == 0 ? 0 : static_cast<uint32_t>(uniform_below(rng, n));
          break;
        case kComplement:
          m.dst = ~src & nmask;
          break;
        case kTranspose: {
          // Rotate the nbits-bit processor number left by floor(nbits/2): for even nbits this
          // swaps the high and low halves.
          const int k = nbits / 2;
          m.dst = k == 0 ? src : (((src << k) | (src >> (nbits - k))) & nmask);
          break;
        }
        case kIdentity:
          m.dst = src;
          break;
      }
      m.data = rng() & dmask;
      m.vp = p.vp_bits > 0 ? static_cast<uint32_t>(uniform_below(rng, nvp)) : 0;
      t.messages.push_back(m);
    }
  }
  return t;
}

}  // namespace cmnet

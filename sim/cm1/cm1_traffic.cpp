// Traffic files and named routing patterns.
#include "sim/cm1/cm1_traffic.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gen/core/errors.h"
#include "gen/core/field_lines.h"

namespace cmnet {

namespace {

constexpr const char* kFieldNames[4] = {"SRC", "DST", "DATA", "VP"};

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t mask_bits(int bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

// A decimal field up to `hi`: a field with other characters than digits (after a sign) is not a
// number; a sign, or a number above `hi`, is out of range.
uint32_t decimal(const FieldLine& l, size_t i, const char* name, uint64_t hi) {
  const std::string& s = l.fields[i];
  const size_t from = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (from == s.size() || s.find_first_not_of("0123456789", from) != std::string::npos)
    throw InputError(l.error(i, name, "is not a decimal number"));
  return static_cast<uint32_t>(l.num(i, name, 0, hi));
}

// A hex field, with or without 0x, `bits` wide at most.
uint64_t hex_field(const FieldLine& l, size_t i, const char* name, int bits) {
  std::string s = l.fields[i];
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.erase(0, 2);
  if (s.empty() || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw InputError(l.error(i, name, "is not a hex number"));
  s.erase(0, std::min(s.find_first_not_of('0'), s.size() - 1));  // leading zeros (keeping a digit)
  const uint64_t hi = mask_bits(bits);
  if (s.size() > 16 || std::stoull(s, nullptr, 16) > hi)
    throw InputError(l.error(i, name, "out of range 0x0.." + hex(hi) + " (" + std::to_string(bits) + " bits)"));
  return std::stoull(s, nullptr, 16);
}

// The messages of a traffic file's lines.
Traffic traffic_of(const std::vector<FieldLine>& lines, const Cm1Params& p) {
  Traffic t;
  const uint64_t max_proc = static_cast<uint64_t>(p.processors()) - 1;
  for (const FieldLine& l : lines) {
    const size_t n = l.fields.size();
    if (n > 4) throw InputError(l.at + "unexpected extra field '" + l.fields[4] + "' (expected SRC DST DATA [VP])");
    if (n < 3) throw InputError(l.at + "missing field '" + kFieldNames[n] + "' (expected SRC DST DATA [VP])");
    Message m;
    m.src = decimal(l, 0, "SRC", max_proc);
    m.dst = decimal(l, 1, "DST", max_proc);
    m.data = hex_field(l, 2, "DATA", p.data_bits);
    if (n == 4) m.vp = decimal(l, 3, "VP", mask_bits(p.vp_bits));
    t.messages.push_back(m);
  }
  return t;
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
  std::istringstream in(text);
  return traffic_of(read_field_lines(in, name), p);
}

Traffic read_traffic_file(const std::string& path, const Cm1Params& p) {
  return traffic_of(read_field_lines_file(path, "traffic file"), p);
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

#include "sim/cm5data/cm5data_traffic.h"

#include <algorithm>
#include <numeric>

#include "gen/core/errors.h"
#include "gen/core/field_lines.h"

namespace cmnet {

std::vector<uint32_t> cm5_message_words(const Cm5DataParams& p, const Cm5DataMessage& m) {
  std::vector<uint32_t> w;
  w.push_back(cm5_head_word(p, m.src, m.dst, m.len, m.tag) | (m.afd ? 8u : 0u));
  for (uint32_t d : m.data) w.push_back(d);
  w.push_back(cm5_crc32(w));
  return w;
}

std::vector<std::string> cm5_pattern_names() {
  return {"random", "permutation", "hot-spot", "all-to-one", "nearest-neighbour", "bit-complement"};
}

namespace {
uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// Morton (Z-order) code <-> (x, y) on a 2^h x 2^h grid.
uint32_t morton(uint32_t x, uint32_t y, int h) {
  uint32_t z = 0;
  for (int b = 0; b < h; ++b) z |= (((x >> b) & 1u) << (2 * b)) | (((y >> b) & 1u) << (2 * b + 1));
  return z;
}
void unmorton(uint32_t z, int h, uint32_t& x, uint32_t& y) {
  x = y = 0;
  for (int b = 0; b < h; ++b) {
    x |= ((z >> (2 * b)) & 1u) << b;
    y |= ((z >> (2 * b + 1)) & 1u) << b;
  }
}
}  // namespace

Cm5DataDestGen::Cm5DataDestGen(const std::string& nm, const Cm5DataParams& p, uint64_t seed)
    : name(nm), n(p.leaves()), height(p.height), state(seed * 0x2545F4914F6CDD1Dull + 7) {
  const auto names = cm5_pattern_names();
  if (std::find(names.begin(), names.end(), nm) == names.end()) {
    std::string list;
    for (const auto& x : names) list += (list.empty() ? "" : ", ") + x;
    throw InputError("--pattern " + nm + ": unknown pattern (allowed: " + list + ")");
  }
  if (!p.partitions.empty()) {
    owner.assign(n, -1);
    for (size_t k = 0; k < p.partitions.size(); ++k) {
      Cm5DataParams sub;
      sub.height = p.partitions[k].level;
      parts.emplace_back(nm, sub, seed + 0x9E3779B9ull * (k + 1));
      base.push_back(p.partition_base(k));
      for (uint32_t x = 0; x < p.partition_size(k); ++x) owner[base.back() + x] = static_cast<int>(k);
    }
  }
}

uint64_t Cm5DataDestGen::rnd() { return splitmix(state); }

uint32_t Cm5DataDestGen::next(uint32_t src, uint64_t round) {
  if (!parts.empty()) {
    // A leaf outside every partition sends nothing in a pattern; asked anyway, it sends to itself.
    const int k = owner[src];
    if (k < 0) return src;
    const size_t i = static_cast<size_t>(k);
    return base[i] + parts[i].next(src - base[i], round);
  }
  if (name == "random") return static_cast<uint32_t>(rnd() % n);
  if (name == "permutation") {
    while (perms.size() <= round) {
      std::vector<uint32_t> perm(n);
      std::iota(perm.begin(), perm.end(), 0u);
      for (uint32_t i = n - 1; i > 0; --i) std::swap(perm[i], perm[rnd() % (i + 1)]);
      perms.push_back(std::move(perm));
    }
    return perms[round][src];
  }
  if (name == "hot-spot") return rnd() % 4 == 0 ? 0u : static_cast<uint32_t>(rnd() % n);
  if (name == "all-to-one") return 0;
  if (name == "bit-complement") return ~src & (n - 1);
  // nearest-neighbour
  uint32_t x, y;
  unmorton(src, height, x, y);
  const uint32_t side = 1u << height;
  switch (rnd() % 4) {
    case 0: x = (x + 1) % side; break;
    case 1: x = (x + side - 1) % side; break;
    case 2: y = (y + 1) % side; break;
    default: y = (y + side - 1) % side; break;
  }
  return morton(x, y, height);
}

Cm5DataTraffic make_cm5_pattern(const std::string& name, const Cm5DataParams& p, uint64_t seed, int per_leaf, int len) {
  Cm5DataDestGen gen(name, p, seed);
  uint64_t s = seed ^ 0x5bd1e995ull;
  Cm5DataTraffic t;
  for (int r = 0; r < per_leaf; ++r)
    for (uint32_t src = 0; src < p.leaves(); ++src) {
      if (!gen.sends(src)) continue;
      Cm5DataMessage m;
      m.src = src;
      m.dst = gen.next(src, static_cast<uint64_t>(r));
      m.len = len > 0 ? len : 1 + static_cast<int>(splitmix(s) % static_cast<uint64_t>(p.max_words));
      m.tag = static_cast<int>(splitmix(s) % 16);
      m.data.push_back((src << 12) | static_cast<uint32_t>(r & 0xFFF));
      for (int k = 1; k < m.len; ++k) m.data.push_back(static_cast<uint32_t>(splitmix(s)));
      t.messages.push_back(m);
    }
  return t;
}

Cm5DataTraffic make_cm5_open_loop(const std::string& name, const Cm5DataParams& p, uint64_t seed, double rate,
                              uint64_t cycles, int len) {
  Cm5DataDestGen gen(name, p, seed);
  uint64_t s = seed ^ 0x1234567ull;
  Cm5DataTraffic t;
  std::vector<uint64_t> count(p.leaves(), 0);
  const uint64_t threshold = static_cast<uint64_t>(rate * 18446744073709551615.0);
  for (uint64_t c = 0; c < cycles; ++c)
    for (uint32_t src = 0; src < p.leaves(); ++src) {
      if (splitmix(s) >= threshold || !gen.sends(src)) continue;
      Cm5DataMessage m;
      m.src = src;
      m.dst = gen.next(src, count[src]);
      m.len = len;
      m.tag = 0;
      m.data.push_back((src << 12) | static_cast<uint32_t>(count[src] & 0xFFF));
      for (int k = 1; k < m.len; ++k) m.data.push_back(static_cast<uint32_t>(c));
      m.inject_at = c;
      ++count[src];
      t.messages.push_back(std::move(m));
    }
  return t;
}

bool cm5_refused(const Cm5DataParams& p, const Cm5DataMessage& m) {
  return !p.may_address(m.src, m.dst);
}

void check_cm5_traffic(const Cm5DataTraffic& t, const Cm5DataParams& p, const std::string& where) {
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataMessage& m = t.messages[i];
    const std::string at = where + ": message " + std::to_string(i) + ": ";
    if (m.src >= p.leaves() || m.dst >= p.leaves())
      throw InputError(at + "leaf out of range 0.." + std::to_string(p.leaves() - 1));
    if (m.len < 1 || m.len > p.max_words || static_cast<int>(m.data.size()) != m.len)
      throw InputError(at + "length " + std::to_string(m.len) + " out of range 1.." + std::to_string(p.max_words));
    if (m.tag < 0 || m.tag > 15) throw InputError(at + "tag out of range 0..15");
  }
}

Cm5DataTraffic read_cm5_traffic_file(const std::string& path, const Cm5DataParams& p) {
  Cm5DataTraffic t;
  const uint64_t top = static_cast<uint64_t>(p.leaves() - 1);
  for (const FieldLine& l : read_field_lines_file(path, "traffic file")) {
    const std::vector<std::string>& f = l.fields;
    if (f.size() < 3)
      throw InputError(l.at + "expected SRC DST DATA... (1.." + std::to_string(p.max_words) + " data words)");
    Cm5DataMessage m;
    m.src = static_cast<uint32_t>(l.num(0, "SRC", 0, top));
    m.dst = static_cast<uint32_t>(l.num(1, "DST", 0, top));
    if (static_cast<int>(f.size()) - 2 > p.max_words)
      throw InputError(l.at + "field 'DATA': " + std::to_string(f.size() - 2) + " words, at most " +
                       std::to_string(p.max_words) + " (max_words)");
    for (size_t k = 2; k < f.size(); ++k) {
      try {
        m.data.push_back(static_cast<uint32_t>(l.num(k, "DATA", 0, 0xFFFFFFFFull, 16)));
      } catch (const InputError&) {
        throw InputError(l.error(k, "DATA", "is not a 32-bit hex word"));
      }
    }
    m.len = static_cast<int>(m.data.size());
    t.messages.push_back(m);
  }
  return t;
}

}  // namespace cmnet

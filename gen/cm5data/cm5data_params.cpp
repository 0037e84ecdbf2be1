// Cm5DataParams: derived figures, the tree's chip numbering, the message helpers, range checks.
#include "gen/cm5data/cm5data_params.h"

#include "gen/core/errors.h"

namespace cmnet {

std::vector<int> cm5_profile_parents(const std::string& profile, int height) {
  std::vector<int> out;
  if (profile != "cm5" && profile != "full") return out;
  for (int l = 1; l < height; ++l) out.push_back(profile == "full" ? 4 : (l <= 2 ? 2 : 4));
  return out;
}

std::vector<int> Cm5DataParams::parents_list() const {
  return profile.empty() ? parents : cm5_profile_parents(profile, height);
}

int Cm5DataParams::parents_at(int level) const {
  if (level >= height) return 0;
  if (profile.empty()) return parents.at(static_cast<size_t>(level - 1));
  return profile == "full" ? 4 : (level <= 2 ? 2 : 4);
}

int Cm5DataParams::chips_per_node(int level) const {
  int c = 1;
  for (int l = 1; l < level; ++l) c *= parents_at(l);
  return c;
}

uint32_t Cm5DataParams::total_chips() const {
  uint32_t n = 0;
  for (int l = 1; l <= height; ++l) n += chips_at(l);
  return n;
}

uint32_t Cm5DataParams::level_base(int level) const {
  uint32_t n = 0;
  for (int l = 1; l < level; ++l) n += chips_at(l);
  return n;
}

uint64_t Cm5DataParams::bisection_links() const {
  if (height == 1) return 2;
  return 2ull * static_cast<uint64_t>(up_links(height - 1));
}

Cm5DataChipPos cm5_chip_pos(const Cm5DataParams& p, uint32_t chip) {
  Cm5DataChipPos pos;
  for (int l = 1; l <= p.height; ++l) {
    const uint32_t n = p.chips_at(l);
    if (chip < n) {
      pos.level = l;
      pos.node = chip / static_cast<uint32_t>(p.chips_per_node(l));
      pos.index = static_cast<int>(chip % static_cast<uint32_t>(p.chips_per_node(l)));
      return pos;
    }
    chip -= n;
  }
  throw ConfigError("chip number out of range");
}

uint32_t cm5_chip_id(const Cm5DataParams& p, int level, uint32_t node, int index) {
  return p.level_base(level) + node * static_cast<uint32_t>(p.chips_per_node(level)) + static_cast<uint32_t>(index);
}

uint16_t cm5_chip_seed(uint32_t seed, uint32_t chip) {
  const uint32_t v = (seed * 0x9E37u + chip * 0x7F4Bu + 0x1D35u) & 0xFFFFu;
  return static_cast<uint16_t>(v == 0 ? 0xACE1u : v);
}

int cm5_lca_level(uint32_t src, uint32_t dst) {
  int l = 1;
  while ((src >> (2 * l)) != (dst >> (2 * l))) ++l;
  return l;
}

uint32_t cm5_head_word(const Cm5DataParams& p, uint32_t src, uint32_t dst, int len, int tag) {
  const int L = cm5_lca_level(src, dst);
  uint32_t w = static_cast<uint32_t>(len & 7) | (static_cast<uint32_t>(L - 1) << 4) |
               (static_cast<uint32_t>(tag & 15) << 8);
  for (int l = 1; l <= p.height; ++l) w |= ((dst >> (2 * (l - 1))) & 3u) << (12 + 2 * (l - 1));
  return w;
}

uint32_t cm5_crc32(const std::vector<uint32_t>& words) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t w = i == 0 ? (words[i] & ~0xF0u) : words[i];
    for (int b = 31; b >= 0; --b) {
      const uint32_t in = ((w >> b) & 1u) ^ (crc >> 31);
      crc = (crc << 1) ^ (in ? 0x04C11DB7u : 0u);
    }
  }
  return crc;
}

namespace {
void check_range(const std::string& where, const std::string& field, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi)
    throw ConfigError(where + ": " + field + " = " + std::to_string(value) + " out of range " +
                      std::to_string(lo) + ".." + std::to_string(hi));
}
}  // namespace

void validate(const Cm5DataParams& p, const std::string& where) {
  check_range(where, "height", p.height, 1, Cm5DataParams::kMaxHeight);
  if (p.link_bits != 4 && p.link_bits != 8 && p.link_bits != 16 && p.link_bits != 32)
    throw ConfigError(where + ": link_bits = " + std::to_string(p.link_bits) +
                      " is not allowed (allowed: 4, 8, 16, 32)");
  check_range(where, "max_words", p.max_words, 1, 5);
  check_range(where, "buffer_words", p.buffer_words, 1, 16);
  if (!p.profile.empty()) {
    if (p.profile != "cm5" && p.profile != "full")
      throw ConfigError(where + ": parents = \"" + p.profile +
                        "\" is not a profile (allowed: \"cm5\", \"full\", or a list of 2 or 4 per level)");
  } else {
    if (static_cast<int>(p.parents.size()) != p.height - 1)
      throw ConfigError(where + ": parents has " + std::to_string(p.parents.size()) +
                        " entries; height " + std::to_string(p.height) + " needs " +
                        std::to_string(p.height - 1) + " (levels 1.." + std::to_string(p.height - 1) +
                        "; the top level has no parents)");
    for (size_t i = 0; i < p.parents.size(); ++i)
      if (p.parents[i] != 2 && p.parents[i] != 4)
        throw ConfigError(where + ": parents[" + std::to_string(i) + "] (level " + std::to_string(i + 1) +
                          ") = " + std::to_string(p.parents[i]) + " is not allowed (allowed: 2, 4)");
  }
}

}  // namespace cmnet

// Cm5DataParams: derived figures, the tree's chip numbering, the message helpers, range checks.
#include "gen/cm5data/cm5data_params.h"

#include <algorithm>

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
    const uint32_t w = i == 0 ? (words[i] & kCm5HeadCrcMask) : words[i];
    for (int b = 31; b >= 0; --b) {
      const uint32_t in = ((w >> b) & 1u) ^ (crc >> 31);
      crc = (crc << 1) ^ (in ? 0x04C11DB7u : 0u);
    }
  }
  return crc;
}

Cm5Crc cm5_crc_status(const std::vector<uint32_t>& words, int link_bits) {
  if (words.size() < 2) return Cm5Crc::primary;
  const uint32_t P = cm5_crc32(std::vector<uint32_t>(words.begin(), words.end() - 1)), R = words.back();
  const uint32_t m = link_bits == 32 ? 0xFFFFFFFFu : ((1u << link_bits) - 1u);
  Cm5Crc st = Cm5Crc::ok;
  for (int sh = 0; sh < 32; sh += link_bits) {
    const uint32_t r = (R >> sh) & m, pp = (P >> sh) & m;
    if (st == Cm5Crc::ok && r != pp) st = r == (~pp & m) ? Cm5Crc::secondary : Cm5Crc::primary;
    else if (st == Cm5Crc::secondary && r != (~pp & m)) st = Cm5Crc::primary;
  }
  return st;
}

int cm5_afd_rot(uint32_t seed, uint32_t chip) { return static_cast<int>(cm5_chip_seed(seed, chip) & 3u); }

Cm5DataChipMapOut cm5_chip_mapout(const Cm5DataParams& p, uint32_t chip) {
  const Cm5DataChipPos pos = cm5_chip_pos(p, chip);
  Cm5DataChipMapOut m;
  for (const Cm5DataLink& k : p.mapped_out) {
    if (k.level != pos.level || k.chip != pos.index) continue;
    const uint32_t bit = 1u << k.parent;
    if (k.node == pos.node) m.up_mask |= bit;
    // A message for node k.node climbs from another node of this level (from its own node it
    // never climbs to this level's parents for it) but still: list every node (the table is
    // per chip index, the same in every node, and simpler to check).
    bool found = false;
    for (auto& e : m.down)
      if (e.first == k.node) {
        e.second |= bit;
        found = true;
      }
    if (!found) m.down.emplace_back(k.node, bit);
  }
  return m;
}

int cm5_mapout_entries(const Cm5DataParams& p) {
  int most = 1;
  for (uint32_t c = 0; c < p.total_chips(); ++c) {
    // Only chips at a level and index with a mapped-out link have entries.
    const Cm5DataChipPos pos = cm5_chip_pos(p, c);
    bool any = false;
    for (const Cm5DataLink& k : p.mapped_out) any = any || (k.level == pos.level && k.chip == pos.index);
    if (any) most = std::max(most, static_cast<int>(cm5_chip_mapout(p, c).down.size()));
  }
  return most;
}

namespace {
void check_range(const std::string& where, const std::string& field, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi)
    throw ConfigError(where + ": " + field + " = " + std::to_string(value) + " out of range " +
                      std::to_string(lo) + ".." + std::to_string(hi));
}
}  // namespace

bool Cm5DataParams::leaf_mapped_out(uint32_t x) const {
  return std::find(mapped_out_leaves.begin(), mapped_out_leaves.end(), x) != mapped_out_leaves.end();
}

int Cm5DataParams::partition_of(uint32_t x) const {
  for (size_t k = 0; k < partitions.size(); ++k)
    if (x - partition_base(k) < partition_size(k)) return static_cast<int>(k);
  return -1;
}

bool Cm5DataParams::may_address(uint32_t src, uint32_t dst) const {
  if (leaf_mapped_out(src) || leaf_mapped_out(dst)) return false;
  const int k = partition_of(src);
  return k < 0 || partition_of(dst) == k;
}

void validate(const Cm5DataParams& p, const std::string& where) {
  check_range(where, "height", p.height, 1, Cm5DataParams::kMaxHeight);
  if (p.link_bits != 4 && p.link_bits != 8 && p.link_bits != 16 && p.link_bits != 32)
    throw ConfigError(where + ": link_bits = " + std::to_string(p.link_bits) +
                      " is not allowed (allowed: 4, 8, 16, 32)");
  check_range(where, "max_words", p.max_words, 1, 5);
  check_range(where, "buffer_words", p.buffer_words, 1, 16);
  check_range(where, "slots", p.slots, 0, 8);
  check_range(where, "request_stage", p.request_stage, 0, 1);
  // The NI's FIFOs: a power of 2 (its pointers wrap), 8..64, and the longest message must fit.
  auto check_fifo = [&](const std::string& field, int words) {
    if (words < 8 || words > 64 || (words & (words - 1)) != 0 || words < p.message_words(p.max_words))
      throw ConfigError(where + ": " + field + " = " + std::to_string(words) +
                        " is not allowed (a power of 2, 8..64, at least the longest message: " +
                        std::to_string(p.message_words(p.max_words)) + " words)");
  };
  if (p.ni_send_words != 0) check_fifo("ni.send_words", p.ni_send_words);
  check_fifo("ni.recv_words", p.ni_recv_words);
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
  for (size_t i = 0; i < p.mapped_out.size(); ++i) {
    const Cm5DataLink& k = p.mapped_out[i];
    const std::string f = "mapped_out[" + std::to_string(i) + "].";
    check_range(where, f + "level", k.level, 1, p.height - 1);
    check_range(where, f + "node", k.node, 0, p.nodes_at(k.level) - 1);
    check_range(where, f + "chip", k.chip, 0, p.chips_per_node(k.level) - 1);
    check_range(where, f + "parent", k.parent, 0, p.parents_at(k.level) - 1);
    for (size_t j = 0; j < i; ++j)
      if (p.mapped_out[j] == k) throw ConfigError(where + ": " + f + " repeats mapped_out[" + std::to_string(j) + "]");
  }
  // Every message must keep a way up: a chip (level l, node n, index j) sending a message to
  // node D of its level (D != n) may use the parents outside out(n) | out(D), where out(x) are
  // the parents of index j mapped out in node x.
  for (const Cm5DataLink& k : p.mapped_out) {
    const uint32_t all = (1u << p.parents_at(k.level)) - 1u;
    auto out_of = [&](uint32_t node) {
      uint32_t m = 0;
      for (const Cm5DataLink& o : p.mapped_out)
        if (o.level == k.level && o.chip == k.chip && o.node == node) m |= 1u << o.parent;
      return m;
    };
    const uint32_t mine = out_of(k.node);
    bool bad = mine == all && p.nodes_at(k.level) > 1;
    uint32_t other = 0;
    for (const Cm5DataLink& o : p.mapped_out)
      if (!bad && o.level == k.level && o.chip == k.chip && o.node != k.node && (mine | out_of(o.node)) == all) {
        bad = true;
        other = o.node;
      }
    if (bad)
      throw ConfigError(where + ": mapped_out leaves no way up at level " + std::to_string(k.level) + " from chip " +
                        std::to_string(k.chip) + " of node " + std::to_string(k.node) +
                        (mine == all ? std::string(" (all its parents are out)")
                                     : " to node " + std::to_string(other) + " (their mapped-out parents cover all)"));
  }
  for (size_t i = 0; i < p.mapped_out_leaves.size(); ++i) {
    const std::string f = "mapped_out_leaves[" + std::to_string(i) + "]";
    check_range(where, f, p.mapped_out_leaves[i], 0, p.leaves() - 1);
    for (size_t j = 0; j < i; ++j)
      if (p.mapped_out_leaves[j] == p.mapped_out_leaves[i])
        throw ConfigError(where + ": " + f + " repeats mapped_out_leaves[" + std::to_string(j) + "]");
  }
  if (p.mapped_out_leaves.size() + 1 >= p.leaves())
    throw ConfigError(where + ": mapped_out_leaves maps out " + std::to_string(p.mapped_out_leaves.size()) + " of " +
                      std::to_string(p.leaves()) + " leaves (at least 2 must stay)");
  for (size_t i = 0; i < p.partitions.size(); ++i) {
    const Cm5DataPartition& q = p.partitions[i];
    const std::string f = "partitions[" + std::to_string(i) + "]";
    check_range(where, f + ".level", q.level, 1, p.height);
    check_range(where, f + ".node", q.node, 0, p.nodes_at(q.level) - 1);
    // Subtrees are nested or disjoint: two overlap when one's leaf range holds the other's first leaf.
    for (size_t j = 0; j < i; ++j) {
      const bool overlap = p.partition_base(i) - p.partition_base(j) < p.partition_size(j) ||
                           p.partition_base(j) - p.partition_base(i) < p.partition_size(i);
      if (overlap)
        throw ConfigError(where + ": " + f + " (level " + std::to_string(q.level) + ", node " + std::to_string(q.node) +
                          ") overlaps partitions[" + std::to_string(j) + "] (partitions are disjoint subtrees)");
    }
    uint32_t live = 0;
    for (uint32_t x = p.partition_base(i); x < p.partition_base(i) + p.partition_size(i); ++x) live += !p.leaf_mapped_out(x);
    if (live < 2)
      throw ConfigError(where + ": " + f + " has " + std::to_string(live) +
                        " leaf not mapped out (mapped_out_leaves): a partition needs 2");
  }
  if (p.fault.on) {
    const uint32_t NC = p.total_chips();
    check_range(where, "fault.chip", p.fault.chip, 0, NC - 1);
    const int ports = 4 + p.parents_at(cm5_chip_pos(p, p.fault.chip).level);
    check_range(where, "fault.port", p.fault.port, 0, ports - 1);
    check_range(where, "fault.flit", p.fault.flit, p.flits_per_word(), p.message_flits(p.max_words) - 1);
    const uint32_t wm = p.link_bits == 32 ? 0xFFFFFFFFu : ((1u << p.link_bits) - 1u);
    if (p.fault.mask == 0 || (p.fault.mask & ~wm) != 0)
      throw ConfigError(where + ": fault.mask = " + std::to_string(p.fault.mask) + " out of range 1.." + std::to_string(wm) +
                        " (a nonzero flit of link_bits)");
  }
}

}  // namespace cmnet

#include "sim/cm5data/oracle/cm5data_oracle.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>

namespace cmnet::cm5data_oracle {
namespace {

// The head word's fields (the family's documented message format): [2:0] length, [3] the
// all-fall-down mark, [7:4] levels still to climb (a chip-relative instruction that changes on
// the way), [11:8] tag, from bit 12 two bits per level: the destination's digit there.
constexpr uint32_t kLenMask = 0x7u;
constexpr uint32_t kMarkBit = 0x8u;
constexpr uint32_t kClimbMask = 0xF0u;
constexpr int kTagShift = 8;
constexpr int kDigitShift = 12;

std::string hex(uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

// The leaves under the level-l ancestor of leaf x share x >> 2l.
bool same_subtree(uint32_t a, uint32_t b, int level) { return (a >> (2 * level)) == (b >> (2 * level)); }

std::vector<Disagreement> check_shape(const Shape& s) {
  std::vector<Disagreement> out;
  const int h = height_of(s);
  if (s.arity != 4) out.push_back({-1, "arity " + std::to_string(s.arity) + ": the CM-5 data network is 4-ary"});
  if (h < 1) out.push_back({-1, std::to_string(s.leaves) + " leaves: not a power of 4"});
  if (h >= 1 && s.parents.size() != static_cast<size_t>(h - 1))
    out.push_back({-1, "parents for " + std::to_string(s.parents.size()) + " levels, the tree has " +
                           std::to_string(h - 1) + " below its top"});
  for (int p : s.parents)
    if (p != 2 && p != 4) out.push_back({-1, "a chip with " + std::to_string(p) + " parents (the paper: 2 or 4)"});
  if (s.link_bits < 1 || 32 % s.link_bits != 0)
    out.push_back({-1, "link_bits " + std::to_string(s.link_bits) + " does not divide a 32-bit word"});
  return out;
}

// What one arrival of message i says against the message sent: words, CRC, leaf, arrival time.
void check_arrival(const Shape& s, const Options& o, size_t i, const Message& m, uint64_t sent, const Arrival& a,
                   std::vector<Disagreement>& out) {
  const int64_t id = static_cast<int64_t>(i);
  auto say = [&](const std::string& w) { out.push_back({id, w}); };
  const size_t n = m.data.size();
  if (o.data_words_only) {
    if (a.leaf != m.dst) say("arrived at leaf " + std::to_string(a.leaf) + ", sent to " + std::to_string(m.dst));
    if (a.words != m.data) say("arrived with data words other than those sent");
    return;
  }
  if (a.words.size() != n + 2) {
    say("arrived with " + std::to_string(a.words.size()) + " words, sent " + std::to_string(n + 2));
    return;
  }
  std::vector<uint32_t> covered(a.words.begin(), a.words.end() - 1);
  covered[0] &= head_fields_mask();
  const bool crc_good = crc(o, covered) == a.words.back();
  if (a.crc_ok != crc_good)
    say(std::string("the leaf says the CRC is ") + (a.crc_ok ? "good" : "bad") + ", it is " +
        (crc_good ? "good" : "bad") + " (CRC word " + hex(a.words.back()) + ", computed " + hex(crc(o, covered)) + ")");
  const bool marked = fell(a.words[0]);
  if (m.marked && !marked) say("sent marked all-fall-down, arrived unmarked");
  if (marked && !m.marked && !o.all_fall_down) say("arrived marked all-fall-down on a run without all-fall-down");
  const int zenith = lca_level(m.src, m.dst);
  if (!marked && a.leaf != m.dst)
    say("arrived at leaf " + std::to_string(a.leaf) + ", sent to " + std::to_string(m.dst));
  if (marked && !same_subtree(a.leaf, m.src, zenith))
    say("fell to leaf " + std::to_string(a.leaf) + ", outside the level-" + std::to_string(zenith) +
        " subtree of its source and destination (it climbed too high)");
  // Contents: the head's lasting fields and the data words as sent.
  std::string changed;
  const uint32_t want_head = head_word(s, m.dst, static_cast<int>(n), m.tag);
  if (covered[0] != want_head) changed = "head word " + hex(covered[0]) + ", sent " + hex(want_head);
  for (size_t k = 0; k < n && changed.empty(); ++k)
    if (a.words[k + 1] != m.data[k])
      changed = "data word " + std::to_string(k) + " " + hex(a.words[k + 1]) + ", sent " + hex(m.data[k]);
  if (crc_good && !changed.empty()) say("arrived changed (" + changed + ") with a CRC that verifies");
  if (!crc_good && !o.faulty_links) say("arrived with a failing CRC on a run without a faulty link" +
                                        (changed.empty() ? std::string() : " (" + changed + ")"));
  const uint64_t lo = earliest_arrival(s, o, m.src, a.leaf, n, sent);
  if (o.timed && a.cycle < lo)
    say("arrived at cycle " + std::to_string(a.cycle) + ", before the earliest possible " + std::to_string(lo) +
        " (sent " + std::to_string(sent) + ")");
}

// One message: refused or sent, then exactly one arrival.
void check_message(const Shape& s, const Options& o, size_t i, const Message& m, const Run& r,
                   const std::vector<std::vector<const Arrival*>>& by_msg, std::vector<Disagreement>& out) {
  const int64_t id = static_cast<int64_t>(i);
  const bool refuse = refused_by_interface(s, o, m);
  const bool said_refused = i < r.refused.size() && r.refused[i];
  const uint64_t sent = i < r.sent.size() ? r.sent[i] : kNotSent;
  const std::string route = " (" + std::to_string(m.src) + " -> " + std::to_string(m.dst) + ")";
  if (refuse != said_refused)
    out.push_back({id, std::string(refuse ? "the interface must refuse it" : "addressable, but refused") + route});
  const size_t got = by_msg[i].size();
  if (refuse) {
    if (sent != kNotSent) out.push_back({id, "left its leaf at cycle " + std::to_string(sent) + ", refused" + route});
    if (got > 0) out.push_back({id, "arrived " + std::to_string(got) + " times, refused" + route});
    return;
  }
  if (sent == kNotSent) {
    out.push_back({id, "never left its leaf" + route});
    return;
  }
  if (o.timed && sent < m.inject_at)
    out.push_back({id, "left its leaf at cycle " + std::to_string(sent) + ", before its inject cycle " +
                           std::to_string(m.inject_at) + route});
  if (got != 1) out.push_back({id, "arrived " + std::to_string(got) + " times, expected once" + route});
  for (const Arrival* a : by_msg[i]) check_arrival(s, o, i, m, sent, *a, out);
}

// The paper's performance model as a bound: the flits of the messages leaving (entering) the
// subtree of a node at level l cross its up (down) links, prod p_1..p_l of them (one leaf link at
// level 0), at one flit a cycle each, between the first's departure and the last's arrival.
void check_capacity(const Shape& s, const std::vector<Message>& msgs, const Run& r,
                    const std::vector<std::vector<const Arrival*>>& by_msg, std::vector<Disagreement>& out) {
  struct Load {
    uint64_t flits = 0, first = kNotSent, last = 0;
  };
  const int h = height_of(s);
  uint64_t links = 1;
  for (int l = 0; l < h; ++l) {
    if (l > 0) links *= static_cast<uint64_t>(s.parents[static_cast<size_t>(l - 1)]);
    std::map<std::pair<int, uint32_t>, Load> load;  // (0 up / 1 down, node) -> load
    for (size_t i = 0; i < msgs.size(); ++i) {
      if (by_msg[i].empty() || i >= r.sent.size() || r.sent[i] == kNotSent) continue;
      const Arrival& a = *by_msg[i].front();
      if (l > 0 && same_subtree(msgs[i].src, a.leaf, l)) continue;
      for (auto key : {std::make_pair(0, msgs[i].src >> (2 * l)), std::make_pair(1, a.leaf >> (2 * l))}) {
        Load& x = load[key];
        x.flits += flits(s, msgs[i].data.size());
        x.first = std::min(x.first, r.sent[i]);
        x.last = std::max(x.last, a.cycle);
      }
    }
    for (const auto& [key, x] : load)
      if (x.last < x.first || x.flits > links * (x.last - x.first + 1))
        out.push_back({-1, std::to_string(x.flits) + " flits " + (key.first ? "into" : "out of") + " the level-" +
                               std::to_string(l) + " subtree " + std::to_string(key.second) + " over " +
                               std::to_string(links) + " links in cycles " + std::to_string(x.first) + ".." +
                               std::to_string(x.last) + ": more than the links carry"});
  }
}

// The paper's routing, counted: up from the source to the common ancestor, down to the
// destination, so the arm above node n at level l carries the messages with one end inside the
// subtree and the other outside (level 0: every message its two leaves' links). A message that
// fell (all-fall-down) took a path of its own: then the arms are not predicted.
void check_arms(const Shape& s, const std::vector<Message>& msgs, const Run& r,
                const std::vector<std::vector<const Arrival*>>& by_msg, std::vector<Disagreement>& out) {
  const int h = height_of(s);
  if (r.arm_up.empty() && r.arm_down.empty()) return;
  for (const Arrival& a : r.arrivals)
    if (!a.words.empty() && fell(a.words[0])) return;
  for (int l = 0; l < h; ++l) {
    const size_t nodes = s.leaves >> (2 * l);
    std::vector<uint64_t> up(nodes, 0), down(nodes, 0);
    for (size_t i = 0; i < msgs.size(); ++i) {
      if (i >= r.sent.size() || r.sent[i] == kNotSent || by_msg[i].empty()) continue;
      if (l > 0 && same_subtree(msgs[i].src, msgs[i].dst, l)) continue;
      ++up[msgs[i].src >> (2 * l)];
      ++down[msgs[i].dst >> (2 * l)];
    }
    for (int dir = 0; dir < 2; ++dir) {
      const auto& got = dir == 0 ? r.arm_up : r.arm_down;
      const auto& want = dir == 0 ? up : down;
      if (got.empty()) continue;
      for (size_t n = 0; n < nodes; ++n) {
        const uint64_t g = static_cast<size_t>(l) < got.size() && n < got[static_cast<size_t>(l)].size()
                               ? got[static_cast<size_t>(l)][n]
                               : 0;
        if (g != want[n])
          out.push_back({-1, std::string("the arm ") + (dir == 0 ? "above" : "into") + " level-" + std::to_string(l) +
                                 " node " + std::to_string(n) + " counted " + std::to_string(g) +
                                 " messages, the routing to the common ancestor sends " + std::to_string(want[n])});
      }
    }
  }
}

}  // namespace

int height_of(const Shape& s) {
  for (int h = 1; h <= 15; ++h)
    if ((uint64_t{1} << (2 * h)) == s.leaves) return h;
  return -1;
}

int lca_level(uint32_t a, uint32_t b) {
  int l = 1;
  while (!same_subtree(a, b, l)) ++l;
  return l;
}

// The word-at-a-time form of a CRC shifted MSB first: XOR the word into the register, then 32
// shifts, feeding the polynomial back on each bit that falls off the top.
uint32_t crc(const Options& o, const std::vector<uint32_t>& head_and_data) {
  uint32_t r = o.crc_init;
  for (uint32_t w : head_and_data) {
    r ^= w;
    for (int b = 0; b < 32; ++b) r = (r & 0x80000000u) ? (r << 1) ^ o.crc_poly : r << 1;
  }
  return r;
}

uint32_t head_word(const Shape& s, uint32_t dst, int len, int tag) {
  uint32_t w = (static_cast<uint32_t>(len) & kLenMask) | ((static_cast<uint32_t>(tag) & 15u) << kTagShift);
  for (int l = 0; l < height_of(s); ++l) w |= ((dst >> (2 * l)) & 3u) << (kDigitShift + 2 * l);
  return w;
}

uint32_t head_fields_mask() { return ~(kMarkBit | kClimbMask); }
bool fell(uint32_t head) { return (head & kMarkBit) != 0; }

uint64_t flits(const Shape& s, size_t data_words) {
  return (data_words + 2) * static_cast<uint64_t>(32 / s.link_bits);
}

// Up to the level-L common ancestor and down: L links up (the leaf's own first), L down, so the
// first flit passes 2L - 1 chips after the source's link; the last follows it a flit a cycle.
uint64_t earliest_arrival(const Shape& s, const Options& o, uint32_t src, uint32_t at, size_t data_words,
                          uint64_t sent) {
  const uint64_t links = 2 * static_cast<uint64_t>(lca_level(src, at));
  return sent + (links - 1) * o.min_hop_cycles + flits(s, data_words) - 1;
}

bool refused_by_interface(const Shape& s, const Options& o, const Message& m) {
  const auto& out = s.mapped_out_leaves;
  if (std::find(out.begin(), out.end(), m.src) != out.end() || std::find(out.begin(), out.end(), m.dst) != out.end())
    return true;
  if (m.src == m.dst && o.self_send == SelfSend::refused) return true;
  for (const Shape::Partition& p : s.partitions)
    if (m.src >= p.first && m.src - p.first < p.size) return !(m.dst >= p.first && m.dst - p.first < p.size);
  return false;
}

std::vector<Disagreement> check(const Shape& s, const Options& o, const std::vector<Message>& msgs, const Run& r) {
  std::vector<Disagreement> out = check_shape(s);
  if (!out.empty()) return out;
  std::vector<std::vector<const Arrival*>> by_msg(msgs.size());
  uint64_t strangers = r.unattributed;
  for (const Arrival& a : r.arrivals) {
    if (a.msg >= 0 && static_cast<size_t>(a.msg) < msgs.size())
      by_msg[static_cast<size_t>(a.msg)].push_back(&a);
    else
      ++strangers;
  }
  if (strangers > 0) out.push_back({-1, std::to_string(strangers) + " arrivals that no message sent"});
  for (size_t i = 0; i < msgs.size(); ++i) check_message(s, o, i, msgs[i], r, by_msg, out);
  if (o.timed) check_capacity(s, msgs, r, by_msg, out);
  check_arms(s, msgs, r, by_msg, out);
  return out;
}

}  // namespace cmnet::cm5data_oracle

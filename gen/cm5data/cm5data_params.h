// Parameters of a CM-5 data network (Leiserson et al. 1992, "The Network Architecture of the
// Connection Machine CM-5", section 3) and the figures derived from them. One struct drives the
// RTL emitter, the reference model, the harnesses and the reports.
//
// The fat tree. N = 4^h leaves (processors). A node of the tree at level l (1..h) roots a
// subtree of 4^l leaves and is made of c_l router chips; each chip has 4 child ports and p_l
// parent ports (2 or 4, per level; the chips of the top level have none). c_1 = 1 and
// c_{l+1} = c_l * p_l (the 4 child nodes bring 4 * c_l * p_l links up, 4 per parent chip).
// One leaf has one link (the paper's processors have two: the left and the right network).
//
// Wiring (as built; Figure 3 of the paper is missing from the OCR text): chip j of node n at
// level l, parent port q, goes to chip j * p_l + q of node n / 4 at level l + 1, child port
// n % 4. So every chip of a node reaches child node k through its child port k, and a
// message that went up can always come down by the destination's digits.
//
// A message is 32-bit words, sent LSB first in flits of link_bits: the head word, 1..max_words
// data words, the CRC word. Head word (as built):
//   [2:0] length in data words   [3] all-fall-down mark (set by a chip in all-fall-down mode)
//   [7:4] U, levels still to climb above the chip that reads it (decremented going up)
//   [11:8] tag                   [12 + 2(l-1) +: 2] the destination's digit at level l
// CRC word: CRC-32 (polynomial 0x04C11DB7, MSB first, init 0xFFFFFFFF, no final XOR) over the
// head word with U and the mark zeroed (both change on the way) and the data words. Every chip
// checks it (section 3: "checked on every link and through every switch"); see cm5_crc_status.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet {

// A link of the tree named by its lower end: parent port `parent` of chip `chip` of node `node`
// at level `level` (1..h-1). Mapped out, it carries nothing in either direction.
struct Cm5DataLink {
  int level = 1;
  uint32_t node = 0;
  int chip = 0;
  int parent = 0;
  bool operator==(const Cm5DataLink&) const = default;
};

// A user partition (section 3: "A user partition corresponds to a subtree in the network"): the
// subtree of node `node` at level `level` (1..h), leaves [node * 4^level, (node + 1) * 4^level).
struct Cm5DataPartition {
  int level = 1;
  uint32_t node = 0;
  bool operator==(const Cm5DataPartition&) const = default;
};

// Fault injection (a test hook, also a config field): flit `flit` (counted from 0 at the head
// word's first flit; the head word itself is refused, it would misroute) of every message that
// arrives at input port `port` of chip `chip` is XORed with `mask`.
struct Cm5DataFault {
  bool on = false;
  uint32_t chip = 0;
  int port = 0;
  int flit = 0;
  uint32_t mask = 1;
};

struct Cm5DataParams {
  int height = 2;               // h: N = 4^h leaves
  std::vector<int> parents;     // p_l for levels 1..h-1 (empty: the profile decides)
  std::string profile = "cm5";  // "cm5" (2 on levels 1-2, 4 above), "full" (4), "" (explicit list)
  int link_bits = 4;            // W: data bits per direction per link (the CM-5: 4)
  int max_words = 5;            // data words per message, 1..5 in the CM-5 network interface
  int buffer_words = 2;         // input buffer of every port, in 32-bit words
  // Input organisation. 0 (the default): each input is one FIFO of buffer_words words and credits
  // count its free flits. k >= 1: each input holds k message slots of a whole longest message
  // (max_words + 2 words; buffer_words is then unused); credits count free slots (a sender takes
  // one when it allocates an output, the receiver returns it when the message's last flit left
  // the slot), and any slot whose head word is in may ask for its output: a message bound for a
  // free output passes one waiting for a busy one (virtual output queueing without virtual
  // channels: one link, one message at a time on it).
  int slots = 0;
  // Cycles between an input's request (its head's route, made from the state at the start of a
  // cycle) and the arbiter that grants it: 0 (the default) decides in the same cycle; 1 registers
  // the requests, so a head waits a cycle more at every chip (and an input a cycle more between
  // its messages) and the chip's clock is set by grant -> allocation alone (with slots: the slot
  // asked for is registered with its request).
  int request_stage = 0;
  uint32_t seed = 1;            // LFSR seed of the whole network (each chip's is derived)
  std::vector<Cm5DataLink> mapped_out;  // links no message may use
  // Processing nodes mapped out of the address space (and their leaf links with them): every
  // network interface refuses a message to one, and one sends nothing (a counted error).
  std::vector<uint32_t> mapped_out_leaves;
  // User partitions (disjoint subtrees; none by default: one machine). A leaf in a partition may
  // address only the leaves of its partition (the interface's bounds check, section 2); a leaf
  // in none (the control processors' and I/O's part of the tree) may address any leaf. So a
  // partition's own messages climb no higher than its root and share no chip with another's.
  std::vector<Cm5DataPartition> partitions;
  Cm5DataFault fault;                   // a bad link (off by default)
  // The network interfaces' FIFOs (cm5data_ni; the config's optional "ni" object), in 32-bit
  // words, each a power of 2 holding the longest message: their size on the board is what the
  // NIs cost (flip-flops). send_words 0: the default (the NI test harness's 8; the stream board's 8
  // of the longest messages, at most 64).
  int ni_send_words = 0;
  int ni_recv_words = 16;

  static constexpr int kMaxHeight = 7;  // 16,384 leaves, the largest CM-5 built
  static constexpr int kChildPorts = 4;

  uint32_t leaves() const { return 1u << (2 * height); }
  int flits_per_word() const { return 32 / link_bits; }
  int buffer_flits() const { return buffer_words * flits_per_word(); }
  // A slot's flits (slots mode): the longest message.
  int slot_flits() const { return message_flits(max_words); }
  // Credits a sender holds for an empty receiver: flits (FIFO inputs) or slots.
  int link_credits() const { return slots > 0 ? slots : buffer_flits(); }
  // p_l (0 at the top level l = h).
  int parents_at(int level) const;
  // c_l: chips in one node at level l.
  int chips_per_node(int level) const;
  // Nodes at level l: N / 4^l.
  uint32_t nodes_at(int level) const { return 1u << (2 * (height - level)); }
  uint32_t chips_at(int level) const { return nodes_at(level) * static_cast<uint32_t>(chips_per_node(level)); }
  uint32_t total_chips() const;
  // Global index of the first chip of level l (levels numbered from the leaves up).
  uint32_t level_base(int level) const;
  // Links from one node at level l to its parent node (0 at the top).
  int up_links(int level) const { return chips_per_node(level) * parents_at(level); }
  // Links crossing the bisection (one half of the leaves to the other), one direction: the
  // up links of two of the top node's four children (N / 2 leaves). h = 1: 2 leaf links.
  uint64_t bisection_links() const;
  int message_words(int len) const { return len + 2; }
  int message_flits(int len) const { return message_words(len) * flits_per_word(); }
  int message_bits(int len) const { return 32 * message_words(len); }
  bool leaf_mapped_out(uint32_t x) const;
  // The index of the partition holding leaf x, -1 for none.
  int partition_of(uint32_t x) const;
  // The first leaf and the number of leaves of partition k.
  uint32_t partition_base(size_t k) const { return partitions[k].node << (2 * partitions[k].level); }
  uint32_t partition_size(size_t k) const { return 1u << (2 * partitions[k].level); }
  // Whether the interface at leaf src takes a message to dst: neither is mapped out, and dst is
  // in src's partition when src is in one.
  bool may_address(uint32_t src, uint32_t dst) const;
  // The parents list the profile gives (or the explicit list).
  std::vector<int> parents_list() const;
};

// Throws cmnet::ConfigError naming the field, its value and the allowed range.
void validate(const Cm5DataParams& p, const std::string& where);

// The parents of each level for a profile name; empty for an unknown name.
std::vector<int> cm5_profile_parents(const std::string& profile, int height);

// Where a chip sits: level (1..h), node at that level, index in the node.
struct Cm5DataChipPos {
  int level = 1;
  uint32_t node = 0;
  int index = 0;
};
Cm5DataChipPos cm5_chip_pos(const Cm5DataParams& p, uint32_t chip);
uint32_t cm5_chip_id(const Cm5DataParams& p, int level, uint32_t node, int index);

// Each chip's LFSR seed (a named choice shared by the RTL emitter and the model): the 16-bit
// value (seed * 0x9E37 + chip * 0x7F4B + 0x1D35) mod 2^16, 0xACE1 when that is 0.
uint16_t cm5_chip_seed(uint32_t seed, uint32_t chip);

// The message helpers both the model and the harnesses use.
uint32_t cm5_head_word(const Cm5DataParams& p, uint32_t src, uint32_t dst, int len, int tag);
// Level of the least common ancestor of two leaves (1 for a leaf to itself).
int cm5_lca_level(uint32_t src, uint32_t dst);
uint32_t cm5_crc32(const std::vector<uint32_t>& words);  // head (U and mark zeroed) and data words
constexpr uint32_t kCm5HeadCrcMask = ~0xF8u;  // the head word bits the CRC covers

// What a checker (a chip's input, a leaf) finds in a message's CRC word R against the CRC P it
// computes over the head and data words it received, flit by flit (W = link_bits): ok (R == P);
// secondary (R is P up to some flit and the complement of P from that flit on: an earlier chip
// found the error and complemented the rest); primary (anything else). A chip forwards P while
// the flits match and the complement of P from the first flit that does not, so one bad link
// gives one primary and secondaries after it (with W = 32: R, P or ~P, as in the paper).
enum class Cm5Crc { ok = 0, secondary = 1, primary = 2 };
Cm5Crc cm5_crc_status(const std::vector<uint32_t>& words, int link_bits);

// All-fall-down: a falling message that entered a chip on port i leaves on child port
// (i + rot) mod 4, rot = cm5_afd_rot (the preprogrammed permutation; a named choice).
int cm5_afd_rot(uint32_t seed, uint32_t chip);

// Map-out as a chip applies it: parents it may never take (its own up links that are out), and
// per destination node at its level the parents whose down link into that node is out (the
// single path down from a parent chip returns through the same chip index, so a message for
// node D must not climb through parent q of chip index j when link (level, D, j, q) is out).
struct Cm5DataChipMapOut {
  uint32_t up_mask = 0;                                 // bit q: parent q out
  std::vector<std::pair<uint32_t, uint32_t>> down;      // (destination node at this level, mask)
};
Cm5DataChipMapOut cm5_chip_mapout(const Cm5DataParams& p, uint32_t chip);
// The most `down` entries any chip has (the RTL's table size; at least 1).
int cm5_mapout_entries(const Cm5DataParams& p);

}  // namespace cmnet

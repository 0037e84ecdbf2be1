// A functional oracle of the CM-5 data network, written from the paper (Leiserson et al. 1992,
// section 3) at the level a user of the network reasons at, sharing nothing with the family's
// params, emitter or cycle model. Given the machine's shape, the messages sent and what a run
// delivered, it states what the paper promises:
//  - "the data network promises to eventually accept and deliver all messages": every message
//    arrives exactly once, at its destination leaf, with its length, tag and data words as sent;
//    nothing arrives that was not sent;
//  - the network interface refuses what is outside the address space: messages from or to a
//    mapped-out processor, and from a partition's processor to a leaf outside its partition;
//  - "integrity check of the message using a cyclic redundancy code": a delivered CRC word that
//    verifies means the words are the ones sent; a corruption the network did not see is a bug,
//    one it flagged (the CRC fails) is allowed only on a run with a faulty link;
//  - a message goes "up the tree to the least common ancestor ... and then down": it crosses at
//    least 2 x (that level) links, each taking at least min_hop_cycles for its first flit, and its
//    flits follow one per cycle on a link: a lower bound on its arrival no schedule can beat;
//  - all-fall-down: a marked message falls from where it is, so it lands inside the subtree of
//    the least common ancestor of its source and destination (it never climbs above it);
//  - the message counters on every link: a message crosses the arms of the tree between its
//    source and its least common ancestor with the destination, and back down, no others;
//  - the paper's performance model (load through an arm / its bandwidth): the flits crossing a
//    node's up links (or down links) fit in the links times the run's duration.
// The paper promises no order between messages (not even from one source to one destination),
// so none is checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet::cm5data_oracle {

// The machine as a user sees it: 4^h leaves on a 4-ary fat tree whose chips have 4 children and
// parents[l - 1] parents at level l (1..h-1), one link per leaf carrying link_bits bits a cycle.
struct Shape {
  uint32_t leaves = 16;
  int arity = 4;               // the paper's 4-ary tree; the only arity checked
  std::vector<int> parents;    // per level 1..h-1, each 2 or 4
  int link_bits = 4;
  std::vector<uint32_t> mapped_out_leaves;  // processors mapped out of the address space
  struct Partition {
    uint32_t first = 0, size = 0;           // a subtree: 4^l leaves from a multiple of 4^l
  };
  std::vector<Partition> partitions;
};

// Where the paper is silent, the oracle's choices (gen/cm5data/README.md, "As built", says which).
enum class SelfSend {
  via_leaf_chip,  // a message to its own leaf goes up to its level-1 chip and back (2 links)
  refused,        // the interface refuses it
};

struct Options {
  uint64_t min_hop_cycles = 1;  // a flit's time from one link to the next through a chip
  bool faulty_links = false;    // the run has a faulty link: CRC-flagged changed words allowed
  bool all_fall_down = false;   // chips may be put in all-fall-down mode during the run
  SelfSend self_send = SelfSend::via_leaf_chip;
  // The CRC (the paper names no polynomial): CRC-32, MSB first, no final XOR, over the head word
  // with the fields that change on the way zeroed, then the data words.
  uint32_t crc_poly = 0x04C11DB7u;
  uint32_t crc_init = 0xFFFFFFFFu;
  // A run read through the network interfaces (a board's receive FIFOs, `cmnet sim` lines) has
  // no cycles and hands over only the data words (the interface took the head and the CRC):
  // then which messages arrive where, once, with what data, and the refusals are checked, not
  // the times, the bounds or the head and CRC words.
  bool timed = true;
  bool data_words_only = false;
};

struct Message {
  uint32_t src = 0, dst = 0;
  int tag = 0;                  // 4 bits
  std::vector<uint32_t> data;   // 1..7 words (the length field)
  uint64_t inject_at = 0;       // the earliest cycle it may leave its leaf
  bool marked = false;          // sent already marked all-fall-down
};

// One message arriving at a leaf: the words the leaf took (head, data, CRC; the data only with
// Options::data_words_only), the cycle its last flit was on the leaf's link (untimed runs: 0);
// `msg` the message the run says it is (-1: none of them).
struct Arrival {
  int64_t msg = -1;
  uint32_t leaf = 0;
  uint64_t cycle = 0;
  std::vector<uint32_t> words;
  bool crc_ok = false;          // what the run's leaf said of the CRC
};

constexpr uint64_t kNotSent = ~0ull;

struct Run {
  std::vector<uint64_t> sent;       // per message: the cycle its first flit left the leaf, or kNotSent
  std::vector<uint8_t> refused;     // per message: the run says its interface refused it
  std::vector<Arrival> arrivals;
  uint64_t unattributed = 0;        // arrivals the run could not name (counted, words unknown)
  // The paper's message counters summed per arm of the tree (optional: empty, not checked):
  // [l][n] the messages that crossed the links from node n at level l to its parent (up) or back
  // (down); level 0 is the leaves' own links.
  std::vector<std::vector<uint64_t>> arm_up, arm_down;
};

struct Disagreement {
  int64_t msg = -1;   // -1: about the run as a whole
  std::string what;   // expected vs got
};

std::vector<Disagreement> check(const Shape& s, const Options& o, const std::vector<Message>& msgs, const Run& r);

// The parts, for the unit test.
int height_of(const Shape& s);                 // h with 4^h = leaves, -1 if none
int lca_level(uint32_t a, uint32_t b);         // 1 for siblings and a leaf to itself
uint32_t crc(const Options& o, const std::vector<uint32_t>& head_and_data);
// The head word a leaf sends (the as-built format; U and the mark zero).
uint32_t head_word(const Shape& s, uint32_t dst, int len, int tag);
uint32_t head_fields_mask();                   // the head bits a message keeps end to end
bool fell(uint32_t head);                      // the all-fall-down mark
uint64_t flits(const Shape& s, size_t data_words);
// The earliest cycle a message sent at `sent` from src can be on leaf `at`'s link with its last flit.
uint64_t earliest_arrival(const Shape& s, const Options& o, uint32_t src, uint32_t at, size_t data_words,
                          uint64_t sent);
bool refused_by_interface(const Shape& s, const Options& o, const Message& m);

}  // namespace cmnet::cm5data_oracle

// The CM-5 data network split over boards (`cmnet build --mode cabled-network | cabled-leaf`,
// `cmnet cabled`): the network on one board, each leaf on a board of its own, cabled, every
// board on its own oscillator and powered on at its own time: the CM-5 was many chips, the
// processors' interfaces apart from the router chips. A link crosses a cable as two wires each
// way (hw/common/cmnet_ds_link.v: flits and credits as data-strobe tokens), so the flow control
// stays the network's own, end to end.
//
// The traffic is the self-test's (gen/cm5data/cm5data_selftest.h): each leaf board sends its
// messages from a ROM (all leaves' messages; its leaf number on strap pins) and checks what it
// received against the reference model: the count and the XOR of every word (what arrived, in
// any order: boards on their own clocks do not keep the model's cycles). The network board checks
// the same per leaf port, and every chip counter against the model once all have arrived (a
// network of height 1, one router chip: its counters do not depend on timing). Each board lights
// pass or fail.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_selftest.h"

namespace cmnet {

enum class Cm5CabledTop {
  kNetwork,  // cm5data_cabled_network: the network and a cable per leaf
  kLeaf,     // cm5data_cabled_leaf: one leaf (its number on the chip_id straps) and its cable
  kSim,      // both, and cm5data_cabled_sim: the network board and N leaf boards, cabled in C++
};

struct Cm5CabledOptions {
  int bit_clocks = 8;  // clocks per cable bit (4..64)
};

// One cable wire of the split: the sim top's cab_out[bit] of board `from` reaches cab_in[bit]
// of board `to` (board 0 the network, board 1 + g leaf g), and the two pins it joins.
struct Cm5CableWire {
  int bit = 0, from = 0, to = 0;
  std::string from_pin, to_pin;
};
std::vector<Cm5CableWire> cm5_cabled_wiring(uint32_t leaves);

// A board's cycle limit: it fails when it has not passed by then.
uint64_t cm5_cabled_limit(const Cm5DataParams& p, const Cm5SelfTest& t, const Cm5CabledOptions& o);

// Throws ConfigError for a network this split does not cover (height > 1, slots) or a traffic
// the tops cannot hold.
GeneratedDesign emit_cm5data_cabled(const Cm5DataConfig& cfg, const Cm5SelfTest& t,
                                    const board_parts::SelfTestPins& pins, Cm5CabledTop top,
                                    const Cm5CabledOptions& o);

}  // namespace cmnet

// The CM-5 data network split over boards (`cmnet build --mode cabled-network | cabled-leaf |
// cabled-rom-leaf`, `cmnet cabled`): each of the node's two networks (left, right) on a board of
// its own, each leaf on a board of its own with its two network interfaces, cabled, every board
// on its own oscillator and powered on at its own time: the CM-5 was many chips, the processors'
// interfaces apart from the router chips. A link crosses a cable as two wires each way
// (hw/common/cmnet_ds_link.v: flits and credits as data-strobe tokens), so the flow control stays
// the network's own, end to end.
//
// The traffic is a pattern's, each leaf's messages alternating between the networks. A leaf
// board hands its messages to its cm5data_ni on each side from a ROM (hw/cm5data/cm5data_ni_driver.v:
// {dst, tag, len} and the data words, as a node's program would write them) and takes every
// message its NIs receive; it checks the count, the XOR of the data words and the CRC flags
// against the reference model: what arrived, in any order (boards on their own clocks do not keep
// the model's cycles). The ROM-leaf board (`interfaces` false) sends the words as the network
// carries them (head, data, CRC) straight onto the links, without NIs. Each network board checks
// the count and XOR of every word delivered at each leaf port, and every chip counter against the
// model once all have arrived (height 1, one router chip: its counters do not depend on timing).
// Each board lights pass or fail.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_selftest.h"

namespace cmnet {

// What a network interface is told to send (SEND_DATA words, then SEND with dst and tag).
struct Cm5NiSend {
  uint32_t dst = 0;
  int tag = 0;
  std::vector<uint32_t> data;
};

// One network of the split (the caller runs the model: sim/cm5data/cm5data_selftest_model.h).
struct Cm5CabledSide {
  Cm5SelfTest net;  // per leaf the words it sends and the count and XOR of the words delivered; chip counters
  std::vector<std::vector<Cm5NiSend>> sends;  // per leaf: its messages on this network, as its NI is told them
  std::vector<uint32_t> data_xor;             // per leaf: XOR of the data words it receives
};

struct Cm5CabledTraffic {
  std::array<Cm5CabledSide, 2> sides;  // left, right
};

enum class Cm5CabledTop {
  kNetwork,  // cm5data_cabled_network: one network (SIDE = board) and a cable per leaf
  kLeaf,     // cm5data_cabled_leaf: one leaf (LEAF = board) and its two cables
  kSim,      // both, and cm5data_cabled_sim: the two network boards and N leaf boards, cabled in C++
};

struct Cm5CabledOptions {
  int bit_clocks = 8;       // clocks per cable bit (4..64)
  bool interfaces = true;   // leaf boards with their NIs (else from a ROM straight onto the links)
  int board = 0;            // kNetwork: the side (0 left, 1 right); kLeaf: the leaf
};

// One cable wire of the split: the sim top's cab_out[bit] of board `from` reaches cab_in[bit]
// of board `to` (boards 0 and 1 the left and right networks, 2 + g leaf g), and the pins it joins.
struct Cm5CableWire {
  int bit = 0, from = 0, to = 0;
  std::string from_pin, to_pin;
};
std::vector<Cm5CableWire> cm5_cabled_wiring(uint32_t leaves);

// A board's cycle limit: it fails when it has not passed by then.
uint64_t cm5_cabled_limit(const Cm5DataParams& p, const Cm5CabledTraffic& t, const Cm5CabledOptions& o);

// Throws ConfigError for a network this split does not cover (height > 1, slots) or a traffic
// the tops cannot hold.
GeneratedDesign emit_cm5data_cabled(const Cm5DataConfig& cfg, const Cm5CabledTraffic& t,
                                    const board_parts::SelfTestPins& pins, Cm5CabledTop top,
                                    const Cm5CabledOptions& o);

}  // namespace cmnet

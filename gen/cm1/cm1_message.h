// A CM-1 routing pattern as data: the messages each processor sends, in the order it sends
// them. The self-test tops embed one in a ROM, so it is a generator-level type; reading traffic
// files and making named patterns is the simulation layer's (sim/cm1/cm1_traffic.h).
#pragma once

#include <cstdint>
#include <vector>

namespace cmnet {

struct Message {
  uint32_t src = 0;   // global source processor (chip * P + proc)
  uint32_t dst = 0;   // global destination processor
  uint32_t vp = 0;    // destination VP-ADDRESS (v bits)
  uint64_t data = 0;  // DATA (d bits)
};

struct Traffic {
  std::vector<Message> messages;  // file order; each source sends its own messages in this order
};

}  // namespace cmnet

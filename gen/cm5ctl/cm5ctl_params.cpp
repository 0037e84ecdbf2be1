// Cm5ctlParams: derived figures and range checks.
#include "gen/cm5ctl/cm5ctl_params.h"

#include "gen/core/errors.h"

namespace cmnet {

int Cm5ctlParams::height() const {
  int h = 0;
  while ((1 << h) < leaves) ++h;
  return h;
}

int Cm5ctlParams::aside_depth_at(int level) const {
  if (aside_depth > 0) return aside_depth;
  const int up = height() - level;  // hops to the root
  const int round_trip = up * (up_frame() + down_frame()) + (root_queue_depth + 1) * down_frame();
  return (round_trip + packet_time() - 1) / packet_time() + 2;
}

namespace {

void check_range(const std::string& where, const char* field, int64_t value, int64_t lo, int64_t hi,
                 const std::string& why = "") {
  if (value < lo || value > hi)
    throw ConfigError(where + ": " + field + " = " + std::to_string(value) + " out of range " +
                      std::to_string(lo) + ".." + std::to_string(hi) + why);
}

}  // namespace

void validate(const Cm5ctlParams& p, const std::string& where) {
  check_range(where, "leaves", p.leaves, 2, 16384);
  if ((p.leaves & (p.leaves - 1)) != 0)
    throw ConfigError(where + ": leaves = " + std::to_string(p.leaves) +
                      " is not a power of two (the control network is a complete binary tree: 2, 4, 8, ..., 16384)");
  check_range(where, "word_bits", p.word_bits, 2, 32);
  check_range(where, "up_width", p.up_width, 1, p.packet_bits(),
              " (packet_bits = 12 + word_bits + crc_bits; wider links than a packet carry nothing more)");
  check_range(where, "down_width", p.down_width, 1, p.packet_bits(),
              " (packet_bits = 12 + word_bits + crc_bits; wider links than a packet carry nothing more)");
  if (p.queue_depth != 0)
    check_range(where, "queue_depth", p.queue_depth, p.min_queue_depth(), 64,
                " (0 = derived; at least stop_margin + 1 = " + std::to_string(p.min_queue_depth()) +
                    " for these widths, or a stopped child's packets in flight would overflow it)");
  check_range(where, "aside_depth", p.aside_depth, 0, 256, " (0 = derived per level)");
  check_range(where, "leaf_fifo_depth", p.leaf_fifo_depth, 1, 64);
  check_range(where, "broadcast_window", p.broadcast_window, 1, 16);
  check_range(where, "root_queue_depth", p.root_queue_depth, 1, 64);
  if (p.crc_bits != 0 && p.crc_bits != 8)
    throw ConfigError(where + ": crc_bits = " + std::to_string(p.crc_bits) + " (allowed: 0, no CRC; 8, a CRC-8 per packet)");
}

}  // namespace cmnet

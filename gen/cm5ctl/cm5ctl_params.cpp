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

int Cm5ctlParams::frame_lcm() const {
  int a = up_frame(), b = down_frame();
  while (b) {
    const int t = a % b;
    a = b;
    b = t;
  }
  return up_frame() / a * down_frame();
}

std::vector<int> Cm5ctlParams::roots() const { return partitions.empty() ? std::vector<int>{1} : partitions; }

Cm5Topology cm5_topology(const Cm5ctlParams& p) {
  const int N = p.leaves;
  Cm5Topology t;
  t.roots = p.roots();
  t.role.assign(static_cast<size_t>(2 * N), 0);
  t.part.assign(static_cast<size_t>(N), -1);
  std::vector<int> part_of(static_cast<size_t>(2 * N), -1);  // the partition whose subtree holds k
  std::vector<bool> out(static_cast<size_t>(2 * N), false);
  for (size_t r = 0; r < t.roots.size(); ++r) part_of[static_cast<size_t>(t.roots[r])] = static_cast<int>(r);
  for (int m : p.mapped_out) out[static_cast<size_t>(m)] = true;
  for (int k = 2; k < 2 * N; ++k) {  // parents first: inherit
    if (part_of[static_cast<size_t>(k)] < 0) part_of[static_cast<size_t>(k)] = part_of[static_cast<size_t>(k / 2)];
    if (out[static_cast<size_t>(k / 2)]) out[static_cast<size_t>(k)] = true;
  }
  for (int k = 2 * N - 1; k >= 1; --k) {  // children first: a node in use has a child in use
    const size_t s = static_cast<size_t>(k);
    bool use = part_of[s] >= 0 && !out[s];
    if (k < N) use = use && (t.role[2 * s] != 0 || t.role[2 * s + 1] != 0);
    if (use) t.role[s] = part_of[static_cast<size_t>(k)] >= 0 && t.roots[static_cast<size_t>(part_of[s])] == k ? 2 : 1;
    if (k >= N && use) t.part[static_cast<size_t>(k - N)] = part_of[s];
  }
  return t;
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
  if (p.packet != "plain" && p.packet != "cm5")
    throw ConfigError(where + ": packet = \"" + p.packet +
                      "\" (allowed: \"plain\", the payload and the CRC on all the wires; \"cm5\", the CM-5's 65-bit packet "
                      "in a major and a minor stream)");
  if (p.cm5_frame()) {
    if (p.word_bits != 32 || p.crc_bits != 8)
      throw ConfigError(where + ": packet = \"cm5\" needs word_bits = 32 and crc_bits = 8 (the CM-5's 65 bits hold a "
                        "32-bit word and a CRC-8), not word_bits = " + std::to_string(p.word_bits) +
                        ", crc_bits = " + std::to_string(p.crc_bits));
    if (p.up_width < 5 || p.down_width < 5)
      throw ConfigError(where + ": packet = \"cm5\" needs links of at least 5 wires (4 for the major stream, 1 for the "
                        "minor), not up_width = " + std::to_string(p.up_width) + ", down_width = " +
                        std::to_string(p.down_width));
  }
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
  if (p.alignment != 0 && p.alignment != 1)
    throw ConfigError(where + ": alignment = " + std::to_string(p.alignment) +
                      " (allowed: 0, frames aligned by reset; 1, by the alignment packet at initialization)");
  if (p.queue_ram != 0 && p.queue_ram != 1)
    throw ConfigError(where + ": queue_ram = " + std::to_string(p.queue_ram) +
                      " (allowed: 0, shallow queues in flip-flops; 1, the nodes' child queues in block RAM)");
  check_range(where, "send_fifo_depth", p.send_fifo_depth, 0, 16,
              " (0 = one staging register for every unit; else a send FIFO per leaf and function)");
  check_range(where, "counter_bits", p.counter_bits, 16, 32,
              " (the stream board's counters; a run may have at most 2^counter_bits - 1 units)");
  if (p.chip_nodes != 1 && p.chip_nodes != 3)
    throw ConfigError(where + ": chip_nodes = " + std::to_string(p.chip_nodes) +
                      " (allowed: 1, a module per node; 3, three nodes per chip as the CM-5 packs them)");
  const int N = p.leaves;
  auto ancestor_or_self = [](int a, int k) {
    while (k > a) k /= 2;
    return k == a;
  };
  for (size_t r = 0; r < p.partitions.size(); ++r) {
    const std::string f = "partitions[" + std::to_string(r) + "]";
    const int x = p.partitions[r];
    check_range(where, f.c_str(), x, 1, N - 1, " (a node's heap index: the root is 1, node i's children 2i and 2i+1)");
    for (size_t q = 0; q < r; ++q)
      if (ancestor_or_self(p.partitions[q], x) || ancestor_or_self(x, p.partitions[q]))
        throw ConfigError(where + ": " + f + " = " + std::to_string(x) + " overlaps partitions[" + std::to_string(q) +
                          "] = " + std::to_string(p.partitions[q]) + " (partitions are disjoint subtrees)");
  }
  for (size_t m = 0; m < p.mapped_out.size(); ++m) {
    const std::string f = "mapped_out[" + std::to_string(m) + "]";
    check_range(where, f.c_str(), p.mapped_out[m], 2, 2 * N - 1,
                " (a node's heap index 2.." + std::to_string(N - 1) + " or a leaf's, N + j = " + std::to_string(N) +
                    ".." + std::to_string(2 * N - 1) + ")");
  }
  const Cm5Topology t = cm5_topology(p);
  for (size_t r = 0; r < t.roots.size(); ++r)
    if (t.role[static_cast<size_t>(t.roots[r])] != 2)
      throw ConfigError(where + ": partitions[" + std::to_string(r) + "] = " + std::to_string(t.roots[r]) +
                        ": every leaf of that partition is mapped out (mapped_out)");
  if (p.crc_bits != 0 && p.crc_bits != 8)
    throw ConfigError(where + ": crc_bits = " + std::to_string(p.crc_bits) + " (allowed: 0, no CRC; 8, a CRC-8 per packet)");
}

}  // namespace cmnet

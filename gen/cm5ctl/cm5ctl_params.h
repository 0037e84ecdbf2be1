// Parameters of a CM-5 control network (Leiserson et al. 1992, section 5: a binary combining
// tree doing broadcasts, reductions, scans and barriers; section 2: the network interface at
// each leaf) and the figures derived from them. One struct drives the RTL emitter, the
// reference model, the harness and the reports.
//
// The packet (both directions, sent least significant chunk first; packet_bits = 15 + W):
//   bit  0      fc / ep  down: flow control, 1 = "stop sending multiple-source packets" to the
//                        child that receives it (the minor stream's flow bits); up: the
//                        sender's flush epoch (a multiple-source packet of the other epoch was
//                        sent before its sender saw the last flush: the receiver drops it)
//   bits 2:1    type     0 idle, 1 single-source, 2 multiple-source, 3 abstain
//   bits 4:3    kind     multiple-source: 0 reduce, 1 forward scan, 2 backward scan, 3 sync OR
//                        (barrier); single-source: the broadcast kind (0 user, 1 supervisor,
//                        2 interrupt, 3 utility)
//   bits 7:5    comb     combiner: 0 OR, 1 XOR, 2 signed MAX, 3 signed ADD, 4 unsigned ADD;
//                        5, 6: signed, unsigned ADD continuing a multi-word addition (each
//                        node adds the carry it kept from the word before)
//   bit  8      segd     the operation is a segmented scan
//   bit  9      seg      up: a segment bit is set in this subtree
//   bit  10     ovf      an addition overflowed (sticky, reported with the result)
//   bit  11     err      an error: colliding broadcasts, different operations combined
//   bits 14:12  global   the global synchronization bits, in every packet (idle ones too):
//                        12 asynchronous OR 0 (user), 13 asynchronous OR 1 (privileged),
//                        14 hard-error OR; up: the OR over the subtree, down: over the partition
//   bits 15+W-1:15 data  the W-bit word
//   A flush is a single-source packet of kind 1 (supervisor) with comb 7.
// With `alignment` 1, every node and leaf starts its frame counters from the alignment packet
// (5 bits, 1 1 0 1 0, on wire 0 of the down link, from a cycle that is a multiple of lcm(Tu, Td))
// instead of from reset, at the phase the contract gives that cycle: frames stay aligned.
//   then, with crc_bits = 8, a CRC-8 (x^8 + x^2 + x + 1) of all the bits before, sent last;
//   a receiver that finds it wrong counts a link error and takes the packet as idle
//
// Timing (the contract the model and the RTL share; cycle 0 is the first after reset):
// every link sends one packet per frame; up frames are Tu = ceil(packet_bits / up_width)
// cycles, down frames Td = ceil(packet_bits / down_width); all frames of a direction are
// aligned across the tree (each node keeps its own frame counters, started together by reset:
// the alignment the CM-5 does with its 5-bit packet at initialization). A node decides in the
// last cycle of a frame, from the packet whose last chunk arrives in that cycle and its
// registered state, and sends the outcome in the next frame: a hop is one packet time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet {

struct Cm5ctlParams {
  int leaves = 16;            // N processing nodes at the leaves: a power of two, 2..16384
  int word_bits = 32;         // W: data bits of a packet (the CM-5: 32)
  int up_width = 6;           // link wires child -> parent (the CM-5: 6)
  int down_width = 5;         // link wires parent -> child (the CM-5: 5)
  int queue_depth = 0;        // multiple-source packets a node buffers per child (0 = derived)
  int aside_depth = 0;        // values a node puts aside for the way down (0 = derived per level)
  int leaf_fifo_depth = 4;    // a network interface's outgoing FIFO, per function
  int broadcast_window = 4;   // single-source packets a leaf may have unreturned (end to end)
  int root_queue_depth = 2;   // combined results the root holds for the way down
  int crc_bits = 0;           // 0 or 8: a CRC at the end of every packet (the CM-5 had one)
  // Partitions: the heap index of each partition's root (node i's children are 2i and 2i+1,
  // the root is 1, leaf j is N + j); each partition is that node's subtree; empty = {1} (one
  // partition, the whole tree). Nodes above the partitions' roots are not built.
  std::vector<int> partitions;
  // Mapped-out subtrees (heap indices of nodes 2..N-1 or leaves N..2N-1): ignored by their
  // parents (combining needs a binary tree, not a complete one); a node whose children are all
  // mapped out is mapped out too.
  std::vector<int> mapped_out;
  int chip_nodes = 1;         // 1: a node per module; 3: cm5ctl_chip, three nodes per chip (the CM-5's)
  // 1: the frames are aligned at initialization by the 5-bit alignment packet, sent down from
  // each partition's root (hw/cm5ctl/cm5ctl_align.v); 0: by the common reset.
  int alignment = 0;
  // 1: the nodes' child queues in block RAM whatever their depth (a board short of logic cells
  // with blocks to spare: the 2-leaf stream board on the iCE40 HX8K); 0: queues of depth <= 8 in
  // flip-flops, deeper ones in block RAM.
  int queue_ram = 0;
  // The stream board's send side (gen/cm5ctl/cm5ctl_stream.h): 0, one staging register for every
  // unit from the host (the 2-leaf board that fits the iCE40 HX8K); 1..16, per leaf a send FIFO
  // of this depth per function (broadcast, combine, interrupt, synchronization) and a status
  // register read apart from the operations. Not the tree's: its Verilog does not change.
  int send_fifo_depth = 0;
  // The stream board's counters (due, results, pushed, per function), in bits: 32, or fewer for a
  // board short of logic cells; the host refuses a run of more units than they can count.
  int counter_bits = 32;
  // The packet on the links: "plain" (the payload bits, then the CRC, sent a chunk of all the
  // wires per cycle: the frame as short as the link allows) or "cm5" (the CM-5's 65 bits in a
  // major stream on wires 0..3 and a minor stream on wire 4, 13 cycles per packet in both
  // directions, the CRC last: layout in cm5ctl_packet.h; needs word_bits 32, crc_bits 8 and
  // links of at least 5 wires).
  std::string packet = "plain";
  bool cm5_frame() const { return packet == "cm5"; }

  static constexpr int kHeaderBits = 15;
  int height() const;                                 // log2(N): node levels above the leaves
  int nodes() const { return leaves - 1; }            // combining nodes
  int payload_bits() const { return kHeaderBits + word_bits; }  // what nodes process
  int packet_bits() const { return cm5_frame() ? 65 : payload_bits() + crc_bits; }  // what links carry
  int up_frame() const { return cm5_frame() ? 13 : (packet_bits() + up_width - 1) / up_width; }        // Tu
  int down_frame() const { return cm5_frame() ? 13 : (packet_bits() + down_width - 1) / down_width; }  // Td
  int packet_time() const { return up_frame() > down_frame() ? up_frame() : down_frame(); }
  // Packets a child can still land in a node's queue after the node decides to stop it: up to
  // two down frames pass before the child sees the stop bit, plus the frame in flight.
  int stop_margin() const { return 2 * down_frame() / up_frame() + 1; }
  int min_queue_depth() const { return stop_margin() + 1; }
  int effective_queue_depth() const { return queue_depth > 0 ? queue_depth : stop_margin() + 3; }
  // Put-aside depth of a node at `level` (0 = the leaves, height() = the root, which needs
  // none): enough for the operations a node can have in flight above it at full rate.
  int aside_depth_at(int level) const;
  // The latency bound of the issue: 2 x height x hop time + packet time, a hop being a packet
  // time (store and forward).
  int64_t latency_bound() const { return 2LL * height() * packet_time() + packet_time(); }
  // Alignment: L = lcm(Tu, Td) (every frame of the tree begins in the cycles that are multiples
  // of L); a node sends the alignment packet on in the first such cycle after its own came, so a
  // hop of the alignment wave is align_hop() = L x ceil(5 / L) cycles; the interfaces send
  // nothing before init_cycles() = height x align_hop + 5 (0 without the alignment packet).
  int frame_lcm() const;
  int align_hop() const { return frame_lcm() * ((5 + frame_lcm() - 1) / frame_lcm()); }
  int init_cycles() const { return alignment ? height() * align_hop() + 5 : 0; }
  // The partition roots (partitions, or {1}).
  std::vector<int> roots() const;
};

// Which parts of the tree are in use: role[k] for heap index k (1..2N-1; 0 unused): 0 not in
// use (above every partition's root, outside every partition, or mapped out), 1 a node or leaf
// in use, 2 a partition's root; part[j] the partition (index into roots) of leaf j, -1 when
// the leaf is not in use.
struct Cm5Topology {
  std::vector<int> roots;
  std::vector<uint8_t> role;
  std::vector<int> part;
  bool used(int k) const { return role[static_cast<size_t>(k)] != 0; }
};
Cm5Topology cm5_topology(const Cm5ctlParams& p);

// Throws cmnet::ConfigError naming the field, its value and the allowed range.
void validate(const Cm5ctlParams& p, const std::string& where);

}  // namespace cmnet

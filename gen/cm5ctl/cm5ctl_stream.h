// The CM-5 control network on the stream board (hw/common/STREAM_BOARD.md): `cm5ctl_stream`, the
// module with the stream port around cm5ctl_tree, its counters, and the unit format.
//
// A unit is one operation, two words (host -> leaf): word 0 {seg[8], segmented[7], comb[6:4],
// kind[3:2], abstain[1], broadcast[0]} (a broadcast with comb 7 is a flush), word 1 the data
// (W bits). A result is a unit of two words (leaf -> host): word 0 {abstained[8], err[7],
// ovf[6], comb[5:3], kind[2:1], broadcast[0]}, word 1 the data.
// Control units (host -> leaf, two words; word 0 bits 31:28 the kind, 16:0 its argument, word 1
// its data), taken in order with the operations through the staging register:
//   1 globals: arg bits 1:0 the leaf's asynchronous OR inputs, bit 2 its hard-error input;
//   2 counter: word 1 the leaf's data network counter, the input router-done sums (signed W bits);
//   3 restart: waits until the leaf is halted (a flush reached it), then resumes it;
//   4 link fault: at once, results owed or not, inverts wire 0 of link arg[15:0] (heap index of
//     its lower end) for one cycle, up when arg[16] is 1, down otherwise (a packet it hits is
//     taken as idle where the CRC catches it: the host picks the instant, e.g. while the results
//     owed wait at the nodes for an operation it has not sent yet);
//   5 status: waits arg[15:0] cycles (the host's settling time) and the output register, then
//     sends the leaf's status registers as a unit, each word built as it is sent: word 0 {5[31:28], words waiting in each function's FIFO (5 bits each,
//     function f at 5f)}, word 1 {router-done under way[24], overflow per function[23:20], last
//     error per function[19:16], owed results[15:8], broadcast dropped[7], design fault[6], CRC
//     link error[5] (these three sticky, anywhere in the tree), aligned[4], halted[3],
//     hard-error OR[2], asynchronous ORs[1:0]}; it counts as a result owed to the leaf.
// The network interface's receive side (paper, section 2: memory-mapped FIFOs per function):
// every leaf in use has a result FIFO per function, kCm5ResultDepth deep each: 0 broadcast
// (user, supervisor, utility broadcasts, the flush), 1 combine (reductions and scans), 2
// interrupt (broadcasts of kind interrupt), 3 synchronization (sync OR, router-done); the four
// share one memory per leaf (an entry in rows of at most 16 bits where results come far enough
// apart: one block RAM per leaf, see cm5ctl_stream.cpp). The module injects an operation only
// when every leaf that will get its result (the leaf itself; for a broadcast, its whole
// partition) owes fewer results of that function than that, so a result never finds its FIFO
// full (the tree cannot wait). The units
// going out visit (leaf, function) in turn, so results of different functions of one leaf may
// come out in another order than they arrived; within a function, in order.
// The send side, `send_fifo_depth` SD (cm5ctl_params.h):
//   0: one staging register for every unit: an operation waits in it until it is injected (its
//      leaf's tree buffers and every receiving leaf's result FIFO have room), holding every unit
//      behind it, so the host pushes operation k of every leaf before k + 1 of any; a status
//      waits there too, in order with the operations.
//   1..16: the paper's outgoing FIFOs per function (section 2; section 5: "Separate FIFO's in
//      the network interface correspond to each type of control-network function"): per leaf
//      in use a send FIFO of SD units for each of broadcast, combine, interrupt and synchronization
//      (the function of a unit's word 0, as for results: function_of). A unit passes the
//      staging register into its FIFO in the cycle after its last word when that FIFO has
//      room, whatever the other FIFOs hold; else it waits there, holding the units behind it
//      (a host that keeps to the space the status reports never sends such a unit). Order:
//      the tree combines the k-th multiple-source packet of every leaf of a partition into
//      operation k, so a leaf's combining and
//      synchronization operations (reductions, scans, sync OR, router-done) reach its tree leaf
//      in the order the host pushed them (the two FIFOs share one memory of 2 x SD, each
//      function limited to SD: its own space); broadcasts and interrupts are single-source,
//      not combined, and go independently of them and of each other. Each leaf presents the
//      head of one of its three queues to its tree leaf (the next non-empty one whenever the
//      one it presents cannot go: its tree buffer full, or a receiving leaf's result FIFO),
//      and one leaf injects per cycle, round robin. A status is a unit of its own path: it goes
//      from the staging register to a status register at once (one at a time), waits its
//      `arg` cycles and the output register, and comes back as three words: word 2 {the free
//      units of each send FIFO, function f in bits 8f+7:8f}. Leaves not in use: their units
//      are dropped. Control units 1..4 still pass the staging register in order with the
//      units: they apply once the units before them are in their FIFOs (not yet injected).
// Counters, per leaf i: leaf<i>.due (In: results this leaf is owed, one per operation it
// pushes, one per broadcast in its partition, one per status), leaf<i>.results (Out: delivered
// to the host), leaf<i>.pending (Held: owed, not delivered), leaf<i>.pushed (Other: units
// taken), leaf<i>.broadcast, .combine, .interrupt, .sync (Other: results delivered from each
// function's FIFO); a region per partition (and "not-in-use" for leaves outside every partition
// or mapped out: their units are taken and dropped).
#pragma once

#include <cstdint>
#include <vector>

#include "gen/cm5ctl/cm5ctl_config.h"
#include "gen/core/design.h"
#include "gen/core/stream_board.h"

namespace cmnet {

constexpr int kCm5ResultDepth = 16;
// Rows per entry of the result memory: 3 (16-bit rows, one block RAM per leaf) where a leaf's
// results come far enough apart ((rows + 1) x leaves <= the down frame), else 1 (W + 9 bits).
int cm5ctl_result_rows(const Cm5ctlParams& p);

// The network (emit_cm5ctl) plus cm5ctl_stream.v; top cm5ctl_stream.
GeneratedDesign emit_cm5ctl_stream(const Cm5ctlConfig& cfg);
// The board spec: the stream design and the counter list.
StreamBoardSpec cm5ctl_stream_spec(const Cm5ctlConfig& cfg);

namespace cm5unit {
// Operation -> the unit's two words; result word 0 + data -> its fields (see above).
std::vector<uint32_t> encode_op(bool broadcast, bool abstain, uint8_t kind, uint8_t comb, bool segmented, bool seg,
                                uint32_t data);
struct Decoded {
  bool broadcast = false, ovf = false, err = false, abstained = false;
  uint8_t kind = 0, comb = 0;
  uint32_t data = 0;
};
Decoded decode_result(uint32_t word0, uint32_t word1);
enum Control : uint8_t { kGlobals = 1, kCounter = 2, kRestart = 3, kFlip = 4, kStatus = 5 };
std::vector<uint32_t> encode_control(Control kind, uint32_t arg, uint32_t data = 0);
bool is_status(uint32_t word0);
// The functions of the interface's receive FIFOs.
enum Function : uint8_t { kFnBroadcast = 0, kFnCombine = 1, kFnInterrupt = 2, kFnSync = 3 };
// A result's function: a broadcast of kind interrupt: interrupt; another broadcast (a flush too):
// broadcast; a sync OR or a router-done: sync; any other combining operation: combine.
inline Function function_of(bool broadcast, uint8_t kind, uint8_t comb) {
  if (broadcast) return kind == 2 ? kFnInterrupt : kFnBroadcast;
  return kind == 3 || comb == 7 ? kFnSync : kFnCombine;
}
struct Status {
  uint8_t globals = 0;  // bit 0, 1 the asynchronous ORs, bit 2 the hard-error OR
  bool halted = false, aligned = false, link_error = false, fault = false, bcast_drop = false;
  uint32_t owed = 0;
  uint32_t waiting[4] = {0, 0, 0, 0};  // words waiting in each function's FIFO
  uint8_t last_err = 0;                // bit f: the last result of function f had the error bit
  uint8_t overflow = 0;                // bit f: function f's FIFO overflowed (never, by design)
  bool router_done = false;            // a router-done under way
  bool has_space = false;              // send FIFOs per function (a status of three words)
  uint32_t space[4] = {0, 0, 0, 0};    // free units in each function's send FIFO
};
Status decode_status(uint32_t word0, uint32_t word1);
// A status unit of either mode (two words, or three with the send FIFOs' space).
Status decode_status(const std::vector<uint32_t>& words);
}  // namespace cm5unit

}  // namespace cmnet

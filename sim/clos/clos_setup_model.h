// Reference model of CONNECT's parallel circuit set-up (Li and Rishe 1991, "Parallel control of
// the three-stage Clos network"), written from the paper, independently of the RTL.
//
// 2^M hnodes on a hypercube control the switches: input and output switch i belong to hnode
// i mod 2^M, middle switch k to hnode k mod 2^M. Each hnode keeps an InputVector per input
// switch, an OutputVector per output switch and a RelayTable per middle switch, and per leaf a
// busy bit (with the request holding it) and a WaitingQueue. Messages travel between hnodes
// over the hypercube (e-cube routing, gen/core/hypercube_topology.h) and between a leaf and its
// hnode through the subtree. A discrete-event simulation in microseconds:
//   CSR  leaf -> h_o                ODCR leaf -> h_o
//   CR   h_o -> h_d (InputVector)   IDCR h_o -> h_m
//   CO   h_d -> h_m (switch ms)     DDCR h_m -> h_d
//   ACK  h_m -> h_o                 CANCEL h_m -> h_d (RelayTable conflict: the race)
//   READY h_o -> leaf               RESEND h_d -> h_o (after more than cancel_limit CANCELs)
// The lower-numbered leaf is allocated first: an up-going CR (orig < dest) takes orig at h_o and
// then waits for dest at h_d; otherwise dest is taken at h_d and orig when the ACK reaches h_o.
//
// As built (where the paper is silent):
//   - h_d picks the lowest-numbered middle switch free in InputVector | OutputVector | the
//     switches CANCELed for this request (the paper's hypercube-distance strategy, ref. 26, is
//     not given);
//   - on a CANCEL, h_d frees its output s-link and tries again with the same (stale) InputVector
//     and the CANCELed switch excluded; after more than cancel_limit CANCELs it sends RESEND and
//     h_o sends the CR again with its current InputVector; h_d keeps the destination leaf;
//   - blocked (no free switch in V): h_d frees the destination leaf and sends RESEND marked
//     "blocked"; h_o frees the originating leaf (if this request holds it) and starts the request
//     again retry_us later (the paper's "timed re-try"): nothing is held while waiting for links,
//     so no hold-and-wait cycle can form through s-links;
//   - h_o sets the InputVector bit when the ACK arrives, also when the ACK must then wait for the
//     originating leaf (the RelayTable already holds the s-link);
//   - an hnode handles one message at a time (handle_us each); a leaf's WaitingQueue is served in
//     order when the leaf is released, inside the handling of the releasing message;
//   - closed loop (default): a leaf has one circuit request of its own at a time and asks for the
//     next one a think time after its previous circuit is torn down (DDCR handled); open loop
//     (the paper's evaluation: "the interval time between two messages initiated by a data
//     processor is ... exponential"): each leaf generates messages needing a circuit as a
//     Poisson process whatever its state; it asks for one circuit at a time (a transputer's
//     link sends one message at a time) and sends the CSR of its next message when it releases
//     its circuit (ODCR); destinations are uniform over the other active leaves;
//   - resend_after_wait: a CR that waited in the destination's WaitingQueue carries an
//     InputVector as old as the wait (milliseconds: a whole circuit's holding time), not only
//     "outdated" by the CRs in flight that the paper's race is about. With the option, h_d
//     answers such a CR, when it takes the leaf, with the paper's RESEND ("the InputVector ... is
//     most likely too outdated") and h_o sends the CR again with its current InputVector; h_d
//     keeps the destination leaf meanwhile. Off by default (the paper does not say it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gen/clos/clos_router.h"

namespace cmnet {

enum class ClosMsgType { kCSR, kCR, kCO, kACK, kREADY, kODCR, kIDCR, kDDCR, kCANCEL, kRESEND };
constexpr int kClosMsgTypes = 10;
const char* to_string(ClosMsgType t);

// Where h_d's search for a free middle switch starts (it goes upwards, wrapping): at h_d's own
// first middle switch (the paper's reference order, "ascending order of the id numbers of the
// nodes starting from h_d"), at (input switch + output switch) mod m (a Latin square: requests
// from one input switch to different output switches, and to one output switch from different
// input switches, start at different middle switches), or at random. kNearest (model only): the
// paper's goal, "minimize the distance from h_d to h_o through h_m" (its ref. 26 is not given):
// of the free middle switches, one whose hnode h_m makes the hypercube path h_d -> h_m -> h_o
// shortest (Hamming distances; on a shortest h_d -> h_o path when one is free), ties broken
// by the Latin-square order, so the choices still spread.
enum class ClosSelectStart { kDest, kPair, kRandom, kNearest };

struct ClosSetupOptions {
  uint64_t requests = 1000;    // circuit requests issued in all; then the run drains
  double think_us = 2000;      // mean time a leaf is idle between its circuits (exponential)
  double hold_us = 4000;       // mean circuit holding time (exponential)
  double hop_us = 50;          // one control hop: 20 us on a 0.8 MB/s link (16 bytes) + 30 us CPU
  double handle_us = 30;       // an hnode handling one message (paper: 30 us average)
  int tree_hops = 3;           // leaf <-> hnode through the subtree (the paper's: ClosTree(ClosTreeShape{}).depth())
  double retry_us = 500;       // the timed re-try after a blocked selection
  int active_per_switch = 0;   // leaves per switch that use the network (0 = all n; paper: 30 of 32)
  uint64_t seed = 1;
  int full_trace_every = 1;    // trace every circuit through all settings at every k-th READY (0: never)
  int snapshot_every = 0;      // record the established circuits and the settings every k-th READY
  size_t max_snapshots = 64;
  uint64_t max_events = 200000000;
  bool log_hnode_ops = false;  // record every switch-status operation (ClosSetupStats::hnode_ops)
  bool open_loop = false;      // Poisson requests per leaf, mean interarrival_us (else closed loop, think_us)
  double interarrival_us = 20000;
  ClosSelectStart select = ClosSelectStart::kDest;
  bool resend_after_wait = false;  // RESEND a CR whose InputVector aged in a WaitingQueue (see above)
  // A busy bit per c-link of a leaf (its sending side, the input c-link, and its receiving side,
  // the output c-link) instead of one per leaf: a leaf may send over one circuit while it
  // receives over another. Not the paper's ("the status can be idle or busy"); for measuring.
  bool duplex_leaves = false;
  // One shared hypercube (the paper's design before its enhancement): besides the circuits'
  // messages each hnode's CPU routes other traffic, Poisson jobs of uniform 0 .. 2 x handle_us
  // every background_gap_us on average (0: none, the paper's separate control hypercube).
  double background_gap_us = 0;
};

// The options under which the model does what the RTL emitted from `p` does: the selection's
// start (ClosParams::select_pair) and RESEND after a wait (ClosParams::resend_after_wait).
ClosSetupOptions clos_protocol_options(const ClosParams& p);

// The circuits connected (h_o has set the input switch, and has not yet handled the ODCR: from
// just before READY to just after the release) and the switch settings at a moment.
struct ClosSnapshot {
  double t_us = 0;
  std::vector<int> dest;  // input port -> output port of its connected circuit, or -1
  ClosSettings settings;  // everything the hnodes have written, in-progress set-ups included
};

// One operation on an hnode's switch status (InputVectors, OutputVectors, RelayTables), as the
// model did it, with its decision: what hw/clos/clos_hnode.v must reproduce op by op.
enum class ClosHnodeOpCode { kSelect = 0, kCo = 1, kAck = 2, kOdcr = 3, kIdcr = 4, kClearOv = 5, kCr = 6 };
struct ClosHnodeOp {
  int hnode = 0;
  ClosHnodeOpCode code = ClosHnodeOpCode::kSelect;
  int sw = 0;         // local input (ACK, ODCR) or output (SELECT, DDCR/CANCEL) switch: global / 2^M
  int k = 0;          // local middle switch (CO, IDCR): global / 2^M
  int ms = 0;         // middle switch (global)
  int in_sw = 0, out_sw = 0;  // CO, IDCR: the s-links of the middle switch
  int start = 0;      // SELECT: where the search starts
  std::vector<char> iv, tried;  // SELECT: the CR's InputVector, the CANCELed switches; CR: the InputVector sent
  bool found = false; // SELECT: decision
  int res_ms = -1;    // SELECT: the switch chosen
  bool accept = false;  // CO: decision
};

// One operation on an hnode's leaf status (busy bit, holder, WaitingQueue) with the model's
// decision: what hw/clos/clos_leaf_status.v must reproduce op by op. kind: what the request does
// when it has the leaf (0: CR at h_o, 1: CR at h_d, 2: ACK at h_o).
struct ClosLeafOp {
  int hnode = 0;
  bool release = false;  // false: TAKE, true: RELEASE
  int leaf = 0;          // local leaf number: (switch / 2^M) * n + port
  int req = 0, kind = 0;
  bool wait = false;     // TAKE: the request joined the WaitingQueue
  bool resume = false;   // RELEASE: the first waiting request took the leaf
  int res_req = 0, res_kind = 0;
};

struct ClosSetupStats {
  uint64_t issued = 0, ready = 0, torn_down = 0;
  uint64_t messages[kClosMsgTypes] = {};
  uint64_t cube_hops = 0;            // hypercube hops of all hnode-to-hnode messages
  uint64_t max_link_load = 0;        // messages over the busiest directed hypercube link
  uint64_t selections = 0;           // middle-switch selections at h_d
  uint64_t cos = 0, cancels = 0;     // COs sent, of which CANCELed (race)
  // Every CO and CANCEL falls in one of three classes, by the CR it was selected from:
  uint64_t cos_after_wait = 0, cancels_after_wait = 0;  // the CR waited at h_d after h_o took its InputVector
  uint64_t cos_retry = 0, cancels_retry = 0;            // a re-selection after a CANCEL (same CR, same vector)
  // the rest: the first CO of a CR that went straight to its selection: the paper's race ("a
  // connection request previously sent from h_o which has not been acknowledged")
  uint64_t requests_raced_fresh = 0;  // requests whose first CO of an un-waited CR was CANCELed
  uint64_t crs_sent = 0, crs_sent_while_outstanding = 0;  // CRs; of those sent while another CR of
                                     // the same input switch was unacknowledged (the race's precondition)
  uint64_t resends = 0;              // RESENDs after the CANCEL limit
  uint64_t wait_resends = 0;         // RESENDs of CRs that waited (ClosSetupOptions::resend_after_wait)
  uint64_t blocked = 0;              // selections that found no free switch in V
  uint64_t truly_blocked = 0;        // of those, where no middle switch had both s-links free (oracle)
  uint64_t requests_raced = 0;       // requests that met at least one CANCEL
  uint64_t requests_blocked = 0;     // requests that met at least one blocked selection
  uint64_t waited = 0;               // requests that waited in a WaitingQueue
  uint64_t max_circuits = 0;         // most circuits established at once
  double mean_circuits = 0;          // circuits established, time-averaged over the run
  std::vector<double> latency_us;    // CSR sent -> READY received, every request
  std::vector<double> delivery_us;   // message generated -> its circuit released (the transfer done)
  double hold_sum_us = 0;            // sum of READY -> release: circuit time carrying data
  std::vector<double> direct_latency_us;  // of requests that never waited, raced or blocked
  std::vector<int> direct_hops;      // their hops: tree (CSR, READY) + cube (CR, CO, ACK)
  double end_us = 0;
  bool deadlock = false;             // events ran out with requests unfinished
  std::string error;                 // first invariant violation ("" = none)
  std::vector<ClosSnapshot> snapshots;
  std::vector<ClosHnodeOp> hnode_ops;  // when ClosSetupOptions::log_hnode_ops
  std::vector<ClosLeafOp> leaf_ops;    // when ClosSetupOptions::log_hnode_ops
  size_t max_waiting = 0;              // longest WaitingQueue seen
  double leaf_busy_us = 0;             // busy bits held (summed over leaves, or sides with duplex_leaves)
  double hnode_busy_us = 0;            // hnodes' handling time, summed over hnodes
  double hnode_busy_max_us = 0;        // the busiest hnode's
  uint64_t background_jobs = 0;
};

// Runs the parallel set-up of `opt.requests` random circuits on N(m, n, r) with 2^hnode_dims
// hnodes (p.cancel_limit), checking every established circuit against the switch settings.
ClosSetupStats run_clos_setup(const ClosParams& p, const ClosSetupOptions& opt);

// A message as the paper's formats carry it: type, destination hnode, the request's originating
// and destination leaves, the middle switch (CO, ACK, CANCEL, IDCR, DDCR, READY), RESEND's
// "blocked" mark, a CR's InputVector (m entries).
struct ClosMsg {
  ClosMsgType type = ClosMsgType::kCSR;
  int to = 0;
  int orig = 0, dest = 0;
  int ms = -1;
  bool blocked = false;
  std::vector<char> iv;
  std::string str() const;
};

// The same protocol, driven message by message: handle() runs the paper's step for a message at
// an hnode (the hnode must be the one the message is for) and returns what the step sends, READY
// to the leaf and the blocked re-try's CSR to h_o included. A request is named by its
// originating leaf, which has one request at a time (a CSR for a leaf whose request is over
// starts a new one). What the RTL's message engines must match, handling by handling.
class ClosProtocolModel {
 public:
  ClosProtocolModel(const ClosParams& p, const ClosSetupOptions& o);
  ~ClosProtocolModel();
  std::vector<ClosMsg> handle(int hnode, const ClosMsg& m);
  // The last handle()'s writes to the switches' configuration port (ClosParams::cfg_*): address
  // and select, -1 for a cleared output.
  const std::vector<std::pair<int, int>>& config_writes() const;
  const std::string& error() const;  // first invariant violation, "" = none
  bool idle() const;                 // every vector, RelayTable, busy bit and WaitingQueue clear
 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cmnet

// A functional oracle for CONNECT's three-stage Clos network N(m, n, r) and its parallel circuit
// set-up (Li and Rishe 1991), written from the paper's definitions alone: it shares no code, table
// or helper with the emitter, the params or the set-up model (issue 26). It judges what a user
// reasons about: which circuits were established, through which middle switch, whether they ever
// shared a link or a leaf, whether the switches' settings carry each one from its source to its
// destination and nowhere else, which data words came out where, and the bounds no schedule beats.
//
// The network (the paper's figure 3): r input switches of n input c-links and m input s-links,
// m intermediary ("middle") switches of r x r s-links, r output switches of m output s-links and
// n output c-links. Input port s is c-link s % n of input switch s / n; output port d is c-link
// d % n of output switch d / n. A circuit s -> d through middle switch k holds input s-link
// (s / n, k) and output s-link (k, d / n), each carrying one circuit at a time.
//
// Choices where the paper is silent are fields of Options (gen/clos/README.md, "As built").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cmnet::clos_oracle {

struct Net {
  int m = 0, n = 0, r = 0;
  int ports() const { return n * r; }
};

// What a leaf's busy status covers. The paper: "The status can be 'idle' or 'busy'" (one per
// leaf), so a leaf is in one circuit at a time, as source or destination; kPerCLink: its input and
// output c-links separately (a leaf may send over one circuit while it receives over another).
enum class LeafStatus { kOnePerLeaf, kPerCLink };

// Which refusals a routing of circuits all at once may make. kByTheorems: the paper's two
// properties: m >= n routes every pairing when the router may rearrange (Options::rearranging),
// m >= 2n - 1 routes every circuit whatever came before; otherwise a circuit is refused only when
// every middle switch has its input s-link or its output s-link taken by a routed circuit.
// kAnyRefusal: refusals are not judged.
enum class Refusals { kByTheorems, kAnyRefusal };

struct Options {
  LeafStatus leaf_status = LeafStatus::kOnePerLeaf;
  Refusals refusals = Refusals::kByTheorems;
  bool rearranging = true;  // the routing of a whole set at once may rearrange (an off-line router)
  // What an output port no circuit reaches reads while words flow (the paper is silent): nullopt
  // = not judged.
  std::optional<uint64_t> idle_output_word = 0;
  // The fewest time steps from a request entering its h_o (the CSR handled) to its READY: the CR
  // at h_d, the CO at h_m and the ACK at h_o are each handled at least one step after the message
  // before (the paper's steps 2 to 5; a step is a clock cycle or a round).
  uint64_t min_setup_steps = 3;
};

// A circuit of a routing: source and destination port, the middle switch (-1: refused).
struct Circuit {
  int src = 0, dst = 0;
  int middle = -1;
};

// Every circuit of a set routed at once: ports in range, each port the source of one circuit and
// the destination of one at most, middle switches in range, no s-link shared, refusals as
// Options::refusals allows. Each string names one disagreement.
std::vector<std::string> check_routing(const Net& net, const std::vector<Circuit>& circuits, const Options& o);

// The crossbars' settings: every output of a switch copies one of its inputs, or none (-1).
struct Settings {
  std::vector<std::vector<int>> in_sel;   // [r][m]: the input c-link of input switch i on its s-link to middle k
  std::vector<std::vector<int>> mid_sel;  // [m][r]: the input switch middle k connects to output switch o
  std::vector<std::vector<int>> out_sel;  // [r][n]: the middle switch output switch o connects to its c-link p
  static Settings empty(const Net& net);
};

// Where input port s's data arrives through the settings: every output port it reaches (several
// when a crossbar copies one input to two outputs) and the middle switch of each path.
struct Reach {
  int dst = -1, middle = -1;
};
std::vector<Reach> reach(const Net& net, const Settings& s, int src);

// The settings carry exactly `established` (middle -1: any): each circuit's source reaches its
// destination, through its middle switch, and no other output; every other input reaches nothing.
std::vector<std::string> check_settings(const Net& net, const Settings& s, const std::vector<Circuit>& established);

// A write to the switches' configuration port, as the port's documentation lays it out: input
// switch i output k at i*m + k, middle switch k output o at r*m + k*r + o, output switch o output
// p at 2*r*m + o*n + p; `sel` the input copied, -1 to clear. Applies it; false (why in *error)
// for an address or selection out of range.
struct ConfigWrite {
  int addr = 0, sel = -1;
};
bool apply(const Net& net, Settings& s, const ConfigWrite& w, std::string* error);

// Data over circuits: what each circuit's source sent, and what was seen at output ports (one
// word a step; a port not listed was not observed). An established circuit's words arrive at its
// destination unchanged and in order; an output no established circuit reaches reads
// Options::idle_output_word; a refused circuit's words arrive nowhere.
struct Sent {
  int src = 0, dst = 0;
  bool established = true;
  std::vector<uint64_t> words;
};
struct Seen {
  int port = 0;
  std::vector<uint64_t> words;
};
std::vector<std::string> check_delivery(const Net& net, const std::vector<Sent>& sent, const std::vector<Seen>& seen,
                                        const Options& o);

// The set-up through the hnodes over time. Requests are served once each, in any order; an event
// names a request by its index.
struct Request {
  int src = 0, dst = 0;
  uint64_t hold = 0;  // steps the source holds its circuit after READY before releasing it
};
enum class EventKind { kRelease, kWrite, kEnter, kReady };  // at one time step, in this order
struct Event {
  EventKind kind = EventKind::kReady;
  uint64_t at = 0;
  int req = -1;       // kEnter (the CSR handled at h_o), kReady (with its middle), kRelease (the ODCR handled)
  int middle = -1;
  ConfigWrite write;  // kWrite
};
// A circuit is established from its READY to its release. Checks: each request established once,
// then released, all of them by the end (the paper's deadlock freedom and timed re-try: no
// request is refused for ever, whatever m); while established, no s-link and no leaf
// (Options::leaf_status) shared with another circuit; READY no sooner than min_setup_steps after
// the request entered; released after its hold; and when `settings_known`, the settings the
// writes so far make carry the circuit from its source to its destination through its middle
// switch and nowhere else, just before its release.
std::vector<std::string> check_setup(const Net& net, const std::vector<Request>& requests, std::vector<Event> events,
                                     bool settings_known, const Options& o);

// One selection at h_d (the paper's V = InputVector OR OutputVector): a middle switch chosen must
// be one V (and the CANCELs of this request) leaves free. `excluded` lists what is known to be
// excluded (the CR's InputVector and the CANCELed switches; the OutputVector is h_d's own state).
std::vector<std::string> check_selection(const Net& net, const std::vector<char>& excluded, bool found, int chosen);

}  // namespace cmnet::clos_oracle

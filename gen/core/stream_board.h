// The stream board: one board top for every family (hw/common/STREAM_BOARD.md). A family gives
// its stream module and describes its counters once (StreamBoardSpec); the shell adds the host
// link, the register block (hw/common/cmnet_stream_regs.v) and an info ROM holding that
// description as text, so the host driver (host/stream_board.h) reads the family, its
// parameters, regions and counter names from the board itself.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gen/core/design.h"
#include "gen/core/host_board.h"

namespace cmnet {

// What a counter counts, for conservation per region: sum(In) = sum(Out) + sum(Held).
enum class CounterKind { In, Out, Held, Other };
const char* counter_kind_name(CounterKind k);  // "in", "out", "held", "other"

struct StreamCounter {
  std::string name;         // no spaces: "leaf3.sent"
  CounterKind kind = CounterKind::Other;
  uint32_t region = 0;      // index into StreamBoardSpec::regions
  bool operator==(const StreamCounter&) const = default;
};

// The board's self-description: what the info ROM holds.
struct StreamInfo {
  std::string family;       // the config's "network"; also the prefix of the board's modules
  std::string name;         // the config's name
  uint32_t leaves = 0;
  std::vector<std::pair<std::string, std::string>> params;  // the family's parameters
  std::vector<std::string> regions;
  std::vector<StreamCounter> counters;  // in the order of the stream port's counters bus
  // The counters' width: they wrap at 2^counter_bits, so a run of more units than that is
  // refused (a unit adds at most one to each counter).
  uint32_t counter_bits = 32;
  bool operator==(const StreamInfo&) const = default;
};

// The info ROM's text ("cmnet-stream 1", then one line per item) and its parser. parse throws
// InputError naming `where` and the line for anything malformed.
std::string stream_info_text(const StreamInfo& info);
StreamInfo parse_stream_info(const std::string& text, const std::string& where);

struct StreamBoardSpec {
  StreamInfo info;
  std::string title;          // the network, for the generated headers ("CM-5 data network")
  std::string canonical_json; // the config (its hash is the board's CONFIG_ID)
  GeneratedDesign network;    // the family's design: its .v files (in compile order) are kept
  std::string stream_module;  // the module with the stream port, in `network`
  int fifo_log2 = 7;          // each FIFO of the shell holds 2^fifo_log2 words (4..12)
};

// The stream port (hw/common/STREAM_BOARD.md) as the declarations every family's stream module
// opens with, one per line, unindented, in the contract's order; the counters bus last,
// `ncounters` x 32 bits, with `counters_comment` after it when given.
std::vector<std::string> stream_port_declarations(int ncounters, const std::string& counters_comment = "");

// The declarations that decode the port's tx_leaf for a module of `nleaves` leaves: tx_in_range
// (the leaf exists), tx_sel (its low `sel_bits` bits, the leaf's index) and, when tx_leaf is wider,
// a lint-clean sink for its unused high bits.
std::vector<std::string> stream_leaf_select(int nleaves, int sel_bits);

// The board: the family's Verilog, the host link, cmnet_stream_regs, `<family>_stream_info`
// (the ROM), `<family>_host_core` and the top `<family>_host_board`; filelist.f, csr.csv and
// stream_info.txt beside them. ConfigError for a spec the register map cannot hold.
GeneratedDesign emit_stream_board(const StreamBoardSpec& spec, const HostBoardOptions& opt);

}  // namespace cmnet

// The CM-5 data network's self-test board top (`cmnet build --mode network`): one network (the
// left one) in the FPGA with no host, its leaves played by the top itself. Each leaf sends its
// messages from a ROM (the words as a leaf sends them: head, data, CRC), one flit a cycle while
// it holds credits, from the first cycle after reset, and takes every flit at once, returning
// its credit the next cycle: the reference model's leaves (sim/cm5data/cm5data_model.h), so the
// network runs the model's cycles. Per leaf the top counts the messages received, XORs every
// word received (heads, data, CRCs) and keeps the cycle of the last arrival; when every leaf has
// its expected count it reads every chip's counters (messages per port in and out, CRC errors)
// through the network's counter port and compares them too; then (or when the cycle limit
// passes) it lights pass or fail. The expectations are data (Cm5SelfTest): the caller runs the
// model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/design.h"
#include "gen/core/selftest_top.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

struct Cm5SelfTestLeaf {
  std::vector<std::vector<uint32_t>> messages;  // what the leaf sends, in order: each message's words
  uint32_t rx_count = 0;   // expected: messages received
  uint32_t rx_xor = 0;     // expected: XOR of every word received
  uint64_t rx_last = 0;    // expected: cycle of the last message's last flit (0: none)
};

// One chip counter the top reads and its expected value (cnt_chip, cnt_sel as the network's
// counter port numbers them: in per port, out per port, CRC primary, CRC secondary).
struct Cm5SelfTestCounter {
  uint32_t chip = 0;
  int sel = 0;
  uint32_t value = 0;
};

struct Cm5SelfTest {
  std::string pattern;      // what the traffic is (for the header and selftest.json)
  uint64_t seed = 1;
  int per_leaf = 1;
  std::vector<Cm5SelfTestLeaf> leaves;  // one per leaf
  std::vector<Cm5SelfTestCounter> counters;  // every chip's, in chip then select order
  uint64_t model_cycles = 0;            // the model's run: cycles to the last arrival + 1
  int expect_offset = 0;                // tests only: added to leaf 0's expected count (forces fail)
};

// The cycle after which a self-test run gives up (fail): twice the model's cycles, the counter
// scan and 64 more.
uint64_t cm5_selftest_limit(const Cm5SelfTest& t);

// The network (emit_cm5data) plus cm5data_selftest_top.v and selftest.json; top
// cm5data_selftest_top. Throws ConfigError for a traffic the top cannot hold (a leaf count that
// is not the network's, a message of a wrong length).
// Parts the board tops that play leaves from a ROM share (this one and gen/cm5data/cm5data_cabled.h):
// (board_parts::vector_param for leaf-indexed constants); the ROM
// function NAME(leaf, a) holding each leaf's words back to back (LW leaf bits, AW word bits), each
// with what it is in a comment; and a leaf's messages as such words (head, data, CRC).
struct Cm5RomWord {
  uint32_t value = 0;
  std::string what;
};
using Cm5LeafRom = std::vector<std::vector<Cm5RomWord>>;  // per leaf
void emit_cm5_rom_function(VerilogWriter& v, const std::string& name, int LW, int AW, const Cm5LeafRom& rom);
std::vector<Cm5RomWord> cm5_message_rom(const std::vector<std::vector<uint32_t>>& messages);
// The function exp_counter(k) = {chip, select, value} of counters[k], and the scan that compares
// them once `all_done` (it declares settle, scanned, cnt_ok; the caller declares sk, exp =
// exp_counter(sk) and the network's cnt_value).
void emit_cm5_counter_rom(VerilogWriter& v, const std::vector<Cm5SelfTestCounter>& counters, int chip_bits, int sel_bits,
                          int KW);
void emit_cm5_counter_scan(VerilogWriter& v, int KW, uint64_t NK, const std::string& all_done);
// cm5data_network as net: its leaf links on tx_valid, tx_data, tx_credit, rx_valid, rx_data,
// rx_credit and its counter port on exp's chip and select fields and cnt_value (the caller's).
void emit_cm5_network_instance(VerilogWriter& v, const Cm5DataParams& p, int chip_bits, int sel_bits);

GeneratedDesign emit_cm5data_selftest(const Cm5DataConfig& cfg, const Cm5SelfTest& t,
                                      const board_parts::SelfTestPins& pins);

}  // namespace cmnet

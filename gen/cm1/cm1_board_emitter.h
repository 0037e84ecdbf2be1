// Board tops for the FPGA flow (bitstreams/flow.h): small-port-count wrappers around the
// emitted CM-1 network or one CM-1 chip, so that a design fits a real package.
//
// SELF-TEST TOPS. These are the "no host attached" tops: a ROM holds a routing pattern
// (given as data: the caller makes it, e.g. make_pattern() in sim/cm1/cm1_traffic.h); after reset a loader pushes it into the endpoints
// through the load port, runs the machine until it is idle, then checks
//   - the number of receptions and the XOR of every received {DATA, VP} word against the
//     expectation it is given (the reference model's, run by the caller: sim/cm1/cm1_selftest.h),
//   - the routers' counters (sum over chips): injected = delivered = messages,
//     parity_errors = 0, petit_cycles > 0.
// LEDs show running / pass / fail; the UART tx pin is driven idle-high. The host-link top
// (UART + register file, written separately) will replace the self-test loader; it is meant
// to go through the same flow (same port naming: clk, rst_btn, led[], uart_tx, uart_rx).
//
//   cm1_board_top       "whole network inside one FPGA": instantiates cm1_network.
//   cm1_chip_board_top  one cm1_chip at full clock rate, its cube_out / cube_in on header
//                       pins (registered at the pins), a local self-test loader (messages
//                       from each local processor to another local processor): the
//                       single-board test, and what the router chip's Fmax is measured on.
//                       Several boards cabled into a cube use cm1_cube_board_top
//                       (gen/cm1/cm1_cube_board_emitter.h) instead.
//
// Ports of both tops (only these, so any package fits):
//   clk; rst_btn (if the board has a button; polarity by option); led[K-1:0] (K = 2 or 3:
//   led[0] pass, led[1] fail, led[2] running; with K = 2 led[0] blinks while running);
//   uart_tx (idle high); chip mode adds cube_out[C-1:0], cube_in[C-1:0].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_emitter.h"
#include "gen/cm1/cm1_config.h"
#include "gen/cm1/cm1_message.h"
#include "gen/core/selftest_top.h"

namespace cmnet {

// The pins (reset button, 2 or 3 LEDs, blink period) as every family's self-test top has them.
struct BoardTopOptions : board_parts::SelfTestPins {
  // Self-test traffic (network mode). The whole pattern is loaded before the run, so
  // per_proc must not exceed the config's queue_depth.
  std::string pattern = "permutation";
  uint64_t seed = 1;
  int per_proc = 1;
  int chip_id = 0;                 // chip mode: this FPGA's chip number (my_chip)
  int expect_offset = 0;           // tests only: added to the expected receptions (forces fail)
};

// What the self-test expects; also written into the design as selftest.json.
struct SelfTestExpect {
  std::string mode;           // "network" or "chip"
  uint64_t messages = 0;
  uint64_t receptions = 0;    // from the reference model
  uint64_t rx_xor = 0;        // XOR over receptions of (data << v) | vp
  uint64_t model_petit_cycles = 0;
  uint64_t petit_limit = 0;   // the run gives up (fail) after this many petit cycles
};

// Refuses options no self-test top takes (LED count, per_proc above the queue depth, ...).
void check_cm1_board_top_options(const Cm1Config& cfg, const BoardTopOptions& opt);
// Network mode: emit_cm1(cfg) plus cm1_board_top.v (a ROM of `t`, checked against `e`) and
// selftest.json; top = cm1_board_top.
GeneratedDesign emit_cm1_board_top(const Cm1Config& cfg, const BoardTopOptions& opt, const Traffic& t,
                                   const SelfTestExpect& e);
// Chip mode's pattern: processor g of chip `chip_id` sends to processor g+1 of the same chip.
Traffic cm1_chip_selftest_traffic(const Cm1Params& p, int chip_id);
// Chip mode: emit_cm1(cfg) (cm1_network.v is left out) plus cm1_chip_board_top.v, routing
// cm1_chip_selftest_traffic(p, opt.chip_id) and checking it against `e`.
GeneratedDesign emit_cm1_chip_board_top(const Cm1Config& cfg, const BoardTopOptions& opt,
                                        const SelfTestExpect& e);

}  // namespace cmnet

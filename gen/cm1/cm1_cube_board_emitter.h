// The multi-board top: one CM-1 router chip per FPGA, boards cabled into a hypercube.
//
//   cm1_cube_board_top  one cm1_chip on a clock enable (one bit-time every K clocks, from
//                       hw/cm1/cm1_cube_sync.v), its cube wires on header pins (registered out,
//                       two-flip-flop synchronized in, latched mid bit-time), a sync bus
//                       (chip 0 drives it; every board, chip 0 included, listens), the chip
//                       number on strap pins, and a cube-wide self-test.
//
// Cabling: dimension i of board n goes to dimension i of board n ^ 2^i (cube_out to cube_in
// both ways); chip 0's sync_out goes to the sync_in of every board, its own included; each
// board's chip_id straps set its number (pins with pull-ups: open = 1, jumper to ground = 0).
// Every board gets the same bitstream.
//
// The self-test: every board holds the whole pattern (global processor numbers) in a ROM and
// loads the messages whose source is on its chip. Once the boards have locked to the sync
// bus, chip 0 sends the go bit after go_delay_petit petit cycles; every board then runs
// exactly the number of petit cycles the reference model needs, and checks, for its own chip,
// the receptions and their XOR and every router counter (injected, delivered, desperation,
// petit cycles, parity errors, per-dimension busy bit-times) against the model's figures for
// that chip, that it is idle afterwards, and that its schedule never slipped. LEDs as in the
// other self-test tops: pass, fail, running (waiting for lock or go counts as running).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_board_emitter.h"

namespace cmnet {

struct CubeTopOptions {
  BoardTopOptions board;        // reset, LEDs, blink; pattern, seed, per_proc (chip_id unused)
  int bit_clocks = 8;           // K: clocks per bit-time (8..64)
  int go_delay_petit = 4096;    // petit cycles from chip 0's ready to the go bit (lets every board lock and load)
};

// What every board checks, per chip (the reference model's figures: sim/cm1/cm1_selftest.h).
struct CubeSelfTestExpect {
  uint64_t messages = 0;
  uint64_t run_petit = 0;                       // petit cycles every board runs
  std::vector<uint64_t> receptions;             // per chip
  std::vector<uint64_t> rx_xor;                 // per chip
  std::vector<std::vector<uint64_t>> counters;  // per chip, in cm1_counter_names order
};

// Refuses options the cube top cannot take (bit_clocks, go delay, c > 8, the self-test's).
void check_cm1_cube_board_options(const Cm1Config& cfg, const CubeTopOptions& opt);
// emit_cm1(cfg) (cm1_network.v left out) plus hw/cm1/cm1_cube_sync.v, cm1_cube_board_top.v and
// cube_selftest.json: `t` in every board's ROM, each board checking its chip against `e`.
GeneratedDesign emit_cm1_cube_board_top(const Cm1Config& cfg, const CubeTopOptions& opt, const Traffic& t,
                                        const CubeSelfTestExpect& e);

}  // namespace cmnet

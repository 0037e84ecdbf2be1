// The CM-1 self-test tops with their expectations: each makes the top's pattern, runs the
// reference model on it and hands pattern and expectation to the emitter (gen/cm1's emitters take
// them as data, so the generator never runs the model). What `cmnet build` and the tests call.
#pragma once

#include "gen/cm1/cm1_board_emitter.h"
#include "gen/cm1/cm1_cube_board_emitter.h"

namespace cmnet {

// The model's receptions, their XOR and petit cycles for `t` (ConfigError if the model does not
// deliver it within its petit-cycle limit); `mode` names the top in that error.
SelfTestExpect cm1_selftest_expect(const Cm1Params& p, const Traffic& t, const std::string& mode);
// Per chip: receptions, their XOR and every counter, in cm1_counter_names order.
CubeSelfTestExpect cm1_cube_selftest_expect(const Cm1Params& p, const Traffic& t);

// Network mode: the pattern `opt` names, over the whole network.
GeneratedDesign cm1_board_top(const Cm1Config& cfg, const BoardTopOptions& opt, SelfTestExpect* expect = nullptr);
// Chip mode: the local ring of cm1_chip_selftest_traffic.
GeneratedDesign cm1_chip_board_top(const Cm1Config& cfg, const BoardTopOptions& opt,
                                   SelfTestExpect* expect = nullptr);
// The multi-board top: the pattern `opt.board` names, over the whole cube.
GeneratedDesign cm1_cube_board_top(const Cm1Config& cfg, const CubeTopOptions& opt,
                                   CubeSelfTestExpect* expect = nullptr);

}  // namespace cmnet

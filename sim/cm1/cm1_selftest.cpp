#include "sim/cm1/cm1_selftest.h"

#include <algorithm>

#include "gen/core/errors.h"
#include "sim/cm1/cm1_counters.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_rtl.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {
namespace {

Cm1RunResult run_model(const Cm1Params& p, const Traffic& t, const std::string& mode) {
  Cm1RunResult r = run_cm1_model(p, t, p.eject_mode);
  if (!r.completed)
    throw ConfigError(mode + " self-test: the reference model did not deliver the pattern within its petit-cycle limit");
  return r;
}

uint64_t word_mask(const Cm1Params& p) {
  const int w = p.vp_bits + p.data_bits;
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

}  // namespace

SelfTestExpect cm1_selftest_expect(const Cm1Params& p, const Traffic& t, const std::string& mode) {
  const Cm1RunResult r = run_model(p, t, mode);
  SelfTestExpect e;
  e.mode = mode;
  e.messages = t.messages.size();
  const auto rx = receptions_from_model(p, t, r);
  e.receptions = rx.size();
  for (const auto& x : rx) e.rx_xor ^= ((x.data << p.vp_bits) | x.vp) & word_mask(p);
  e.model_petit_cycles = r.petit_cycles;
  e.petit_limit = std::min<uint64_t>(65535, 2 * r.petit_cycles + 16);
  return e;
}

CubeSelfTestExpect cm1_cube_selftest_expect(const Cm1Params& p, const Traffic& t) {
  const Cm1RunResult r = run_model(p, t, "cube");
  const size_t nc = static_cast<size_t>(p.chips());
  CubeSelfTestExpect e;
  e.messages = t.messages.size();
  e.run_petit = r.petit_cycles;
  e.receptions.assign(nc, 0);
  e.rx_xor.assign(nc, 0);
  for (const auto& x : receptions_from_model(p, t, r)) {
    const size_t n = x.dst >> p.proc_bits();
    ++e.receptions[n];
    e.rx_xor[n] ^= ((x.data << p.vp_bits) | x.vp) & word_mask(p);
  }
  for (size_t n = 0; n < nc; ++n) e.counters.push_back(cm1_counter_words(p, r.chips[n]));
  return e;
}

GeneratedDesign cm1_board_top(const Cm1Config& cfg, const BoardTopOptions& opt, SelfTestExpect* expect) {
  check_cm1_board_top_options(cfg, opt);
  const Traffic t = make_pattern(opt.pattern, cfg.cm1, opt.seed, opt.per_proc);
  const SelfTestExpect e = cm1_selftest_expect(cfg.cm1, t, "network");
  if (expect) *expect = e;
  return emit_cm1_board_top(cfg, opt, t, e);
}

GeneratedDesign cm1_chip_board_top(const Cm1Config& cfg, const BoardTopOptions& opt, SelfTestExpect* expect) {
  check_cm1_board_top_options(cfg, opt);
  const SelfTestExpect e = cm1_selftest_expect(cfg.cm1, cm1_chip_selftest_traffic(cfg.cm1, opt.chip_id), "chip");
  if (expect) *expect = e;
  return emit_cm1_chip_board_top(cfg, opt, e);
}

GeneratedDesign cm1_cube_board_top(const Cm1Config& cfg, const CubeTopOptions& opt, CubeSelfTestExpect* expect) {
  check_cm1_cube_board_options(cfg, opt);
  const Traffic t = make_pattern(opt.board.pattern, cfg.cm1, opt.board.seed, opt.board.per_proc);
  const CubeSelfTestExpect e = cm1_cube_selftest_expect(cfg.cm1, t);
  if (expect) *expect = e;
  return emit_cm1_cube_board_top(cfg, opt, t, e);
}

}  // namespace cmnet

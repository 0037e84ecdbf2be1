#include "sim/cm5data/cm5data_cabled_sim.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "gen/cm5data/cm5data_cabled.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

bool Cm5CabledResult::all_pass() const {
  for (const auto& b : boards)
    if (b.state != "pass") return false;
  return !boards.empty();
}

namespace {

// The split's leaves and cycle limit, from the design's cabling.json.
std::pair<uint32_t, uint64_t> cabling_of(const GeneratedDesign& design) {
  if (design.top != "cm5data_cabled_sim")
    throw std::invalid_argument("cabled simulation: the design's top is '" + design.top + "', not cm5data_cabled_sim");
  for (const auto& [name, text] : design.files)
    if (name == "cabling.json") {
      const auto j = nlohmann::json::parse(text);
      return {static_cast<uint32_t>(j.at("boards").size() - 2), j.at("cycle_limit").get<uint64_t>()};
    }
  throw std::invalid_argument("cabled simulation: the design has no cabling.json");
}

}  // namespace

void cm5_cabled_spread(Cm5CabledSimOptions& s, uint64_t seed, size_t boards) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&] {  // xorshift: 0..1
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<double>(x % 10001) / 10000.0;
  };
  std::vector<double> ppm, start;
  for (size_t b = 0; b < boards; ++b) {
    ppm.push_back(-100.0 + 200.0 * next());
    start.push_back(100.0 * next());
  }
  if (s.ppm.empty()) s.ppm = ppm;
  if (s.start_us.empty()) s.start_us = start;
  s.seed = seed;
}

Cm5CabledResult run_cm5_cabled(const GeneratedDesign& design, const Cm5CabledSimOptions& opt) {
  const auto [leaves, limit] = cabling_of(design);
  const size_t nb = leaves + 2;
  auto per_board = [&](const std::vector<double>& v, const char* what) {
    if (!v.empty() && v.size() != nb)
      throw std::invalid_argument(std::string("cabled simulation: ") + what + " has " + std::to_string(v.size()) +
                                  " entries for " + std::to_string(nb) + " boards (the left and right networks, then each leaf)");
  };
  per_board(opt.ppm, "ppm");
  per_board(opt.start_us, "start_us");
  for (double p : opt.ppm)
    if (!(std::fabs(p) <= 10000)) throw std::invalid_argument("cabled simulation: ppm out of range -10000..10000");
  for (double s : opt.start_us)
    if (!(s >= 0 && s <= 1e6)) throw std::invalid_argument("cabled simulation: start_us out of range 0..1e6");
  if (!(opt.clock_mhz > 0.1 && opt.clock_mhz < 1000))
    throw std::invalid_argument("cabled simulation: clock_mhz out of range 0.1..1000");
  if (!(opt.meta_ns >= 0) || !(opt.cable_ns > opt.meta_ns) || !(opt.cable_ns < 1e6))
    throw std::invalid_argument("cabled simulation: cable_ns must exceed meta_ns >= 0 (and be under 1 ms)");
  for (int bit : opt.cut)
    if (bit < 0 || bit >= static_cast<int>(8 * leaves))
      throw std::invalid_argument("cabled simulation: cut wire " + std::to_string(bit) + " out of range 0.." +
                                  std::to_string(8 * leaves - 1));
  const TraceWindow trace{opt.trace_file, 0, UINT64_MAX};
  const std::string exe =
      build_verilated_model(design, design.top, std::string(CMNET_SOURCE_DIR) + "/sim/core/multiboard_main.cpp",
                            {"-DCMNET_TOP=Vcm5data_cabled_sim"}, {},
                            trace.on() ? trace_flags() : std::vector<std::string>{});
  auto ps = [](double ns) { return static_cast<uint64_t>(std::llround(ns * 1000.0)); };
  const double period_ns = 1000.0 / opt.clock_mhz;
  double last_start = 0;
  for (double s : opt.start_us) last_start = std::max(last_start, s);
  // Past every board's limit (its clocks counted from its power-on), then give up.
  const double max_ns = last_start * 1000.0 + static_cast<double>(limit + 64) * period_ns * 1.01;
  std::ostringstream in;
  in << "run " << nb << ' ' << ps(max_ns) << ' ' << opt.seed << ' ' << ps(opt.meta_ns) << '\n';
  for (size_t n = 0; n < nb; ++n) {
    const double ppm = opt.ppm.empty() ? 0.0 : opt.ppm[n];
    const double start = opt.start_us.empty() ? 0.0 : opt.start_us[n];
    in << "board " << n << ' ' << ps(period_ns * (1.0 + ppm * 1e-6)) << ' ' << ps(start * 1000.0) << '\n';
  }
  for (const Cm5CableWire& w : cm5_cabled_wiring(leaves))
    in << "wire " << w.bit << ' ' << w.from << ' ' << w.to << ' ' << ps(opt.cable_ns) << '\n';
  for (int bit : opt.cut) in << "cut " << bit << '\n';
  const std::string log = run_harness("cabled harness", exe, in.str(), opt.timeout_s, trace.env(), {}, false).log;
  Cm5CabledResult r;
  std::istringstream text(log);
  std::string kind;
  while (text >> kind) {
    if (kind == "board") {
      Cm5CabledBoard b;
      text >> b.board >> b.state >> b.cycles;
      b.role = b.board == 0 ? "left" : b.board == 1 ? "right" : "leaf " + std::to_string(b.board - 2);
      r.boards.push_back(b);
    } else if (kind == "end") {
      uint64_t end_ps = 0;
      text >> end_ps;
      r.end_us = static_cast<double>(end_ps) / 1e6;
    }
  }
  if (r.boards.size() != nb)
    throw std::runtime_error("cabled harness: expected " + std::to_string(nb) + " boards, output:\n" + log);
  return r;
}

}  // namespace cmnet

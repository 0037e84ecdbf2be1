#include "host/cli/cm1/cm1_family.h"

#include <algorithm>
#include <cstdio>

#include "sim/cm1/cm1_selftest.h"
#include "gen/cm1/cm1_emitter.h"
#include "gen/cm1/cm1_host_board_emitter.h"
#include "gen/core/errors.h"
#include "host/cm1/cm1_runner.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

std::string Cm1Family::title() const {
  return "CM-1 message router: bit-serial hypercube router chips and networks of them "
         "(Kahle, Kuszmaul, Hillis 1989)";
}

std::vector<std::string> Cm1Family::patterns() const { return pattern_names(); }

std::vector<std::string> Cm1Family::build_modes() const { return {"network", "chip", "cube", "host"}; }

std::vector<std::string> Cm1Family::figures() const {
  return {"T_heart and the delivery time k*l + 2c on the RTL, beside the paper's 74 bit-times",
          "heart flip-flops (yosys) beside the paper's 2bc = 168 bits",
          "Figure 12 on the model at full scale: petit cycles vs the 8v bound, wire use, one-message slowdown",
          "model and RTL speed"};
}

void Cm1Family::check(const NetworkConfig& cfg) const { (void)cm1_config(cfg); }

std::string Cm1Family::canonical_json(const NetworkConfig& cfg) const {
  return config_to_json(cm1_config(cfg));
}

GeneratedDesign Cm1Family::emit(const NetworkConfig& cfg) const { return emit_cm1(cm1_config(cfg)); }

std::string Cm1Family::summary(const NetworkConfig& cfg) const {
  const Cm1Params& p = cm1_config(cfg).cm1;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "CM-1 network: %d chips x %d processors, l = %d bits, petit period %d, T_heart = %d, "
                "heart storage %d bits",
                p.chips(), p.procs_per_chip, p.msg_len(), p.petit_period(), p.t_heart(),
                p.heart_storage_bits());
  return buf;
}

GeneratedDesign cm1_board_top(const Cm1Config& cfg, const Board& b, const BuildArgs& a) {
  const std::string mode = a.mode.empty() ? "network" : a.mode;
  if (mode == "host") {
    // The host-link top (gen/cm1/cm1_host_board_emitter.h): the same flow, its own ports.
    HostBoardOptions h;
    h.clock_hz = static_cast<uint32_t>(b.clock_mhz * 1e6 + 0.5);
    h.reset_button = b.reset.has_value() && b.reset->active_low;
    return emit_cm1_host_board(cfg, h);
  }
  BoardTopOptions o = top_options(b);
  o.pattern = a.pattern;
  o.seed = a.pattern_seed;
  o.per_proc = a.per_proc;
  o.chip_id = a.chip_id;
  if (mode == "chip") return cm1_chip_board_top(cfg, o);
  if (mode == "network") return cm1_board_top(cfg, o);
  if (mode == "cube") {
    CubeTopOptions c;
    c.board = o;
    c.bit_clocks = a.bit_clocks;
    // Long enough for a person to power or reset every board before the run starts.
    const double petit_s = cfg.cm1.petit_period() * a.bit_clocks / (b.clock_mhz * 1e6);
    c.go_delay_petit = std::max(4, static_cast<int>(a.go_delay_s / petit_s));
    return cm1_cube_board_top(cfg, c);
  }
  throw InputError("--mode " + mode + ": unknown mode (allowed: network, chip, cube, host)");
}

GeneratedDesign Cm1Family::board_top(const NetworkConfig& cfg, const Board& board,
                                     const BuildArgs& args) const {
  reject_option(*this, !args.traffic.empty(), "--traffic");
  return cm1_board_top(cm1_config(cfg), board, args);
}

int Cm1Family::sim(const NetworkConfig& cfg, const SimArgs& args) const { return cm1_sim(cm1_config(cfg), args); }
int Cm1Family::run(const NetworkConfig& cfg, const RunArgs& args) const { return cm1_run(cm1_config(cfg), args); }
std::unique_ptr<SimBoard> Cm1Family::start_board(const NetworkConfig& cfg, const BoardArgs& args) const {
  return start_cm1_sim_board(cm1_config(cfg), args.sim_link, {}, args.port);
}
int Cm1Family::sweep(const NetworkConfig& cfg, const SweepArgs& args) const {
  return cm1_sweep(cm1_config(cfg), args);
}
int Cm1Family::bench(const BenchArgs& args) const { return cm1_bench(args); }

void Cm1Family::add_commands(CLI::App& app) const {
  add_demo_command(app);
  add_cube_command(app);
}

}  // namespace cmnet

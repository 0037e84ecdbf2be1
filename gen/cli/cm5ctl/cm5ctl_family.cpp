#include "gen/cli/cm5ctl/cm5ctl_family.h"

#include <cstdio>

#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "gen/core/errors.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"

namespace cmnet {

std::string Cm5ctlFamily::title() const {
  return "CM-5 control network: a binary combining tree for broadcasts, reductions, scans and barriers "
         "(Leiserson et al. 1992, section 5)";
}

std::vector<std::string> Cm5ctlFamily::patterns() const { return cm5ctl_pattern_names(); }

// No board top yet: the one "mode" says so (cmnet build refuses it with cm5ctl_no_board).
std::vector<std::string> Cm5ctlFamily::build_modes() const { return {"none"}; }

std::vector<std::string> Cm5ctlFamily::figures() const {
  return {"latency of a broadcast, a reduction, a scan and a barrier vs leaves (RTL 2..64, model to 16,384), "
          "beside 2 x height x hop time + packet time",
          "pipelined throughput: operations completed per packet time in steady state (goal 1.0)"};
}

void Cm5ctlFamily::check(const NetworkConfig& cfg) const { (void)cm5ctl_config(cfg); }

std::string Cm5ctlFamily::canonical_json(const NetworkConfig& cfg) const {
  return config_to_json(cm5ctl_config(cfg));
}

GeneratedDesign Cm5ctlFamily::emit(const NetworkConfig& cfg) const { return emit_cm5ctl(cm5ctl_config(cfg)); }

std::string Cm5ctlFamily::summary(const NetworkConfig& cfg) const {
  const Cm5ctlParams& p = cm5ctl_config(cfg).p;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "CM-5 control network: %d leaves, height %d, %d nodes; packet %d bits; links %d up / %d down: "
                "packet time %d / %d cycles; latency bound 2 x %d x %d + %d = %lld cycles",
                p.leaves, p.height(), p.nodes(), p.packet_bits(), p.up_width, p.down_width, p.up_frame(),
                p.down_frame(), p.height(), p.packet_time(), p.packet_time(),
                static_cast<long long>(p.latency_bound()));
  return buf;
}

void cm5ctl_no_board(const std::string& command) {
  throw InputError("cmnet " + command +
                   ": the cm5ctl family has no board top yet (no register block, host driver or simulated "
                   "board: issue 11's board path is not built); run the network with `cmnet sim CONFIG "
                   "--engine rtl|model --pattern NAME`, measure it with `cmnet bench --family cm5ctl`");
}

GeneratedDesign Cm5ctlFamily::board_top(const NetworkConfig& cfg, const Board& board, const BuildArgs& args) const {
  (void)cfg;
  (void)board;
  (void)args;
  cm5ctl_no_board("build");
}

int Cm5ctlFamily::sim(const NetworkConfig& cfg, const SimArgs& args) const {
  return cm5ctl_sim(cm5ctl_config(cfg), args);
}

int Cm5ctlFamily::run(const NetworkConfig& cfg, const RunArgs& args) const {
  (void)cfg;
  (void)args;
  cm5ctl_no_board("run");
}

int Cm5ctlFamily::sweep(const NetworkConfig& cfg, const SweepArgs& args) const {
  (void)cfg;
  (void)args;
  cm5ctl_no_board("sweep");
}

int Cm5ctlFamily::bench(const BenchArgs& args) const { return cm5ctl_bench(args); }

}  // namespace cmnet

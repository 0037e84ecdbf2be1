#include "host/cli/cm5ctl/cm5ctl_family.h"

#include <cstdio>

#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "gen/cm5ctl/cm5ctl_stream.h"
#include "host/cm5ctl/cm5ctl_runner.h"
#include "gen/core/errors.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"

namespace cmnet {

std::string Cm5ctlFamily::title() const {
  return "CM-5 control network: a binary combining tree for broadcasts, reductions, scans and barriers "
         "(Leiserson et al. 1992, section 5)";
}

std::vector<std::string> Cm5ctlFamily::patterns() const { return cm5ctl_pattern_names(); }

// The shared stream board (hw/common/STREAM_BOARD.md): the host-link top.
std::vector<std::string> Cm5ctlFamily::build_modes() const { return {"host"}; }

std::vector<std::string> Cm5ctlFamily::figures() const {
  return {"latency of a broadcast, a reduction, a scan and a barrier vs leaves (RTL 2..64, model to 16,384), "
          "beside 2 x height x hop time + packet time",
          "pipelined throughput: operations completed per packet time in steady state (goal 1.0)",
          "the same two for the CM-5's 65-bit packet (packet cm5)",
          "one node and one three-node chip on the iCE40 HX8K (place_module_ice40): cells, logic cells, Fmax"};
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

GeneratedDesign Cm5ctlFamily::board_top(const NetworkConfig& cfg, const Board& board, const BuildArgs& args) const {
  if (!args.mode.empty() && args.mode != "host")
    throw InputError("--mode " + args.mode + ": unknown mode for cm5ctl (allowed: host, the stream board)");
  reject_option(*this, !args.traffic.empty(), "--traffic");
  HostBoardOptions h;
  h.clock_hz = static_cast<uint32_t>(board.clock_mhz * 1e6 + 0.5);
  h.reset_button = board.reset.has_value() && board.reset->active_low;
  return emit_stream_board(cm5ctl_stream_spec(cm5ctl_config(cfg)), h);
}

int Cm5ctlFamily::sim(const NetworkConfig& cfg, const SimArgs& args) const {
  return cm5ctl_sim(cm5ctl_config(cfg), args);
}

int Cm5ctlFamily::run(const NetworkConfig& cfg, const RunArgs& args) const {
  reject_option(*this, !args.mode.empty(), "--mode");
  reject_option(*this, !args.generator.empty(), "--generator");
  Cm5RunArgs a;
  // The shared default pattern is CM-1's: this family's default is a reduction and a scan.
  a.pattern = args.pattern == "permutation" ? "reduce-scan" : args.pattern;
  a.traffic = args.traffic;  // a workload file instead of the pattern
  a.seed = args.seed;
  a.count = std::max(2, args.per_proc);
  a.stream = stream_run_args(args);
  return cm5ctl_run(cm5ctl_config(cfg), a).verdict.ok() ? 0 : 3;
}

std::unique_ptr<SimBoard> Cm5ctlFamily::start_board(const NetworkConfig& cfg, const BoardArgs& args) const {
  return start_stream_board(cm5ctl_stream_spec(cm5ctl_config(cfg)), args);
}

// Offered load: operations per leaf in flight (1, 2, 4, ... up to --max-per-proc), all loaded
// before the board runs; accepted: operations completed per packet time (host/cm5ctl/cm5ctl_runner.h).
int Cm5ctlFamily::sweep(const NetworkConfig& cfg, const SweepArgs& args) const {
  if (!args.mode.empty()) throw InputError("--mode " + args.mode + ": not used by the cm5ctl family");
  if (args.max_per_proc < 1) throw InputError("--max-per-proc " + std::to_string(args.max_per_proc) + ": at least 1");
  Cm5SweepArgs a;
  a.pattern = args.pattern == "permutation" ? "reduce-scan" : args.pattern;
  a.seed = args.seed;
  a.in_flight.clear();
  for (int k = 1; k <= args.max_per_proc; k *= 2) a.in_flight.push_back(k);
  a.stream = stream_run_args(args.board, args.out_dir, args.timeout_s, args.sim_link);
  return cm5ctl_sweep(cm5ctl_config(cfg), a) ? 0 : 3;
}

int Cm5ctlFamily::bench(const BenchArgs& args) const { return cm5ctl_bench(args); }

std::vector<FpgaBlock> Cm5ctlFamily::fpga_blocks() const {
  // Nodes of a 1,024-leaf tree with the CM-5's links; a port's bits are its up link's wires (6; the
  // down link has 5). A node has 2 children and a parent, the chip 4 children and a parent.
  auto block = [](const std::string& name, const std::string& top, int ports) {
    FpgaBlock b;
    b.name = name;
    b.how = top + " alone (place_module_ice40), a 1,024-leaf tree's parameters";
    b.ports = ports;
    b.port_bits = Cm5ctlParams{}.up_width;
    b.measure = [top](const FpgaRunOptions& o) {
      Cm5ctlParams p;
      p.leaves = 1024;
      return measure_module(cm5ctl_placeable(p, top), o);
    };
    return b;
  };
  return {block("node (level 1)", "cm5ctl_node", 3), block("three-node chip (levels 2, 1)", "cm5ctl_chip", 5)};
}

}  // namespace cmnet

#include "host/cli/clos/clos_family.h"

#include <cstdio>

#include "bitstreams/board.h"
#include "gen/clos/clos_emitter.h"
#include "gen/clos/clos_selftest.h"
#include "gen/core/errors.h"
#include "host/clos/clos_runner.h"
#include "host/cli/fpga_bench.h"
#include "sim/clos/clos_patterns.h"
#include "sim/clos/clos_selftest_model.h"

namespace cmnet {

std::string ClosFamily::title() const {
  return "CONNECT's three-stage Clos circuit network N(m, n, r) with parallel circuit set-up (Li and Rishe 1991)";
}

std::vector<std::string> ClosFamily::patterns() const { return clos_pattern_names(); }

// stream: the stream board (a host sends circuit commands); network: the self-test top
// (gen/clos/clos_selftest.h), the switch and every hnode's engines with their leaves played from a
// ROM and checked against the engines' reference run.
std::vector<std::string> ClosFamily::build_modes() const { return {"stream", "network"}; }

std::vector<std::string> ClosFamily::figures() const {
  return {"off-line router: random permutations of N(32, 32, 32) routed and traced",
          "blocking probability of N(32, 32, 32) under random connections (set-up model), beside the paper's < 1e-4",
          "race rate (CANCELs) beside the paper's < 1e-3, with 95% confidence intervals",
          "set-up latency (hops, us) against N",
          "the N(4, 4, 4) switch and one hnode's status units on the iCE40 (yosys LUTs, flip-flops)"};
}

void ClosFamily::check(const NetworkConfig& cfg) const { (void)clos_config(cfg); }

std::string ClosFamily::canonical_json(const NetworkConfig& cfg) const { return config_to_json(clos_config(cfg)); }

GeneratedDesign ClosFamily::emit(const NetworkConfig& cfg) const { return emit_clos(clos_config(cfg)); }

std::string ClosFamily::summary(const NetworkConfig& cfg) const {
  const ClosParams& p = clos_config(cfg).clos;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "Clos network %s, %s: N = %d ports, %d input switches %d x %d, %d middle switches %d x %d, "
                "%d output switches %d x %d, %lld crosspoints (N x N crossbar: %lld), circuits %d bits wide",
                clos_name(p).c_str(), to_string(p.kind()), p.ports(), p.r, p.n, p.m, p.m, p.r, p.r, p.r, p.m, p.n,
                static_cast<long long>(p.crosspoints()), static_cast<long long>(p.crossbar_crosspoints()), p.width);
  return buf;
}

namespace {

// The data words of each circuit of the self-test's permutations (a connection-set file's lines
// give their own, this by default).
constexpr int kSelfTestWords = 4;

// `--mode network`: rounds (--per-proc) of random permutations from --pattern-seed, or a
// connection-set file (--traffic, sim/clos/clos_circuit_file.h).
GeneratedDesign selftest_top(const ClosConfig& cfg, const Board& board, const BuildArgs& a) {
  if (a.traffic.empty() && a.pattern != "permutation")
    throw InputError("--pattern " + a.pattern + ": the clos self-test plays rounds of permutations (allowed: permutation)");
  if (a.traffic.empty() && (a.per_proc < 1 || a.per_proc > kClosSelfTestMaxCircuits))
    throw InputError("--per-proc " + std::to_string(a.per_proc) + ": rounds of permutations, 1.." +
                     std::to_string(kClosSelfTestMaxCircuits) + " (what a leaf's ROM holds)");
  const ClosSelfTest t =
      a.traffic.empty()
          ? clos_selftest_rounds(cfg, a.pattern_seed, a.per_proc, kSelfTestWords)
          : clos_selftest_of(cfg, read_clos_circuit_file(a.traffic, cfg.clos, kSelfTestWords), a.traffic, a.pattern_seed);
  return emit_clos_selftest(cfg, t, selftest_pins(board));
}

}  // namespace

GeneratedDesign ClosFamily::board_top(const NetworkConfig& cfg, const Board& board, const BuildArgs& args) const {
  if (args.mode == "network") return selftest_top(clos_config(cfg), board, args);
  if (!args.mode.empty() && args.mode != "stream")
    throw InputError("--mode " + args.mode + ": unknown mode (allowed: stream, network)");
  reject_option(*this, !args.traffic.empty(), "--traffic");
  // The shared stream board (hw/common/STREAM_BOARD.md) around clos_stream.
  HostBoardOptions h;
  h.clock_hz = static_cast<uint32_t>(board.clock_mhz * 1e6 + 0.5);
  h.reset_button = board.reset.has_value() && board.reset->active_low;
  return emit_stream_board(clos_stream_spec(clos_config(cfg)), h);
}

int ClosFamily::sim(const NetworkConfig& cfg, const SimArgs& args) const { return clos_sim(clos_config(cfg), args); }

int ClosFamily::run(const NetworkConfig& cfg, const RunArgs& args) const {
  if (args.pattern != "permutation")
    throw InputError("--pattern " + args.pattern + ": the clos board runs a permutation of circuits (allowed: permutation)");
  reject_option(*this, !args.mode.empty(), "--mode");
  reject_option(*this, !args.generator.empty(), "--generator");
  const StreamRunArgs a = stream_run_args(args);
  ClosRunOptions o;
  o.seed = args.seed;
  o.words = args.per_proc;
  o.traffic = args.traffic;
  return run_clos_stream(clos_config(cfg), o, a).verdict.ok() ? 0 : 1;
}

std::unique_ptr<SimBoard> ClosFamily::start_board(const NetworkConfig& cfg, const BoardArgs& args) const {
  return start_stream_board(clos_stream_spec(clos_config(cfg)), args);
}

int ClosFamily::sweep(const NetworkConfig& cfg, const SweepArgs& args) const {
  if (args.pattern != "permutation")
    throw InputError("--pattern " + args.pattern + ": the clos sweep runs rounds of permutations of circuits (allowed: permutation)");
  if (!args.mode.empty()) throw InputError("cmnet sweep: --mode is not used by the clos family");
  if (args.max_per_proc < 1)
    throw InputError("--max-per-proc " + std::to_string(args.max_per_proc) + ": at least 1 circuit per leaf");
  StreamRunArgs a = stream_run_args(args.board, args.out_dir, args.timeout_s, args.sim_link);
  ClosSweepOptions o;
  o.seed = args.seed;
  o.circuits.clear();  // offered: 1, 2, 4, ... circuits per leaf up to --max-per-proc
  for (int c = 1; c <= args.max_per_proc; c *= 2) o.circuits.push_back(c);
  if (o.circuits.back() != args.max_per_proc) o.circuits.push_back(args.max_per_proc);
  return run_clos_sweep(clos_config(cfg), o, a) ? 0 : 1;
}

int ClosFamily::bench(const BenchArgs& args) const { return clos_bench(args); }

std::vector<FpgaBlock> ClosFamily::fpga_blocks() const {
  // The paper's serial links: 16 ports of 1 bit.
  FpgaBlock b;
  b.name = "N(4, 4, 4) switch with two hnodes, 1-bit circuits";
  b.how = "clos_switched alone (place_module_ice40): the switch configured by its 2 hnodes' engines";
  b.ports = 16;
  b.port_bits = 1;
  b.measure = [](const FpgaRunOptions& o) { return measure_module(clos_switched_placeable(1, false), o); };
  // The self-test board (`cmnet build --mode network`) of gen/examples/clos_n444_selftest.json:
  // the switch, all four hnodes' engines, 16 ROM leaves; 4 rounds of permutations, 4 words a circuit.
  FpgaBlock st;
  st.name = "self-test board N(4, 4, 4), four hnodes, 1-bit circuits";
  st.how = "clos_n444_selftest.json --mode network through the whole flow on the HX8K breakout (4 permutations)";
  st.measure = [](const FpgaRunOptions& o) {
    const NetworkConfig env = load_config_file(std::string(CMNET_SOURCE_DIR) + "/gen/examples/clos_n444_selftest.json");
    const Board board = load_board("ice40hx8k_breakout");
    BuildArgs a;
    a.mode = "network";
    a.per_proc = 4;
    return measure_board_top(ClosFamily().board_top(env, board, a), board, "network", config_to_json(clos_config(env)), o);
  };
  return {b, st};
}

}  // namespace cmnet

// cmnet: the command line. One binary, one subcommand per job; `cmnet SUB --help` for each.
// gen, sim, run, sweep, build and bench read a config and dispatch on its "network" to the
// family registered for it (host/cli/families.cpp); `cmnet list` names the families.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "host/cli/commands.h"
#include "host/cli/family.h"
#include "host/cli/fpga_bench.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::string family_names() {
  std::vector<std::string> n;
  for (const Family* f : families()) n.push_back(f->name());
  return join(n);
}

// Each family's bench sections, from the families themselves ("cm1: figure12, boards; ...").
std::string bench_sections_help() {
  std::vector<std::string> v;
  for (const Family* f : families())
    if (!f->bench_sections().empty()) v.push_back(f->name() + ": " + join(f->bench_sections()));
  return join(v, "; ");
}

int cmd_list() {
  std::printf("network families (a config's \"network\"):\n");
  for (const Family* f : families()) {
    std::printf("\n  %s: %s\n", f->name().c_str(), f->title().c_str());
    std::printf("    patterns:    %s\n", join(f->patterns()).c_str());
    std::printf("    build modes: %s\n", join(f->build_modes()).c_str());
    std::printf("    bench:       %s\n", join(f->figures(), "\n                 ").c_str());
  }
  return 0;
}

int cmd_gen(const std::string& config, const std::string& out_dir) {
  const Family* f = nullptr;
  const NetworkConfig cfg = load_network(config, &f);
  const GeneratedDesign d = f->emit(cfg);
  for (const auto& path : write_design(d, out_dir)) std::printf("wrote %s\n", path.c_str());
  // A FuseSoC core beside filelist.f, so the IP drops into a FuseSoC/Edalize flow.
  const std::string core = out_dir + "/" + f->name() + "_" + cfg.name + ".core";
  write_design(GeneratedDesign{d.top, {{f->name() + "_" + cfg.name + ".core",
                                        fusesoc_core(d, f->name(), cfg.name, "0", f->title())}}},
               out_dir);
  std::printf("wrote %s\n", core.c_str());
  std::printf("%s\n", f->summary(cfg).c_str());
  return 0;
}

int cmd_bench(const std::string& family, const BenchArgs& a) {
  int rc = 0;
  for (const Family* f : families()) {
    if (!family.empty() && f->name() != family) continue;
    if (!a.only.empty()) {
      const auto sections = f->bench_sections();
      if (family.empty() || std::find(sections.begin(), sections.end(), a.only) == sections.end()) {
        std::string list;
        for (const auto& x : sections) list += (list.empty() ? "" : ", ") + x;
        throw InputError("bench --only " + a.only + ": not a section of the " + f->name() + " bench" +
                         (family.empty() ? " (give --family)" : " (sections: " + (list.empty() ? "none" : list) + ")"));
      }
    }
    BenchArgs fa = a;
    // Every family's results in its own file: --json F.json becomes F-FAMILY.json when all run.
    if (family.empty() && !a.json.empty()) {
      const auto dot = a.json.rfind('.');
      const auto slash = a.json.rfind('/');
      const bool ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
      fa.json = ext ? a.json.substr(0, dot) + "-" + f->name() + a.json.substr(dot) : a.json + "-" + f->name();
    }
    rc = std::max(rc, f->bench(fa));
  }
  return rc;
}

// --trace's file as it was before the run (absent: min()), to tell a waveform written by the
// run from an old one.
std::filesystem::file_time_type trace_stamp(const TraceWindow& t) {
  std::error_code ec;
  const auto when = t.on() ? std::filesystem::last_write_time(t.file, ec) : std::filesystem::file_time_type::min();
  return ec ? std::filesystem::file_time_type::min() : when;
}

// After `sim` or `run` with --trace: names the waveform written, or fails if the family accepted
// --trace and wrote nothing (each family checks the option, check_trace, and passes it on).
void report_trace(const Family& f, const TraceWindow& t, std::filesystem::file_time_type before, const char* origin) {
  if (!t.on()) return;
  if (trace_stamp(t) == before)
    throw std::runtime_error("--trace " + t.file + ": the " + f.name() + " family wrote no waveform");
  std::printf("wrote %s (clock cycles %llu..%s %s; open it with gtkwave)\n", t.file.c_str(),
              static_cast<unsigned long long>(t.from), t.to == UINT64_MAX ? "end" : std::to_string(t.to).c_str(), origin);
}

}  // namespace
}  // namespace cmnet

int main(int argc, char** argv) {
  using namespace cmnet;
  CLI::App app{"cmnet: Connection-Machine-style interconnection networks for FPGAs.\n"
               "Network families: " + family_names() + " (cmnet list describes them)."};
  app.require_subcommand(1);
  spdlog::set_pattern("[%l] %v");

  auto* list = app.add_subcommand("list", "Name the network families, their patterns, build modes and figures");

  std::string config, out_dir;
  auto* gen = app.add_subcommand("gen", "Generate the Verilog, filelist and manifest of a network");
  gen->add_option("config", config, "network config (JSON)")->required();
  gen->add_option("-o,--out", out_dir, "output directory")->required();

  const std::string patterns_help = [] {
    std::string s;
    for (const Family* f : families()) s += (s.empty() ? "" : "; ") + f->name() + ": " + join(f->patterns());
    return "named pattern (" + s + ")";
  }();
  const std::string boards_help =
      "board URI: sim://127.0.0.1:PORT, uart:///dev/ttyUSB1?baud=N, usb://VID:PID[?interface=B], "
      "pcie://0000:01:00.0 (default: start the simulated board)";

  SimArgs sa;
  auto* sim = app.add_subcommand("sim", "Route a pattern on the RTL or the reference model");
  sim->add_option("config", config, "network config (JSON)")->required();
  sim->add_option("--engine", sa.engine, "rtl (Verilator) or model (reference model)")
      ->check(CLI::IsMember({"rtl", "model"}));
  auto* pat = sim->add_option("--pattern", sa.pattern, patterns_help);
  auto* trf = sim->add_option("--traffic", sa.traffic, "a workload file in the family's own format (see its README)");
  pat->excludes(trf);
  sim->add_option("--seed", sa.seed, "pattern seed");
  sim->add_option("--per-proc", sa.per_proc, "messages per processor (virtual-processor ratio)")
      ->check(CLI::Range(1, 1024));
  sim->add_option("--mode", sa.mode, "CM-1: ejector mode or | one (default: the config's)")
      ->check(CLI::IsMember({"or", "one"}));
  sim->add_option("--max-petit", sa.max_steps, "give up after this many petit cycles");
  sim->add_option("--out", sa.out, "JSON lines output: one line per message, operation or circuit (what was sent, what arrived, where, when; host/cli/sim_lines.h), then a summary")->required();
  auto* strace = sim->add_option("--trace", sa.trace.file, "write an FST waveform of the RTL run (GTKWave opens it)");
  sim->add_option("--trace-from", sa.trace.from, "first clock cycle of the run in the waveform (CM-1: bit-time)")
      ->needs(strace);
  sim->add_option("--trace-to", sa.trace.to, "last clock cycle of the run in the waveform (CM-1: bit-time)")
      ->needs(strace);

  RunArgs ra;
  auto* run = app.add_subcommand("run", "Run a pattern on a board (default: the simulated board) and report");
  run->add_option("config", config, "network config (JSON)")->required();
  run->add_option("--board", ra.board, boards_help);
  auto* rpat = run->add_option("--pattern", ra.pattern, patterns_help);
  auto* rtrf = run->add_option("--traffic", ra.traffic, "a workload file in the family's own format (see its README)");
  auto* rgen = run->add_option("--generator", ra.generator,
                               "CM-1: let the board's on-chip generator make the pattern: uniform, permutation, "
                               "bit-complement, transpose, hot-spot, nearest-neighbour");
  rpat->excludes(rtrf);
  rgen->excludes(rtrf);
  rgen->excludes(rpat);
  run->add_option("--seed", ra.seed, "pattern seed");
  run->add_option("--per-proc", ra.per_proc, "messages per processor (at most the board's queue depth)")
      ->check(CLI::Range(1, 1024));
  run->add_option("--mode", ra.mode, "CM-1: ejector mode or | one")->check(CLI::IsMember({"or", "one"}));
  run->add_option("-o,--out", ra.out_dir, "report directory (JSON, CSV, SVG)");
  run->add_option("--timeout", ra.timeout_s, "give up on the run after this many seconds");
  run->add_option("--sim-link", ra.sim_link, "the simulated board's host-link PHY: uart (FT2232H channel B) "
                  "or fifo (FT245 synchronous FIFO, 60 MHz)")->check(CLI::IsMember({"uart", "fifo"}));
  auto* rrtl = run->add_option("--rtl", ra.rtl, "simulate a build directory (cmnet build --mode host): the rtl/ it synthesized");
  rrtl->excludes("--board");
  auto* rtrace = run->add_option("--trace", ra.trace.file, "write an FST waveform of the simulated board (GTKWave opens it)");
  rtrace->excludes("--board");
  run->add_option("--trace-from", ra.trace.from, "first clock cycle (after the board's reset) in the waveform")
      ->needs(rtrace);
  run->add_option("--trace-to", ra.trace.to, "last clock cycle in the waveform")->needs(rtrace);

  SweepArgs wa;
  auto* sweep = app.add_subcommand("sweep", "Load sweep on a board: offered load vs throughput and delivery time");
  sweep->add_option("config", config, "network config (JSON)")->required();
  sweep->add_option("--board", wa.board, boards_help);
  sweep->add_option("--pattern", wa.pattern, patterns_help);
  sweep->add_option("--seed", wa.seed, "pattern seed");
  sweep->add_option("--mode", wa.mode, "CM-1: ejector mode or | one")->check(CLI::IsMember({"or", "one"}));
  sweep->add_option("--max-per-proc", wa.max_per_proc, "highest offered load (capped by the board's queue depth)")
      ->check(CLI::Range(1, 1024));
  sweep->add_option("--sim-link", wa.sim_link, "the simulated board's host-link PHY: uart or fifo")
      ->check(CLI::IsMember({"uart", "fifo"}));
  sweep->add_option("-o,--out", wa.out_dir, "output directory");

  BenchArgs ba;
  std::string bench_family;
  auto* bench = app.add_subcommand("bench", "Measure each family's figures beside its paper; prints tables, writes JSON");
  bench->add_option("--family", bench_family, "only this family (" + family_names() + ")");
  bench->add_option("--json", ba.json, "write the results here (default: out/bench-FAMILY.json)");
  bench->add_flag("--quick", ba.quick, "fewer points");
  bench->add_option("--only", ba.only, "only this section of the family's bench (" + bench_sections_help() + ")");

  register_build_commands(app);
  register_board_command(app);
  add_bench_fpga_command(app);
  for (const Family* f : families()) f->add_commands(app);

  try {
    // Subcommands registered with a callback (build, flash, the families' own) run inside parse().
    app.parse(argc, argv);
    if (list->parsed()) return cmd_list();
    if (gen->parsed()) return cmd_gen(config, out_dir);
    if (bench->parsed()) {
      if (!bench_family.empty()) (void)find_family(bench_family, "--family");
      return cmd_bench(bench_family, ba);
    }
    const Family* f = nullptr;
    if (sim->parsed()) {
      const NetworkConfig cfg = load_network(config, &f);
      const auto before = trace_stamp(sa.trace);
      const int rc = f->sim(cfg, sa);
      report_trace(*f, sa.trace, before, "of the run");
      return rc;
    }
    if (run->parsed()) {
      const NetworkConfig cfg = load_network(config, &f);
      const auto before = trace_stamp(ra.trace);
      const int rc = f->run(cfg, ra);
      report_trace(*f, ra.trace, before, "after the board's reset");
      return rc;
    }
    if (sweep->parsed()) {
      const NetworkConfig cfg = load_network(config, &f);
      return f->sweep(cfg, wa);
    }
    return 2;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every input error exits 2, parse errors included.
    app.exit(e);
    return 2;
  } catch (const CommandExit& e) {
    return e.code;
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "cmnet: config error: %s\n", e.what());
  } catch (const InputError& e) {
    std::fprintf(stderr, "cmnet: input error: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cmnet: error: %s\n", e.what());
  }
  return 2;
}

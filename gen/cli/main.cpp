// cmnet: the command line. One binary, one subcommand per job; `cmnet SUB --help` for each.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "gen/cm1/cm1_emitter.h"
#include "gen/cm1/cm1_config.h"
#include "gen/core/errors.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_rtl.h"
#include "sim/cm1/traffic.h"
#include "gen/cli/commands.h"

namespace cmnet {
namespace {

int cmd_gen(const std::string& config, const std::string& out_dir) {
  const Cm1Config cfg = load_cm1_config(config);
  const GeneratedDesign d = emit_cm1(cfg);
  for (const auto& path : write_design(d, out_dir)) std::printf("wrote %s\n", path.c_str());
  const Cm1Params& p = cfg.cm1;
  std::printf("CM-1 network: %d chips x %d processors, l = %d bits, petit period %d, T_heart = %d, "
              "heart storage %d bits\n",
              p.chips(), p.procs_per_chip, p.msg_len(), p.petit_period(), p.t_heart(),
              p.heart_storage_bits());
  return 0;
}

}  // namespace

// Shared by `sim` and the main job: route one pattern on one engine and write JSON lines.
SimOutcome simulate(const Cm1Config& cfg, const Traffic& traffic, EjectMode mode,
                    const std::string& engine, uint64_t max_petit) {
  SimOutcome o;
  const auto t0 = std::chrono::steady_clock::now();
  if (engine == "model") {
    Cm1ModelOptions opt;
    opt.max_petit = max_petit;
    const Cm1RunResult r = run_cm1_model(cfg.cm1, traffic, mode, opt);
    o.deliveries = r.deliveries;
    o.chips = r.chips;
    o.petit_cycles = r.petit_cycles;
    o.bit_times = r.bit_times;
    o.completed = r.completed;
    o.receptions = receptions_from_model(cfg.cm1, traffic, r);
  } else if (engine == "rtl") {
    Cm1RtlOptions opt;
    opt.max_petit = max_petit;
    const Cm1RtlRun r = run_cm1_rtl(cfg, traffic, mode, opt);
    o.receptions = r.receptions;
    o.deliveries = deliveries_from_receptions(cfg.cm1, traffic, r.receptions);
    o.chips = r.chips;
    o.petit_cycles = r.petit_cycles;
    o.bit_times = r.bit_times;
    o.completed = r.completed;
  } else {
    throw InputError("--engine " + engine + ": unknown engine (allowed: rtl, model)");
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

void write_jsonl(const std::string& path, const Cm1Config& cfg, const Traffic& traffic,
                 const SimOutcome& o, const std::string& engine, EjectMode mode) {
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write output file");
  std::vector<const Cm1Delivery*> by_msg(traffic.messages.size(), nullptr);
  for (const Cm1Delivery& d : o.deliveries) by_msg.at(d.msg) = &d;
  uint64_t delivered = 0;
  for (size_t i = 0; i < traffic.messages.size(); ++i) {
    const Message& m = traffic.messages[i];
    nlohmann::ordered_json j;
    j["msg"] = i;
    j["src"] = m.src;
    j["dst"] = m.dst;
    j["vp"] = m.vp;
    char hex[32];
    std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(m.data));
    j["data"] = hex;
    if (const Cm1Delivery* d = by_msg[i]) {
      ++delivered;
      j["petit"] = d->petit;
      std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(d->rx_data));
      j["rx_data"] = hex;
      j["combined"] = d->combined;
    } else {
      j["petit"] = nullptr;
      j["delivered"] = false;
    }
    out << j.dump() << '\n';
  }
  Cm1ChipCounters tot;
  tot.dim_busy.assign(static_cast<size_t>(cfg.cm1.cube_dims), 0);
  for (const auto& c : o.chips) {
    tot.injected += c.injected;
    tot.delivered += c.delivered;
    tot.desperation += c.desperation;
    tot.parity_errors += c.parity_errors;
    for (size_t d = 0; d < c.dim_busy.size(); ++d) tot.dim_busy[d] += c.dim_busy[d];
  }
  uint64_t busy = 0;
  for (auto b : tot.dim_busy) busy += b;
  const double wire_capacity = static_cast<double>(cfg.cm1.chips()) * cfg.cm1.cube_dims *
                               static_cast<double>(o.bit_times);
  nlohmann::ordered_json s;
  s["summary"] = {{"engine", engine},
                  {"eject_mode", to_string(mode)},
                  {"messages", traffic.messages.size()},
                  {"delivered", delivered},
                  {"completed", o.completed},
                  {"petit_cycles", o.petit_cycles},
                  {"bit_times", o.bit_times},
                  {"receptions", o.receptions.size()},
                  {"counter_injected", tot.injected},
                  {"counter_delivered", tot.delivered},
                  {"counter_desperation", tot.desperation},
                  {"counter_parity_errors", tot.parity_errors},
                  {"dim_busy_bit_times", tot.dim_busy},
                  {"wire_utilization", wire_capacity > 0 ? busy / wire_capacity : 0.0},
                  {"seconds", o.seconds}};
  out << s.dump() << '\n';
}

}  // namespace cmnet

int main(int argc, char** argv) {
  using namespace cmnet;
  CLI::App app{"cmnet: Connection-Machine-style interconnection networks for FPGAs"};
  app.require_subcommand(1);
  spdlog::set_pattern("[%l] %v");

  std::string config, out_dir;
  auto* gen = app.add_subcommand("gen", "Generate the Verilog, filelist and manifest of a network");
  gen->add_option("config", config, "network config (JSON)")->required();
  gen->add_option("-o,--out", out_dir, "output directory")->required();

  std::string engine = "model", pattern, traffic_file, out_file, mode_str;
  uint64_t seed = 1, max_petit = 10000;
  int per_proc = 1;
  auto* sim = app.add_subcommand("sim", "Route a pattern on the RTL or the reference model");
  sim->add_option("config", config, "network config (JSON)")->required();
  sim->add_option("--engine", engine, "rtl (Verilator) or model (reference model)")
      ->check(CLI::IsMember({"rtl", "model"}));
  auto* pat = sim->add_option("--pattern", pattern, "named pattern: " + [] {
    std::string s;
    for (const auto& n : pattern_names()) s += (s.empty() ? "" : ", ") + n;
    return s;
  }());
  auto* trf = sim->add_option("--traffic", traffic_file, "traffic file: SRC DST DATA [VP] per line");
  pat->excludes(trf);
  sim->add_option("--seed", seed, "pattern seed");
  sim->add_option("--per-proc", per_proc, "messages per processor (virtual-processor ratio)")
      ->check(CLI::Range(1, 1024));
  sim->add_option("--mode", mode_str, "ejector mode: or | one (default: the config's)")
      ->check(CLI::IsMember({"or", "one"}));
  sim->add_option("--max-petit", max_petit, "give up after this many petit cycles");
  sim->add_option("--out", out_file, "JSON lines output")->required();

  register_extra_commands(app);

  try {
    // Subcommands registered with a callback (other files) run inside parse().
    app.parse(argc, argv);
    if (gen->parsed()) return cmd_gen(config, out_dir);
    if (sim->parsed()) {
      const Cm1Config cfg = load_cm1_config(config);
      if (pattern.empty() && traffic_file.empty())
        throw InputError("sim: give --pattern NAME or --traffic FILE");
      const Traffic traffic = traffic_file.empty()
                                  ? make_pattern(pattern, cfg.cm1, seed, per_proc)
                                  : read_traffic_file(traffic_file, cfg.cm1);
      const EjectMode mode = mode_str.empty() ? cfg.cm1.eject_mode
                             : mode_str == "one" ? EjectMode::kOnePerPetit
                                                 : EjectMode::kOrCombine;
      const SimOutcome o = simulate(cfg, traffic, mode, engine, max_petit);
      write_jsonl(out_file, cfg, traffic, o, engine, mode);
      std::printf("%s: %zu messages, %zu delivered, %llu petit cycles, %llu bit-times%s -> %s\n",
                  engine.c_str(), traffic.messages.size(), o.deliveries.size(),
                  static_cast<unsigned long long>(o.petit_cycles),
                  static_cast<unsigned long long>(o.bit_times),
                  o.completed ? "" : " (NOT completed)", out_file.c_str());
      return o.completed ? 0 : 3;
    }
    return run_extra_commands(app);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
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

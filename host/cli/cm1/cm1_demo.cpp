// `cmnet demo`: the main job. Generate a CM-1 network, route a random pattern on the RTL and
// on the reference model, and print the comparison.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "host/cli/cm1/cm1_family.h"
#include "host/cli/cm1/cm1_sim.h"
#include "sim/cm1/cm1_counters.h"
#include "host/cli/commands.h"
#include "gen/cm1/cm1_emitter.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

int run_demo(const std::string& config_path, const std::string& out_dir, const std::string& pattern,
             uint64_t seed) {
  Cm1Config cfg;
  if (!config_path.empty()) {
    cfg = load_cm1_config(config_path);
  } else {
    cfg.name = "demo";
    cfg.cm1.cube_dims = 4;
    cfg.cm1.procs_per_chip = 16;
    cfg.cm1.data_bits = 16;
  }
  const Cm1Params& p = cfg.cm1;
  std::filesystem::create_directories(out_dir);
  write_design(emit_cm1(cfg), out_dir + "/rtl");
  fmt::print("== cmnet demo: CM-1 network, {} chips (c = {}) x {} processors, b = {} rows\n", p.chips(), p.cube_dims,
             p.procs_per_chip, p.rows);
  fmt::print("   message l = {} bits, petit period {} bit-times, T_heart = l + 2c = {}, heart storage 2bc = {} bits\n",
             p.msg_len(), p.petit_period(), p.t_heart(), p.heart_storage_bits());
  fmt::print("   Verilog in {}/rtl\n", out_dir);
  const Traffic traffic = make_pattern(pattern, p, seed, 1);
  int rc = 0;
  for (const EjectMode mode : {EjectMode::kOrCombine, EjectMode::kOnePerPetit}) {
    const SimOutcome model = simulate(cfg, traffic, mode, "model", 10000);
    const SimOutcome rtl = simulate(cfg, traffic, mode, "rtl", 10000);
    const std::string tag = std::string(to_string(mode));
    write_jsonl(out_dir + "/model-" + tag + ".jsonl", cfg, traffic, model, "model", mode);
    write_jsonl(out_dir + "/rtl-" + tag + ".jsonl", cfg, traffic, rtl, "rtl", mode);
    const bool same = model.receptions == rtl.receptions;
    size_t differ = 0;
    for (size_t i = 0; i < std::min(model.receptions.size(), rtl.receptions.size()); ++i)
      differ += !(model.receptions[i] == rtl.receptions[i]);
    const Cm1ChipCounters mt = cm1_totals(p, model.chips), rt = cm1_totals(p, rtl.chips);
    const size_t extra = model.receptions.size() > rtl.receptions.size()
                             ? model.receptions.size() - rtl.receptions.size()
                             : rtl.receptions.size() - model.receptions.size();
    fmt::print("\n-- {} pattern (seed {}), {} messages, ejector mode '{}'\n", pattern, seed, traffic.messages.size(), tag);
    const auto row = [](const char* what, auto m, auto r) { fmt::print("   {:<22} {:>12} {:>12}\n", what, m, r); };
    row("", "model", "rtl");
    row("petit cycles", model.petit_cycles, rtl.petit_cycles);
    row("bit-times", model.bit_times, rtl.bit_times);
    row("receptions", model.receptions.size(), rtl.receptions.size());
    row("delivered (counters)", mt.delivered, rt.delivered);
    row("desperation-routed", mt.desperation, rt.desperation);
    row("seconds", fmt::format("{:.3f}", model.seconds), fmt::format("{:.3f}", rtl.seconds));
    fmt::print("   RTL and model agree message by message: {}{}\n", same ? "YES" : "NO",
               same ? "" : fmt::format(" ({} receptions differ)", differ + extra));
    if (!same || !rtl.completed || !model.completed) rc = 1;
  }
  fmt::print("\nresults: {}/{{model,rtl}}-{{or,one}}.jsonl\n", out_dir);
  return rc;
}

void add_demo_command(CLI::App& app) {
  static std::string config, out_dir = "out/demo", pattern = "permutation";
  static uint64_t seed = 1;
  auto* d = app.add_subcommand("demo", "CM-1: generate a network, route a pattern on RTL and model, compare (the main job's second half)");
  d->add_option("--config", config, "network config (default: c = 4, P = 16, d = 16)");
  d->add_option("-o,--out", out_dir, "output directory");
  d->add_option("--pattern", pattern, "pattern name");
  d->add_option("--seed", seed, "pattern seed");
  d->callback([] { throw CommandExit{run_demo(config, out_dir, pattern, seed)}; });
}

}  // namespace cmnet

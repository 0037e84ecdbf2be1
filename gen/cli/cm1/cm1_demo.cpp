// `cmnet demo`: the main job. Generate a CM-1 network, route a random pattern on the RTL and
// on the reference model, and print the comparison.
#include <cstdio>
#include <filesystem>

#include "gen/cli/cm1/cm1_family.h"
#include "gen/cli/cm1/cm1_sim.h"
#include "gen/cli/commands.h"
#include "gen/cm1/cm1_emitter.h"
#include "sim/cm1/traffic.h"

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
  std::printf("== cmnet demo: CM-1 network, %d chips (c = %d) x %d processors, b = %d rows\n",
              p.chips(), p.cube_dims, p.procs_per_chip, p.rows);
  std::printf("   message l = %d bits, petit period %d bit-times, T_heart = l + 2c = %d, heart "
              "storage 2bc = %d bits\n",
              p.msg_len(), p.petit_period(), p.t_heart(), p.heart_storage_bits());
  std::printf("   Verilog in %s/rtl\n", out_dir.c_str());
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
    uint64_t m_desp = 0, r_desp = 0, m_del = 0, r_del = 0;
    for (const auto& c : model.chips) m_desp += c.desperation, m_del += c.delivered;
    for (const auto& c : rtl.chips) r_desp += c.desperation, r_del += c.delivered;
    std::printf("\n-- %s pattern (seed %llu), %zu messages, ejector mode '%s'\n", pattern.c_str(),
                static_cast<unsigned long long>(seed), traffic.messages.size(), tag.c_str());
    std::printf("   %-22s %12s %12s\n", "", "model", "rtl");
    std::printf("   %-22s %12llu %12llu\n", "petit cycles", (unsigned long long)model.petit_cycles,
                (unsigned long long)rtl.petit_cycles);
    std::printf("   %-22s %12llu %12llu\n", "bit-times", (unsigned long long)model.bit_times,
                (unsigned long long)rtl.bit_times);
    std::printf("   %-22s %12zu %12zu\n", "receptions", model.receptions.size(), rtl.receptions.size());
    std::printf("   %-22s %12llu %12llu\n", "delivered (counters)", (unsigned long long)m_del,
                (unsigned long long)r_del);
    std::printf("   %-22s %12llu %12llu\n", "desperation-routed", (unsigned long long)m_desp,
                (unsigned long long)r_desp);
    std::printf("   %-22s %12.3f %12.3f\n", "seconds", model.seconds, rtl.seconds);
    std::printf("   RTL and model agree message by message: %s", same ? "YES" : "NO");
    if (!same) std::printf(" (%zu receptions differ)", differ + (model.receptions.size() > rtl.receptions.size() ? model.receptions.size() - rtl.receptions.size() : rtl.receptions.size() - model.receptions.size()));
    std::printf("\n");
    if (!same || !rtl.completed || !model.completed) rc = 1;
  }
  std::printf("\nresults: %s/{model,rtl}-{or,one}.jsonl\n", out_dir.c_str());
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

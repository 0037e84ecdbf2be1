#include "gen/cli/commands.h"

namespace cmnet {

int run_demo(const std::string& config_path, const std::string& out_dir, const std::string& pattern,
             uint64_t seed);

namespace {
struct ExtraArgs {
  std::string config, out_dir = "out/demo", pattern = "permutation";
  uint64_t seed = 1;
} g_demo;
CLI::App* g_demo_cmd = nullptr;
}  // namespace

void register_extra_commands(CLI::App& app) {
  g_demo_cmd = app.add_subcommand("demo", "Main job: generate a CM-1 network, route a pattern on RTL and model, compare");
  g_demo_cmd->add_option("--config", g_demo.config, "network config (default: c = 4, P = 16, d = 16)");
  g_demo_cmd->add_option("-o,--out", g_demo.out_dir, "output directory");
  g_demo_cmd->add_option("--pattern", g_demo.pattern, "pattern name");
  g_demo_cmd->add_option("--seed", g_demo.seed, "pattern seed");
  register_bench_command(app);
  register_run_command(app);
  register_build_commands(app);
  register_cube_command(app);
}

int run_extra_commands(CLI::App& app) {
  (void)app;
  if (g_demo_cmd && g_demo_cmd->parsed()) return run_demo(g_demo.config, g_demo.out_dir, g_demo.pattern, g_demo.seed);
  return 1;
}

}  // namespace cmnet

// `cmnet run`: a routing pattern on a board through the host driver, with a report. With no
// --board URI it starts the simulated board (the Verilator model of the very board top that is
// flashed) on 127.0.0.1. The counters and reception checks read back are compared with the
// reference model's for the same pattern.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>

#include "host/cli/cm1/cm1_family.h"
#include "gen/core/errors.h"
#include "host/cm1/cm1_board.h"
#include "host/cm1/cm1_report.h"
#include "host/cm1/cm1_runner.h"
#include "host/errors.h"
#include "host/register_port.h"
#include "bitstreams/board.h"
#include "sim/cm1/cm1_sim_board.h"
#include "sim/cm1/cm1_traffic.h"
#include "sim/cm1/cm1_traffic_gen.h"

namespace cmnet {
namespace {

EjectMode mode_of(const std::string& m, const Cm1Params& p) {
  return m.empty() ? p.eject_mode : m == "one" ? EjectMode::kOnePerPetit : EjectMode::kOrCombine;
}

}  // namespace

int cm1_run(const Cm1Config& cfg, const RunArgs& a) {
  const Cm1Params& p = cfg.cm1;
  const int gen = a.generator.empty() ? -1 : static_cast<int>(generator_from_name(a.generator));
  const Traffic traffic =
      gen >= 0 ? generator_traffic(static_cast<GenPattern>(gen), p, static_cast<uint32_t>(a.seed),
                                   static_cast<uint32_t>(a.per_proc))
      : a.traffic.empty() ? make_pattern(a.pattern, p, a.seed, a.per_proc)
                          : read_traffic_file(a.traffic, p);
  const EjectMode mode = mode_of(a.mode, p);
  Connection conn = connect_board(cfg, a.board, a.sim_link, a.rtl, check_trace(a.trace));
  const std::string& uri = conn.uri;
  const BoardRun r = execute(*conn.board, p, traffic, mode, a.timeout_s, uri, gen,
                             static_cast<uint32_t>(a.seed), static_cast<uint32_t>(a.per_proc));
  Cm1RunDescription d;
  d.what = gen >= 0 ? "on-chip generator '" + a.generator + "'" : a.traffic.empty() ? a.pattern : a.traffic;
  d.uri = uri;
  d.seed = a.seed;
  d.messages = traffic.messages.size();
  d.mode = mode;
  if (const auto* client = dynamic_cast<const BoardClient*>(conn.port.get()))
    d.link_stats = fmt::format("; link: {} requests, {} retries", client->stats().requests, client->stats().retries);
  const ReportVerdict verdict = write_run_report(cm1_run_report(cfg, d, r), a.out_dir);
  if (conn.sim) conn.sim->stop();  // the harness closes its waveform on the way out
  return verdict.ok() ? 0 : 1;
}

// `cmnet sweep`: offered load against accepted throughput (host/cm1/cm1_report.h).
int cm1_sweep(const Cm1Config& cfg, const SweepArgs& a) {
  Connection conn = connect_board(cfg, a.board, a.sim_link);
  Cm1SweepOptions o;
  o.pattern = a.pattern;
  o.seed = a.seed;
  o.max_per_proc = a.max_per_proc;
  o.timeout_s = a.timeout_s;
  o.mode = mode_of(a.mode, cfg.cm1);
  o.out_dir = a.out_dir;
  const bool ok = run_cm1_sweep(cfg, conn, o);
  if (conn.sim) conn.sim->stop();
  return ok ? 0 : 1;
}

}  // namespace cmnet

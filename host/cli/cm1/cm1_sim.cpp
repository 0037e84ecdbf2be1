// `cmnet sim` for CM-1: one pattern routed on the RTL (Verilator) or on the reference model,
// one JSON line per message (host/cli/sim_lines.h) and a summary. Also what `cmnet demo` runs.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "host/cli/cm1/cm1_family.h"
#include "host/cli/cm1/cm1_sim.h"
#include "host/cli/sim_lines.h"
#include "gen/core/errors.h"
#include "sim/cm1/cm1_counters.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

// Shared by `sim` and the main job: route one pattern on one engine and write JSON lines.
SimOutcome simulate(const Cm1Config& cfg, const Traffic& traffic, EjectMode mode,
                    const std::string& engine, uint64_t max_petit, Cm1RtlOptions rtl_options) {
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
    Cm1RtlOptions opt = rtl_options;
    opt.max_petit = max_petit;
    const Cm1RtlRun r = run_cm1_rtl(cfg, traffic, mode, opt);
    o.receptions = r.receptions;
    Cm1CreditOptions co;
    co.mode = mode;
    o.crediting = credit_receptions(cfg.cm1, traffic, r.receptions, co);
    o.deliveries = o.crediting->deliveries;
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
  SimLinesWriter out(path);
  std::vector<const Cm1Delivery*> by_msg(traffic.messages.size(), nullptr);
  for (const Cm1Delivery& d : o.deliveries) by_msg.at(d.msg) = &d;
  for (size_t i = 0; i < traffic.messages.size(); ++i) {
    const Message& m = traffic.messages[i];
    SimRecord r;
    r.id = i;
    // Every message waits in its processor's queue from petit cycle 0 (the SIMD delivery cycle).
    r.sent.push_back(SimEnd{m.src, 0, {m.data}, {}, {}});
    r.dst = m.dst;
    r.extra["vp"] = m.vp;
    if (const Cm1Delivery* d = by_msg[i]) {
      r.arrived.push_back(SimEnd{m.dst, d->petit, {d->rx_data}, {}, {}});
      r.delivered = true;
      r.extra["rx_vp"] = d->rx_vp;
      r.extra["combined"] = d->combined;
      if (o.crediting && std::binary_search(o.crediting->ambiguous_messages.begin(),
                                            o.crediting->ambiguous_messages.end(), i))
        r.ambiguous = "OR-combined reception: the hardware's messages carry no source, and another assignment of "
                      "this processor's receptions credits this message elsewhere";
    }
    out.write(r);
  }
  const Cm1ChipCounters tot = cm1_totals(cfg.cm1, o.chips);
  SimSummary s;
  s.family = "cm1";
  s.engine = engine;
  s.time_unit = "petit cycles";
  s.completed = o.completed;
  s.extra = {{"eject_mode", to_string(mode)},
             {"messages", traffic.messages.size()},
             {"petit_cycles", o.petit_cycles},
             {"bit_times", o.bit_times},
             {"receptions", o.receptions.size()},
             {"counter_injected", tot.injected},
             {"counter_delivered", tot.delivered},
             {"counter_desperation", tot.desperation},
             {"counter_parity_errors", tot.parity_errors},
             {"dim_busy_bit_times", tot.dim_busy},
             {"wire_utilization", cm1_wire_utilization(cfg.cm1, tot, o.bit_times)},
             {"seconds", o.seconds}};
  if (o.crediting) {
    s.extra["crediting"] = {{"exact", o.crediting->exact()},
                            {"ambiguous_receptions", o.crediting->ambiguous.size()},
                            {"ambiguous_messages", o.crediting->ambiguous_messages.size()},
                            {"unexplained_receptions", o.crediting->unexplained.size()},
                            {"greedy_processors", o.crediting->greedy_dsts.size()}};
  }
  out.finish(s);
}

int cm1_sim(const Cm1Config& cfg, const SimArgs& a) {
  if (a.pattern.empty() && a.traffic.empty()) throw InputError("sim: give --pattern NAME or --traffic FILE");
  const Traffic traffic = a.traffic.empty() ? make_pattern(a.pattern, cfg.cm1, a.seed, a.per_proc)
                                            : read_traffic_file(a.traffic, cfg.cm1);
  const EjectMode mode = a.mode.empty() ? cfg.cm1.eject_mode
                         : a.mode == "one" ? EjectMode::kOnePerPetit
                                           : EjectMode::kOrCombine;
  Cm1RtlOptions ro;
  check_trace(a.trace, a.engine);
  if (a.trace.on()) {
    if (cfg.cm1.cube_dims > 6)
      throw InputError("--trace: a traced run simulates the whole network top in one model, at most c = 6 (this config: c = " +
                       std::to_string(cfg.cm1.cube_dims) + ")");
    ro.trace_file = a.trace.file;
    ro.trace_from = a.trace.from;
    ro.trace_to = a.trace.to;
  }
  const SimOutcome o = simulate(cfg, traffic, mode, a.engine, a.max_steps, ro);
  if (o.crediting && (!o.crediting->ambiguous_messages.empty() || !o.crediting->exact()))
    fmt::print("rtl receptions credited to messages: {} messages ambiguous (OR-combined data that more than one "
               "assignment explains), {} receptions unexplained, {} processors credited greedily\n",
               o.crediting->ambiguous_messages.size(), o.crediting->unexplained.size(), o.crediting->greedy_dsts.size());
  write_jsonl(a.out, cfg, traffic, o, a.engine, mode);
  fmt::print("{}: {} messages, {} delivered, {} petit cycles, {} bit-times{} -> {}\n", a.engine, traffic.messages.size(),
             o.deliveries.size(), o.petit_cycles, o.bit_times, o.completed ? "" : " (NOT completed)", a.out);
  return o.completed ? 0 : 3;
}

}  // namespace cmnet

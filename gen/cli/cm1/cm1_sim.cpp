// `cmnet sim` for CM-1: one pattern routed on the RTL (Verilator) or on the reference model,
// one JSON object per message and a summary. Also what `cmnet demo` runs.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gen/cli/cm1/cm1_family.h"
#include "gen/cli/cm1/cm1_sim.h"
#include "gen/core/errors.h"
#include "sim/cm1/traffic.h"

namespace cmnet {

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

int cm1_sim(const Cm1Config& cfg, const SimArgs& a) {
  if (a.pattern.empty() && a.traffic.empty()) throw InputError("sim: give --pattern NAME or --traffic FILE");
  const Traffic traffic = a.traffic.empty() ? make_pattern(a.pattern, cfg.cm1, a.seed, a.per_proc)
                                            : read_traffic_file(a.traffic, cfg.cm1);
  const EjectMode mode = a.mode.empty() ? cfg.cm1.eject_mode
                         : a.mode == "one" ? EjectMode::kOnePerPetit
                                           : EjectMode::kOrCombine;
  const SimOutcome o = simulate(cfg, traffic, mode, a.engine, a.max_steps);
  write_jsonl(a.out, cfg, traffic, o, a.engine, mode);
  std::printf("%s: %zu messages, %zu delivered, %llu petit cycles, %llu bit-times%s -> %s\n",
              a.engine.c_str(), traffic.messages.size(), o.deliveries.size(),
              static_cast<unsigned long long>(o.petit_cycles),
              static_cast<unsigned long long>(o.bit_times), o.completed ? "" : " (NOT completed)",
              a.out.c_str());
  return o.completed ? 0 : 3;
}

}  // namespace cmnet

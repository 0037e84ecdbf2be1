// One CM-1 pattern on one engine (rtl or model), shared by `cmnet sim` and `cmnet demo`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/cm1/cm1_config.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_rtl.h"

namespace cmnet {

struct SimOutcome {
  std::vector<Cm1Delivery> deliveries;
  std::vector<Cm1Reception> receptions;
  std::vector<Cm1ChipCounters> chips;
  uint64_t petit_cycles = 0;
  uint64_t bit_times = 0;
  bool completed = false;
  double seconds = 0;
  // RTL only: how the receptions were credited to messages (the message format has no source:
  // OR-combined receptions can be ambiguous); empty for the model, which knows its senders.
  std::optional<Cm1Crediting> crediting;
};

// `rtl_options` (engine rtl only): traces and the like; max_petit overrides its max_petit.
SimOutcome simulate(const Cm1Config& cfg, const Traffic& traffic, EjectMode mode,
                    const std::string& engine, uint64_t max_petit, Cm1RtlOptions rtl_options = {});
void write_jsonl(const std::string& path, const Cm1Config& cfg, const Traffic& traffic,
                 const SimOutcome& o, const std::string& engine, EjectMode mode);

}  // namespace cmnet

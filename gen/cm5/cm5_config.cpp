#include "gen/cm5/cm5_config.h"

#include <nlohmann/json.hpp>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/core/errors.h"

namespace cmnet {

using nlohmann::json;

Cm5MachineConfig cm5_machine_config(const NetworkConfig& env) {
  if (env.network != "cm5") throw ConfigError(env.where + ": network = \"" + env.network + "\" is not a cm5 config");
  const std::string w = env.where + ": cm5";
  const json& o = env.section;
  config_fields::reject_unknown(o, {"leaves", "cm5data", "cm5ctl"}, w);
  for (const char* k : {"cm5data", "cm5ctl"})
    if (o.contains(k) && !o.at(k).is_object()) throw ConfigError(w + ": " + k + " must be an object, got " + o.at(k).dump());
  Cm5MachineConfig cfg;
  cfg.name = env.name;
  // Each section is its family's own object, checked by the family's parser (errors name cm5.X).
  NetworkConfig d{"cm5data", env.name, env.where + ": cm5", o.contains("cm5data") ? o.at("cm5data") : json::object()};
  cfg.data = cm5data_config(d);
  json c = o.contains("cm5ctl") ? o.at("cm5ctl") : json::object();
  const int data_leaves = static_cast<int>(cfg.data.cm5.leaves());
  const std::string data_says = std::to_string(data_leaves) + " leaves (cm5.cm5data.height = " +
                                std::to_string(cfg.data.cm5.height) + ")";
  if (o.contains("leaves")) {
    const int n = config_fields::get_int(o, "leaves", 0, w);
    if (n != data_leaves)
      throw ConfigError(w + ": leaves = " + std::to_string(n) + " does not match the data network's " + data_says);
  }
  if (!c.contains("leaves")) c["leaves"] = data_leaves;
  cfg.ctl = cm5ctl_config(NetworkConfig{"cm5ctl", env.name, env.where + ": cm5", c});
  cfg.data.name = cfg.ctl.name = env.name;
  const auto& cp = cfg.ctl.p;
  if (cp.leaves != data_leaves)
    throw ConfigError(w + ": cm5ctl.leaves = " + std::to_string(cp.leaves) + " does not match the data network's " + data_says +
                      ": both networks serve the same leaves");
  // Router-done sums every leaf's counter: one partition, every leaf in it.
  if (!(cp.partitions.empty() || cp.partitions == std::vector<int>{1}))
    throw ConfigError(w + ": cm5ctl.partitions must be [1] (router-done over the whole machine: the data network spans it)");
  if (!cp.mapped_out.empty())
    throw ConfigError(w + ": cm5ctl.mapped_out must be empty (every leaf's counter takes part in router-done)");
  if (cp.word_bits < 8)
    throw ConfigError(w + ": cm5ctl.word_bits = " + std::to_string(cp.word_bits) +
                      " out of range 8..32 (router-done's counters are word_bits-bit signed numbers)");
  if (cfg.data.cm5.slots != 0)
    throw ConfigError(w + ": cm5data.slots = " + std::to_string(cfg.data.cm5.slots) +
                      " is not allowed (the interfaces, cm5data_ni, count credits per flit: FIFO inputs only)");
  if (cfg.data.cm5.height > kCm5MaxEmitHeight)
    throw ConfigError(w + ": cm5data.height = " + std::to_string(cfg.data.cm5.height) + " out of range 1.." +
                      std::to_string(kCm5MaxEmitHeight) + " (the whole data network's Verilog is emitted up to that)");
  return cfg;
}

Cm5MachineConfig parse_cm5_machine_config(const std::string& text, const std::string& where) {
  return cm5_machine_config(parse_config(text, where));
}

std::string config_to_json(const Cm5MachineConfig& cfg) {
  const json d = json::parse(config_to_json(cfg.data)), c = json::parse(config_to_json(cfg.ctl));
  const json j = {{"network", "cm5"},
                  {"name", cfg.name},
                  {"cm5", {{"leaves", cfg.leaves()}, {"cm5data", d.at("cm5data")}, {"cm5ctl", c.at("cm5ctl")}}}};
  return j.dump(2) + "\n";
}

}  // namespace cmnet

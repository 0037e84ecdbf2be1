#include "gen/cm1/cm1_config.h"

#include "gen/core/errors.h"

namespace cmnet {

using nlohmann::json;
using config_fields::get_int;

Cm1Config cm1_config(const NetworkConfig& env) {
  if (env.network != "cm1")
    throw ConfigError(env.where + ": network = \"" + env.network + "\" is not a cm1 config");
  Cm1Config cfg;
  cfg.name = env.name;
  const json& cm1 = env.section;
  const std::string w = env.where + ": cm1";
  config_fields::reject_unknown(cm1, {"cube_dims", "rows", "procs_per_chip", "vp_bits", "data_bits",
                                      "eject_mode", "queue_depth"}, w);
  Cm1Params& p = cfg.cm1;
  p.cube_dims = get_int(cm1, "cube_dims", p.cube_dims, w);
  p.rows = get_int(cm1, "rows", p.rows, w);
  p.procs_per_chip = get_int(cm1, "procs_per_chip", p.procs_per_chip, w);
  p.vp_bits = get_int(cm1, "vp_bits", p.vp_bits, w);
  p.data_bits = get_int(cm1, "data_bits", p.data_bits, w);
  p.queue_depth = get_int(cm1, "queue_depth", p.queue_depth, w);
  if (cm1.contains("eject_mode")) {
    const json& m = cm1["eject_mode"];
    if (m == "or") p.eject_mode = EjectMode::kOrCombine;
    else if (m == "one") p.eject_mode = EjectMode::kOnePerPetit;
    else throw ConfigError(w + ": eject_mode = " + m.dump() + " (allowed: \"or\", \"one\")");
  }
  validate(p, w);
  return cfg;
}

Cm1Config parse_cm1_config(const std::string& text, const std::string& where) {
  return cm1_config(parse_config(text, where));
}

Cm1Config load_cm1_config(const std::string& path) { return cm1_config(load_config_file(path)); }

std::string config_to_json(const Cm1Config& cfg) {
  const Cm1Params& p = cfg.cm1;
  json j = {{"network", "cm1"},
            {"name", cfg.name},
            {"cm1",
             {{"cube_dims", p.cube_dims},
              {"rows", p.rows},
              {"procs_per_chip", p.procs_per_chip},
              {"vp_bits", p.vp_bits},
              {"data_bits", p.data_bits},
              {"eject_mode", to_string(p.eject_mode)},
              {"queue_depth", p.queue_depth}}}};
  return j.dump(2) + "\n";
}

}  // namespace cmnet

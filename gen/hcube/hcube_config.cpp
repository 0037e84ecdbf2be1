#include "gen/hcube/hcube_config.h"

#include "gen/core/errors.h"

namespace cmnet {

using nlohmann::json;
using config_fields::get_int;
using config_fields::get_string;

HcubeConfig hcube_config(const NetworkConfig& env) {
  if (env.network != "hcube")
    throw ConfigError(env.where + ": network = \"" + env.network + "\" is not an hcube config");
  HcubeConfig cfg;
  cfg.name = env.name;
  const json& o = env.section;
  const std::string w = env.where + ": hcube";
  config_fields::reject_unknown(
      o, {"dims", "scheme", "routing", "packet_bytes", "buffers", "ticks_per_byte", "arb_ticks", "seed"}, w);
  HcubeParams& p = cfg.hc;
  p.dims = get_int(o, "dims", p.dims, w);
  p.scheme = get_string(o, "scheme", p.scheme, w);
  p.routing = get_string(o, "routing", p.routing, w);
  p.packet_bytes = get_int(o, "packet_bytes", p.packet_bytes, w);
  p.buffers = get_int(o, "buffers", p.buffers, w);
  p.ticks_per_byte = get_int(o, "ticks_per_byte", p.ticks_per_byte, w);
  p.arb_ticks = get_int(o, "arb_ticks", p.arb_ticks, w);
  const int seed = get_int(o, "seed", static_cast<int>(p.seed), w);
  if (seed < 0 || seed > 65535)
    throw ConfigError(w + ": seed = " + std::to_string(seed) + " out of range 0..65535");
  p.seed = static_cast<uint32_t>(seed);
  validate(p, w);
  return cfg;
}

HcubeConfig parse_hcube_config(const std::string& text, const std::string& where) {
  return hcube_config(parse_config(text, where));
}

std::string config_to_json(const HcubeConfig& cfg) {
  const HcubeParams& p = cfg.hc;
  json j = {{"network", "hcube"},
            {"name", cfg.name},
            {"hcube",
             {{"dims", p.dims},
              {"scheme", p.scheme},
              {"routing", p.routing},
              {"packet_bytes", p.packet_bytes},
              {"buffers", p.buffers},
              {"ticks_per_byte", p.ticks_per_byte},
              {"arb_ticks", p.arb_ticks},
              {"seed", p.seed}}}};
  return j.dump(2) + "\n";
}

}  // namespace cmnet

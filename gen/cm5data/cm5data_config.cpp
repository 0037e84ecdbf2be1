#include "gen/cm5data/cm5data_config.h"

#include "gen/core/errors.h"

namespace cmnet {

using nlohmann::json;
using config_fields::get_int;

Cm5DataConfig cm5data_config(const NetworkConfig& env) {
  if (env.network != "cm5data")
    throw ConfigError(env.where + ": network = \"" + env.network + "\" is not a cm5data config");
  Cm5DataConfig cfg;
  cfg.name = env.name;
  const json& o = env.section;
  const std::string w = env.where + ": cm5data";
  config_fields::reject_unknown(o, {"height", "parents", "link_bits", "max_words", "buffer_words", "seed"}, w);
  Cm5DataParams& p = cfg.cm5;
  p.height = get_int(o, "height", p.height, w);
  p.link_bits = get_int(o, "link_bits", p.link_bits, w);
  p.max_words = get_int(o, "max_words", p.max_words, w);
  p.buffer_words = get_int(o, "buffer_words", p.buffer_words, w);
  const int seed = get_int(o, "seed", static_cast<int>(p.seed), w);
  if (seed < 0 || seed > 65535)
    throw ConfigError(w + ": seed = " + std::to_string(seed) + " out of range 0..65535");
  p.seed = static_cast<uint32_t>(seed);
  if (o.contains("parents")) {
    const json& v = o["parents"];
    if (v.is_string()) {
      p.profile = v.get<std::string>();
    } else if (v.is_array()) {
      p.profile.clear();
      p.parents.clear();
      for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_number_integer())
          throw ConfigError(w + ": parents[" + std::to_string(i) + "] must be an integer (2 or 4), got " + v[i].dump());
        const auto x = v[i].get<int64_t>();
        p.parents.push_back(x < -1000 || x > 1000 ? 1000 : static_cast<int>(x));
      }
    } else {
      throw ConfigError(w + ": parents must be a profile name (\"cm5\", \"full\") or a list of 2 or 4 per level, got " +
                        v.dump());
    }
  }
  validate(p, w);
  return cfg;
}

Cm5DataConfig parse_cm5data_config(const std::string& text, const std::string& where) {
  return cm5data_config(parse_config(text, where));
}

std::string config_to_json(const Cm5DataConfig& cfg) {
  const Cm5DataParams& p = cfg.cm5;
  json parents = p.profile.empty() ? json(p.parents) : json(p.profile);
  json j = {{"network", "cm5data"},
            {"name", cfg.name},
            {"cm5data",
             {{"height", p.height},
              {"parents", parents},
              {"link_bits", p.link_bits},
              {"max_words", p.max_words},
              {"buffer_words", p.buffer_words},
              {"seed", p.seed}}}};
  return j.dump(2) + "\n";
}

}  // namespace cmnet

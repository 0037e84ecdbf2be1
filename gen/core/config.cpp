#include "gen/core/config.h"

#include "gen/core/design.h"
#include "gen/core/errors.h"

namespace cmnet {

using nlohmann::json;

namespace config_fields {

int get_int(const json& obj, const char* key, int dflt, const std::string& where) {
  if (!obj.contains(key)) return dflt;
  const json& v = obj.at(key);
  if (!v.is_number_integer())
    throw ConfigError(where + ": " + key + " must be an integer, got " + v.dump());
  const auto x = v.get<int64_t>();
  if (x < -1000000 || x > 1000000)
    throw ConfigError(where + ": " + key + " = " + std::to_string(x) + " is absurdly large");
  return static_cast<int>(x);
}

std::string get_string(const json& obj, const char* key, const std::string& dflt,
                       const std::string& where) {
  if (!obj.contains(key)) return dflt;
  const json& v = obj.at(key);
  if (!v.is_string()) throw ConfigError(where + ": " + key + " must be a string, got " + v.dump());
  return v.get<std::string>();
}

void reject_unknown(const json& obj, std::initializer_list<const char*> known,
                    const std::string& where) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (!ok) {
      std::string list;
      for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
      throw ConfigError(where + ": unknown field '" + it.key() + "' (known: " + list + ")");
    }
  }
}

}  // namespace config_fields

NetworkConfig parse_config(const std::string& text, const std::string& where) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ConfigError(where + ": not valid JSON at byte " + std::to_string(e.byte) + ": " +
                      e.what());
  }
  if (!root.is_object()) throw ConfigError(where + ": the top level must be a JSON object");
  NetworkConfig cfg;
  cfg.where = where;
  if (!root.contains("network"))
    throw ConfigError(where + ": missing field 'network' (the network family; `cmnet list` names them)");
  cfg.network = config_fields::get_string(root, "network", "", where);
  // The family's own object is the one field named after it.
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it.key() != "network" && it.key() != "name" && it.key() != cfg.network)
      throw ConfigError(where + ": unknown field '" + it.key() + "' (known: network, name, " +
                        cfg.network + ")");
  cfg.name = config_fields::get_string(root, "name", cfg.network, where);
  cfg.section = root.contains(cfg.network) ? root[cfg.network] : json::object();
  if (!cfg.section.is_object()) throw ConfigError(where + ": " + cfg.network + " must be an object");
  return cfg;
}

NetworkConfig load_config_file(const std::string& path) {
  return parse_config(read_file(path, "config file"), path);
}

}  // namespace cmnet

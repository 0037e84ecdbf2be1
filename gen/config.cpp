#include "gen/config.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gen/errors.h"

namespace cmnet {
namespace {

using nlohmann::json;

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

}  // namespace

NetworkConfig parse_config(const std::string& text, const std::string& where) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ConfigError(where + ": not valid JSON at byte " + std::to_string(e.byte) + ": " +
                      e.what());
  }
  if (!root.is_object()) throw ConfigError(where + ": the top level must be a JSON object");
  reject_unknown(root, {"network", "name", "cm1"}, where);
  NetworkConfig cfg;
  const std::string kind = root.value("network", std::string("cm1"));
  if (kind != "cm1")
    throw ConfigError(where + ": network = \"" + kind + "\" is not supported (supported: cm1)");
  if (root.contains("name")) {
    if (!root["name"].is_string()) throw ConfigError(where + ": name must be a string");
    cfg.name = root["name"].get<std::string>();
  }
  const json cm1 = root.contains("cm1") ? root["cm1"] : json::object();
  const std::string w = where + ": cm1";
  if (!cm1.is_object()) throw ConfigError(w + " must be an object");
  reject_unknown(cm1, {"cube_dims", "rows", "procs_per_chip", "vp_bits", "data_bits",
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

NetworkConfig load_config_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open config file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path);
}

std::string config_to_json(const NetworkConfig& cfg) {
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

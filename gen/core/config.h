// A network config file: the envelope every family shares ({"network": FAMILY, "name": ...,
// FAMILY: {...}}), read and checked here; the family's own object is parsed by the family
// (gen/<family>/<family>_config.h). Errors name the file, the field, the value and the range.
#pragma once

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace cmnet {

struct NetworkConfig {
  std::string network;     // the family: "cm1", ...
  std::string name;        // the config's name (the family's name when not given)
  std::string where;       // the file it came from, for error messages
  nlohmann::json section;  // the family's own object, {} when absent
};

NetworkConfig parse_config(const std::string& text, const std::string& where);
NetworkConfig load_config_file(const std::string& path);

// Field readers for the families' parsers: each throws ConfigError naming `where` and the key.
namespace config_fields {
int get_int(const nlohmann::json& obj, const char* key, int dflt, const std::string& where);
std::string get_string(const nlohmann::json& obj, const char* key, const std::string& dflt,
                       const std::string& where);
void reject_unknown(const nlohmann::json& obj, std::initializer_list<const char*> known,
                    const std::string& where);
}  // namespace config_fields

}  // namespace cmnet

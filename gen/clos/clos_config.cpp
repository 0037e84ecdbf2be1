#include "gen/clos/clos_config.h"

#include "gen/core/errors.h"

namespace cmnet {

using nlohmann::json;
using config_fields::get_int;

ClosConfig clos_config(const NetworkConfig& env) {
  if (env.network != "clos")
    throw ConfigError(env.where + ": network = \"" + env.network + "\" is not a clos config");
  ClosConfig cfg;
  cfg.name = env.name;
  const json& c = env.section;
  const std::string w = env.where + ": clos";
  if (!c.is_object()) throw ConfigError(w + " must be an object, got " + c.dump());
  config_fields::reject_unknown(c, {"m", "n", "r", "width", "hnode_dims", "cancel_limit", "select", "resend_after_wait"}, w);
  for (const char* k : {"m", "n", "r"})
    if (!c.contains(k)) throw ConfigError(w + ": " + k + " is required (N(m, n, r): m middle switches, "
                                                       "n ports per input/output switch, r input/output switches)");
  ClosParams& p = cfg.clos;
  p.m = get_int(c, "m", p.m, w);
  p.n = get_int(c, "n", p.n, w);
  p.r = get_int(c, "r", p.r, w);
  p.width = get_int(c, "width", p.width, w);
  p.hnode_dims = get_int(c, "hnode_dims", 0, w);
  if (!c.contains("hnode_dims")) {
    // Default: the largest hypercube with an input/output switch pair per hnode, at most 5
    // dimensions (the paper's 32 hnodes).
    while (p.hnode_dims < 5 && (2 << p.hnode_dims) <= p.r) ++p.hnode_dims;
  }
  p.cancel_limit = get_int(c, "cancel_limit", p.cancel_limit, w);
  const std::string sel = config_fields::get_string(c, "select", "dest", w);
  if (sel != "dest" && sel != "pair")
    throw ConfigError(w + ": select = \"" + sel + "\" unknown (allowed: \"dest\": from h_d's own middle switch, "
                      "\"pair\": from (input switch + output switch) mod m)");
  p.select_pair = sel == "pair";
  if (c.contains("resend_after_wait")) {
    if (!c["resend_after_wait"].is_boolean())
      throw ConfigError(w + ": resend_after_wait must be true or false, got " + c["resend_after_wait"].dump());
    p.resend_after_wait = c["resend_after_wait"].get<bool>();
  }
  validate(p, w);
  return cfg;
}

ClosConfig parse_clos_config(const std::string& text, const std::string& where) {
  return clos_config(parse_config(text, where));
}

std::string config_to_json(const ClosConfig& cfg) {
  const ClosParams& p = cfg.clos;
  nlohmann::ordered_json j;
  j["network"] = "clos";
  j["name"] = cfg.name;
  j["clos"] = {{"m", p.m}, {"n", p.n}, {"r", p.r}, {"width", p.width}, {"hnode_dims", p.hnode_dims},
               {"cancel_limit", p.cancel_limit}, {"select", p.select_pair ? "pair" : "dest"},
               {"resend_after_wait", p.resend_after_wait}};
  return j.dump(2) + "\n";
}

}  // namespace cmnet

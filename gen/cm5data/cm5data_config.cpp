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
  config_fields::reject_unknown(o, {"height", "parents", "link_bits", "max_words", "buffer_words", "seed", "mapped_out",
                                       "mapped_out_leaves", "partitions", "fault", "slots", "request_stage", "ni"}, w);
  Cm5DataParams& p = cfg.cm5;
  p.height = get_int(o, "height", p.height, w);
  p.link_bits = get_int(o, "link_bits", p.link_bits, w);
  p.max_words = get_int(o, "max_words", p.max_words, w);
  p.buffer_words = get_int(o, "buffer_words", p.buffer_words, w);
  p.slots = get_int(o, "slots", p.slots, w);
  p.request_stage = get_int(o, "request_stage", p.request_stage, w);
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
  if (o.contains("mapped_out")) {
    const json& v = o["mapped_out"];
    if (!v.is_array())
      throw ConfigError(w + ": mapped_out must be a list of links {\"level\", \"node\", \"chip\", \"parent\"}, got " + v.dump());
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string wi = w + ": mapped_out[" + std::to_string(i) + "]";
      if (!v[i].is_object()) throw ConfigError(wi + " must be an object {\"level\", \"node\", \"chip\", \"parent\"}, got " + v[i].dump());
      config_fields::reject_unknown(v[i], {"level", "node", "chip", "parent"}, wi);
      for (const char* f : {"level", "node", "chip", "parent"})
        if (!v[i].contains(f)) throw ConfigError(wi + ": " + f + " is missing");
      Cm5DataLink k;
      k.level = get_int(v[i], "level", 0, wi);
      const int node = get_int(v[i], "node", 0, wi);
      if (node < 0) throw ConfigError(wi + ": node = " + std::to_string(node) + " is negative");
      k.node = static_cast<uint32_t>(node);
      k.chip = get_int(v[i], "chip", 0, wi);
      k.parent = get_int(v[i], "parent", 0, wi);
      p.mapped_out.push_back(k);
    }
  }
  if (o.contains("mapped_out_leaves")) {
    const json& v = o["mapped_out_leaves"];
    if (!v.is_array()) throw ConfigError(w + ": mapped_out_leaves must be a list of leaf numbers, got " + v.dump());
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string wi = w + ": mapped_out_leaves[" + std::to_string(i) + "]";
      if (!v[i].is_number_integer()) throw ConfigError(wi + " must be a leaf number, got " + v[i].dump());
      const auto x = v[i].get<int64_t>();
      if (x < 0 || x > 0xFFFFFF) throw ConfigError(wi + " = " + std::to_string(x) + " is not a leaf number");
      p.mapped_out_leaves.push_back(static_cast<uint32_t>(x));
    }
  }
  if (o.contains("partitions")) {
    const json& v = o["partitions"];
    if (!v.is_array())
      throw ConfigError(w + ": partitions must be a list of subtrees {\"level\", \"node\"}, got " + v.dump());
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string wi = w + ": partitions[" + std::to_string(i) + "]";
      if (!v[i].is_object()) throw ConfigError(wi + " must be an object {\"level\", \"node\"}, got " + v[i].dump());
      config_fields::reject_unknown(v[i], {"level", "node"}, wi);
      for (const char* f : {"level", "node"})
        if (!v[i].contains(f)) throw ConfigError(wi + ": " + f + " is missing");
      Cm5DataPartition q;
      q.level = get_int(v[i], "level", 0, wi);
      const int node = get_int(v[i], "node", 0, wi);
      if (node < 0) throw ConfigError(wi + ": node = " + std::to_string(node) + " is negative");
      q.node = static_cast<uint32_t>(node);
      p.partitions.push_back(q);
    }
  }
  if (o.contains("ni")) {
    const json& v = o["ni"];
    const std::string wn = w + ": ni";
    if (!v.is_object()) throw ConfigError(wn + " must be an object {\"send_words\", \"recv_words\"}, got " + v.dump());
    config_fields::reject_unknown(v, {"send_words", "recv_words"}, wn);
    p.ni_send_words = get_int(v, "send_words", p.ni_send_words, wn);
    p.ni_recv_words = get_int(v, "recv_words", p.ni_recv_words, wn);
    if (v.contains("send_words") && p.ni_send_words == 0)
      throw ConfigError(wn + ": send_words = 0 is not allowed (a power of 2, 8..64; leave it out for the default)");
  }
  if (o.contains("fault")) {
    const json& v = o["fault"];
    const std::string wf = w + ": fault";
    if (!v.is_object()) throw ConfigError(wf + " must be an object {\"chip\", \"port\", \"flit\", \"mask\"}, got " + v.dump());
    config_fields::reject_unknown(v, {"chip", "port", "flit", "mask"}, wf);
    const int chip = get_int(v, "chip", 0, wf), mask = get_int(v, "mask", 1, wf);
    if (chip < 0) throw ConfigError(wf + ": chip = " + std::to_string(chip) + " is negative");
    if (mask < 0) throw ConfigError(wf + ": mask = " + std::to_string(mask) + " is negative");
    p.fault.on = true;
    p.fault.chip = static_cast<uint32_t>(chip);
    p.fault.port = get_int(v, "port", 0, wf);
    p.fault.flit = get_int(v, "flit", p.flits_per_word(), wf);
    p.fault.mask = static_cast<uint32_t>(mask);
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
  // Only when used: the canonical JSON of a config without them (and so its Verilog) is unchanged.
  if (!p.mapped_out.empty()) {
    json m = json::array();
    for (const Cm5DataLink& k : p.mapped_out)
      m.push_back({{"level", k.level}, {"node", k.node}, {"chip", k.chip}, {"parent", k.parent}});
    j["cm5data"]["mapped_out"] = m;
  }
  if (p.slots != 0) j["cm5data"]["slots"] = p.slots;
  if (p.request_stage != 0) j["cm5data"]["request_stage"] = p.request_stage;
  if (!p.mapped_out_leaves.empty()) j["cm5data"]["mapped_out_leaves"] = p.mapped_out_leaves;
  if (!p.partitions.empty()) {
    json m = json::array();
    for (const Cm5DataPartition& q : p.partitions) m.push_back({{"level", q.level}, {"node", q.node}});
    j["cm5data"]["partitions"] = m;
  }
  if (p.ni_send_words != 0 || p.ni_recv_words != Cm5DataParams{}.ni_recv_words) {
    json n = json::object();
    if (p.ni_send_words != 0) n["send_words"] = p.ni_send_words;
    n["recv_words"] = p.ni_recv_words;
    j["cm5data"]["ni"] = n;
  }
  if (p.fault.on)
    j["cm5data"]["fault"] = {{"chip", p.fault.chip}, {"port", p.fault.port}, {"flit", p.fault.flit}, {"mask", p.fault.mask}};
  return j.dump(2) + "\n";
}

}  // namespace cmnet

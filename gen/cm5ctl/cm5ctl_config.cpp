#include "gen/cm5ctl/cm5ctl_config.h"

#include "gen/core/errors.h"

namespace cmnet {

using nlohmann::json;
using config_fields::get_int;

namespace {

// A list of heap indices: absent = empty; anything but an array of integers is an error.
std::vector<int> int_list(const json& o, const char* key, const std::string& where) {
  std::vector<int> out;
  if (!o.contains(key)) return out;
  const json& a = o.at(key);
  if (!a.is_array())
    throw ConfigError(where + "." + key + " = " + a.dump() + " is not a list of heap indices (e.g. [2, 3])");
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number_integer())
      throw ConfigError(where + "." + key + "[" + std::to_string(i) + "] = " + a[i].dump() + " is not an integer");
    out.push_back(a[i].get<int>());
  }
  return out;
}

}  // namespace

Cm5ctlConfig cm5ctl_config(const NetworkConfig& env) {
  if (env.network != "cm5ctl")
    throw ConfigError(env.where + ": network = \"" + env.network + "\" is not a cm5ctl config");
  Cm5ctlConfig cfg;
  cfg.name = env.name;
  const json& o = env.section;
  const std::string w = env.where + ": cm5ctl";
  config_fields::reject_unknown(o, {"leaves", "word_bits", "up_width", "down_width", "queue_depth",
                                    "aside_depth", "leaf_fifo_depth", "broadcast_window",
                                    "root_queue_depth", "crc_bits", "partitions", "mapped_out", "chip_nodes", "alignment",
                                    "packet", "queue_ram", "send_fifo_depth", "counter_bits"}, w);
  Cm5ctlParams& p = cfg.p;
  p.leaves = get_int(o, "leaves", p.leaves, w);
  p.word_bits = get_int(o, "word_bits", p.word_bits, w);
  p.up_width = get_int(o, "up_width", p.up_width, w);
  p.down_width = get_int(o, "down_width", p.down_width, w);
  p.queue_depth = get_int(o, "queue_depth", p.queue_depth, w);
  p.aside_depth = get_int(o, "aside_depth", p.aside_depth, w);
  p.leaf_fifo_depth = get_int(o, "leaf_fifo_depth", p.leaf_fifo_depth, w);
  p.broadcast_window = get_int(o, "broadcast_window", p.broadcast_window, w);
  p.root_queue_depth = get_int(o, "root_queue_depth", p.root_queue_depth, w);
  p.crc_bits = get_int(o, "crc_bits", p.crc_bits, w);
  p.chip_nodes = get_int(o, "chip_nodes", p.chip_nodes, w);
  p.alignment = get_int(o, "alignment", p.alignment, w);
  p.packet = config_fields::get_string(o, "packet", p.packet, w);
  p.queue_ram = get_int(o, "queue_ram", p.queue_ram, w);
  p.send_fifo_depth = get_int(o, "send_fifo_depth", p.send_fifo_depth, w);
  p.counter_bits = get_int(o, "counter_bits", p.counter_bits, w);
  p.partitions = int_list(o, "partitions", w);
  p.mapped_out = int_list(o, "mapped_out", w);
  validate(p, w);
  return cfg;
}

Cm5ctlConfig parse_cm5ctl_config(const std::string& text, const std::string& where) {
  return cm5ctl_config(parse_config(text, where));
}

std::string config_to_json(const Cm5ctlConfig& cfg) {
  const Cm5ctlParams& p = cfg.p;
  json j = {{"network", "cm5ctl"},
            {"name", cfg.name},
            {"cm5ctl",
             {{"leaves", p.leaves},
              {"word_bits", p.word_bits},
              {"up_width", p.up_width},
              {"down_width", p.down_width},
              {"queue_depth", p.queue_depth},
              {"aside_depth", p.aside_depth},
              {"leaf_fifo_depth", p.leaf_fifo_depth},
              {"broadcast_window", p.broadcast_window},
              {"root_queue_depth", p.root_queue_depth},
              {"crc_bits", p.crc_bits},
              {"partitions", p.partitions},
              {"mapped_out", p.mapped_out},
              {"chip_nodes", p.chip_nodes},
              {"alignment", p.alignment},
              {"packet", p.packet},
              {"queue_ram", p.queue_ram}}}};
  // Written only when set: the configs without it (and their boards' CONFIG_ID) stay as they were.
  if (p.send_fifo_depth) j["cm5ctl"]["send_fifo_depth"] = p.send_fifo_depth;
  if (p.counter_bits != 32) j["cm5ctl"]["counter_bits"] = p.counter_bits;
  return j.dump(2) + "\n";
}

}  // namespace cmnet

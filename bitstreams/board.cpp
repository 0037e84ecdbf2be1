#include "bitstreams/board.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "gen/core/errors.h"
#include "gen/core/text_file.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct DeviceInfo {
  const char* family;
  const char* device;  // prefix match for xc7 parts
  int logic_cells, flip_flops, ram_blocks;
};
// iCE40: LCs and 4-kbit RAM blocks from Lattice's family data sheet. XC7A35T: 20800 LUT6,
// 41600 FFs, 50 RAMB36 (Xilinx DS180).
const DeviceInfo kDevices[] = {
    {"ice40", "lp384", 384, 384, 0},    {"ice40", "lp1k", 1280, 1280, 16},
    {"ice40", "hx1k", 1280, 1280, 16},  {"ice40", "lp4k", 3520, 3520, 20},
    {"ice40", "hx4k", 3520, 3520, 20},  {"ice40", "lp8k", 7680, 7680, 32},
    {"ice40", "hx8k", 7680, 7680, 32},  {"ice40", "up3k", 2800, 2800, 20},
    {"ice40", "up5k", 5280, 5280, 30},  {"ice40", "u4k", 3520, 3520, 20},
    {"xc7", "xc7a35t", 20800, 41600, 50},
};
// User IOs per iCE40 package (data sheet); xc7 csg324: 210.
int package_ios(const std::string& family, const std::string& pkg) {
  static const std::pair<const char*, int> t[] = {{"sg48", 39}, {"ct256", 206}, {"tq144", 96},
                                                  {"vq100", 72}, {"cm81", 63}, {"cb132", 95},
                                                  {"csg324", 210}};
  (void)family;
  for (const auto& [k, v] : t)
    if (pkg == k) return v;
  return 0;
}

class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw ConfigError(where_ + ": field '" + field + "': " + what);
  }
  const json& need(const json& j, const std::string& key, const std::string& path) const {
    if (!j.is_object() || !j.contains(key)) fail(path + key, "missing");
    return j.at(key);
  }
  std::string str(const json& j, const std::string& key, const std::string& path,
                  bool required = true) const {
    if (!j.contains(key) || j.at(key).is_null()) {
      if (required) fail(path + key, "missing");
      return {};
    }
    const json& v = j.at(key);
    if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
    if (!v.is_string()) fail(path + key, "value " + v.dump() + ": must be a string");
    const std::string s = v.get<std::string>();
    if (required && s.empty()) fail(path + key, "must not be empty");
    return s;
  }
  BoardPin pin(const json& j, const std::string& path) const {
    if (!j.is_object()) fail(path, "value " + j.dump() + ": must be an object {\"name\", \"pin\"}");
    check_keys(j, path, {"name", "pin", "active_low", "note", "color"});
    BoardPin p;
    p.name = str(j, "name", path + ".");
    p.pin = str(j, "pin", path + ".");
    p.note = str(j, "note", path + ".", false);
    if (j.contains("color")) p.note = str(j, "color", path + ".", false) + (p.note.empty() ? "" : ", " + p.note);
    if (j.contains("active_low")) {
      if (!j.at("active_low").is_boolean())
        fail(path + ".active_low", "value " + j.at("active_low").dump() + ": must be true or false");
      p.active_low = j.at("active_low").get<bool>();
    }
    return p;
  }
  void check_keys(const json& j, const std::string& path, const std::set<std::string>& allowed) const {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!allowed.count(it.key())) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail((path.empty() ? "" : path + ".") + it.key(), "unknown field (allowed: " + list + ")");
      }
    }
  }

 private:
  std::string where_;
};

}  // namespace

std::vector<BoardPin> Board::cube_pins() const {
  std::vector<BoardPin> out;
  for (const auto& h : cube_headers)
    for (const auto& [name, pins] : headers)
      if (name == h) out.insert(out.end(), pins.begin(), pins.end());
  return out;
}

std::string boards_dir() {
  if (const char* e = std::getenv("CMNET_BOARDS_DIR")) return e;
  return std::string(CMNET_SOURCE_DIR) + "/constraints/boards";
}

std::string constraints_dir() { return fs::path(boards_dir()).parent_path().string(); }

std::vector<std::string> known_boards() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(boards_dir(), ec))
    if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

Board load_board(const std::string& name_or_path) {
  std::string path = name_or_path;
  const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                               (name_or_path.size() > 5 &&
                                name_or_path.substr(name_or_path.size() - 5) == ".json");
  if (!looks_like_path) {
    path = boards_dir() + "/" + name_or_path + ".json";
    if (!fs::exists(path)) {
      std::string list;
      for (const auto& b : known_boards()) list += (list.empty() ? "" : ", ") + b;
      throw ConfigError("unknown board '" + name_or_path + "' (known: " + list +
                        "; or give the path of a board .json file)");
    }
  }
  Board b = parse_board(read_file(path, "board file"), path);
  b.source = path;
  return b;
}

Board parse_board(const std::string& text, const std::string& where) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ConfigError(where + ": not valid JSON: " + e.what());
  }
  Reader r(where);
  if (!j.is_object()) throw ConfigError(where + ": a board file is a JSON object");
  r.check_keys(j, "", {"name", "description", "family", "device", "package", "part", "pin_file",
                       "clock", "reset", "leds", "uart", "ft2232h_fifo", "headers", "cube_headers",
                       "host_link", "openfpgaloader_board", "notes"});
  Board b;
  b.name = r.str(j, "name", "");
  b.description = r.str(j, "description", "", false);
  b.family = r.str(j, "family", "");
  if (b.family != "ice40" && b.family != "xc7")
    r.fail("family", "value '" + b.family + "': must be ice40 or xc7");
  b.device = r.str(j, "device", "");
  b.package = r.str(j, "package", "");
  b.part = r.str(j, "part", "", false);
  b.pin_file = r.str(j, "pin_file", "");
  const DeviceInfo* dev = nullptr;
  for (const auto& d : kDevices)
    if (b.family == d.family &&
        (b.family == "ice40" ? b.device == d.device : b.device.rfind(d.device, 0) == 0))
      dev = &d;
  if (!dev) {
    std::string list;
    for (const auto& d : kDevices)
      if (b.family == d.family) list += (list.empty() ? "" : ", ") + std::string(d.device);
    r.fail("device", "value '" + b.device + "': not a known " + b.family + " device (known: " + list +
                         (b.family == "xc7" ? " followed by package and speed grade" : "") + ")");
  }
  b.logic_cells = dev->logic_cells;
  b.flip_flops = dev->flip_flops;
  b.ram_blocks = dev->ram_blocks;
  b.io_pins = package_ios(b.family, b.package);
  if (b.io_pins == 0) r.fail("package", "value '" + b.package + "': unknown package");

  const json& clk = r.need(j, "clock", "");
  if (!clk.is_object()) r.fail("clock", "must be an object {\"name\", \"pin\", \"mhz\"}");
  r.check_keys(clk, "clock", {"name", "pin", "mhz", "note"});
  b.clock.name = r.str(clk, "name", "clock.");
  b.clock.pin = r.str(clk, "pin", "clock.");
  b.clock.note = r.str(clk, "note", "clock.", false);
  const json& mhz = r.need(clk, "mhz", "clock.");
  if (!mhz.is_number() || mhz.get<double>() <= 0 || mhz.get<double>() > 1000)
    r.fail("clock.mhz", "value " + mhz.dump() + ": must be a number in (0, 1000]");
  b.clock_mhz = mhz.get<double>();

  if (j.contains("reset") && !j.at("reset").is_null()) b.reset = r.pin(j.at("reset"), "reset");
  const json& leds = r.need(j, "leds", "");
  if (!leds.is_array() || leds.empty()) r.fail("leds", "must be a non-empty array of pins");
  for (size_t i = 0; i < leds.size(); ++i) b.leds.push_back(r.pin(leds[i], "leds[" + std::to_string(i) + "]"));

  if (j.contains("uart") && !j.at("uart").is_null()) {
    const json& u = j.at("uart");
    if (!u.is_object()) r.fail("uart", "must be an object {\"rx\", \"tx\", \"bridge\"}");
    r.check_keys(u, "uart", {"rx", "tx", "bridge"});
    b.uart_rx = r.pin(r.need(u, "rx", "uart."), "uart.rx");
    b.uart_tx = r.pin(r.need(u, "tx", "uart."), "uart.tx");
    b.uart_bridge = r.str(u, "bridge", "uart.", false);
  }
  if (j.contains("ft2232h_fifo") && !j.at("ft2232h_fifo").is_null()) {
    const json& f = j.at("ft2232h_fifo");
    if (!f.is_array()) r.fail("ft2232h_fifo", "must be an array of pins or null (not wired)");
    for (size_t i = 0; i < f.size(); ++i)
      b.ft2232h_fifo.push_back(r.pin(f[i], "ft2232h_fifo[" + std::to_string(i) + "]"));
  }
  if (j.contains("headers")) {
    const json& h = j.at("headers");
    if (!h.is_object()) r.fail("headers", "must be an object {\"NAME\": [pins...]}");
    for (auto it = h.begin(); it != h.end(); ++it) {
      if (!it.value().is_array()) r.fail("headers." + it.key(), "must be an array of pins");
      std::vector<BoardPin> pins;
      for (size_t i = 0; i < it.value().size(); ++i)
        pins.push_back(r.pin(it.value()[i], "headers." + it.key() + "[" + std::to_string(i) + "]"));
      b.headers.emplace_back(it.key(), pins);
    }
  }
  if (j.contains("cube_headers")) {
    const json& c = j.at("cube_headers");
    if (!c.is_array()) r.fail("cube_headers", "must be an array of header names");
    for (const auto& x : c) {
      if (!x.is_string()) r.fail("cube_headers", "value " + x.dump() + ": must be a header name");
      const std::string n = x.get<std::string>();
      bool found = false;
      for (const auto& h : b.headers) found = found || h.first == n;
      if (!found) r.fail("cube_headers", "value '" + n + "': no such entry in 'headers'");
      b.cube_headers.push_back(n);
    }
  }
  b.host_link = r.str(j, "host_link", "");
  if (b.host_link != "uart" && b.host_link != "ft2232h-fifo" && b.host_link != "none")
    r.fail("host_link", "value '" + b.host_link + "': must be uart, ft2232h-fifo or none");
  if (b.host_link == "uart" && !b.uart_tx) r.fail("host_link", "is uart but the board has no 'uart'");
  if (b.host_link == "ft2232h-fifo" && b.ft2232h_fifo.empty())
    r.fail("host_link", "is ft2232h-fifo but 'ft2232h_fifo' lists no pins");
  b.openfpgaloader_board = r.str(j, "openfpgaloader_board", "");

  // Every pin appears once.
  std::vector<std::pair<std::string, std::string>> all = {{"clock", b.clock.pin}};
  if (b.reset) all.emplace_back("reset", b.reset->pin);
  for (size_t i = 0; i < b.leds.size(); ++i) all.emplace_back("leds[" + std::to_string(i) + "]", b.leds[i].pin);
  if (b.uart_rx) all.emplace_back("uart.rx", b.uart_rx->pin);
  if (b.uart_tx) all.emplace_back("uart.tx", b.uart_tx->pin);
  for (const auto& [h, pins] : b.headers)
    for (size_t i = 0; i < pins.size(); ++i)
      all.emplace_back("headers." + h + "[" + std::to_string(i) + "]", pins[i].pin);
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (all[i].second == all[k].second)
        r.fail(all[i].first, "pin '" + all[i].second + "' is already used by " + all[k].first);
  return b;
}

namespace {
std::vector<std::pair<std::string, BoardPin>> top_pins(const Board& b, const TopPorts& t) {
  std::vector<std::pair<std::string, BoardPin>> out = {{"clk", b.clock}};
  if (t.reset) {
    if (!b.reset) throw ConfigError("board " + b.name + " has no reset button");
    out.emplace_back("rst_btn", *b.reset);
  }
  if (t.reset_n) {
    if (!b.reset) throw ConfigError("board " + b.name + " has no reset button (the top's btn_n needs one)");
    if (!b.reset->active_low)
      throw ConfigError("board " + b.name + ": the top's btn_n expects an active-low button, " +
                        b.reset->name + " is active high");
    out.emplace_back("btn_n", *b.reset);
  }
  if (t.leds > static_cast<int>(b.leds.size()))
    throw ConfigError("board " + b.name + " has " + std::to_string(b.leds.size()) +
                      " LEDs; the top needs " + std::to_string(t.leds));
  for (int i = 0; i < t.leds; ++i)
    out.emplace_back("led[" + std::to_string(i) + "]", b.leds[static_cast<size_t>(i)]);
  if (t.uart_tx) {
    if (!b.uart_tx) throw ConfigError("board " + b.name + " has no UART");
    out.emplace_back("uart_tx", *b.uart_tx);
  }
  if (t.uart_rx) {
    if (!b.uart_rx) throw ConfigError("board " + b.name + " has no UART");
    out.emplace_back("uart_rx", *b.uart_rx);
  }
  if (t.cube_dims > 0 || t.sync || t.chip_id > 0) {
    const auto pins = b.cube_pins();
    const int need = 2 * t.cube_dims + (t.sync ? 2 : 0) + t.chip_id;
    if (static_cast<int>(pins.size()) < need)
      throw ConfigError("board " + b.name + ": a chip with c = " + std::to_string(t.cube_dims) + " needs " +
                        std::to_string(need) + " header pins (" + std::to_string(2 * t.cube_dims) + " cube-wire pins" +
                        (t.sync ? ", sync_out, sync_in, " + std::to_string(t.chip_id) + " chip_id straps" : "") +
                        "), the cube headers (" + std::to_string(pins.size()) + " pins) are too few");
    size_t k = 0;
    for (int i = 0; i < t.cube_dims; ++i) {
      out.emplace_back("cube_out[" + std::to_string(i) + "]", pins[k++]);
      out.emplace_back("cube_in[" + std::to_string(i) + "]", pins[k++]);
    }
    if (t.sync) {
      out.emplace_back("sync_out", pins[k++]);
      out.emplace_back("sync_in", pins[k++]);
    }
    for (int i = 0; i < t.chip_id; ++i) out.emplace_back("chip_id[" + std::to_string(i) + "]", pins[k++]);
  }
  return out;
}
}  // namespace

std::string make_pcf(const Board& b, const TopPorts& t) {
  std::string s = "# Generated by cmnet for board " + b.name + " (" + b.part + "): the ports of the top only.\n";
  s += "# Full pin file: constraints/" + b.pin_file + "\n";
  for (const auto& [port, p] : top_pins(b, t))
    // Straps read 1 when open: the pin's pull-up.
    s += std::string("set_io ") + (port.rfind("chip_id[", 0) == 0 ? "-pullup yes " : "") + port + " " + p.pin +
         "  # " + p.name + (p.active_low ? " (active low)" : "") + "\n";
  return s;
}

std::string make_xdc(const Board& b, const TopPorts& t) {
  std::string s = "## Generated by cmnet for board " + b.name + " (" + b.part + "): the ports of the top only.\n";
  s += "## Full pin file: constraints/" + b.pin_file + "\n";
  for (const auto& [port, p] : top_pins(b, t))
    s += "set_property -dict { PACKAGE_PIN " + p.pin + " IOSTANDARD LVCMOS33" +
         (port.rfind("chip_id[", 0) == 0 ? " PULLUP TRUE" : "") + " } [get_ports { " + port + " }]; # " + p.name + "\n";
  char period[32];
  std::snprintf(period, sizeof period, "%.3f", 1000.0 / b.clock_mhz);
  s += "create_clock -add -name sys_clk_pin -period " + std::string(period) + " [get_ports { clk }];\n";
  return s;
}

board_parts::SelfTestPins selftest_pins(const Board& b) {
  board_parts::SelfTestPins o;
  o.reset_port = b.reset.has_value();
  o.reset_active_low = b.reset ? b.reset->active_low : true;
  o.led_active_low.clear();
  for (size_t i = 0; i < b.leds.size() && i < 3; ++i) o.led_active_low.push_back(b.leds[i].active_low);
  if (o.led_active_low.size() < 2)
    throw ConfigError("board " + b.name + " has " + std::to_string(b.leds.size()) +
                      " LED(s); the self-test top needs 2 (pass, fail)");
  int bl = 2;
  while (bl < 30 && (1u << bl) < static_cast<uint64_t>(b.clock_mhz * 1e6 / 3)) ++bl;
  o.blink_log2 = bl;
  return o;
}

}  // namespace cmnet

#include "bitstreams/flow.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "gen/core/errors.h"
#include "gen/core/text_file.h"
#include "gen/core/process.h"
#include "gen/core/progress.h"
#include "gen/core/yosys_log.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

// A tool run with a progress line: the elapsed time and the last line the tool logged (yosys
// and nextpnr name their phase there), so a long place-and-route is never silent.
int tool_step(const std::string& what, const std::vector<std::string>& argv, double timeout_s,
              const std::string& log, const std::string& follow = "") {
  Progress progress(what);
  const std::string watched = follow.empty() ? log : follow;
  const int rc = run_child(argv, timeout_s, log, {}, [&](double s) {
    const std::string text = read_file_or_empty(watched);
    std::string last;
    size_t end = text.find_last_not_of("\r\n ");
    if (end != std::string::npos) {
      const size_t begin = text.rfind('\n', end);
      last = text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
      if (last.size() > 70) last = last.substr(0, 67) + "...";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f s", s);
    progress.update(std::string(buf) + (last.empty() ? "" : " | " + last));
  });
  char buf[48];
  std::snprintf(buf, sizeof buf, rc == 0 ? "done in %.1f s" : "FAILED in %.1f s", progress.seconds());
  progress.done(buf);
  // yosys exits 0 on a net driven twice; nextpnr would refuse the netlist later, less clearly.
  if (rc == 0 && !argv.empty() && argv[0] == CMNET_YOSYS) {
    const std::string problems = yosys_netlist_problems(read_file_or_empty(watched));
    if (!problems.empty()) throw FlowError(what + ": the netlist has nets with several drivers (log " + watched + "):\n" + problems);
  }
  return rc;
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw FlowError(path + ": cannot write");
}

std::string tail(const std::string& text, size_t n) {
  if (text.size() <= n) return text;
  const size_t cut = text.find('\n', text.size() - n);
  return "...\n" + text.substr(cut == std::string::npos ? text.size() - n : cut + 1);
}

// Lines of `text` that contain `needle`.
std::string grep(const std::string& text, const std::string& needle, size_t max_lines = 12) {
  std::istringstream in(text);
  std::string line, out;
  size_t n = 0;
  while (std::getline(in, line))
    if (line.find(needle) != std::string::npos && n++ < max_lines) out += line + "\n";
  return out;
}

std::string need_tool(const std::string& name, const std::string& package) {
  const std::string p = find_tool(name);
  if (p.empty())
    throw FlowError(name + " not found in PATH (Debian package: " + package + ")");
  return p;
}

double secs_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string fmt(double x, int prec = 2) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, x);
  return b;
}

// The ports of the top module, from its emitted Verilog: name -> width.
std::vector<std::pair<std::string, int>> top_ports(const GeneratedDesign& d) {
  std::string text;
  for (const auto& [name, t] : d.files)
    if (name == d.top + ".v") text = t;
  if (text.empty()) throw FlowError("the design has no file " + d.top + ".v for its top " + d.top);
  // Line comments may hold any text (a ");" too): drop them first.
  static const std::regex line_comment(R"(//[^\n]*)");
  text = std::regex_replace(text, line_comment, "");
  // Ports that exist only in simulation (`ifdef CMNET_SIMULATED_BOARD ... `endif) are not pins.
  for (size_t k; (k = text.find("`ifdef CMNET_SIMULATED_BOARD")) != std::string::npos;) {
    const size_t e = text.find("`endif", k);
    text.erase(k, e == std::string::npos ? std::string::npos : e + 6 - k);
  }
  const size_t m = text.find("module " + d.top);
  const size_t end = text.find(");", m);
  if (m == std::string::npos || end == std::string::npos)
    throw FlowError(d.top + ".v: cannot find the port list of module " + d.top);
  const std::string header = text.substr(m, end - m);
  static const std::regex port_re(
      R"((input|output|inout)\s+wire\s*(\[\s*(\d+)\s*:\s*0\s*\])?\s*([A-Za-z_][A-Za-z0-9_]*))");
  std::vector<std::pair<std::string, int>> out;
  for (std::sregex_iterator it(header.begin(), header.end(), port_re), e; it != e; ++it) {
    const int width = (*it)[3].matched ? std::stoi((*it)[3].str()) + 1 : 1;
    out.emplace_back((*it)[4].str(), width);
  }
  return out;
}

TopPorts board_ports(const GeneratedDesign& d) {
  TopPorts t;
  bool clk = false;
  for (const auto& [name, width] : top_ports(d)) {
    if (name == "clk") clk = true;
    else if (name == "rst_btn") t.reset = true;
    else if (name == "btn_n") t.reset_n = true;
    else if (name == "led") t.leds = width;
    else if (name == "uart_tx") t.uart_tx = true;
    else if (name == "uart_rx") t.uart_rx = true;
    else if (name == "cube_out" || name == "cube_in") t.cube_dims = width;
    else if (name == "sync_out" || name == "sync_in") t.sync = true;
    else if (name == "chip_id") t.chip_id = width;
    else
      throw FlowError("top " + d.top + ": port '" + name +
                      "' has no board pin (a board top has only clk, rst_btn or btn_n, led, "
                      "uart_tx, uart_rx, cube_out, cube_in, sync_out, sync_in, chip_id; wrap the design first)");
  }
  if (!clk) throw FlowError("top " + d.top + " has no clk port");
  return t;
}

// nextpnr-ice40's resource names for the report's "does not fit" message.
const char* resource_hint(const std::string& r) {
  if (r == "ICESTORM_LC") return "logic cells (LUT4 + flip-flop)";
  if (r == "ICESTORM_RAM") return "4-kbit RAM blocks";
  if (r == "SB_IO") return "I/O pins";
  if (r == "SB_GB") return "global buffers";
  return "";
}

void summarize_cells(FlowResult& r, const std::string& family) {
  r.luts = r.ffs = r.carries = r.ram_blocks = 0;
  for (const auto& [type, n] : r.cells) {
    if (family == "ice40") {
      if (type == "SB_LUT4") r.luts += n;
      else if (type.rfind("SB_DFF", 0) == 0) r.ffs += n;
      else if (type == "SB_CARRY") r.carries += n;
      else if (type.rfind("SB_RAM40", 0) == 0) r.ram_blocks += n;
    } else {
      if (type.rfind("LUT", 0) == 0) r.luts += n;
      else if (type.rfind("FD", 0) == 0) r.ffs += n;
      else if (type == "CARRY4") r.carries += n;
      else if (type.rfind("RAMB", 0) == 0) r.ram_blocks += n;
    }
  }
}

std::string yosys_script(const GeneratedDesign& d, const std::string& rtl, const std::string& synth,
                         const std::string& out_dir) {
  std::string s = "# Generated by cmnet: synthesis of " + d.top + "\n";
  for (const auto& f : d.verilog_files()) s += "read_verilog -DSYNTHESIS " + rtl + "/" + f + "\n";
  s += synth + "\n";
  s += "tee -q -o " + out_dir + "/yosys_stat.json stat -json\n";
  return s;
}

// Flip-flop bits of the design after proc + flatten, before any mapping: a quick lower bound
// on the logic cells (every flip-flop needs one), so that a design far too big for the
// device is rejected in seconds instead of after a long synthesis.
long quick_ff_bits(const GeneratedDesign& d, const std::string& rtl, const std::string& out,
                   double timeout_s) {
  std::string s = "# Generated by cmnet: quick size estimate of " + d.top + "\n";
  for (const auto& f : d.verilog_files()) s += "read_verilog -DSYNTHESIS " + rtl + "/" + f + "\n";
  s += "hierarchy -top " + d.top + "\nproc\nflatten\nopt_clean\n";
  s += "tee -q -o " + out + "/estimate_stat.txt stat -width\n";
  spit(out + "/estimate.ys", s);
  const int rc = tool_step("yosys: flip-flop estimate", {CMNET_YOSYS, "-q", "-l", out + "/estimate.log", "-s", out + "/estimate.ys"},
                           timeout_s, out + "/estimate.out", out + "/estimate.log");
  if (rc != 0)
    throw FlowError("yosys (quick estimate) failed (exit " + std::to_string(rc) + "), log " + out +
                    "/estimate.log:\n" + tail(read_file_or_empty(out + "/estimate.log"), 2000));
  return parse_yosys_ff_bits(read_file_or_empty(out + "/estimate_stat.txt"));
}

void write_reports(const FlowResult& r, const FlowOptions& opt) {
  spit(r.out_dir + "/report.txt", report_text(r));
  spit(r.out_dir + "/report.json", report_json(r, opt));
}

}  // namespace

std::string find_tool(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    const std::string p = dir + "/" + name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

std::map<std::string, long> parse_yosys_stat_json(const std::string& text, const std::string& top) {
  std::map<std::string, long> out;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw FlowError(std::string("yosys stat -json: cannot parse: ") + e.what());
  }
  const nlohmann::json* m = nullptr;
  if (j.contains("modules") && j["modules"].contains("\\" + top)) m = &j["modules"]["\\" + top];
  else if (j.contains("design")) m = &j["design"];
  if (!m || !m->contains("num_cells_by_type"))
    throw FlowError("yosys stat -json: no cell counts for module " + top);
  for (auto it = (*m)["num_cells_by_type"].begin(); it != (*m)["num_cells_by_type"].end(); ++it)
    out[it.key()] = it.value().get<long>();
  return out;
}

std::map<std::string, long> synth_cells(const GeneratedDesign& design, const std::string& top, const std::string& synth,
                                        const std::string& dir, const std::string& before_synth,
                                        const std::vector<std::string>& skip_files) {
  fs::create_directories(dir + "/rtl");
  write_design(design, dir + "/rtl");
  std::string ys;
  for (const auto& f : design.verilog_files())
    if (std::find(skip_files.begin(), skip_files.end(), f) == skip_files.end())
      ys += "read_verilog -DSYNTHESIS " + dir + "/rtl/" + f + "\n";
  if (!before_synth.empty()) ys += before_synth + "\n";
  ys += synth + " -top " + top + "\n";
  ys += "tee -q -o " + dir + "/stat.json stat -json\n";
  spit(dir + "/synth.ys", ys);
  const int rc = tool_step("yosys: " + synth + " of " + top, {CMNET_YOSYS, "-q", "-l", dir + "/yosys.log", "-s", dir + "/synth.ys"},
                           3600, dir + "/yosys.out", dir + "/yosys.log");
  if (rc != 0)
    throw FlowError("yosys " + synth + " of " + top + " failed (exit " + std::to_string(rc) + "), log " + dir +
                    "/yosys.log:\n" + tail(read_file_or_empty(dir + "/yosys.log"), 2000));
  return parse_yosys_stat_json(read_file_or_empty(dir + "/stat.json"), top);
}

std::map<std::string, PartCells> parse_ice40_parts(const std::string& stat_text, const std::string& top,
                                                   const std::vector<std::string>& prefixes) {
  std::istringstream in(stat_text);
  std::string line, mod;
  // Per module (full, parameterized name): its own LUTs and FFs, and the user modules it
  // instantiates.
  std::map<std::string, PartCells> own;
  std::map<std::string, std::vector<std::pair<std::string, long>>> subs;
  // The module's own name: "$paramod\\m\\W=4" and "$paramod$hash\\m" are both "m".
  auto short_name = [](const std::string& n) {
    std::istringstream parts(n);
    for (std::string p; std::getline(parts, p, '\\');)
      if (!p.empty() && p.rfind("$paramod", 0) != 0) return p;
    return n;
  };
  auto user_module = [&](const std::string& type) {
    const std::string s = short_name(type);
    for (const auto& p : prefixes)
      if (s.rfind(p, 0) == 0) return true;
    return false;
  };
  while (std::getline(in, line)) {
    const size_t a = line.find("=== ");
    if (a != std::string::npos) {
      const size_t b = line.find(" ===", a + 4);
      mod = line.substr(a + 4, b - a - 4);
      if (mod == "design hierarchy") break;
      continue;
    }
    std::istringstream ls(line);
    std::string type;
    long n = 0;
    if (!(ls >> type >> n)) continue;
    if (type == "SB_LUT4") own[mod].luts += n;
    else if (type.rfind("SB_DFF", 0) == 0) own[mod].ffs += n;
    else if (user_module(type)) subs[mod].push_back({type, n});
  }
  if (!own.count(top) && !subs.count(top))
    throw FlowError("yosys stat names no module " + top + " (" + std::to_string(own.size()) + " modules seen)");
  std::function<PartCells(const std::string&, int)> total = [&](const std::string& m, int depth) {
    if (depth > 64) throw FlowError("yosys stat: the module hierarchy under " + top + " loops");
    PartCells t = own[m];
    for (const auto& [child, n] : subs[m]) {
      const PartCells c = total(child, depth + 1);
      t.luts += n * c.luts;
      t.ffs += n * c.ffs;
    }
    return t;
  };
  std::map<std::string, PartCells> out;
  out[""] = own[top];
  for (const auto& [child, n] : subs[top]) {
    const PartCells c = total(child, 1);
    PartCells& o = out[short_name(child)];
    o.luts += n * c.luts;
    o.ffs += n * c.ffs;
  }
  return out;
}

std::map<std::string, PartCells> synth_ice40_parts(const GeneratedDesign& design, const std::string& top,
                                                   const std::string& dir, const std::vector<std::string>& prefixes,
                                                   const std::string& before_synth) {
  fs::create_directories(dir + "/rtl");
  write_design(design, dir + "/rtl");
  std::string ys;
  for (const auto& f : design.verilog_files()) ys += "read_verilog -DSYNTHESIS " + dir + "/rtl/" + f + "\n";
  ys += "hierarchy -top " + top + "\n";
  if (!before_synth.empty()) ys += before_synth + "\n";
  ys += "synth_ice40 -noflatten -top " + top + "\ntee -q -o " + dir + "/stat.txt stat\n";
  spit(dir + "/synth.ys", ys);
  const int rc = tool_step("yosys: synth_ice40 -noflatten of " + top,
                           {CMNET_YOSYS, "-q", "-l", dir + "/yosys.log", "-s", dir + "/synth.ys"}, 3600,
                           dir + "/yosys.out", dir + "/yosys.log");
  if (rc != 0)
    throw FlowError("yosys synth_ice40 -noflatten of " + top + " failed (exit " + std::to_string(rc) + "), log " + dir +
                    "/yosys.log:\n" + tail(read_file_or_empty(dir + "/yosys.log"), 2000));
  return parse_ice40_parts(read_file_or_empty(dir + "/stat.txt"), top, prefixes);
}

std::vector<PortBits> parse_yosys_ports(const std::string& json_text, const std::string& top) {
  ojson j;
  try {
    j = ojson::parse(json_text);
  } catch (const std::exception& e) {
    throw FlowError(std::string("yosys write_json: not JSON: ") + e.what());
  }
  if (!j.contains("modules") || !j["modules"].contains(top))
    throw FlowError("yosys write_json: no module " + top);
  const ojson& m = j["modules"][top];
  std::vector<PortBits> out;
  if (!m.contains("ports")) return out;
  for (auto it = m["ports"].begin(); it != m["ports"].end(); ++it) {
    PortBits p;
    p.name = it.key();
    p.direction = it.value().value("direction", "");
    p.width = it.value().contains("bits") ? static_cast<int>(it.value()["bits"].size()) : 0;
    out.push_back(p);
  }
  return out;
}

std::string place_wrapper_verilog(const std::string& top, const std::vector<PortBits>& ports, const std::string& clock) {
  int ni = 0, no = 0;
  bool have_clock = false;
  for (const auto& p : ports) {
    if (p.name == clock) {
      if (p.direction != "input" || p.width != 1) throw FlowError(top + ": clock port " + clock + " is not a 1-bit input");
      have_clock = true;
    } else if (p.direction == "input") {
      ni += p.width;
    } else if (p.direction == "output") {
      no += p.width;
    } else {
      throw FlowError(top + ": port " + p.name + " is " + p.direction + " (only inputs and outputs can be wrapped)");
    }
  }
  if (!have_clock) throw FlowError(top + ": no clock port named " + clock);
  if (no == 0) throw FlowError(top + ": no outputs (placing it would optimise everything away)");
  const std::string NI = std::to_string(ni), NO = std::to_string(no);
  std::string v;
  v += "// Generated by cmnet place_module_ice40 (bitstreams/flow.cpp): " + top + " in a shift-chain wrapper,\n";
  v += "// " + NI + " input bits from a chain fed by chain_in, " + NO +
       " output bits XOR-folded into a chain read at chain_out,\n";
  v += "// so the module can be placed with two data pins and nothing is optimised away.\n";
  v += "module cmnet_place_wrap (\n  input  wire " + clock + ",\n  input  wire chain_in,\n  output wire chain_out\n);\n";
  if (ni > 0) {
    v += "  reg [" + std::to_string(ni - 1) + ":0] in_chain;\n";
    v += "  always @(posedge " + clock + ") in_chain <= " +
         (ni == 1 ? std::string("chain_in") : "{in_chain[" + std::to_string(ni - 2) + ":0], chain_in}") + ";\n";
  }
  v += "  wire [" + std::to_string(no - 1) + ":0] outs;\n";
  v += "  reg  [" + std::to_string(no - 1) + ":0] out_chain;\n";
  v += "  always @(posedge " + clock + ") out_chain <= " +
       (no == 1 ? std::string("outs") : "{out_chain[" + std::to_string(no - 2) + ":0], 1'b0} ^ outs") + ";\n";
  v += "  assign chain_out = out_chain[" + std::to_string(no - 1) + "];\n";
  v += "  " + top + " u_dut (\n";
  int ai = 0, ao = 0;
  std::vector<std::string> conns;
  for (const auto& p : ports) {
    std::string c = "    ." + p.name + "(";
    if (p.name == clock) {
      c += clock;
    } else {
      int& at = p.direction == "input" ? ai : ao;
      const std::string bus = p.direction == "input" ? "in_chain" : "outs";
      c += bus + "[" + std::to_string(at + p.width - 1) + ":" + std::to_string(at) + "]";
      at += p.width;
    }
    conns.push_back(c + ")");
  }
  for (size_t i = 0; i < conns.size(); ++i) v += conns[i] + (i + 1 < conns.size() ? ",\n" : "\n");
  v += "  );\nendmodule\n";
  return v;
}

ModulePlacement place_module_ice40(const GeneratedDesign& design, const std::string& top, const ModulePlaceOptions& opt) {
  if (opt.dir.empty()) throw FlowError("place_module_ice40: no work directory");
  std::error_code ec;
  fs::create_directories(opt.dir + "/rtl", ec);
  if (ec) throw FlowError(opt.dir + ": cannot create: " + ec.message());
  const std::string dir = fs::absolute(opt.dir).lexically_normal().string();
  write_design(design, dir + "/rtl");
  std::string reads;
  for (const auto& f : design.verilog_files())
    if (std::find(opt.skip_files.begin(), opt.skip_files.end(), f) == opt.skip_files.end())
      reads += "read_verilog -DSYNTHESIS " + dir + "/rtl/" + f + "\n";
  const std::string before = opt.before_synth.empty() ? "" : opt.before_synth + "\n";
  auto yosys = [&](const std::string& what, const std::string& script, const std::string& name) {
    spit(dir + "/" + name + ".ys", script);
    const int rc = tool_step("yosys: " + what, {CMNET_YOSYS, "-q", "-l", dir + "/" + name + ".log", "-s", dir + "/" + name + ".ys"},
                             opt.timeout_s, dir + "/" + name + ".out", dir + "/" + name + ".log");
    if (rc != 0)
      throw FlowError("yosys " + what + " failed (exit " + std::to_string(rc) + "), log " + dir + "/" + name +
                      ".log:\n" + tail(read_file_or_empty(dir + "/" + name + ".log"), 2000));
  };

  // The module alone: its cells, its netlist (which gives its ports, parameters applied).
  ModulePlacement r;
  r.top = top;
  yosys("synth_ice40 of " + top,
        reads + before + "synth_ice40 -top " + top +
            " -json " + dir + "/module.json\ntee -q -o " + dir + "/stat.json stat -json\n",
        "module");
  r.cells = parse_yosys_stat_json(read_file_or_empty(dir + "/stat.json"), top);
  r.luts = count_cells(r.cells, "SB_LUT4");
  r.carries = count_cells(r.cells, "SB_CARRY");
  r.ffs = count_cells(r.cells, "SB_DFF");
  r.ram_blocks = count_cells(r.cells, "SB_RAM");
  const std::vector<PortBits> ports = parse_yosys_ports(read_file_or_empty(dir + "/module.json"), top);
  for (const auto& p : ports) {
    if (p.name == opt.clock) continue;
    (p.direction == "input" ? r.in_bits : r.out_bits) += p.width;
  }
  if (!opt.place) return r;

  using Wrap = ModulePlaceOptions::Wrap;
  r.wrapped = opt.wrap == Wrap::Always || (opt.wrap == Wrap::Auto && r.in_bits + r.out_bits > opt.max_pins);
  std::string net = dir + "/module.json";
  if (r.wrapped) {
    spit(dir + "/cmnet_place_wrap.v", place_wrapper_verilog(top, ports, opt.clock));
    net = dir + "/wrapped.json";
    yosys("synth_ice40 of " + top + " in its wrapper",
          reads + "read_verilog " + dir + "/cmnet_place_wrap.v\n" + before + "synth_ice40 -top cmnet_place_wrap -json " +
              net + "\n",
          "wrapped");
    r.wrapper_ffs = r.in_bits + r.out_bits;
  }
  const std::string nextpnr = need_tool("nextpnr-ice40", "nextpnr-ice40");
  const std::vector<int> seeds = opt.seeds.empty() ? std::vector<int>{opt.seed} : opt.seeds;
  for (size_t i = 0; i < seeds.size(); ++i) {
    const std::string log_path =
        dir + "/nextpnr" + (seeds.size() > 1 ? "-seed" + std::to_string(seeds[i]) : std::string()) + ".log";
    const int rc = tool_step("nextpnr-ice40: place and route " + top,
                             {nextpnr, "--" + opt.device, "--package", opt.package, "--json", net, "--freq",
                              fmt(opt.freq_mhz), "--seed", std::to_string(seeds[i]), "--timing-allow-fail"},
                             opt.timeout_s, log_path);
    const std::string log = read_file_or_empty(log_path);
    const auto util = parse_nextpnr_utilisation(log);
    ModulePlacement::SeedRun run;
    run.seed = seeds[i];
    if (util.count("ICESTORM_LC")) {
      run.logic_cells = util.at("ICESTORM_LC").used;
      if (i == 0) r.logic_cells_available = util.at("ICESTORM_LC").available;
    }
    if (i == 0) {
      r.nextpnr_log = log_path;
      r.logic_cells = run.logic_cells;
    }
    if (rc != 0) {
      for (const auto& [res, u] : util)
        if (u.available >= 0 && u.used > u.available) {
          const std::string what = res + " " + std::to_string(u.used) + " used, " + std::to_string(u.available) + " available";
          // Packing decides the fit before any seed matters: no other seed fits either.
          if (opt.no_fit_is_result) {
            r.not_fit = what;
            return r;
          }
          throw DoesNotFit(top + " does not fit the " + opt.device + ": " + what + " (nextpnr log " + log_path + ")", res,
                           u.used, u.available);
        }
      throw FlowError("nextpnr-ice40 of " + top + " failed (exit " + std::to_string(rc) + "), log " + log_path + ":\n" +
                      tail(log, 2000));
    }
    run.fmax_mhz = parse_nextpnr_fmax(log, &run.timing_met);
    run.critical = parse_nextpnr_critical_path(log);
    r.runs.push_back(run);
  }
  r.fmax_mhz = r.runs.front().fmax_mhz;
  r.timing_met = r.runs.front().timing_met;
  r.placed = true;
  return r;
}

long count_cells(const std::map<std::string, long>& cells, const std::string& prefix) {
  long n = 0;
  for (const auto& [type, k] : cells)
    if (type.rfind(prefix, 0) == 0) n += k;
  return n;
}

long parse_yosys_ff_bits(const std::string& stat_width_text) {
  // "     $dff_32                       704": cell type, width, count.
  static const std::regex re(R"(^\s+\$([A-Za-z]*dff[A-Za-z]*)_(\d+)\s+(\d+)\s*$)");
  long bits = 0;
  std::istringstream in(stat_width_text);
  std::string line;
  // Only the last module block (the flattened top) counts.
  while (std::getline(in, line)) {
    if (line.find("=== ") != std::string::npos) bits = 0;
    std::smatch m;
    if (std::regex_search(line, m, re)) bits += std::stol(m[2].str()) * std::stol(m[3].str());
  }
  return bits;
}

double parse_nextpnr_fmax(const std::string& log, bool* pass) {
  static const std::regex re(R"(Max frequency for clock '([^']*)': ([0-9.]+) MHz \((PASS|FAIL) at ([0-9.]+) MHz\))");
  double f = 0;
  for (std::sregex_iterator it(log.begin(), log.end(), re), e; it != e; ++it) {
    f = std::stod((*it)[2].str());
    if (pass) *pass = (*it)[3].str() == "PASS";
  }
  return f;
}

namespace {
// A cell's name without what the mapper appended (yosys's "_SB_LUT4_I0_O_..._LC", "$...").
std::string cell_base(std::string name) {
  for (const char* cut : {"_SB_", "$", "_DFF", "_LC"}) {
    const size_t at = name.find(cut);
    if (at != std::string::npos && at > 0) name.resize(at);
  }
  return name;
}
}  // namespace

CriticalPath parse_nextpnr_critical_path(const std::string& log) {
  CriticalPath best;
  std::istringstream in(log);
  std::string line;
  bool inside = false;
  CriticalPath cur;
  static const std::regex step(R"(^Info:\s+([0-9.]+)\s+([0-9.]+)\s+(Source|Net|Setup)\s+(\S+))");
  static const std::regex sink(R"(^Info:\s+Sink\s+(\S+))");
  while (std::getline(in, line)) {
    if (line.find("Critical path report for clock") != std::string::npos) {
      inside = line.find("posedge -> posedge") != std::string::npos;
      cur = CriticalPath{};
      continue;
    }
    if (!inside) continue;
    std::smatch m;
    if (std::regex_search(line, m, step)) {
      cur.ns = std::stod(m[2].str());
      if (m[3].str() == "Source") {
        if (cur.from.empty()) cur.from = cell_base(m[4].str());
        ++cur.cells;
      }
    } else if (std::regex_search(line, m, sink)) {
      cur.to = cell_base(m[1].str());
    } else if (line.rfind("Info: ", 0) != 0 || line.find("Critical path report") != std::string::npos ||
               line.find("Max frequency") != std::string::npos) {
      inside = false;
    }
    if (cur.ns > 0) best = cur;  // the report so far (the last one of the log wins)
  }
  return best;
}

std::map<std::string, Resource> parse_nextpnr_utilisation(const std::string& log) {
  // "Info:          ICESTORM_LC:  1530/ 7680    19%" after "Device utilisation:" (the
  // last block wins: nextpnr prints it once after packing).
  static const std::regex re(R"(Info:\s+([A-Za-z0-9_]+):\s+(\d+)/\s*(\d+)\s+\d+%)");
  std::map<std::string, Resource> out;
  const size_t at = log.rfind("Device utilisation:");
  if (at == std::string::npos) return out;
  const std::string block = log.substr(at, 4000);
  std::istringstream in(block);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, re)) break;
    out[m[1].str()] = Resource{std::stol(m[2].str()), std::stol(m[3].str())};
  }
  return out;
}

double parse_icetime_fmax(const std::string& text) {
  static const std::regex re(R"(Total path delay: ([0-9.]+) ns \(([0-9.]+) MHz\))");
  std::smatch m;
  double f = 0;
  std::string::const_iterator from = text.begin();
  while (std::regex_search(from, text.end(), m, re)) {
    f = std::stod(m[2].str());
    from = m.suffix().first;
  }
  return f;
}

namespace {

// One run of the flow: what it builds, where, and the report it fills in.
struct FlowRun {
  const GeneratedDesign& design;
  const Board& board;
  const FlowOptions& opt;
  std::string out, rtl, T;
  TopPorts ports;
  std::string yosys;
  FlowResult r;
};

// Output directory cleared of the last run's RTL and reports, the design written, the report's
// header filled in.
FlowRun start_flow(const GeneratedDesign& design, const Board& board, const FlowOptions& opt) {
  if (opt.out_dir.empty()) throw FlowError("flow: no output directory");
  std::error_code ec;
  fs::create_directories(opt.out_dir, ec);
  if (ec) throw FlowError(opt.out_dir + ": cannot create output directory: " + ec.message());
  const std::string out = fs::absolute(opt.out_dir).lexically_normal().string();
  const std::string rtl = out + "/rtl";
  fs::remove_all(rtl, ec);
  write_design(design, rtl);
  FlowRun f{design, board, opt, out, rtl, design.top, board_ports(design), CMNET_YOSYS, {}};
  FlowResult& r = f.r;
  r.board = board.name;
  r.board_file = board.source;
  r.part = board.part;
  r.family = board.family;
  r.top = f.T;
  r.mode = opt.mode;
  r.out_dir = out;
  r.target_mhz = opt.freq_mhz > 0 ? opt.freq_mhz : board.clock_mhz;
  for (const char* old : {"report.txt", "report.json"}) fs::remove(out + "/" + old, ec);
  return f;
}

// --quick-estimate: refuse a design whose flip-flops alone do not fit, before synthesis.
void check_ff_estimate(FlowRun& f) {
  const Board& board = f.board;
  FlowResult& r = f.r;
  auto t0 = std::chrono::steady_clock::now();
  const long ff = quick_ff_bits(f.design, f.rtl, f.out, f.opt.timeout_s);
  r.seconds["estimate"] = secs_since(t0);
  r.ff_bits_estimate = ff;
  if (ff > board.flip_flops) {
    const std::string res = board.family == "ice40" ? "ICESTORM_LC" : "FF";
    r.fits = false;
    r.utilisation[res] = {ff, board.flip_flops};
    write_reports(r, f.opt);
    throw DoesNotFit("design does not fit " + board.part + ": " + res +
                         (board.family == "ice40" ? " (logic cells: one per flip-flop)" : " (flip-flops)") +
                         ": the design has " + std::to_string(ff) +
                         " flip-flop bits before mapping (yosys estimate), " +
                         std::to_string(board.flip_flops) + " available",
                     res, ff, board.flip_flops);
  }
}

// yosys on OUT/synth.ys (its `pass`), timed; a failure thrown with the log's tail; then the
// design's cells for `family`.
void run_synth(FlowRun& f, const std::string& pass, const std::string& family) {
  const std::string& out = f.out;
  auto t0 = std::chrono::steady_clock::now();
  const int rc = tool_step("yosys: synthesis", {f.yosys, "-q", "-l", out + "/yosys.log", "-s", out + "/synth.ys"},
                           f.opt.timeout_s, out + "/yosys.out", out + "/yosys.log");
  f.r.seconds["yosys"] = secs_since(t0);
  if (rc != 0)
    throw FlowError("yosys " + pass + " failed (exit " + std::to_string(rc) + "), log " + out +
                    "/yosys.log:\n" + tail(read_file_or_empty(out + "/yosys.log"), 2000));
  f.r.cells = parse_yosys_stat_json(read_file_or_empty(out + "/yosys_stat.json"), f.T);
  summarize_cells(f.r, family);
}

// xc7: yosys synth_xilinx only, an estimate of the LUTs and flip-flops.
void xc7_estimate(FlowRun& f) {
  const Board& board = f.board;
  const std::string& out = f.out;
  FlowResult& r = f.r;
  r.estimate_only = true;
  spit(out + "/" + f.T + ".xdc", make_xdc(board, f.ports));
  spit(out + "/synth.ys", yosys_script(f.design, f.rtl, "synth_xilinx -flatten -family xc7 -top " + f.T, out));
  run_synth(f, "synth_xilinx", "xc7");
  r.utilisation["LUT"] = {r.luts, board.logic_cells};
  r.utilisation["FF"] = {r.ffs, board.flip_flops};
  r.fits = r.luts <= board.logic_cells && r.ffs <= board.flip_flops;
  write_reports(r, f.opt);
  if (!r.fits) {
    const bool lut = r.luts > board.logic_cells;
    throw DoesNotFit("design does not fit " + board.part + " (yosys estimate): " +
                         (lut ? "LUT " + std::to_string(r.luts) + " used, " +
                                    std::to_string(board.logic_cells) + " available"
                              : "FF " + std::to_string(r.ffs) + " used, " +
                                    std::to_string(board.flip_flops) + " available"),
                     lut ? "LUT" : "FF", lut ? r.luts : r.ffs,
                     lut ? board.logic_cells : board.flip_flops);
  }
}

// iCE40 synthesis: synth_ice40 to T.json, the cell counts.
void ice40_synth(FlowRun& f, const std::string& pcf) {
  const std::string& out = f.out;
  spit(pcf, make_pcf(f.board, f.ports));
  spit(out + "/synth.ys",
       yosys_script(f.design, f.rtl, "synth_ice40 -top " + f.T + " -json " + out + "/" + f.T + ".json", out));
  run_synth(f, "synth_ice40", "ice40");
}

// nextpnr-ice40 failed (exit rc): a resource over its count is DoesNotFit; a placement that only
// missed timing goes on; anything else is a FlowError with the log's errors.
void nextpnr_failed(FlowRun& f, int rc, const std::string& log, const std::string& asc, bool pass) {
  const std::string& out = f.out;
  FlowResult& r = f.r;
  // Over-utilisation: name the resource.
  for (const auto& [res, u] : r.utilisation) {
    if (u.available >= 0 && u.used > u.available) {
      r.fits = false;
      write_reports(r, f.opt);
      const std::string hint = resource_hint(res);
      throw DoesNotFit("design does not fit " + f.board.part + ": " + res +
                           (hint.empty() ? "" : " (" + hint + ")") + " " + std::to_string(u.used) +
                           " used, " + std::to_string(u.available) + " available (nextpnr log " +
                           out + "/nextpnr.log)",
                       res, u.used, u.available);
    }
  }
  const bool timing_fail = r.fmax_nextpnr > 0 && !pass && fs::exists(asc);
  if (timing_fail) return;
  const std::string errors = grep(log, "ERROR");
  std::string why;
  if (log.find("combinatorial loops") != std::string::npos) {
    const std::string ylog = read_file_or_empty(out + "/yosys.log");
    const std::string loops = grep(ylog, "found logic loop", 3) + grep(ylog, "Breaking loop", 4);
    if (!loops.empty()) why = "yosys found combinational loops in the design (yosys.log):\n" + loops;
  }
  throw FlowError("nextpnr-ice40 failed (exit " + std::to_string(rc) + "), log " + out +
                  "/nextpnr.log:\n" + (errors.empty() ? tail(log, 2000) : errors) + why);
}

// iCE40 place and route to `asc`: utilisation, Fmax, whether timing is met.
void ice40_place(FlowRun& f, const std::string& nextpnr, const std::string& pcf, const std::string& asc) {
  const Board& board = f.board;
  const std::string& out = f.out;
  FlowResult& r = f.r;
  std::error_code ec;
  fs::remove(asc, ec);
  fs::remove(out + "/" + f.T + ".bin", ec);
  std::vector<std::string> cmd = {nextpnr, "--" + board.device, "--package", board.package,
                                  "--json", out + "/" + f.T + ".json", "--pcf", pcf, "--asc", asc,
                                  "--freq", fmt(r.target_mhz), "--seed", std::to_string(f.opt.seed),
                                  "--report", out + "/nextpnr_report.json"};
  if (f.opt.ignore_loops) cmd.push_back("--ignore-loops");
  auto t0 = std::chrono::steady_clock::now();
  const int rc = tool_step("nextpnr-ice40: place and route", cmd, f.opt.timeout_s, out + "/nextpnr.log");
  r.seconds["nextpnr"] = secs_since(t0);
  const std::string log = read_file_or_empty(out + "/nextpnr.log");
  r.utilisation = parse_nextpnr_utilisation(log);
  bool pass = false;
  r.fmax_nextpnr = parse_nextpnr_fmax(log, &pass);
  r.critical_path = parse_nextpnr_critical_path(log);
  if (rc != 0) nextpnr_failed(f, rc, log, asc, pass);
  r.fits = true;
  r.timing_met = rc == 0 && pass;
}

// iCE40 bitstream (icepack), then (FlowOptions::run_icetime) icetime's Fmax.
void ice40_pack_and_time(FlowRun& f, const std::string& icepack, const std::string& pcf, const std::string& asc) {
  const Board& board = f.board;
  const std::string& out = f.out;
  FlowResult& r = f.r;
  auto t0 = std::chrono::steady_clock::now();
  int rc = tool_step("icepack", {icepack, asc, out + "/" + f.T + ".bin"}, f.opt.timeout_s, out + "/icepack.log");
  r.seconds["icepack"] = secs_since(t0);
  if (rc != 0)
    throw FlowError("icepack failed (exit " + std::to_string(rc) + "):\n" + read_file_or_empty(out + "/icepack.log"));
  r.bitstream = out + "/" + f.T + ".bin";
  if (!f.opt.run_icetime) return;
  const std::string icetime = need_tool("icetime", "fpga-icestorm");
  t0 = std::chrono::steady_clock::now();
  rc = tool_step("icetime: timing", {icetime, "-d", board.device, "-P", board.package, "-p", pcf, "-t", "-r",
                  out + "/icetime.txt", asc},
                 f.opt.timeout_s, out + "/icetime.log");
  r.seconds["icetime"] = secs_since(t0);
  if (rc != 0)
    throw FlowError("icetime failed (exit " + std::to_string(rc) + "):\n" +
                    tail(read_file_or_empty(out + "/icetime.log"), 2000));
  r.fmax_icetime = parse_icetime_fmax(read_file_or_empty(out + "/icetime.txt"));
}

}  // namespace

FlowResult run_flow(const GeneratedDesign& design, const Board& board, const FlowOptions& opt) {
  FlowRun f = start_flow(design, board, opt);
  if (opt.quick_estimate) check_ff_estimate(f);
  if (board.family == "xc7") {
    xc7_estimate(f);
    return f.r;
  }
  // iCE40: synthesis, place and route, pack, timing.
  const std::string nextpnr = need_tool("nextpnr-ice40", "nextpnr-ice40");
  const std::string icepack = need_tool("icepack", "fpga-icestorm");
  const std::string pcf = f.out + "/" + f.T + ".pcf";
  const std::string asc = f.out + "/" + f.T + ".asc";
  ice40_synth(f, pcf);
  ice40_place(f, nextpnr, pcf, asc);
  ice40_pack_and_time(f, icepack, pcf, asc);
  write_reports(f.r, opt);
  return f.r;
}

std::string report_text(const FlowResult& r) {
  std::string s;
  s += "cmnet FPGA build report\n";
  s += "board:   " + r.board + " (" + r.part + ", " + r.family + ")\n";
  s += "top:     " + r.top + (r.mode.empty() ? "" : " (" + r.mode + " mode)") + "\n";
  if (r.estimate_only) {
    s += "flow:    yosys synth_xilinx -flatten -family xc7: SYNTHESIS ESTIMATE ONLY (no place and route, no\n"
         "         Fmax; Vivado is not available here: bitstreams/vivado/build_arty.tcl builds it)\n";
  } else {
    s += "flow:    yosys synth_ice40 -> nextpnr-ice40 -> icepack -> icetime\n";
  }
  s += "fits:    " + std::string(r.fits ? "yes" : "NO") + "\n";
  s += "cells:   " + std::to_string(r.luts) + " LUTs, " + std::to_string(r.ffs) + " FFs, " +
       std::to_string(r.carries) + " carry, " + std::to_string(r.ram_blocks) + " RAM blocks (yosys)\n";
  for (const auto& [k, u] : r.utilisation) {
    s += "  " + k + ": " + std::to_string(u.used) + " / " + std::to_string(u.available);
    if (u.available > 0) s += " (" + fmt(100.0 * static_cast<double>(u.used) / static_cast<double>(u.available), 1) + "%)";
    s += "\n";
  }
  if (!r.estimate_only) {
    s += "timing:  target " + fmt(r.target_mhz) + " MHz; Fmax " + fmt(r.fmax_nextpnr) +
         " MHz (nextpnr)";
    if (r.fmax_icetime > 0) s += ", " + fmt(r.fmax_icetime) + " MHz (icetime)";
    s += std::string(r.timing_met ? " -- met" : " -- NOT MET") + "\n";
    if (!r.bitstream.empty()) s += "bitstream: " + r.bitstream + "\n";
  }
  for (const auto& [k, v] : r.seconds) s += "time " + k + ": " + fmt(v, 1) + " s\n";
  return s;
}

std::string report_json(const FlowResult& r, const FlowOptions& opt) {
  ojson j;
  j["board"] = r.board;
  j["board_file"] = r.board_file;
  j["part"] = r.part;
  j["family"] = r.family;
  j["top"] = r.top;
  j["mode"] = r.mode;
  j["flow"] = r.estimate_only ? "yosys synth_xilinx -family xc7 (synthesis estimate only; no place and route)"
                              : "yosys synth_ice40, nextpnr-ice40, icepack, icetime";
  j["estimate_only"] = r.estimate_only;
  j["fits"] = r.fits;
  j["cells"] = {{"luts", r.luts}, {"ffs", r.ffs}, {"carry", r.carries}, {"ram_blocks", r.ram_blocks}};
  ojson by_type = ojson::object();
  for (const auto& [k, v] : r.cells) by_type[k] = v;
  j["cells_by_type"] = by_type;
  ojson util = ojson::object();
  for (const auto& [k, u] : r.utilisation) util[k] = {{"used", u.used}, {"available", u.available}};
  j["utilisation"] = util;
  if (!r.estimate_only) {
    j["timing"] = {{"target_mhz", r.target_mhz},
                   {"fmax_nextpnr_mhz", r.fmax_nextpnr},
                   {"fmax_icetime_mhz", r.fmax_icetime},
                   {"met", r.timing_met}};
    j["bitstream"] = r.bitstream.empty() ? "" : fs::path(r.bitstream).filename().string();
  }
  j["seed"] = opt.seed;
  if (!opt.config_json.empty()) {
    try {
      j["config"] = ojson::parse(opt.config_json);
    } catch (const std::exception&) {
    }
  }
  ojson secs = ojson::object();
  for (const auto& [k, v] : r.seconds) secs[k] = std::round(v * 10) / 10;
  j["seconds"] = secs;
  return j.dump(2) + "\n";
}

FlowResult read_report(const std::string& dir) {
  const std::string path = dir + "/report.json";
  std::ifstream in(path);
  if (!in) throw InputError(path + ": no build report (run `cmnet build ... -o " + dir + "` first)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw InputError(path + ": cannot parse: " + e.what());
  }
  FlowResult r;
  r.board = j.value("board", "");
  r.board_file = j.value("board_file", "");
  r.part = j.value("part", "");
  r.family = j.value("family", "");
  r.top = j.value("top", "");
  r.mode = j.value("mode", "");
  r.fits = j.value("fits", false);
  r.estimate_only = j.value("estimate_only", false);
  if (j.contains("bitstream") && !j["bitstream"].get<std::string>().empty())
    r.bitstream = dir + "/" + j["bitstream"].get<std::string>();
  if (j.contains("timing")) {
    r.fmax_nextpnr = j["timing"].value("fmax_nextpnr_mhz", 0.0);
    r.fmax_icetime = j["timing"].value("fmax_icetime_mhz", 0.0);
    r.target_mhz = j["timing"].value("target_mhz", 0.0);
    r.timing_met = j["timing"].value("met", false);
  }
  if (j.contains("cells")) {
    r.luts = j["cells"].value("luts", 0L);
    r.ffs = j["cells"].value("ffs", 0L);
    r.carries = j["cells"].value("carry", 0L);
    r.ram_blocks = j["cells"].value("ram_blocks", 0L);
  }
  r.out_dir = dir;
  return r;
}

}  // namespace cmnet

#include "gen/hcube/hcube_emitter.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/core/errors.h"
#include "gen/core/hypercube_topology.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {

// A range even for one bit, so that per-channel slices [d] of the network's vectors stay legal.
std::string range(int width) { return "[" + S(width - 1) + ":0] "; }

// The incoming dimensions of `node` in the order of their senders' node numbers (the model's
// order of starts), packed for the ORDER parameter, first in the low bits.
std::string order_param(const HcubeParams& p, int node, int db) {
  std::vector<int> dims(static_cast<size_t>(p.dims));
  for (int d = 0; d < p.dims; ++d) dims[static_cast<size_t>(d)] = d;
  std::sort(dims.begin(), dims.end(), [&](int a, int b) { return (node ^ (1 << a)) < (node ^ (1 << b)); });
  uint64_t v = 0;
  for (int i = 0; i < p.dims; ++i) v |= static_cast<uint64_t>(dims[static_cast<size_t>(i)]) << (i * db);
  return S(p.dims * db) + "'d" + S(static_cast<long long>(v));
}

std::vector<std::pair<std::string, std::string>> node_params(const HcubeParams& p, const HcubeWidths& w, int node) {
  if (!p.packet())
    return {{"N", S(p.dims)},   {"NODE", S(node)}, {"A", S(p.arb_ticks)}, {"T", S(p.ticks_per_byte)},
            {"DB", S(w.db)},    {"TW", S(w.tw)},   {"KW", S(w.worm_kw)},  {"CSW", S(w.csw)},
            {"CW", S(w.cw)}};
  return {{"N", S(p.dims)},
          {"NODE", S(node)},
          {"B", S(p.buffers)},
          {"P", S(p.packet_bytes)},
          {"A", S(p.arb_ticks)},
          {"T", S(p.ticks_per_byte)},
          {"QUASI", p.quasi() ? "1" : "0"},
          {"RULE", "1"},
          {"DB", S(w.db)},
          {"SB", S(w.sb)},
          {"QB", S(w.qb)},
          {"WL", S(w.wl)},
          {"TW", S(w.tw)},
          {"KW", S(w.kw)},
          {"CSW", S(w.csw)},
          {"CW", S(w.cw)},
          {"ORDER", order_param(p, node, w.db)}};
}

std::vector<std::pair<std::string, std::string>> header_params(const HcubeParams& p) {
  if (!p.packet())
    return {{"dims n", S(p.dims)},
            {"nodes", S(p.nodes())},
            {"scheme", p.scheme + " (e-cube, one message per channel, one-byte flit buffers)"},
            {"ticks_per_byte", S(p.ticks_per_byte)},
            {"arb_ticks", S(p.arb_ticks)}};
  return {{"dims n", S(p.dims)},
          {"nodes", S(p.nodes())},
          {"scheme", p.scheme},
          {"routing", p.routing},
          {"packet_bytes", S(p.packet_bytes)},
          {"buffers per output port", S(p.buffers)},
          {"ticks_per_byte", S(p.ticks_per_byte)},
          {"arb_ticks", S(p.arb_ticks)},
          {"deadlock rule", "at most buffers - 1 contrary packets per port"}};
}

// What differs between the two networks: the node module, its parameters, its channel signals
// (forward: a node's outgoing d to its neighbour's incoming d; back: the neighbour's answer) and
// the host's ports (per node, sliced from the network's vectors).
struct NetShape {
  std::string module, title;
  std::vector<std::pair<std::string, int>> o_sig, back_sig;         // per node widths
  std::vector<std::pair<std::string, int>> host_in, host_out;       // per node widths
};

NetShape packet_shape(const HcubeParams& p, const HcubeWidths& w) {
  const int n = p.dims, B = p.buffers, P = p.packet_bytes;
  NetShape s;
  s.module = "hcube_pkt_node";
  s.title = "packet-scheme chips";
  s.o_sig = {{"o_hdr", n}, {"o_bvalid", n}, {"o_end", n}, {"o_byte", n * 8}, {"o_k", n * w.wl},
             {"o_w", n * w.wl}, {"o_first", n}, {"o_dst", n * n}, {"o_free", n}, {"o_qlen", n * w.qb},
             {"o_qnd", n * B * w.db}};
  s.back_sig = {{"grant", n}, {"gidx", n * w.sb}};
  s.host_in = {{"src_valid", 1}, {"src_dst", n},      {"src_tag", w.tw},     {"src_npk", w.kw},
               {"src_pkt", P * 8}, {"src_w", w.wl}, {"fd_pkt", n * P * 8}, {"fd_w", n * w.wl}};
  s.host_out = {{"src_take", 1}, {"fd_active", n}, {"fd_tag", n * w.tw}, {"fd_k", n * w.kw},
                {"ej_bvalid", n}, {"ej_end", n},    {"ej_byte", n * 8}};
  return s;
}

NetShape worm_shape(const HcubeParams& p, const HcubeWidths& w) {
  const int n = p.dims;
  NetShape s;
  s.module = "hcube_worm_node";
  s.title = "wormhole routers";
  s.o_sig = {{"o_hdr", n}, {"o_dst", n * n}, {"o_tag", n * w.tw}, {"o_dend", n}, {"o_byte", n * 8}, {"o_dlast", n}};
  s.back_sig = {{"acc", n}};
  s.host_in = {{"src_valid", 1}, {"src_dst", n}, {"src_tag", w.tw}, {"fd_byte", n * 8}, {"fd_last", n}};
  s.host_out = {{"src_take", 1}, {"fd_active", n}, {"fd_tag", n * w.tw}, {"fd_idx", n * w.worm_kw},
                {"ej_hdr", n},   {"ej_bvalid", n}, {"ej_byte", n * 8},  {"ej_last", n}};
  return s;
}

std::string emit_network(const HcubeParams& p, const HcubeWidths& w) {
  const int n = p.dims, NN = p.nodes();
  const NetShape sh = p.packet() ? packet_shape(p, w) : worm_shape(p, w);
  VerilogWriter v;
  v.header("hcube_network: a binary " + S(n) + "-cube of " + sh.title + " (seed-004 paper)", header_params(p));
  v.open("module hcube_network (");
  std::vector<std::pair<std::string, int>> in_ports, out_ports;
  for (const auto& [name, width] : sh.host_in) in_ports.push_back({name, NN * width});
  in_ports.push_back({"cnt_node", std::max(1, w.nodew)});
  in_ports.push_back({"cnt_sel", w.csw});
  for (const auto& [name, width] : sh.host_out) out_ports.push_back({name, NN * width});
  out_ports.push_back({"cnt_value", 32});
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire en,     // clock enable of every router register (1: every cycle is a tick)");
  v.line("input  wire clear,");
  for (const auto& [name, width] : in_ports) v.line("input  wire " + range(width) + name + ",");
  for (size_t i = 0; i < out_ports.size(); ++i)
    v.line(std::string(out_ports[i].first == "cnt_value" ? "output reg  " : "output wire ") + range(out_ports[i].second) +
           out_ports[i].first + (i + 1 < out_ports.size() ? "," : ""));
  v.end_ports();
  // Channel signals of every node, as its ports name them.
  for (int x = 0; x < NN; ++x) {
    const std::string px = "n" + S(x) + "_";
    for (const auto& [s, width] : sh.o_sig) {
      v.line("wire " + range(width) + px + s + ";");
      v.line("wire " + range(width) + px + "i" + s.substr(1) + ";");
    }
    // The wormhole's flow control is combinational along a worm (a node's acceptance depends on
    // the next node's, in increasing dimensions, so bit by bit it has no loop); Verilator sees the
    // node vectors, which do form one, and would only warn that it iterates them to settle.
    if (!p.packet()) v.line("// verilator lint_off UNOPTFLAT");
    for (const auto& [s, width] : sh.back_sig) {
      v.line("wire " + range(width) + px + "o_" + s + ";");
      v.line("wire " + range(width) + px + "i_" + s + ";");
    }
    if (!p.packet()) v.line("// verilator lint_on UNOPTFLAT");
    v.line("wire [31:0] " + px + "cnt;");
  }
  v.line();
  // Channel (x, d) to y = x ^ 2^d: x's outgoing d is y's incoming d; y's answer goes back to x.
  const HypercubeTopology topo(n);
  for (const HypercubeLink& l : topo.links()) {
    v.comment("channel " + l.name() + ": node " + S(l.from) + " -> node " + S(l.to));
    const std::string px = "n" + S(l.from) + "_", py = "n" + S(l.to) + "_";
    for (const auto& [s, width] : sh.o_sig) {
      const int per = width / n;
      const std::string sl = per == 1 ? "[" + S(l.dim) + "]" : "[" + S(l.dim * per) + " +: " + S(per) + "]";
      v.line("assign " + py + "i" + s.substr(1) + sl + " = " + px + s + sl + ";");
    }
    for (const auto& [s, width] : sh.back_sig) {
      const int per = width / n;
      const std::string sl = per == 1 ? "[" + S(l.dim) + "]" : "[" + S(l.dim * per) + " +: " + S(per) + "]";
      v.line("assign " + px + "o_" + s + sl + " = " + py + "i_" + s + sl + ";");
    }
  }
  v.line();
  for (int x = 0; x < NN; ++x) {
    const std::string px = "n" + S(x) + "_";
    auto slice = [&](const std::string& name, int per) {
      return name + "[" + S(x * per) + " +: " + S(per) + "]";
    };
    std::vector<std::pair<std::string, std::string>> ports = {{"clk", "clk"}, {"rst", "rst"}, {"en", "en"}};
    for (const auto& [s, width] : sh.o_sig) ports.push_back({s, px + s});
    for (const auto& [s, width] : sh.back_sig) ports.push_back({"o_" + s, px + "o_" + s});
    for (const auto& [s, width] : sh.o_sig) ports.push_back({"i" + s.substr(1), px + "i" + s.substr(1)});
    for (const auto& [s, width] : sh.back_sig) ports.push_back({"i_" + s, px + "i_" + s});
    // Host ports in the node's order: ejection, the source's inputs and take, the feeders.
    auto host = [&](const std::vector<std::pair<std::string, int>>& list, const std::string& prefix) {
      for (const auto& [s, width] : list)
        if (s.rfind(prefix, 0) == 0) ports.push_back({s, slice(s, width)});
    };
    host(sh.host_out, "ej_");
    host(sh.host_in, "src_");
    host(sh.host_out, "src_");
    host(sh.host_out, "fd_");
    host(sh.host_in, "fd_");
    ports.push_back({"clear", "clear"});
    ports.push_back({"cnt_sel", "cnt_sel"});
    ports.push_back({"cnt_value", px + "cnt"});
    v.instance(sh.module, "u_node" + S(x), node_params(p, w, x), ports);
  }
  v.line();
  v.comment("the host reads one node's counters at a time");
  v.open("always @* begin");
  v.line("cnt_value = 32'd0;");
  v.open("case (cnt_node)");
  for (int x = 0; x < NN; ++x) v.line(S(std::max(1, w.nodew)) + "'d" + S(x) + ": cnt_value = n" + S(x) + "_cnt;");
  v.line("default: cnt_value = 32'd0;");
  v.close("endcase");
  v.close("end");
  v.end_module();
  return v.text();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> hcube_node_params(const HcubeParams& p, int node) {
  return node_params(p, hcube_widths(p), node);
}

HcubeWidths hcube_widths(const HcubeParams& p) {
  HcubeWidths w;
  w.db = std::max(1, clog2(static_cast<uint64_t>(p.dims) + 1));
  w.sb = std::max(1, clog2(static_cast<uint64_t>(p.buffers)));
  w.qb = std::max(1, clog2(static_cast<uint64_t>(p.buffers) + 1));
  w.wl = std::max(1, clog2(static_cast<uint64_t>(p.packet_bytes) + 1));
  w.csw = std::max(1, clog2(4ull * static_cast<uint64_t>(p.dims)));
  w.nodew = clog2(static_cast<uint64_t>(p.nodes()));
  // A worm's byte index: 10 header bytes + the longest message the 4-byte length field allows
  // the traffic allows (2^24 bytes) fits 25 bits.
  w.worm_kw = 25;
  w.cw = std::max(16, clog2(static_cast<uint64_t>(p.arb_ticks + p.ticks_per_byte * p.packet_bytes) + 2) + 1);
  return w;
}

std::string hcube_node_module(const HcubeParams& p) { return p.packet() ? "hcube_pkt_node" : "hcube_worm_node"; }

GeneratedDesign emit_hcube_node(const HcubeParams& p) {
  validate(p, "config");
  const HcubeWidths w = hcube_widths(p);
  GeneratedDesign d;
  d.top = hcube_node_module(p);
  d.files.emplace_back("cmnet_counter_bank.v", read_hw_file("cmnet_counter_bank.v"));
  d.files.emplace_back("hcube_port_counters.v", read_hw_file("hcube_port_counters.v"));
  d.files.emplace_back("hcube_link_tx.v", read_hw_file("hcube_link_tx.v"));
  d.files.emplace_back(d.top + ".v", read_hw_file(d.top + ".v"));
  (void)w;
  d.files.emplace_back("filelist.f", filelist(d));
  return d;
}

std::string hcube_manifest_json(const HcubeConfig& cfg) { return hcube_manifest_json(cfg, hcube_widths(cfg.hc)); }

std::string hcube_manifest_json(const HcubeConfig& cfg, const HcubeWidths& w) {
  const HcubeParams& p = cfg.hc;
  nlohmann::ordered_json j;
  j["generator"] = "cmnet";
  j["family"] = "hcube";
  j["top"] = "hcube_network";
  j["params"] = nlohmann::ordered_json::parse(config_to_json(cfg))["hcube"];
  j["derived"] = {{"nodes", p.nodes()},
                  {"channels", p.links()},
                  {"packet_data_bytes", p.data_bytes()},
                  {"first_packet_data_bytes", p.first_data_bytes()},
                  {"buffer_bytes_per_port", p.buffers * p.packet_bytes}};
  j["widths"] = {{"db", w.db}, {"sb", w.sb}, {"qb", w.qb}, {"wl", w.wl}, {"tw", w.tw}, {"kw", w.kw}, {"csw", w.csw}};
  j["counters"] = {{"select", "port * 4 + kind"}, {"kinds", {"packets", "messages", "bytes", "blocked_cycles"}}};
  return j.dump(2) + "\n";
}

GeneratedDesign emit_hcube(const HcubeConfig& cfg) { return emit_hcube(cfg, hcube_widths(cfg.hc)); }

GeneratedDesign emit_hcube(const HcubeConfig& cfg, const HcubeWidths& w) {
  const HcubeParams& p = cfg.hc;
  validate(p, "config");
  if (p.dims < 2 || p.dims > kHcubeMaxEmitDims)
    throw ConfigError("config: hcube: dims = " + S(p.dims) + ": the whole-network Verilog is emitted for dims 2.." +
                      S(kHcubeMaxEmitDims) + "; other cubes run on the reference model");
  if (p.packet() && p.buffers < 2)
    throw ConfigError("config: hcube: buffers = " + S(p.buffers) + ": the RTL has at least 2 buffers per port");
  GeneratedDesign d;
  d.top = "hcube_network";
  d.files.emplace_back("cmnet_counter_bank.v", read_hw_file("cmnet_counter_bank.v"));
  d.files.emplace_back("hcube_port_counters.v", read_hw_file("hcube_port_counters.v"));
  d.files.emplace_back("hcube_link_tx.v", read_hw_file("hcube_link_tx.v"));
  d.files.emplace_back(hcube_node_module(p) + ".v", read_hw_file(hcube_node_module(p) + ".v"));
  d.files.emplace_back("hcube_network.v", emit_network(p, w));
  d.files.emplace_back("filelist.f", filelist(d));
  d.files.emplace_back("manifest.json", hcube_manifest_json(cfg, w));
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

}  // namespace cmnet

#include "gen/hcube/hcube_emitter.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/core/errors.h"
#include "gen/core/hypercube_topology.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {

std::string S(long long v) { return std::to_string(v); }
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

std::string emit_network(const HcubeParams& p) {
  const HcubeWidths w = hcube_widths(p);
  const int n = p.dims, NN = p.nodes(), B = p.buffers, P = p.packet_bytes;
  VerilogWriter v;
  v.header("hcube_network: a binary " + S(n) + "-cube of packet-scheme chips (seed-004 paper)", header_params(p));
  v.open("module hcube_network (");
  const std::vector<std::pair<std::string, int>> in_ports = {
      {"src_valid", NN},          {"src_dst", NN * n},          {"src_tag", NN * w.tw},
      {"src_npk", NN * w.kw},     {"src_pkt", NN * P * 8},      {"src_w", NN * w.wl},
      {"fd_pkt", NN * n * P * 8}, {"fd_w", NN * n * w.wl},      {"cnt_node", std::max(1, w.nodew)},
      {"cnt_sel", w.csw}};
  const std::vector<std::pair<std::string, int>> out_ports = {
      {"src_take", NN},  {"fd_active", NN * n}, {"fd_tag", NN * n * w.tw}, {"fd_k", NN * n * w.kw},
      {"ej_bvalid", NN * n}, {"ej_end", NN * n}, {"ej_byte", NN * n * 8}, {"cnt_value", 32}};
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire clear,");
  for (const auto& [name, width] : in_ports) v.line("input  wire " + range(width) + name + ",");
  for (size_t i = 0; i < out_ports.size(); ++i)
    v.line(std::string(out_ports[i].first == "cnt_value" ? "output reg  " : "output wire ") + range(out_ports[i].second) +
           out_ports[i].first + (i + 1 < out_ports.size() ? "," : ""));
  v.end_ports();
  // Channel signals of every node, as its ports name them.
  const std::vector<std::pair<std::string, int>> o_sig = {
      {"o_hdr", n}, {"o_bvalid", n}, {"o_end", n}, {"o_byte", n * 8}, {"o_k", n * w.wl},
      {"o_w", n * w.wl}, {"o_first", n}, {"o_dst", n * n}, {"o_free", n}, {"o_qlen", n * w.qb},
      {"o_qnd", n * B * w.db}};
  const std::vector<std::pair<std::string, int>> back_sig = {{"grant", n}, {"gidx", n * w.sb}};
  for (int x = 0; x < NN; ++x) {
    const std::string px = "n" + S(x) + "_";
    for (const auto& [s, width] : o_sig) {
      v.line("wire " + range(width) + px + s + ";");
      v.line("wire " + range(width) + px + "i" + s.substr(1) + ";");
    }
    for (const auto& [s, width] : back_sig) {
      v.line("wire " + range(width) + px + "o_" + s + ";");
      v.line("wire " + range(width) + px + "i_" + s + ";");
    }
    v.line("wire [31:0] " + px + "cnt;");
  }
  v.line();
  // Channel (x, d) to y = x ^ 2^d: x's outgoing d is y's incoming d; y's grant goes back to x.
  const HypercubeTopology topo(n);
  for (const HypercubeLink& l : topo.links()) {
    v.comment("channel " + l.name() + ": node " + S(l.from) + " -> node " + S(l.to));
    const std::string px = "n" + S(l.from) + "_", py = "n" + S(l.to) + "_";
    for (const auto& [s, width] : o_sig) {
      const int per = width / n;
      const std::string sl = per == 1 ? "[" + S(l.dim) + "]" : "[" + S(l.dim * per) + " +: " + S(per) + "]";
      v.line("assign " + py + "i" + s.substr(1) + sl + " = " + px + s + sl + ";");
    }
    for (const auto& [s, width] : back_sig) {
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
    std::vector<std::pair<std::string, std::string>> ports = {{"clk", "clk"}, {"rst", "rst"}};
    for (const auto& [s, width] : o_sig) ports.push_back({s, px + s});
    ports.push_back({"o_grant", px + "o_grant"});
    ports.push_back({"o_gidx", px + "o_gidx"});
    for (const auto& [s, width] : o_sig) ports.push_back({"i" + s.substr(1), px + "i" + s.substr(1)});
    ports.push_back({"i_grant", px + "i_grant"});
    ports.push_back({"i_gidx", px + "i_gidx"});
    ports.push_back({"ej_bvalid", slice("ej_bvalid", n)});
    ports.push_back({"ej_end", slice("ej_end", n)});
    ports.push_back({"ej_byte", slice("ej_byte", n * 8)});
    ports.push_back({"src_valid", slice("src_valid", 1)});
    ports.push_back({"src_dst", slice("src_dst", n)});
    ports.push_back({"src_tag", slice("src_tag", w.tw)});
    ports.push_back({"src_npk", slice("src_npk", w.kw)});
    ports.push_back({"src_pkt", slice("src_pkt", P * 8)});
    ports.push_back({"src_w", slice("src_w", w.wl)});
    ports.push_back({"src_take", slice("src_take", 1)});
    ports.push_back({"fd_active", slice("fd_active", n)});
    ports.push_back({"fd_tag", slice("fd_tag", n * w.tw)});
    ports.push_back({"fd_k", slice("fd_k", n * w.kw)});
    ports.push_back({"fd_pkt", slice("fd_pkt", n * P * 8)});
    ports.push_back({"fd_w", slice("fd_w", n * w.wl)});
    ports.push_back({"clear", "clear"});
    ports.push_back({"cnt_sel", "cnt_sel"});
    ports.push_back({"cnt_value", px + "cnt"});
    v.instance("hcube_pkt_node", "u_node" + S(x), node_params(p, w, x), ports);
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
  v.close("endmodule");
  v.line("`default_nettype wire");
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
  w.cw = std::max(16, clog2(static_cast<uint64_t>(p.arb_ticks + p.ticks_per_byte * p.packet_bytes) + 2) + 1);
  return w;
}

GeneratedDesign emit_hcube_node(const HcubeParams& p) {
  validate(p, "config");
  const HcubeWidths w = hcube_widths(p);
  GeneratedDesign d;
  d.top = "hcube_pkt_node";
  d.files.emplace_back("cmnet_counter_bank.v", read_hw_file("cmnet_counter_bank.v"));
  d.files.emplace_back("hcube_link_tx.v", read_hw_file("hcube_link_tx.v"));
  d.files.emplace_back("hcube_pkt_node.v", read_hw_file("hcube_pkt_node.v"));
  (void)w;
  d.files.emplace_back("filelist.f", filelist(d));
  return d;
}

std::string hcube_manifest_json(const HcubeConfig& cfg) {
  const HcubeParams& p = cfg.hc;
  const HcubeWidths w = hcube_widths(p);
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

GeneratedDesign emit_hcube(const HcubeConfig& cfg) {
  const HcubeParams& p = cfg.hc;
  validate(p, "config");
  if (!p.packet())
    throw ConfigError("config: hcube: scheme = \"wormhole\": the wormhole router has no RTL yet (the reference model "
                      "runs it: cmnet sim --engine model)");
  if (p.dims < 2 || p.dims > kHcubeMaxEmitDims)
    throw ConfigError("config: hcube: dims = " + S(p.dims) + ": the whole-network Verilog is emitted for dims 2.." +
                      S(kHcubeMaxEmitDims) + "; other cubes run on the reference model");
  if (p.buffers < 2)
    throw ConfigError("config: hcube: buffers = " + S(p.buffers) + ": the RTL has at least 2 buffers per port");
  GeneratedDesign d;
  d.top = "hcube_network";
  d.files.emplace_back("cmnet_counter_bank.v", read_hw_file("cmnet_counter_bank.v"));
  d.files.emplace_back("hcube_link_tx.v", read_hw_file("hcube_link_tx.v"));
  d.files.emplace_back("hcube_pkt_node.v", read_hw_file("hcube_pkt_node.v"));
  d.files.emplace_back("hcube_network.v", emit_network(p));
  d.files.emplace_back("filelist.f", filelist(d));
  d.files.emplace_back("manifest.json", hcube_manifest_json(cfg));
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

}  // namespace cmnet

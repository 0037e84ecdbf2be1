#include "gen/clos/clos_emitter.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "gen/clos/clos_config.h"
#include "gen/core/errors.h"
#include "gen/core/hypercube_topology.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {


std::vector<std::pair<std::string, std::string>> header_params(const ClosParams& p) {
  return {{"network", clos_name(p) + ", " + to_string(p.kind())},
          {"middle switches m", S(p.m)},
          {"ports per input/output switch n", S(p.n)},
          {"input/output switches r", S(p.r)},
          {"ports N = n*r", S(p.ports())},
          {"circuit width", S(p.width)},
          {"crosspoints", S(p.crosspoints()) + " (an N x N crossbar: " + S(p.crossbar_crosspoints()) + ")"},
          {"configuration entries", S(p.cfg_entries())}};
}

// The header's parameters of a top with hnodes: the network's, then the hnode count.
std::vector<std::pair<std::string, std::string>> hnode_header_params(const ClosParams& p) {
  auto params = header_params(p);
  params.emplace_back("hnodes", S(p.hnodes()));
  return params;
}

std::string sized(int bits, int64_t v) { return S(bits) + "'d" + S(v); }

// How the switches divide among the hnodes: RL input/output switch pairs and KL middle switches
// each, and the bits of an index among them (SW, LW).
struct HnodeShare {
  int RL = 1, KL = 1, SW = 1, LW = 1;
};
HnodeShare hnode_share(const ClosParams& p) {
  const int H = p.hnodes();
  HnodeShare s;
  s.RL = (p.r + H - 1) / H;
  s.KL = (p.m + H - 1) / H;
  s.SW = std::max(1, clog2(static_cast<uint64_t>(s.RL)));
  s.LW = std::max(1, clog2(static_cast<uint64_t>(s.KL)));
  return s;
}

// Closes the top module in `v` and makes the design: the hw/clos modules `hw`, then the top.
GeneratedDesign top_design(VerilogWriter& v, const std::string& top, const std::vector<std::string>& hw) {
  v.end_module();
  GeneratedDesign d;
  d.top = top;
  for (const std::string& f : hw) d.files.emplace_back(f, read_hw_file(f));
  d.files.emplace_back(top + ".v", v.text());
  d.files.emplace_back("filelist.f", filelist(d));
  return d;
}

// The leaves' ports of the hnodes' controllers (clos_ctrl_top, and clos_switched around it): a
// CSR / ODCR of `MW` bits in per hnode, a READY with its leaf number of `NW` bits out.
void emit_leaf_ports(VerilogWriter& v, int H, int MW, int NW) {
  v.line("input  wire [" + S(H - 1) + ":0] leaf_valid,        // CSR / ODCR of a leaf of hnode h");
  v.line("input  wire [" + S(H * MW - 1) + ":0] leaf_msg,");
  v.line("output wire [" + S(H - 1) + ":0] leaf_take,");
  v.line("output wire [" + S(H - 1) + ":0] ready_valid,       // READY to leaf ready_orig[h]");
  v.line("output wire [" + S(H * NW - 1) + ":0] ready_orig,");
}

std::string emit_network(const ClosParams& p) {
  const int m = p.m, n = p.n, r = p.r, W = p.width;
  const int AW = p.cfg_addr_bits(), SW = p.cfg_sel_bits();
  VerilogWriter v;
  v.header("Three-stage Clos circuit network " + clos_name(p) + " (Clos 1953; CONNECT, Li and Rishe 1991).",
           header_params(p));
  v.open("module clos_network (");
  v.line("input  wire clk,");
  v.line("input  wire rst,        // synchronous: every crossbar output idle (reads 0)");
  v.comment("Configuration port: in a clock with cfg_we high, the crossbar output at cfg_addr takes");
  v.comment("cfg_data = {valid, select}. Input switch i output j (to middle j) is at i*" + S(m) +
            " + j, middle");
  v.comment("switch k output o (to output switch o) at " + S(p.mid_cfg_base()) + " + k*" + S(r) +
            " + o, output switch i output p at " + S(p.out_cfg_base()) + " + i*" + S(n) + " + p;");
  v.comment("the select names the input copied (input port, input switch, middle switch respectively).");
  v.line("input  wire cfg_we,");
  v.line("input  wire [" + S(AW - 1) + ":0] cfg_addr,");
  v.line("input  wire [" + S(SW) + ":0] cfg_data,");
  v.comment("Input c-links: port s (input switch s/" + S(n) + ", port s%" + S(n) + ") at in_data[s*" + S(W) +
            " +: " + S(W) + "]; output c-links likewise.");
  v.line("input  wire [" + S(p.ports() * W - 1) + ":0] in_data,");
  v.line("output wire [" + S(p.ports() * W - 1) + ":0] out_data");
  v.end_ports();
  v.line("localparam integer W = " + S(W) + ";");
  v.line();
  v.comment("Input switch i drives isw<i>_s[j*W +: W] on the input s-link to middle switch j; middle");
  v.comment("switch k reads msw<k>_in[i*W +: W] from input switch i and drives msw<k>_out[o*W +: W] to");
  v.comment("output switch o, which reads it as osw<o>_in[k*W +: W].");
  for (int i = 0; i < r; ++i) v.line("wire [" + S(m * W - 1) + ":0] isw" + S(i) + "_s;");
  for (int k = 0; k < m; ++k) {
    v.line("wire [" + S(r * W - 1) + ":0] msw" + S(k) + "_in;");
    v.line("wire [" + S(r * W - 1) + ":0] msw" + S(k) + "_out;");
  }
  for (int o = 0; o < r; ++o) v.line("wire [" + S(m * W - 1) + ":0] osw" + S(o) + "_in;");
  v.line("wire cfg_valid = cfg_data[" + S(SW) + "];");
  v.line("wire [" + S(SW - 1) + ":0] cfg_sel = cfg_data[" + S(SW - 1) + ":0];");
  v.line();
  v.comment("Input s-links.");
  for (int k = 0; k < m; ++k)
    for (int i = 0; i < r; ++i)
      v.line("assign msw" + S(k) + "_in[" + S(i) + "*W +: W] = isw" + S(i) + "_s[" + S(k) +
             "*W +: W];  // input switch " + S(i) + " -> middle " + S(k));
  v.comment("Output s-links.");
  for (int o = 0; o < r; ++o)
    for (int k = 0; k < m; ++k)
      v.line("assign osw" + S(o) + "_in[" + S(k) + "*W +: W] = msw" + S(k) + "_out[" + S(o) +
             "*W +: W];  // middle " + S(k) + " -> output switch " + S(o));
  v.line();
  // One crossbar with its slice of the configuration address space [base, base + outs): the
  // slice is the address's high bits compared with the base's when it is aligned to its size,
  // else two comparisons with constants, and the port the address's low bits less the base's (a
  // subtraction of the whole address before a comparison was a carry chain on the clock's path).
  auto crossbar = [&](const std::string& name, int ins, int outs, int64_t base, const std::string& in,
                      const std::string& out) {
    const int PW = std::max(1, clog2(static_cast<uint64_t>(outs)));
    std::string we = "cfg_we";
    if (outs == (1 << PW) && base % outs == 0) {  // aligned to its size: the address's high bits
      if (PW < AW) we += " && cfg_addr[" + S(AW - 1) + ":" + S(PW) + "] == " + sized(AW - PW, base >> PW);
    } else {
      if (base > 0) we += " && cfg_addr >= " + sized(AW, base);
      if (base + outs < (int64_t{1} << AW)) we += " && cfg_addr < " + sized(AW, base + outs);
    }
    v.line("wire " + name + "_we = " + we + ";");
    v.line("wire [" + S(PW - 1) + ":0] " + name + "_port = cfg_addr[" + S(PW - 1) + ":0] - " +
           sized(PW, base % (int64_t{1} << PW)) + ";");
    v.instance("clos_crossbar", name,
               {{"IN", S(ins)}, {"OUT", S(outs)}, {"W", "W"}, {"SW", S(SW)}, {"PW", S(PW)}},
               {{"clk", "clk"}, {"rst", "rst"}, {"cfg_we", name + "_we"},
                {"cfg_port", name + "_port"}, {"cfg_valid", "cfg_valid"},
                {"cfg_sel", "cfg_sel"},
                {"in_data", in}, {"out_data", out}});
  };
  for (int i = 0; i < r; ++i) {
    v.comment("Input switch " + S(i) + ": " + S(n) + " x " + S(m) + ", input c-links " + S(i * n) + ".." +
              S(i * n + n - 1) + ".");
    crossbar("isw" + S(i), n, m, static_cast<int64_t>(p.in_cfg_base()) + i * m,
             "in_data[" + S((i + 1) * n * W - 1) + ":" + S(i * n * W) + "]", "isw" + S(i) + "_s");
  }
  for (int k = 0; k < m; ++k) {
    v.comment("Middle switch " + S(k) + ": " + S(r) + " x " + S(r) + ".");
    crossbar("msw" + S(k), r, r, static_cast<int64_t>(p.mid_cfg_base()) + k * r, "msw" + S(k) + "_in",
             "msw" + S(k) + "_out");
  }
  for (int o = 0; o < r; ++o) {
    v.comment("Output switch " + S(o) + ": " + S(m) + " x " + S(n) + ", output c-links " + S(o * n) + ".." +
              S(o * n + n - 1) + ".");
    crossbar("osw" + S(o), m, n, static_cast<int64_t>(p.out_cfg_base()) + o * n, "osw" + S(o) + "_in",
             "out_data[" + S((o + 1) * n * W - 1) + ":" + S(o * n * W) + "]");
  }
  v.end_module();
  return v.text();
}

}  // namespace

std::string clos_manifest_json(const ClosConfig& cfg) {
  const ClosParams& p = cfg.clos;
  nlohmann::ordered_json j;
  j["generator"] = "cmnet";
  j["network"] = "clos";
  j["name"] = cfg.name;
  j["top"] = "clos_network";
  j["parameters"] = {{"m", p.m}, {"n", p.n}, {"r", p.r}, {"width", p.width}, {"hnode_dims", p.hnode_dims},
                     {"cancel_limit", p.cancel_limit}, {"select", p.select_pair ? "pair" : "dest"},
                     {"resend_after_wait", p.resend_after_wait}};
  j["derived"] = {{"network", clos_name(p)},
                  {"case", to_string(p.kind())},
                  {"ports_N", p.ports()},
                  {"input_switches", std::to_string(p.r) + " x (" + std::to_string(p.n) + " x " + std::to_string(p.m) + ")"},
                  {"middle_switches", std::to_string(p.m) + " x (" + std::to_string(p.r) + " x " + std::to_string(p.r) + ")"},
                  {"output_switches", std::to_string(p.r) + " x (" + std::to_string(p.m) + " x " + std::to_string(p.n) + ")"},
                  {"crosspoints", p.crosspoints()},
                  {"crossbar_crosspoints", p.crossbar_crosspoints()},
                  {"s_links", p.s_links()},
                  {"hnodes", p.hnodes()}};
  j["cfg_port"] = {{"entries", p.cfg_entries()}, {"addr_bits", p.cfg_addr_bits()},
                   {"data_bits", p.cfg_sel_bits() + 1}, {"input_switch_base", p.in_cfg_base()},
                   {"middle_switch_base", p.mid_cfg_base()}, {"output_switch_base", p.out_cfg_base()}};
  return j.dump(2) + "\n";
}

GeneratedDesign emit_clos_hnode(const ClosConfig& cfg) {
  const ClosParams& p = cfg.clos;
  validate(p, "config: clos");
  const ClosCtrlLayout l = clos_ctrl_layout(cfg);
  const int KW = l.KW, RW = l.RW;
  const auto [RL, KL, SW, LW] = hnode_share(p);
  VerilogWriter v;
  auto params = hnode_header_params(p);
  params.emplace_back("switch pairs per hnode", S(RL));
  params.emplace_back("middle switches per hnode", S(KL));
  v.header("The switch status of one CONNECT hnode of " + clos_name(p) + " (hw/clos/clos_hnode.v).", params);
  v.open("module clos_hnode_top (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire op_valid,");
  v.line("input  wire [2:0] op_code,");
  v.line("input  wire [" + S(SW - 1) + ":0] op_sw,");
  v.line("input  wire [" + S(LW - 1) + ":0] op_k,");
  v.line("input  wire [" + S(KW - 1) + ":0] op_ms,");
  v.line("input  wire [" + S(RW - 1) + ":0] op_in_sw,");
  v.line("input  wire [" + S(RW - 1) + ":0] op_out_sw,");
  v.line("input  wire [" + S(KW - 1) + ":0] op_start,");
  v.line("input  wire [" + S(p.m - 1) + ":0] op_iv,");
  v.line("input  wire [" + S(p.m - 1) + ":0] op_tried,");
  v.line("output wire res_found,");
  v.line("output wire [" + S(KW - 1) + ":0] res_ms,");
  v.line("output wire res_accept,");
  v.line("output wire [" + S(p.m - 1) + ":0] res_iv");
  v.end_ports();
  v.instance("clos_hnode", "hnode",
             {{"M", S(p.m)}, {"R", S(p.r)}, {"RL", S(RL)}, {"KL", S(KL)}, {"KW", S(KW)}, {"RW", S(RW)}, {"SW", S(SW)},
              {"LW", S(LW)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"op_valid", "op_valid"}, {"op_code", "op_code"}, {"op_sw", "op_sw"},
              {"op_k", "op_k"}, {"op_ms", "op_ms"}, {"op_in_sw", "op_in_sw"}, {"op_out_sw", "op_out_sw"},
              {"op_start", "op_start"}, {"op_iv", "op_iv"}, {"op_tried", "op_tried"}, {"op_accept", "res_accept"},
              {"res_found", "res_found"},
              {"res_ms", "res_ms"}, {"res_accept", "res_accept"}, {"res_iv", "res_iv"}});
  return top_design(v, "clos_hnode_top", {"clos_hnode.v"});
}

GeneratedDesign emit_clos_leaf_status(const ClosConfig& cfg, int req_bits, int queue_bits) {
  const ClosParams& p = cfg.clos;
  validate(p, "config: clos");
  const int L = hnode_share(p).RL * p.n;  // the leaves of an hnode's input switches
  const int LW = std::max(1, clog2(static_cast<uint64_t>(L)));
  VerilogWriter v;
  auto params = hnode_header_params(p);
  params.emplace_back("leaves per hnode", S(L));
  params.emplace_back("request number bits", S(req_bits));
  params.emplace_back("WaitingQueue depth", S(1 << queue_bits));
  v.header("The leaf status of one CONNECT hnode of " + clos_name(p) + " (hw/clos/clos_leaf_status.v).", params);
  v.open("module clos_leaf_status_top (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire op_valid,");
  v.line("input  wire op_release,");
  v.line("input  wire [" + S(LW - 1) + ":0] op_leaf,       // set from the clock before the operation");
  v.line("input  wire [" + S(req_bits - 1) + ":0] op_req,        // set from the clock before the operation");
  v.line("input  wire [1:0] op_kind,");
  v.line("output wire res_wait,");
  v.line("output wire res_resume,");
  v.line("output wire [" + S(req_bits - 1) + ":0] res_req,");
  v.line("output wire [1:0] res_kind,");
  v.line("output wire res_full");
  v.end_ports();
  v.instance("clos_leaf_status", "leaves", {{"L", S(L)}, {"LW", S(LW)}, {"IDW", S(req_bits)}, {"QW", S(queue_bits)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"op_valid", "op_valid"}, {"op_release", "op_release"},
              {"pre_leaf", "op_leaf"}, {"pre_req", "op_req"}, {"op_req", "op_req"}, {"op_kind", "op_kind"}, {"res_wait", "res_wait"},
              {"res_resume", "res_resume"}, {"res_req", "res_req"}, {"res_kind", "res_kind"}, {"res_full", "res_full"}});
  return top_design(v, "clos_leaf_status_top", {"clos_leaf_status.v"});
}

GeneratedDesign emit_clos(const ClosConfig& cfg) {
  validate(cfg.clos, "config: clos");
  GeneratedDesign d;
  d.top = "clos_network";
  d.files.emplace_back("clos_crossbar.v", read_hw_file("clos_crossbar.v"));
  d.files.emplace_back("clos_network.v", emit_network(cfg.clos));
  d.files.emplace_back("filelist.f", filelist(d));
  d.files.emplace_back("manifest.json", clos_manifest_json(cfg));
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

ClosCtrlLayout clos_ctrl_layout(const ClosConfig& cfg) {
  const ClosParams& p = cfg.clos;
  ClosCtrlLayout l;
  l.D = p.hnode_dims;
  l.M = p.m;
  l.KW = std::max(1, clog2(static_cast<uint64_t>(p.m)));
  l.RW = std::max(1, clog2(static_cast<uint64_t>(p.r)));
  l.NW = std::max(1, clog2(static_cast<uint64_t>(p.ports())));
  l.MW = l.M + 5 + l.KW + 2 * l.NW + l.D;
  return l;
}

GeneratedDesign emit_clos_ctrl(const ClosConfig& cfg) {
  const ClosParams& p = cfg.clos;
  validate(p, "config: clos");
  if (p.hnode_dims < 1)
    throw ConfigError("config: clos: hnode_dims = 0: the hnodes' message engines need a hypercube of at least 2 hnodes");
  const ClosCtrlLayout l = clos_ctrl_layout(cfg);
  const int H = p.hnodes(), D = l.D, MW = l.MW;
  const auto [RL, KL, SW, LW] = hnode_share(p);
  const int LLW = std::max(1, clog2(static_cast<uint64_t>(RL * p.n)));
  const HypercubeTopology cube(D);
  VerilogWriter v;
  auto params = hnode_header_params(p);
  params.emplace_back("message bits", S(MW));
  params.emplace_back("CANCEL limit", S(p.cancel_limit));
  params.emplace_back("selection starts at", p.select_pair ? "(input switch + output switch) mod m" : "h_d's own middle switch");
  params.emplace_back("RESEND after a wait", p.resend_after_wait ? "yes" : "no");
  v.header("The message engines of the " + S(H) + " CONNECT hnodes of " + clos_name(p) +
               " on their control hypercube (hw/clos/clos_hnode_engine.v, hw/clos/clos_cube_router.v).",
           params);
  v.open("module clos_ctrl_top (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  emit_leaf_ports(v, H, MW, l.NW);
  v.line("output wire [" + S(H - 1) + ":0] handled_valid,     // trace: the message hnode h starts handling");
  v.line("output wire [" + S(H * MW - 1) + ":0] handled_msg,");
  v.line("output wire [" + S(H - 1) + ":0] sent_valid,        // trace: a message hnode h sends into the hypercube");
  v.line("output wire [" + S(H * MW - 1) + ":0] sent_msg,");
  v.line("output wire [" + S(H - 1) + ":0] overflow,");
  v.line("output wire busy,                              // an hnode has a message queued or in hand");
  v.line("// The switches' configuration port (clos_network's): the hnodes' writes, lowest hnode first,");
  v.line("// registered (a write reaches the switches the clock after its engine's is taken)");
  v.line("output reg  cfg_we,");
  v.line("output reg  [" + S(H - 1) + ":0] cfg_from,               // one-hot: the hnode writing");
  v.line("output reg  [" + S(p.cfg_addr_bits() - 1) + ":0] cfg_addr,");
  v.line("output reg  [" + S(p.cfg_sel_bits()) + ":0] cfg_data");
  v.end_ports();
  const int CAW = p.cfg_addr_bits(), CDW = p.cfg_sel_bits() + 1;
  v.line("wire [" + S(H - 1) + ":0] e_busy, e_cfg_valid, e_cfg_take;");
  v.line("wire [" + S(H * CAW - 1) + ":0] e_cfg_addr;");
  v.line("wire [" + S(H * CDW - 1) + ":0] e_cfg_data;");
  v.line("// hnode h's write is taken when no lower hnode has one");
  for (int h = 0; h < H; ++h)
    v.line("assign e_cfg_take[" + S(h) + "] = e_cfg_valid[" + S(h) + "]" +
           (h ? " && !(|e_cfg_valid[" + S(h - 1) + ":0])" : std::string()) + ";");
  // The port's register: the switches' address decode is a path of its own, not the end of the
  // engines'. A READY leaves its engine a clock after its write is taken at the earliest, when the
  // write reaches the switches, so a circuit is set before its leaf can send.
  std::string amux = "cfg_addr <= ", dmux = "cfg_data <= ";
  for (int h = 0; h < H; ++h) {
    const std::string c = h + 1 < H ? "e_cfg_take[" + S(h) + "] ? " : "";
    amux += c + "e_cfg_addr[" + S(h * CAW) + " +: " + S(CAW) + "]" + (h + 1 < H ? " : " : ";");
    dmux += c + "e_cfg_data[" + S(h * CDW) + " +: " + S(CDW) + "]" + (h + 1 < H ? " : " : ";");
  }
  v.open("always @(posedge clk) begin");
  v.line("cfg_we <= !rst && |e_cfg_valid;");
  v.line("cfg_from <= rst ? " + S(H) + "'d0 : e_cfg_take;");
  v.line(amux);
  v.line(dmux);
  v.close("end");
  // Per node: the engine's injection, the router's local output, the link registers per dimension.
  v.line("wire [" + S(H - 1) + ":0] inj_valid, inj_ready, loc_valid, loc_take;");
  v.line("wire [" + S(H * MW - 1) + ":0] inj_msg, loc_msg;");
  v.line("wire [" + S(H * D - 1) + ":0] lo_valid, lo_take, li_valid, li_take;  // [node*D + dim]");
  v.line("wire [" + S(H * D * MW - 1) + ":0] lo_msg, li_msg;");
  v.line("assign sent_valid = inj_valid & inj_ready;");
  v.line("assign sent_msg = inj_msg;");
  v.line("assign busy = |e_busy || |lo_valid || |loc_valid;  // a message in an engine or on a link");
  // Every link: node x's dimension-d output register is node (x ^ 2^d)'s dimension-d input.
  for (const HypercubeLink& k : cube.links()) {
    const int a = k.from * D + k.dim, b = k.to * D + k.dim;
    v.line("// " + k.name());
    v.line("assign li_valid[" + S(b) + "] = lo_valid[" + S(a) + "];");
    v.line("assign li_msg[" + S(b * MW) + " +: " + S(MW) + "] = lo_msg[" + S(a * MW) + " +: " + S(MW) + "];");
    v.line("assign lo_take[" + S(a) + "] = li_take[" + S(b) + "];");
  }
  for (int h = 0; h < H; ++h) {
    const std::string M0 = S(h * MW) + " +: " + S(MW);
    v.instance("clos_hnode_engine", "engine" + S(h),
               {{"ID", S(h)}, {"D", S(D)}, {"M", S(p.m)}, {"R", S(p.r)}, {"NP", S(p.n)}, {"KW", S(l.KW)},
                {"RW", S(l.RW)}, {"NW", S(l.NW)}, {"RL", S(RL)}, {"KL", S(KL)}, {"SW", S(SW)}, {"LW", S(LW)},
                {"LLW", S(LLW)}, {"QW", S(l.queue_bits)}, {"FW", S(l.fifo_bits)}, {"CANCEL_LIMIT", S(p.cancel_limit)},
                {"START", S(h % p.m)}, {"SELECT_PAIR", p.select_pair ? "1" : "0"},
                {"RESEND_AFTER_WAIT", p.resend_after_wait ? "1" : "0"}, {"CAW", S(CAW)}, {"CSW", S(CDW - 1)}},
               {{"clk", "clk"}, {"rst", "rst"}, {"net_valid", "loc_valid[" + S(h) + "]"}, {"net_msg", "loc_msg[" + M0 + "]"},
                {"net_take", "loc_take[" + S(h) + "]"}, {"leaf_valid", "leaf_valid[" + S(h) + "]"},
                {"leaf_msg", "leaf_msg[" + M0 + "]"}, {"leaf_take", "leaf_take[" + S(h) + "]"},
                {"out_valid", "inj_valid[" + S(h) + "]"}, {"out_msg", "inj_msg[" + M0 + "]"},
                {"out_ready", "inj_ready[" + S(h) + "]"}, {"ready_valid", "ready_valid[" + S(h) + "]"},
                {"ready_orig", "ready_orig[" + S(h * l.NW) + " +: " + S(l.NW) + "]"},
                {"handled_valid", "handled_valid[" + S(h) + "]"}, {"handled_msg", "handled_msg[" + M0 + "]"},
                {"overflow", "overflow[" + S(h) + "]"}, {"cfg_valid", "e_cfg_valid[" + S(h) + "]"},
                {"cfg_addr", "e_cfg_addr[" + S(h * CAW) + " +: " + S(CAW) + "]"},
                {"cfg_data", "e_cfg_data[" + S(h * CDW) + " +: " + S(CDW) + "]"},
                {"cfg_take", "e_cfg_take[" + S(h) + "]"}, {"busy", "e_busy[" + S(h) + "]"}});
    v.instance("clos_cube_router", "router" + S(h), {{"ID", S(h)}, {"D", S(D)}, {"MW", S(MW)}},
               {{"clk", "clk"}, {"rst", "rst"}, {"inj_valid", "inj_valid[" + S(h) + "]"}, {"inj_msg", "inj_msg[" + M0 + "]"},
                {"inj_ready", "inj_ready[" + S(h) + "]"},
                {"in_valid", "li_valid[" + S(h * D) + " +: " + S(D) + "]"},
                {"in_msg", "li_msg[" + S(h * D * MW) + " +: " + S(D * MW) + "]"},
                {"in_take", "li_take[" + S(h * D) + " +: " + S(D) + "]"},
                {"out_valid", "lo_valid[" + S(h * D) + " +: " + S(D) + "]"},
                {"out_msg", "lo_msg[" + S(h * D * MW) + " +: " + S(D * MW) + "]"},
                {"out_take", "lo_take[" + S(h * D) + " +: " + S(D) + "]"},
                {"loc_valid", "loc_valid[" + S(h) + "]"}, {"loc_msg", "loc_msg[" + M0 + "]"},
                {"loc_take", "loc_take[" + S(h) + "]"}});
  }
  return top_design(v, "clos_ctrl_top", {"clos_hnode.v", "clos_leaf_status.v", "clos_hnode_engine.v", "clos_cube_router.v"});
}

GeneratedDesign emit_clos_switched(const ClosConfig& cfg) {
  const ClosParams& p = cfg.clos;
  const GeneratedDesign ctrl = emit_clos_ctrl(cfg), sw = emit_clos(cfg);
  const ClosCtrlLayout l = clos_ctrl_layout(cfg);
  const int H = p.hnodes(), MW = l.MW, NW = p.ports() * p.width, CAW = p.cfg_addr_bits(), CDW = p.cfg_sel_bits() + 1;
  VerilogWriter v;
  auto params = hnode_header_params(p);
  params.emplace_back("message bits", S(MW));
  v.header("The Clos network " + clos_name(p) + " with its controllers: clos_network configured by the hnodes' "
               "message engines (clos_ctrl_top) through its configuration port.",
           params);
  v.open("module clos_switched (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  emit_leaf_ports(v, H, MW, l.NW);
  v.line("input  wire [" + S(NW - 1) + ":0] in_data,           // the input c-links");
  v.line("output wire [" + S(NW - 1) + ":0] out_data,          // the output c-links");
  v.line("output wire [" + S(H - 1) + ":0] overflow,");
  v.line("output wire busy");
  v.end_ports();
  v.line("wire cfg_we;");
  v.line("wire [" + S(CAW - 1) + ":0] cfg_addr;");
  v.line("wire [" + S(CDW - 1) + ":0] cfg_data;");
  v.line("/* verilator lint_off UNUSEDSIGNAL */");
  v.line("wire [" + S(H - 1) + ":0] handled_valid, sent_valid, cfg_from;  // trace: not used here");
  v.line("wire [" + S(H * MW - 1) + ":0] handled_msg, sent_msg;");
  v.line("/* verilator lint_on UNUSEDSIGNAL */");
  v.instance("clos_ctrl_top", "ctrl", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"leaf_valid", "leaf_valid"}, {"leaf_msg", "leaf_msg"},
              {"leaf_take", "leaf_take"}, {"ready_valid", "ready_valid"}, {"ready_orig", "ready_orig"},
              {"handled_valid", "handled_valid"}, {"handled_msg", "handled_msg"}, {"sent_valid", "sent_valid"},
              {"sent_msg", "sent_msg"}, {"overflow", "overflow"}, {"busy", "busy"}, {"cfg_we", "cfg_we"},
              {"cfg_from", "cfg_from"}, {"cfg_addr", "cfg_addr"}, {"cfg_data", "cfg_data"}});
  v.instance("clos_network", "sw", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"cfg_we", "cfg_we"}, {"cfg_addr", "cfg_addr"}, {"cfg_data", "cfg_data"},
              {"in_data", "in_data"}, {"out_data", "out_data"}});
  v.end_module();
  GeneratedDesign d;
  d.top = "clos_switched";
  d.files = sw.verilog_sources();
  for (const auto& f : ctrl.verilog_sources()) d.files.push_back(f);
  d.files.emplace_back("clos_switched.v", v.text());
  d.files.emplace_back("filelist.f", filelist(d));
  return d;
}

ClosTreeLayout clos_tree_layout(int hnode_dims, const std::vector<int>& degrees) {
  if (hnode_dims < 1 || hnode_dims > 6)
    throw ConfigError("tree network: hnode_dims = " + S(hnode_dims) + " out of range 1..6 (the RTL's hypercube)");
  if (degrees.empty()) throw ConfigError("tree network: degrees is empty (no level below the hnode)");
  ClosTreeLayout l;
  l.hnode_dims = hnode_dims;
  l.degrees = degrees;
  l.leaves_per_tree = 1;
  for (size_t i = 0; i < degrees.size(); ++i) {
    if (degrees[i] < 1 || degrees[i] > 16)
      throw ConfigError("tree network: degrees[" + S(static_cast<int64_t>(i)) + "] = " + S(degrees[i]) + " out of range 1..16");
    l.leaves_per_tree *= degrees[i];
  }
  l.leaves = l.leaves_per_tree << hnode_dims;
  if (l.leaves > 4096) throw ConfigError("tree network: " + S(l.leaves) + " leaves: the RTL is emitted up to 4,096");
  l.AW = std::max(1, clog2(static_cast<uint64_t>(l.leaves)));
  l.MW = l.PW + 2 * l.AW + 1 + 2 * l.HC;
  return l;
}

GeneratedDesign emit_clos_tree(const ClosTreeLayout& l) {
  const int H = 1 << l.hnode_dims, D = l.hnode_dims, MW = l.MW, depth = static_cast<int>(l.degrees.size());
  VerilogWriter v;
  std::vector<std::pair<std::string, std::string>> params = {{"hnodes", S(H)}, {"leaves per tree", S(l.leaves_per_tree)},
                                                               {"leaves", S(l.leaves)}, {"message bits", S(MW)}};
  std::string degs;
  for (int d : l.degrees) degs.append(degs.empty() ? "" : ", ").append(S(d));
  params.emplace_back("subtrees per level", degs);
  v.header("CONNECT's tree-shaped packet network (hw/clos/clos_tree_node.v): " + S(H) + " trees of " +
               S(l.leaves_per_tree) + " leaves under a hypercube of hnodes.",
           params);
  v.open("module clos_tree_top (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire [" + S(l.leaves - 1) + ":0] inj_valid,   // a leaf's message into the network");
  v.line("input  wire [" + S(l.leaves * MW - 1) + ":0] inj_msg,");
  v.line("output wire [" + S(l.leaves - 1) + ":0] inj_take,");
  v.line("output wire [" + S(l.leaves - 1) + ":0] dlv_valid,   // a data message delivered to a leaf");
  v.line("output wire [" + S(l.leaves * MW - 1) + ":0] dlv_msg,");
  v.line("output wire [" + S(H - 1) + ":0] ctl_valid,          // a control message kept by an hnode");
  v.line("output wire [" + S(H * MW - 1) + ":0] ctl_msg");
  v.end_ports();
  struct Node {
    std::string name;
    int level, lo, hi, c, ni, no;
  };
  std::vector<Node> nodes;
  std::vector<std::string> assigns;  // after every wire is declared
  std::function<size_t(int, int, int, int)> make = [&](int t, int level, int lo, int hi) -> size_t {
    const int c = l.degrees[static_cast<size_t>(level)];
    Node n{"t" + S(t) + "_l" + S(level) + "_" + S(lo), level, lo, hi, c, level == 0 ? c + D : c + 1,
           level == 0 ? c + D + 1 : c + 1};
    const size_t me = nodes.size();
    nodes.push_back(n);
    const int span = (hi - lo) / c;
    for (int i = 0; i < c; ++i) {
      const int clo = lo + i * span, chi = clo + span;
      const std::string P = n.name, I = S(i), IM = S(i * MW) + " +: " + S(MW);
      if (level + 1 == depth) {  // a leaf
        assigns.push_back("assign " + P + "_iv[" + I + "] = inj_valid[" + S(clo) + "];");
        assigns.push_back("assign " + P + "_im[" + IM + "] = inj_msg[" + S(clo * MW) + " +: " + S(MW) + "];");
        assigns.push_back("assign inj_take[" + S(clo) + "] = " + P + "_it[" + I + "];");
        assigns.push_back("assign dlv_valid[" + S(clo) + "] = " + P + "_ov[" + I + "];");
        assigns.push_back("assign dlv_msg[" + S(clo * MW) + " +: " + S(MW) + "] = " + P + "_om[" + IM + "];");
        assigns.push_back("assign " + P + "_ot[" + I + "] = 1'b1;");
      } else {
        const Node ch = nodes[make(t, level + 1, clo, chi)];
        const std::string C = S(ch.c), CM = S(ch.c * MW) + " +: " + S(MW);
        assigns.push_back("assign " + P + "_iv[" + I + "] = " + ch.name + "_ov[" + C + "];");
        assigns.push_back("assign " + P + "_im[" + IM + "] = " + ch.name + "_om[" + CM + "];");
        assigns.push_back("assign " + ch.name + "_ot[" + C + "] = " + P + "_it[" + I + "];");
        assigns.push_back("assign " + ch.name + "_iv[" + C + "] = " + P + "_ov[" + I + "];");
        assigns.push_back("assign " + ch.name + "_im[" + CM + "] = " + P + "_om[" + IM + "];");
        assigns.push_back("assign " + P + "_ot[" + I + "] = " + ch.name + "_it[" + C + "];");
      }
    }
    return me;
  };
  std::vector<size_t> roots;
  for (int t = 0; t < H; ++t) roots.push_back(make(t, 0, t * l.leaves_per_tree, (t + 1) * l.leaves_per_tree));
  for (const Node& n : nodes) {
    for (const std::string w : {"iv", "it"}) v.line("wire [" + S(n.ni - 1) + ":0] " + n.name + "_" + w + ";");
    v.line("wire [" + S(n.ni * MW - 1) + ":0] " + n.name + "_im;");
    for (const std::string w : {"ov", "ot"}) v.line("wire [" + S(n.no - 1) + ":0] " + n.name + "_" + w + ";");
    v.line("wire [" + S(n.no * MW - 1) + ":0] " + n.name + "_om;");
  }
  for (const std::string& x : assigns) v.line(x);
  // The hypercube between the hnodes, and their control outputs.
  for (const HypercubeLink& k : HypercubeTopology(D).links()) {
    const Node& a = nodes[roots[static_cast<size_t>(k.from)]];
    const Node& b = nodes[roots[static_cast<size_t>(k.to)]];
    const int pa = a.c + k.dim, pb = b.c + k.dim;
    v.line("// " + k.name());
    v.line("assign " + b.name + "_iv[" + S(pb) + "] = " + a.name + "_ov[" + S(pa) + "];");
    v.line("assign " + b.name + "_im[" + S(pb * MW) + " +: " + S(MW) + "] = " + a.name + "_om[" + S(pa * MW) + " +: " +
           S(MW) + "];");
    v.line("assign " + a.name + "_ot[" + S(pa) + "] = " + b.name + "_it[" + S(pb) + "];");
  }
  for (int t = 0; t < H; ++t) {
    const Node& h = nodes[roots[static_cast<size_t>(t)]];
    const int lp = h.c + D;
    v.line("assign ctl_valid[" + S(t) + "] = " + h.name + "_ov[" + S(lp) + "];");
    v.line("assign ctl_msg[" + S(t * MW) + " +: " + S(MW) + "] = " + h.name + "_om[" + S(lp * MW) + " +: " + S(MW) + "];");
    v.line("assign " + h.name + "_ot[" + S(lp) + "] = 1'b1;");
  }
  for (const Node& n : nodes) {
    // The range table: the subtrees' boundaries lo, lo + span, ..., hi.
    std::string bounds = "{";
    const int span = (n.hi - n.lo) / n.c;
    for (int i = n.c; i >= 0; --i) bounds.append(S(l.AW + 1)).append("'d").append(S(n.lo + i * span)).append(i ? ", " : "}");
    v.instance("clos_tree_node", n.name,
               {{"HNODE", n.level == 0 ? "1" : "0"}, {"C", S(n.c)}, {"D", S(D)},
                {"ID", S(n.lo / l.leaves_per_tree)}, {"PER_TREE", S(l.leaves_per_tree)}, {"AW", S(l.AW)},
                {"PW", S(l.PW)}, {"HC", S(l.HC)}, {"BOUNDS", bounds}},
               {{"clk", "clk"}, {"rst", "rst"}, {"in_valid", n.name + "_iv"}, {"in_msg", n.name + "_im"},
                {"in_take", n.name + "_it"}, {"out_valid", n.name + "_ov"}, {"out_msg", n.name + "_om"},
                {"out_take", n.name + "_ot"}});
  }
  return top_design(v, "clos_tree_top", {"clos_tree_node.v"});
}

int clos_stream_max_words() { return (1 << 4) - 2; }  // a leaf's receive buffer (2^RXQ_W) less the source word

StreamBoardSpec clos_stream_spec(const ClosConfig& cfg) {
  const ClosParams& p = cfg.clos;
  validate(p, "config: clos");
  if (p.hnode_dims < 1) throw ConfigError("config: clos: hnode_dims = 0: the board's hnodes need a hypercube of at least 2");
  if (p.ports() > 256) throw ConfigError("config: clos: " + S(p.ports()) + " leaves: the board holds at most 256");
  ClosConfig wide = cfg;
  wide.clos.width = 34;  // {valid, last, word}
  const ClosCtrlLayout l = clos_ctrl_layout(cfg);
  const int NL = p.ports(), H = p.hnodes();
  StreamBoardSpec s;
  s.info.family = "clos";
  s.info.name = cfg.name;
  s.info.leaves = static_cast<uint32_t>(NL);
  s.info.params = {{"m", S(p.m)}, {"n", S(p.n)}, {"r", S(p.r)}, {"hnode_dims", S(p.hnode_dims)},
                   {"cancel_limit", S(p.cancel_limit)}, {"select", p.select_pair ? "pair" : "dest"},
                   {"resend_after_wait", p.resend_after_wait ? "1" : "0"}, {"max_words", S(clos_stream_max_words())}};
  s.info.regions = {"network"};
  for (int i = 0; i < NL; ++i) {
    s.info.counters.push_back({"leaf" + S(i) + ".sent", CounterKind::In, 0});
    s.info.counters.push_back({"leaf" + S(i) + ".received", CounterKind::Out, 0});
  }
  s.info.counters.push_back({"network.held", CounterKind::Held, 0});
  s.info.counters.push_back({"circuits.ready", CounterKind::Other, 0});
  s.info.counters.push_back({"circuits.cancels", CounterKind::Other, 0});
  s.info.counters.push_back({"words.dropped", CounterKind::Other, 0});
  s.title = "CONNECT Clos network " + clos_name(p);
  s.canonical_json = config_to_json(cfg);
  // The design: the switch (34 bits wide: beyond a config's 1..32, so emitted directly), the
  // engines and the leaves, then the stream module.
  s.network.files.emplace_back("clos_crossbar.v", read_hw_file("clos_crossbar.v"));
  s.network.files.emplace_back("clos_network.v", emit_network(wide.clos));
  for (const auto& f : emit_clos_ctrl(cfg).verilog_sources()) s.network.files.push_back(f);
  s.network.files.emplace_back("clos_stream_core.v", read_hw_file("clos_stream_core.v"));
  const int lsb_dest = l.M + 1 + l.KW, lsb_orig = lsb_dest + l.NW, lsb_type = lsb_orig + l.NW, lsb_to = lsb_type + 4;
  VerilogWriter v;
  auto params = hnode_header_params(wide.clos);
  v.header("CONNECT's " + clos_name(p) + " on the stream board (hw/clos/clos_stream_core.v).", params);
  v.open("module clos_stream (");
  for (const std::string& d : stream_port_declarations(2 * NL + 4)) v.line(d);
  v.end_ports();
  v.instance("clos_stream_core", "core",
             {{"NL", S(NL)}, {"NP", S(p.n)}, {"H", S(H)}, {"D", S(l.D)}, {"NW", S(l.NW)}, {"MW", S(l.MW)},
              {"TYPE_LSB", S(lsb_type)}, {"DEST_LSB", S(lsb_dest)}, {"ORIG_LSB", S(lsb_orig)}, {"TO_LSB", S(lsb_to)},
              {"CAW", S(p.cfg_addr_bits())}, {"CDW", S(p.cfg_sel_bits() + 1)}, {"TXQ_W", "4"}, {"RXQ_W", "4"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"run", "run"}, {"clear", "clear"}, {"tx_valid", "tx_valid"},
              {"tx_ready", "tx_ready"}, {"tx_leaf", "tx_leaf"}, {"tx_data", "tx_data"}, {"tx_last", "tx_last"},
              {"rx_valid", "rx_valid"}, {"rx_ready", "rx_ready"}, {"rx_leaf", "rx_leaf"}, {"rx_data", "rx_data"},
              {"rx_last", "rx_last"}, {"busy", "busy"}, {"counters", "counters"}});
  v.end_module();
  s.network.files.emplace_back("clos_stream.v", v.text());
  s.network.top = "clos_stream";
  s.stream_module = "clos_stream";
  s.fifo_log2 = 7;
  return s;
}

}  // namespace cmnet

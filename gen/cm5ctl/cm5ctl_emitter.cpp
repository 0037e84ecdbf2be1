#include "gen/cm5ctl/cm5ctl_emitter.h"

#include <nlohmann/json.hpp>

#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {

std::string S(int64_t x) { return std::to_string(x); }

std::vector<std::pair<std::string, std::string>> header_params(const Cm5ctlParams& p) {
  return {{"leaves N", S(p.leaves)},
          {"height", S(p.height())},
          {"word_bits W", S(p.word_bits)},
          {"packet_bits (with crc_bits)", S(p.packet_bits()) + " (" + S(p.crc_bits) + ")"},
          {"up_width / down_width", S(p.up_width) + " / " + S(p.down_width)},
          {"up frame Tu / down frame Td (cycles)", S(p.up_frame()) + " / " + S(p.down_frame())},
          {"queue_depth (per child)", S(p.effective_queue_depth())},
          {"stop margin", S(p.stop_margin())},
          {"leaf_fifo_depth", S(p.leaf_fifo_depth)},
          {"broadcast_window", S(p.broadcast_window)},
          {"root_queue_depth", S(p.root_queue_depth)}};
}

std::string emit_tree(const Cm5ctlParams& p) {
  const int N = p.leaves, W = p.word_bits, H = p.height();
  const int QD = p.effective_queue_depth();
  VerilogWriter v;
  v.header("CM-5 control network: a binary combining tree of " + S(N) + " leaves (" + S(N - 1) +
               " nodes), broadcasts, reductions, scans, sync OR.",
           header_params(p));
  v.open("module cm5ctl_tree (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.comment("Leaf j's processor port is bit j (field j) of each bus; see hw/cm5ctl/cm5ctl_leaf.v.");
  v.line("input  wire [" + S(N - 1) + ":0] inj_valid,");
  v.line("output wire [" + S(N - 1) + ":0] inj_ready,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_bcast,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_abstain,");
  v.line("input  wire [" + S(2 * N - 1) + ":0] inj_kind,");
  v.line("input  wire [" + S(3 * N - 1) + ":0] inj_comb,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_segmented,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_seg,");
  v.line("input  wire [" + S(W * N - 1) + ":0] inj_data,");
  v.line("input  wire [" + S(W * N - 1) + ":0] rd_count,  // each leaf's data network counter, for router-done");
  v.line("output wire [" + S(N - 1) + ":0] res_valid,");
  v.line("output wire [" + S(N - 1) + ":0] res_bcast,");
  v.line("output wire [" + S(2 * N - 1) + ":0] res_kind,");
  v.line("output wire [" + S(3 * N - 1) + ":0] res_comb,");
  v.line("output wire [" + S(W * N - 1) + ":0] res_data,");
  v.line("output wire [" + S(N - 1) + ":0] res_ovf,");
  v.line("output wire [" + S(N - 1) + ":0] res_err,");
  v.line("output wire [" + S(N - 1) + ":0] res_abstained,");
  v.comment("Fault injection (tie to 0): flip_up[K] (flip_down[K]) inverts wire 0 of link up_K (down_K) while high.");
  v.line("input  wire [" + S(2 * N - 1) + ":2] flip_up,");
  v.line("input  wire [" + S(2 * N - 1) + ":2] flip_down,");
  v.line("output wire fault,       // a queue overflowed or the order of operations was lost (never, in a correct network)");
  v.line("output wire bcast_drop,  // a broadcast found the root's queue full (more than broadcast_window unreturned)");
  v.line("output wire link_error   // a packet arrived with a wrong CRC (crc_bits = 8) and was taken as idle");
  v.end_ports();
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam integer PB = " + S(p.payload_bits()) + ";  // plus C CRC bits on the links");
  v.line("localparam integer C = " + S(p.crc_bits) + ";");
  v.line("localparam integer WU = " + S(p.up_width) + ";");
  v.line("localparam integer WD = " + S(p.down_width) + ";");
  v.line("localparam integer TU = " + S(p.up_frame()) + ";");
  v.line("localparam integer TD = " + S(p.down_frame()) + ";");
  v.line("localparam integer QD = " + S(QD) + ";");
  v.line("localparam integer QCW = " + S(clog2(static_cast<uint64_t>(QD) + 1)) + ";");
  v.line("localparam integer STOP_AT = " + S(QD - p.stop_margin()) + ";");
  v.line();
  v.comment("Links, named by the heap index of their lower end (node i's children are 2i and 2i+1;");
  v.comment("leaf j is " + S(N) + " + j): up_K runs from K to its parent, down_K from the parent to K;");
  v.comment("the receiving ends see up_K_rx, down_K_rx (wire 0 inverted by the fault injection).");
  auto flip = [](int width, const std::string& wv, const std::string& bit) {
    return width > 1 ? "{{(" + wv + "-1){1'b0}}, " + bit + "}" : bit;
  };
  for (int k = 2; k < 2 * N; ++k) {
    v.line("wire [WU-1:0] up_" + S(k) + ";");
    v.line("wire [WU-1:0] up_" + S(k) + "_rx = up_" + S(k) + " ^ " + flip(p.up_width, "WU", "flip_up[" + S(k) + "]") + ";");
    v.line("wire [WD-1:0] down_" + S(k) + ";");
    v.line("wire [WD-1:0] down_" + S(k) + "_rx = down_" + S(k) + " ^ " + flip(p.down_width, "WD", "flip_down[" + S(k) + "]") + ";");
  }
  v.line("wire [" + S(2 * N - 1) + ":1] faults, link_errors;");
  v.line("assign fault = |faults;");
  v.line("assign link_error = |link_errors;");
  v.line();
  v.comment("The root (level " + S(H) + ").");
  v.instance("cm5ctl_root", "root",
             {{"W", "W"}, {"PB", "PB"}, {"C", "C"}, {"WU", "WU"}, {"WD", "WD"}, {"TU", "TU"}, {"TD", "TD"},
              {"QD", "QD"}, {"QCW", "QCW"}, {"STOP_AT", "STOP_AT"}, {"BW", S(p.broadcast_window)},
              {"BCW", S(clog2(static_cast<uint64_t>(p.broadcast_window) + 1))}, {"RQ", S(p.root_queue_depth)},
              {"RCW", S(clog2(static_cast<uint64_t>(p.root_queue_depth) + 1))}},
             {{"clk", "clk"}, {"rst", "rst"}, {"up_l", "up_2_rx"}, {"up_r", "up_3_rx"}, {"down_l", "down_2"},
              {"down_r", "down_3"}, {"fault", "faults[1]"}, {"bcast_drop", "bcast_drop"},
              {"link_error", "link_errors[1]"}});
  for (int i = 2; i < N; ++i) {
    int depth = 0;
    for (int x = i; x > 1; x >>= 1) ++depth;
    const int level = H - depth;
    const int ad = p.aside_depth_at(level);
    v.comment("Node " + S(i) + " (level " + S(level) + ").");
    v.instance("cm5ctl_node", "node_" + S(i),
               {{"W", "W"}, {"PB", "PB"}, {"C", "C"}, {"WU", "WU"}, {"WD", "WD"}, {"TU", "TU"}, {"TD", "TD"},
                {"QD", "QD"}, {"QCW", "QCW"}, {"STOP_AT", "STOP_AT"}, {"AD", S(ad)},
                {"ACW", S(clog2(static_cast<uint64_t>(ad) + 1))}},
               {{"clk", "clk"}, {"rst", "rst"}, {"up_l", "up_" + S(2 * i) + "_rx"},
                {"up_r", "up_" + S(2 * i + 1) + "_rx"}, {"up_out", "up_" + S(i)}, {"down_in", "down_" + S(i) + "_rx"},
                {"down_l", "down_" + S(2 * i)}, {"down_r", "down_" + S(2 * i + 1)}, {"fault", "faults[" + S(i) + "]"},
                {"link_error", "link_errors[" + S(i) + "]"}});
  }
  const int ad0 = p.aside_depth_at(0);
  for (int j = 0; j < N; ++j) {
    const std::string J = S(j), K = S(N + j);
    v.comment("Leaf " + J + " (network interface).");
    v.instance("cm5ctl_leaf", "leaf_" + J,
               {{"W", "W"}, {"PB", "PB"}, {"C", "C"}, {"WU", "WU"}, {"WD", "WD"}, {"TU", "TU"}, {"TD", "TD"},
                {"LF", S(p.leaf_fifo_depth)}, {"LCW", S(clog2(static_cast<uint64_t>(p.leaf_fifo_depth) + 1))},
                {"AD", S(ad0)}, {"ACW", S(clog2(static_cast<uint64_t>(ad0) + 1))}, {"BW", S(p.broadcast_window)},
                {"BCW", S(clog2(static_cast<uint64_t>(p.broadcast_window) + 1))}},
               {{"clk", "clk"}, {"rst", "rst"}, {"inj_valid", "inj_valid[" + J + "]"},
                {"inj_ready", "inj_ready[" + J + "]"}, {"inj_bcast", "inj_bcast[" + J + "]"},
                {"inj_abstain", "inj_abstain[" + J + "]"}, {"inj_kind", "inj_kind[" + J + "*2 +: 2]"},
                {"inj_comb", "inj_comb[" + J + "*3 +: 3]"}, {"inj_segmented", "inj_segmented[" + J + "]"},
                {"inj_seg", "inj_seg[" + J + "]"}, {"inj_data", "inj_data[" + J + "*W +: W]"},
                {"rd_count", "rd_count[" + J + "*W +: W]"},
                {"res_valid", "res_valid[" + J + "]"}, {"res_bcast", "res_bcast[" + J + "]"},
                {"res_kind", "res_kind[" + J + "*2 +: 2]"}, {"res_comb", "res_comb[" + J + "*3 +: 3]"},
                {"res_data", "res_data[" + J + "*W +: W]"}, {"res_ovf", "res_ovf[" + J + "]"},
                {"res_err", "res_err[" + J + "]"}, {"res_abstained", "res_abstained[" + J + "]"},
                {"up_out", "up_" + K}, {"down_in", "down_" + K + "_rx"}, {"fault", "faults[" + K + "]"},
                {"link_error", "link_errors[" + K + "]"}});
  }
  v.close("endmodule");
  v.line("`default_nettype wire");
  return v.text();
}

}  // namespace

const std::vector<std::string>& cm5ctl_primitives() {
  static const std::vector<std::string> prims = {
      "cm5ctl_fifo.v",  "cm5ctl_frame.v", "cm5ctl_crc8.v", "cm5ctl_link_tx.v", "cm5ctl_link_rx.v", "cm5ctl_alu.v", "cm5ctl_combine.v",
      "cm5ctl_split.v", "cm5ctl_upmerge.v", "cm5ctl_node.v",  "cm5ctl_root.v",    "cm5ctl_leaf.v"};
  return prims;
}

std::string cm5ctl_manifest_json(const Cm5ctlConfig& cfg) {
  const Cm5ctlParams& p = cfg.p;
  nlohmann::ordered_json j;
  j["network"] = "cm5ctl";
  j["name"] = cfg.name;
  j["top"] = "cm5ctl_tree";
  nlohmann::ordered_json asides = nlohmann::ordered_json::array();
  for (int l = 0; l < p.height(); ++l) asides.push_back(p.aside_depth_at(l));
  j["derived"] = {{"height", p.height()},
                  {"nodes", p.nodes()},
                  {"packet_bits", p.packet_bits()},
                  {"crc_bits", p.crc_bits},
                  {"up_frame_cycles", p.up_frame()},
                  {"down_frame_cycles", p.down_frame()},
                  {"packet_time_cycles", p.packet_time()},
                  {"stop_margin", p.stop_margin()},
                  {"queue_depth", p.effective_queue_depth()},
                  {"aside_depth_by_level", asides},
                  {"latency_bound_cycles", p.latency_bound()}};
  j["packet"] = {{"fc", 0},   {"type", "2:1"}, {"kind", "4:3"}, {"comb", "7:5"}, {"segd", 8},
                 {"seg", 9},  {"ovf", 10},     {"err", 11},     {"data", std::to_string(11 + p.word_bits) + ":12"}};
  return j.dump(2) + "\n";
}

GeneratedDesign emit_cm5ctl(const Cm5ctlConfig& cfg) {
  validate(cfg.p, "config");
  GeneratedDesign d;
  d.top = "cm5ctl_tree";
  for (const auto& prim : cm5ctl_primitives()) d.files.emplace_back(prim, read_hw_file(prim));
  d.files.emplace_back("cm5ctl_tree.v", emit_tree(cfg.p));
  d.files.emplace_back("filelist.f", filelist(d));
  d.files.emplace_back("manifest.json", cm5ctl_manifest_json(cfg));
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

}  // namespace cmnet

#include "gen/cm5ctl/cm5ctl_emitter.h"

#include <nlohmann/json.hpp>

#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {


std::vector<std::pair<std::string, std::string>> header_params(const Cm5ctlParams& p) {
  return {{"leaves N", S(p.leaves)},
          {"height", S(p.height())},
          {"word_bits W", S(p.word_bits)},
          {"packet", p.packet},
          {"packet_bits (with crc_bits)", S(p.packet_bits()) + " (" + S(p.crc_bits) + ")"},
          {"up_width / down_width", S(p.up_width) + " / " + S(p.down_width)},
          {"up frame Tu / down frame Td (cycles)", S(p.up_frame()) + " / " + S(p.down_frame())},
          {"queue_depth (per child)", S(p.effective_queue_depth())},
          {"stop margin", S(p.stop_margin())},
          {"leaf_fifo_depth", S(p.leaf_fifo_depth)},
          {"broadcast_window", S(p.broadcast_window)},
          {"root_queue_depth", S(p.root_queue_depth)}};
}

int depth_of(int k) {
  int d = 0;
  for (; k > 1; k >>= 1) ++d;
  return d;
}

// The tree's module (cm5ctl_tree.v). Its text is built by the section functions below, in
// order, on one writer; the links each instance drives or reads and the fault, error and drop
// outputs of the instances are gathered on the way for the closing section.
class TreeEmitter {
 public:
  explicit TreeEmitter(const Cm5ctlParams& params) : p(params) {}

  std::string emit() {
    emit_ports_and_params();
    emit_links();
    emit_nodes();
    emit_leaves();
    emit_idle_links_and_outputs();
    return v.text();
  }

 private:
  const Cm5ctlParams& p;
  // Derived from p, in declaration order.
  const int N = p.leaves, W = p.word_bits, H = p.height();
  const int QD = p.effective_queue_depth();
  const Cm5Topology topo = cm5_topology(p);
  const bool chips = p.chip_nodes == 3;
  const std::vector<std::pair<std::string, std::string>> align_params = {
      {"ALIGN", S(p.alignment)}, {"L", S(p.frame_lcm())}, {"LPW", S(clog2(static_cast<uint64_t>(p.frame_lcm()) + 1))}};
  VerilogWriter v;
  std::vector<std::string> sink, faults, errors, drops;
  // Which instance drives each link's wires (else they are tied to 0), which reads them.
  std::vector<bool> up_driven = std::vector<bool>(static_cast<size_t>(2 * N), false),
                    down_driven = std::vector<bool>(static_cast<size_t>(2 * N), false);
  std::vector<bool> up_read = std::vector<bool>(static_cast<size_t>(2 * N), false),
                    down_read = std::vector<bool>(static_cast<size_t>(2 * N), false);

  int level(int k) const { return H - depth_of(k); }
  // Chip mode: a chip's top is a node at an even level (its lower nodes one level down, its
  // four children two); with an odd height the root is a node of its own.
  bool chip_top(int i) const { return chips && i < N && level(i) >= 2 && level(i) % 2 == 0; }
  bool in_chip(int i) const { return chips && i >= 2 && i < N && chip_top(i / 2); }  // a chip's lower node
  static std::string flip(int width, const std::string& wv, const std::string& bit) {
    return width > 1 ? "{{(" + wv + "-1){1'b0}}, " + bit + "}" : bit;
  }
  static std::string any(const std::vector<std::string>& xs) {
    if (xs.empty()) return std::string("1'b0");
    std::string o = "|{";
    for (size_t i = 0; i < xs.size(); ++i) o += (i ? ", " : "") + xs[i];
    return o + "}";
  }
  // The parameters of node i's instance (cm5ctl_root where root, else cm5ctl_node).
  std::vector<std::pair<std::string, std::string>> node_params(int i, bool root) const {
    std::vector<std::pair<std::string, std::string>> ps = {
        {"W", "W"}, {"PB", "PB"}, {"C", "C"}, {"F", "F"}, {"WU", "WU"}, {"WD", "WD"}, {"TU", "TU"}, {"TD", "TD"},
        {"QD", "QD"}, {"QCW", "QCW"}, {"STOP_AT", "STOP_AT"}};
    if (root) {
      ps.push_back({"BW", S(p.broadcast_window)});
      ps.push_back({"BCW", S(clog2(static_cast<uint64_t>(p.broadcast_window) + 1))});
      ps.push_back({"RQ", S(p.root_queue_depth)});
      ps.push_back({"RCW", S(clog2(static_cast<uint64_t>(p.root_queue_depth) + 1))});
    } else {
      const int ad = p.aside_depth_at(level(i));
      ps.push_back({"AD", S(ad)});
      ps.push_back({"ACW", S(clog2(static_cast<uint64_t>(ad) + 1))});
    }
    ps.push_back({"OUT_L", topo.used(2 * i) ? "0" : "1"});
    ps.push_back({"OUT_R", topo.used(2 * i + 1) ? "0" : "1"});
    for (const auto& a : align_params) ps.push_back(a);
    ps.push_back({"QRAM", "QRAM"});
    return ps;
  }

  // Emits the header comment, the port list and the localparams.
  void emit_ports_and_params() {
    auto hp = header_params(p);
    std::string parts;
    for (int r : topo.roots) parts += (parts.empty() ? "" : ", ") + S(r);
    std::string outs;
    for (int m : p.mapped_out) outs += (outs.empty() ? "" : ", ") + S(m);
    hp.push_back({"partition roots (heap index)", parts});
    hp.push_back({"mapped out (heap index)", outs.empty() ? "none" : outs});
    hp.push_back({"nodes per chip", S(p.chip_nodes)});
    hp.push_back({"alignment packet (init cycles)", S(p.alignment) + " (" + S(p.init_cycles()) + ")"});
    v.header("CM-5 control network: a binary combining tree of " + S(N) + " leaves (" + S(N - 1) +
                 " nodes), broadcasts, reductions, scans, sync OR, asynchronous ORs, flush.",
             hp);
    v.open("module cm5ctl_tree (");
    v.line("input  wire clk,");
    v.line("input  wire rst,");
    v.comment("Leaf j's processor port is bit j (field j) of each bus; see hw/cm5ctl/cm5ctl_leaf.v.");
    cm5ctl_processor_ports(v, N, W, true);
    v.line("output wire [" + S(N - 1) + ":0] aligned,  // the alignment packet has come (alignment = 1; else from reset)");
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
    v.line("localparam integer F = " + S(p.cm5_frame() ? 1 : 0) + ";  // 1: the CM-5's 65-bit frame (major and minor streams)");
    v.line("localparam integer WU = " + S(p.up_width) + ";");
    v.line("localparam integer WD = " + S(p.down_width) + ";");
    v.line("localparam integer TU = " + S(p.up_frame()) + ";");
    v.line("localparam integer TD = " + S(p.down_frame()) + ";");
    v.line("localparam integer QD = " + S(QD) + ";");
    v.line("localparam integer QCW = " + S(clog2(static_cast<uint64_t>(QD) + 1)) + ";");
    v.line("localparam integer STOP_AT = " + S(QD - p.stop_margin()) + ";");
    v.line("localparam integer QRAM = " + S(p.queue_ram) + ";  // 1: the nodes' child queues in block RAM");
    v.line();
  }

  // Emits the links' wires (each with its fault injection on wire 0) outside the chips.
  void emit_links() {
    v.comment("Links, named by the heap index of their lower end (node i's children are 2i and 2i+1;");
    v.comment("leaf j is " + S(N) + " + j): up_K runs from K to its parent, down_K from the parent to K;");
    v.comment("the receiving ends see up_K_rx, down_K_rx (wire 0 inverted by the fault injection).");
    if (chips) v.comment("Links inside a chip (between its top node and its two lower nodes) are not here.");
    for (int k = 2; k < 2 * N; ++k) {
      if (in_chip(k)) {
        sink.push_back("flip_up[" + S(k) + "]");
        sink.push_back("flip_down[" + S(k) + "]");
        continue;
      }
      v.line("wire [WU-1:0] up_" + S(k) + ";");
      v.line("wire [WU-1:0] up_" + S(k) + "_rx = up_" + S(k) + " ^ " + flip(p.up_width, "WU", "flip_up[" + S(k) + "]") + ";");
      v.line("wire [WD-1:0] down_" + S(k) + ";");
      v.line("wire [WD-1:0] down_" + S(k) + "_rx = down_" + S(k) + " ^ " + flip(p.down_width, "WD", "flip_down[" + S(k) + "]") + ";");
    }
    v.line();
  }

  // Emits one chip (chip mode): its top node i, its two lower nodes and their links inside.
  void emit_chip(int i) {
    const std::string I = S(i), L = S(2 * i), R = S(2 * i + 1);
    const int ad_t = p.aside_depth_at(level(i)), ad_c = p.aside_depth_at(level(i) - 1);
    std::string use;
    for (int c = 4 * i + 3; c >= 4 * i; --c) use += topo.used(c) ? "1" : "0";
    if (i == 1) {
      v.line("wire [WU-1:0] up_top;  // the top chip's parent link leads nowhere");
      sink.push_back("up_top");
    }
    v.comment("Chip " + I + " (nodes " + I + ", " + L + ", " + R + "; levels " + S(level(i)) + ", " + S(level(i) - 1) + ").");
    v.instance("cm5ctl_chip", "chip_" + I,
               {{"W", "W"}, {"PB", "PB"}, {"C", "C"}, {"F", "F"}, {"WU", "WU"}, {"WD", "WD"}, {"TU", "TU"}, {"TD", "TD"},
                {"QD", "QD"}, {"QCW", "QCW"}, {"STOP_AT", "STOP_AT"}, {"AD_T", S(ad_t)},
                {"ACW_T", S(clog2(static_cast<uint64_t>(ad_t) + 1))}, {"AD_C", S(ad_c)},
                {"ACW_C", S(clog2(static_cast<uint64_t>(ad_c) + 1))}, {"BW", S(p.broadcast_window)},
                {"BCW", S(clog2(static_cast<uint64_t>(p.broadcast_window) + 1))}, {"RQ", S(p.root_queue_depth)},
                {"RCW", S(clog2(static_cast<uint64_t>(p.root_queue_depth) + 1))},
                {"ROLE_T", S(topo.role[static_cast<size_t>(i)])}, {"ROLE_L", S(topo.role[static_cast<size_t>(2 * i)])},
                {"ROLE_R", S(topo.role[static_cast<size_t>(2 * i + 1)])}, {"USE", "4'b" + use},
                align_params[0], align_params[1], align_params[2], {"QRAM", "QRAM"}},
               {{"clk", "clk"}, {"rst", "rst"},
                {"up_c", "{up_" + S(4 * i + 3) + "_rx, up_" + S(4 * i + 2) + "_rx, up_" + S(4 * i + 1) + "_rx, up_" + S(4 * i) + "_rx}"},
                {"down_c", "{down_" + S(4 * i + 3) + ", down_" + S(4 * i + 2) + ", down_" + S(4 * i + 1) + ", down_" + S(4 * i) + "}"},
                {"up_out", i == 1 ? "up_top" : "up_" + I}, {"down_in", i == 1 ? "{WD{1'b0}}" : "down_" + I + "_rx"},
                {"fault", "fault_" + I}, {"bcast_drop", "drop_" + I}, {"link_error", "lerr_" + I}});
    for (int c = 4 * i; c < 4 * i + 4; ++c) {
      up_read[static_cast<size_t>(c)] = true;
      down_driven[static_cast<size_t>(c)] = true;
    }
    if (i != 1) {
      up_driven[static_cast<size_t>(i)] = true;
      down_read[static_cast<size_t>(i)] = true;
    }
    v.line("wire fault_" + I + ", drop_" + I + ", lerr_" + I + ";");
    faults.push_back("fault_" + I);
    drops.push_back("drop_" + I);
    errors.push_back("lerr_" + I);
  }

  // Emits the nodes and partition roots above the leaves, a chip for each chip top.
  void emit_nodes() {
    for (int i = 1; i < N; ++i) {
      if (in_chip(i)) continue;
      const std::string I = S(i), L = S(2 * i), R = S(2 * i + 1);
      if (chip_top(i)) {
        emit_chip(i);
        continue;
      }
      const int role = topo.role[static_cast<size_t>(i)];
      if (role == 0) continue;
      v.comment(std::string(role == 2 ? "Partition root " : "Node ") + I + " (level " + S(level(i)) + ").");
      v.line("wire fault_" + I + ", lerr_" + I + ";");
      if (role == 2) {
        v.line("wire drop_" + I + ";");
        v.instance("cm5ctl_root", "root_" + I, node_params(i, true),
                   {{"clk", "clk"}, {"rst", "rst"}, {"up_l", "up_" + L + "_rx"}, {"up_r", "up_" + R + "_rx"},
                    {"down_l", "down_" + L}, {"down_r", "down_" + R}, {"fault", "fault_" + I},
                    {"bcast_drop", "drop_" + I}, {"link_error", "lerr_" + I}});
        drops.push_back("drop_" + I);
      } else {
        v.instance("cm5ctl_node", "node_" + I, node_params(i, false),
                   {{"clk", "clk"}, {"rst", "rst"}, {"up_l", "up_" + L + "_rx"}, {"up_r", "up_" + R + "_rx"},
                    {"up_out", "up_" + I}, {"down_in", "down_" + I + "_rx"}, {"down_l", "down_" + L},
                    {"down_r", "down_" + R}, {"fault", "fault_" + I}, {"link_error", "lerr_" + I}});
        up_driven[static_cast<size_t>(i)] = true;
        down_read[static_cast<size_t>(i)] = true;
      }
      faults.push_back("fault_" + I);
      errors.push_back("lerr_" + I);
      for (int c : {2 * i, 2 * i + 1}) {
        up_read[static_cast<size_t>(c)] = true;
        down_driven[static_cast<size_t>(c)] = true;
      }
    }
  }

  // Emits the leaves (the network interfaces).
  void emit_leaves() {
    const int ad0 = p.aside_depth_at(0);
    for (int j = 0; j < N; ++j) {
      const std::string J = S(j), K = S(N + j);
      v.comment("Leaf " + J + " (network interface)" + (topo.used(N + j) ? "." : ": not in use (mapped out or outside every partition)."));
      v.line("wire fault_l" + J + ", lerr_l" + J + ";");
      v.instance("cm5ctl_leaf", "leaf_" + J,
                 {{"W", "W"}, {"PB", "PB"}, {"C", "C"}, {"F", "F"}, {"WU", "WU"}, {"WD", "WD"}, {"TU", "TU"}, {"TD", "TD"},
                  {"LF", S(p.leaf_fifo_depth)}, {"LCW", S(clog2(static_cast<uint64_t>(p.leaf_fifo_depth) + 1))},
                  {"AD", S(ad0)}, {"ACW", S(clog2(static_cast<uint64_t>(ad0) + 1))}, {"BW", S(p.broadcast_window)},
                  {"BCW", S(clog2(static_cast<uint64_t>(p.broadcast_window) + 1))}, align_params[0], align_params[1],
                  align_params[2], {"INIT", S(p.init_cycles())},
                  {"ICW", S(clog2(static_cast<uint64_t>(p.init_cycles()) + 1))}},
                 {{"clk", "clk"}, {"rst", "rst"}, {"inj_valid", "inj_valid[" + J + "]"},
                  {"inj_ready", "inj_ready[" + J + "]"}, {"inj_bcast", "inj_bcast[" + J + "]"},
                  {"inj_abstain", "inj_abstain[" + J + "]"}, {"inj_kind", "inj_kind[" + J + "*2 +: 2]"},
                  {"inj_comb", "inj_comb[" + J + "*3 +: 3]"}, {"inj_segmented", "inj_segmented[" + J + "]"},
                  {"inj_seg", "inj_seg[" + J + "]"}, {"inj_data", "inj_data[" + J + "*W +: W]"},
                  {"rd_count", "rd_count[" + J + "*W +: W]"}, {"restart", "restart[" + J + "]"},
                  {"async_in", "async_in[" + J + "*2 +: 2]"}, {"hard_error_in", "hard_error_in[" + J + "]"},
                  {"res_valid", "res_valid[" + J + "]"}, {"res_bcast", "res_bcast[" + J + "]"},
                  {"res_kind", "res_kind[" + J + "*2 +: 2]"}, {"res_comb", "res_comb[" + J + "*3 +: 3]"},
                  {"res_data", "res_data[" + J + "*W +: W]"}, {"res_ovf", "res_ovf[" + J + "]"},
                  {"res_err", "res_err[" + J + "]"}, {"res_abstained", "res_abstained[" + J + "]"},
                  {"async_out", "async_out[" + J + "*2 +: 2]"}, {"hard_error_out", "hard_error_out[" + J + "]"},
                  {"halted", "halted[" + J + "]"}, {"aligned", "aligned[" + J + "]"},
                  {"up_out", "up_" + K}, {"down_in", "down_" + K + "_rx"}, {"fault", "fault_l" + J},
                  {"link_error", "lerr_l" + J}});
      up_driven[static_cast<size_t>(N + j)] = true;
      down_read[static_cast<size_t>(N + j)] = true;
      faults.push_back("fault_l" + J);
      errors.push_back("lerr_l" + J);
    }
  }

  // Emits the idle links, the fault, error and drop outputs and the sink of unused wires.
  void emit_idle_links_and_outputs() {
    v.line();
    v.comment("Links no instance drives (above the partitions' roots, below parts not built) are idle.");
    for (int k = 2; k < 2 * N; ++k) {
      if (in_chip(k)) continue;
      const std::string K = S(k);
      if (!up_driven[static_cast<size_t>(k)]) v.line("assign up_" + K + " = {WU{1'b0}};");
      if (!down_driven[static_cast<size_t>(k)]) v.line("assign down_" + K + " = {WD{1'b0}};");
      if (!up_read[static_cast<size_t>(k)]) sink.push_back("up_" + K + "_rx");
      if (!down_read[static_cast<size_t>(k)]) sink.push_back("down_" + K + "_rx");
    }
    v.line("assign fault = " + any(faults) + ";");
    v.line("assign link_error = " + any(errors) + ";");
    v.line("assign bcast_drop = " + any(drops) + ";");
    if (!sink.empty()) {
      std::string u = "wire unused = &{1'b0";
      for (const auto& x : sink) u += ", " + x;
      v.line(u + "};");
    }
    v.end_module();
  }
};

std::string emit_tree(const Cm5ctlParams& p) { return TreeEmitter(p).emit(); }

}  // namespace

const std::vector<std::string>& cm5ctl_primitives() {
  static const std::vector<std::string> prims = {
      "cm5ctl_fifo.v",  "cm5ctl_frame.v", "cm5ctl_align.v", "cm5ctl_crc8.v", "cm5ctl_link_tx.v", "cm5ctl_link_rx.v", "cm5ctl_alu.v", "cm5ctl_alu2.v", "cm5ctl_combine.v",
      "cm5ctl_split.v", "cm5ctl_upmerge.v", "cm5ctl_node.v",  "cm5ctl_root.v",    "cm5ctl_chip.v", "cm5ctl_leaf.v"};
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
                  {"packet", p.packet},
                  {"up_frame_cycles", p.up_frame()},
                  {"down_frame_cycles", p.down_frame()},
                  {"packet_time_cycles", p.packet_time()},
                  {"stop_margin", p.stop_margin()},
                  {"queue_depth", p.effective_queue_depth()},
                  {"aside_depth_by_level", asides},
                  {"latency_bound_cycles", p.latency_bound()}};
  j["packet"] = {{"fc", 0},   {"type", "2:1"}, {"kind", "4:3"}, {"comb", "7:5"}, {"segd", 8},
                 {"seg", 9},  {"ovf", 10},     {"err", 11},     {"global", "14:12"},
                 {"data", std::to_string(14 + p.word_bits) + ":15"}};
  const Cm5Topology t = cm5_topology(p);
  j["partitions"] = t.roots;
  j["mapped_out"] = p.mapped_out;
  j["chip_nodes"] = p.chip_nodes;
  j["alignment"] = p.alignment;
  j["init_cycles"] = p.init_cycles();
  j["leaf_partition"] = t.part;
  return j.dump(2) + "\n";
}

void cm5ctl_processor_ports(VerilogWriter& v, int N, int W, bool rd_count) {
  v.line("input  wire [" + S(N - 1) + ":0] inj_valid,");
  v.line("output wire [" + S(N - 1) + ":0] inj_ready,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_bcast,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_abstain,");
  v.line("input  wire [" + S(2 * N - 1) + ":0] inj_kind,");
  v.line("input  wire [" + S(3 * N - 1) + ":0] inj_comb,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_segmented,");
  v.line("input  wire [" + S(N - 1) + ":0] inj_seg,");
  v.line("input  wire [" + S(W * N - 1) + ":0] inj_data,");
  if (rd_count)
    v.line("input  wire [" + S(W * N - 1) + ":0] rd_count,  // each leaf's data network counter, for router-done");
  v.line("input  wire [" + S(N - 1) + ":0] restart,  // resume a leaf's interface after a flush");
  v.line("input  wire [" + S(2 * N - 1) + ":0] async_in,  // leaf j: bits 2j (async OR 0), 2j+1 (async OR 1, privileged)");
  v.line("input  wire [" + S(N - 1) + ":0] hard_error_in,");
  v.line("output wire [" + S(N - 1) + ":0] res_valid,");
  v.line("output wire [" + S(N - 1) + ":0] res_bcast,");
  v.line("output wire [" + S(2 * N - 1) + ":0] res_kind,");
  v.line("output wire [" + S(3 * N - 1) + ":0] res_comb,");
  v.line("output wire [" + S(W * N - 1) + ":0] res_data,");
  v.line("output wire [" + S(N - 1) + ":0] res_ovf,");
  v.line("output wire [" + S(N - 1) + ":0] res_err,");
  v.line("output wire [" + S(N - 1) + ":0] res_abstained,");
  v.line("output wire [" + S(2 * N - 1) + ":0] async_out,  // the partition's asynchronous ORs");
  v.line("output wire [" + S(N - 1) + ":0] hard_error_out,  // the partition's hard-error OR");
  v.line("output wire [" + S(N - 1) + ":0] halted,  // flushed, waiting for a restart");
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

#include "gen/cm5/cm5_emitter.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "gen/cm5data/cm5data_emitter.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {

namespace {


bool is_meta(const std::string& f) { return f == "filelist.f" || f == "manifest.json" || f == "config.json"; }

std::string machine_module(const Cm5MachineConfig& cfg) {
  const Cm5DataParams& dp = cfg.data.cm5;
  const Cm5ctlParams& cp = cfg.ctl.p;
  const int N = cp.leaves, W = dp.link_bits, WC = cp.word_bits;
  const Cm5DataWidths w0 = cm5_widths(dp, 0);
  VerilogWriter v;
  v.header("CM-5 machine: the data network (left and right, a cm5data_ni per leaf and side) and the control "
           "network (cm5ctl_tree) over the same leaves; router-done sums each leaf's interface counter "
           "(messages accepted into its NIs' send FIFOs minus messages whole in their receive FIFOs).",
           {{"leaves N", S(N)},
            {"data: height", S(dp.height)},
            {"data: link_bits", S(W)},
            {"data: max_words", S(dp.max_words)},
            {"data: buffer_words", S(dp.buffer_words)},
            {"data: seed (right: seed + 1)", S(dp.seed)},
            {"control: word_bits", S(WC)},
            {"control: up_width / down_width", S(cp.up_width) + " / " + S(cp.down_width)},
            {"control: crc_bits", S(cp.crc_bits)}});
  v.open("module cm5_machine (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.comment("The processors' buses of the data network interfaces: side s (0 left, 1 right) of leaf x at q = s*N + x.");
  v.line("input  wire [" + S(2 * N * 4 - 1) + ":0] ni_addr,");
  v.line("input  wire [" + S(2 * N * 32 - 1) + ":0] ni_wdata,");
  v.line("input  wire [" + S(2 * N - 1) + ":0] ni_we,");
  v.line("input  wire [" + S(2 * N - 1) + ":0] ni_re,");
  v.line("output wire [" + S(2 * N * 32 - 1) + ":0] ni_rdata,");
  v.line("output wire [" + S(2 * N - 1) + ":0] ni_irq,");
  v.comment("The processors' side of the control network (cm5ctl_tree's, leaf x at bit x).");
  cm5ctl_processor_ports(v, N, WC, false);
  v.line("output wire fault,");
  v.line("output wire bcast_drop,");
  v.line("output wire link_error,");
  v.comment("Router-done's inputs as the control network sees them (signed), and the test hooks: a pulse");
  v.comment("arms the leaf's counter for the next message whole at its interface (either side).");
  v.line("output wire [" + S(WC * N - 1) + ":0] rd_count,");
  v.line("input  wire [" + S(N - 1) + ":0] lose_next,  // not counted: a message the data network lost");
  v.line("input  wire [" + S(N - 1) + ":0] dup_next    // counted twice: a message it duplicated");
  v.end_ports();
  v.line("localparam integer N = " + S(N) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam integer WC = " + S(WC) + ";");
  v.line();
  v.comment("The data network: both trees, their leaf links, an NI per leaf and side.");
  v.line("wire [2*N-1:0] leaf_tx_valid, leaf_tx_credit, leaf_rx_valid, leaf_rx_credit;");
  v.line("wire [2*N*W-1:0] leaf_tx_data, leaf_rx_data;");
  v.line("wire [31:0] unused_cnt_l, unused_cnt_r;");
  v.line("wire [2*N*8-1:0] unused_free;");
  v.line("wire [2*N-1:0] ev_accept, ev_recv, unused_sent, unused_taken, unused_intr, unused_addr;");
  v.line("wire [" + S(N - 1) + ":0] unused_aligned;");
  // The machine reads no chip counter and sends as soon as a message is in (tx_start 1).
  const Cm5NiBankHooks hooks{.clear = "1'b0", .cnt_chip = S(w0.chip) + "'d0", .cnt_sel = S(w0.sel) + "'d0",
                             .cnt_left = "unused_cnt_l", .cnt_right = "unused_cnt_r", .tx_start = "",
                             .send_free = "unused_free", .ev_sent = "unused_sent",
                             .ev_taken = "unused_taken", .ev_intr = "unused_intr", .ev_addr = "unused_addr"};
  emit_cm5data_networks(v, dp, hooks);
  v.line("genvar g, s;");
  v.line("generate");
  emit_cm5data_ni_bank(v, hooks);
  v.line();
  v.comment("Each leaf's interface counter (paper, section 5: \"the network interfaces keep track of the number");
  v.comment("of messages that enter and leave the data network\"): + a message accepted into either send FIFO");
  v.comment("(the processor's send is done: it is in the network's hands), - a message whole in either receive");
  v.comment("FIFO (it has left the network). Registered: the events of a cycle count from the next one.");
  v.open("for (g = 0; g < N; g = g + 1) begin : g_count");
  v.line("wire [1:0] put = {1'b0, ev_accept[g]} + {1'b0, ev_accept[N+g]};");
  v.line("wire [1:0] got = {1'b0, ev_recv[g]} + {1'b0, ev_recv[N+g]};");
  v.line("wire hit = got != 2'd0;");
  v.line("reg lose_arm, dup_arm;");
  v.line("wire [2:0] counted = {1'b0, got} - {2'd0, hit && lose_arm} + {2'd0, hit && dup_arm};");
  v.line("reg [WC-1:0] cnt;");
  v.line("always @(posedge clk)");
  v.line("  if (rst) begin");
  v.line("    cnt <= {WC{1'b0}};");
  v.line("    lose_arm <= 1'b0;");
  v.line("    dup_arm <= 1'b0;");
  v.line("  end else begin");
  v.line("    cnt <= cnt + {{(WC-2){1'b0}}, put} - {{(WC-3){1'b0}}, counted};");
  v.line("    lose_arm <= (lose_arm && !hit) || lose_next[g];");
  v.line("    dup_arm <= (dup_arm && !hit) || dup_next[g];");
  v.line("  end");
  v.line("assign rd_count[g*WC +: WC] = cnt;");
  v.close("end");
  v.line("endgenerate");
  v.line();
  v.comment("The control network, its router-done inputs the counters; no link faults injected here.");
  v.instance("cm5ctl_tree", "ctl", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"inj_valid", "inj_valid"}, {"inj_ready", "inj_ready"},
              {"inj_bcast", "inj_bcast"}, {"inj_abstain", "inj_abstain"}, {"inj_kind", "inj_kind"},
              {"inj_comb", "inj_comb"}, {"inj_segmented", "inj_segmented"}, {"inj_seg", "inj_seg"},
              {"inj_data", "inj_data"}, {"rd_count", "rd_count"}, {"restart", "restart"}, {"async_in", "async_in"},
              {"hard_error_in", "hard_error_in"}, {"res_valid", "res_valid"}, {"res_bcast", "res_bcast"},
              {"res_kind", "res_kind"}, {"res_comb", "res_comb"}, {"res_data", "res_data"}, {"res_ovf", "res_ovf"},
              {"res_err", "res_err"}, {"res_abstained", "res_abstained"}, {"async_out", "async_out"},
              {"hard_error_out", "hard_error_out"}, {"halted", "halted"}, {"aligned", "unused_aligned"},
              {"flip_up", "{" + S(2 * N - 2) + "{1'b0}}"}, {"flip_down", "{" + S(2 * N - 2) + "{1'b0}}"},
              {"fault", "fault"}, {"bcast_drop", "bcast_drop"}, {"link_error", "link_error"}});
  v.close("endmodule");
  return v.text();
}

}  // namespace

std::string cm5_machine_manifest_json(const Cm5MachineConfig& cfg) {
  const nlohmann::json d = nlohmann::json::parse(cm5data_manifest_json(cfg.data));
  const nlohmann::json c = nlohmann::json::parse(cm5ctl_manifest_json(cfg.ctl));
  const nlohmann::json j = {
      {"family", "cm5"},
      {"name", cfg.name},
      {"top", "cm5_machine"},
      {"leaves", cfg.leaves()},
      {"router_done_counter",
       "per leaf: messages accepted into its NIs' send FIFOs (left and right) minus messages whole in their receive "
       "FIFOs, word_bits-bit signed, registered"},
      {"cm5data", d},
      {"cm5ctl", c}};
  return j.dump(2) + "\n";
}

GeneratedDesign emit_cm5_machine(const Cm5MachineConfig& cfg) {
  if (cfg.leaves() != static_cast<int>(cfg.data.cm5.leaves()))
    throw std::logic_error("cm5 machine: the networks' leaves differ (the config should have refused it)");
  GeneratedDesign d;
  d.top = "cm5_machine";
  for (auto& f : emit_cm5data(cfg.data).files)
    if (!is_meta(f.first)) d.files.push_back(f);
  // The right network: the same tree and routers, its own LFSR seeds (seed + 1), as cm5data's board.
  Cm5DataParams right = cfg.data.cm5;
  right.seed = (right.seed + 1) & 0xFFFFu;
  d.files.emplace_back("cm5data_network_r.v", emit_cm5data_network_module(right, "cm5data_network_r"));
  d.files.emplace_back("cm5data_ni.v", emit_cm5data_ni_module(cfg.data.cm5, cm5_ni_send_words(cfg.data.cm5)));
  for (auto& f : emit_cm5ctl(cfg.ctl).files) {
    if (is_meta(f.first)) continue;
    if (std::any_of(d.files.begin(), d.files.end(), [&](const auto& g) { return g.first == f.first; }))
      throw std::logic_error("cm5 machine: both networks emit " + f.first);
    d.files.push_back(f);
  }
  d.files.emplace_back("cm5_machine.v", machine_module(cfg));
  d.files.emplace_back("filelist.f", filelist(d));
  d.files.emplace_back("manifest.json", cm5_machine_manifest_json(cfg));
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

}  // namespace cmnet

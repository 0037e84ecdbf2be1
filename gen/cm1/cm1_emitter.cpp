#include "gen/cm1/cm1_emitter.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gen/cm1/cm1_counter_list.h"
#include "gen/core/errors.h"
#include "gen/core/hypercube_topology.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {


const std::vector<std::string> kPrimitives = {"cmnet_counter_bank.v", "cm1_prefix.v", "cm1_phase_flags.v",
                                              "cm1_injector.v", "cm1_heart_column.v", "cm1_ejector.v",
                                              "cm1_buffers.v", "cm1_endpoint.v"};

std::vector<std::pair<std::string, std::string>> header_params(const Cm1Params& p) {
  return {{"cube_dims c", S(p.cube_dims)},
          {"rows b", S(p.rows)},
          {"procs_per_chip P", S(p.procs_per_chip)},
          {"vp_bits v", S(p.vp_bits)},
          {"data_bits d", S(p.data_bits)},
          {"queue_depth", S(1 << cm1_widths(p).queue_log2)},
          {"message length l", S(p.msg_len())},
          {"petit period", S(p.petit_period())},
          {"T_heart", S(p.t_heart())},
          {"heart storage bits", S(p.heart_storage_bits())}};
}

// The event counter `name` (gen/cm1/cm1_counter_list.h) counts, per ce cycle: its increment
// over the router's event registers. Its index is its place in cm1_counter_names, never fixed here.
std::string counter_increment(const std::string& name) {
  if (name == "injected") return "ones_b(ev_rows) - ones_b(ev_bufs)";
  if (name == "delivered") return "ones_b(ev_delivered)";
  if (name == "desperation") return "ones_c(desperation)";
  if (name == "petit_cycles") return "{{IW-1{1'b0}}, ev_petit}";
  if (name == "parity_errors") return "ones_b(parity_error)";
  if (name.starts_with(kCm1BusyCounter)) return "{{IW-1{1'b0}}, ev_busy[" + name.substr(kCm1BusyCounter.size()) + "]}";
  throw ConfigError("CM-1 router: no increment for counter '" + name + "'");
}

// The load port's message fields (destination chip and processor, VP, data): the chip's and the
// network's.
void emit_load_fields(VerilogWriter& v, const Cm1Params& p, const Cm1Widths& w) {
  v.line("input  wire [" + S(p.cube_dims - 1) + ":0] load_chip,");
  v.line("input  wire [" + S(w.proc_field - 1) + ":0] load_dproc,");
  v.line("input  wire [" + S(w.vp_field - 1) + ":0] load_vp,");
  v.line("input  wire [" + S(p.data_bits - 1) + ":0] load_data,");
}

// The router's header, ports and localparams.
void emit_router_ports(VerilogWriter& v, const Cm1Params& p) {
  const Cm1Widths w = cm1_widths(p);
  const int B = p.rows, C = p.cube_dims, P = p.procs_per_chip;
  const int L = p.msg_len(), TP = p.petit_period();
  v.header("CM-1 router chip: injector, " + S(C) + "-column heart, ejector, buffers, counters.",
           header_params(p));
  v.open("module cm1_router (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire ce,         // clock enable: flip-flops update (and inputs are sampled) only when high; rst regardless");
  v.line("input  wire [" + S(w.phase - 1) + ":0] phase,   // advances by one every ce cycle (mod the petit period), 0 at the first after rst");
  v.line("input  wire run,        // processors offer at phase 0 while high; counts petit cycles");
  v.line("input  wire clear,      // zeroes the counters");
  v.line("input  wire eject_one,  // ejector mode: 1 = one message per petit cycle, 0 = OR-combine");
  v.line("input  wire [" + S(P - 1) + ":0] proc_ahead,      // each processor's message bit of the next cycle (after phase 0)");
  v.line("input  wire [" + S(P - 1) + ":0] proc_a0,         // the first CUBE-ADDRESS bit of each processor's head message");
  v.line("input  wire [" + S(P - 1) + ":0] proc_pend,       // endpoint p has a message to offer");
  v.line("input  wire [" + S(P - 1) + ":0] proc_fill,       // endpoint p is empty and gets a message now");
  v.line("output wire [" + S(P - 1) + ":0] proc_ack,");
  v.line("output wire [" + S(P - 1) + ":0] proc_rx,");
  v.line("output wire [" + S(P - 1) + ":0] proc_start,");
  v.line("output wire [" + S(C - 1) + ":0] cube_out,");
  v.line("input  wire [" + S(C - 1) + ":0] cube_in,");
  v.line("output wire msgs_present, // at phase 0: the buffers hold undelivered messages (independent of run)");
  v.line("input  wire [" + S(w.sel - 1) + ":0] cnt_sel,");
  v.line("output wire [31:0] cnt_value");
  v.end_ports();
  v.line("localparam integer B = " + S(B) + ";");
  v.line("localparam integer C = " + S(C) + ";");
  v.line("localparam integer P = " + S(P) + ";");
  v.line("localparam integer L = " + S(L) + ";");
  v.line("localparam integer TP = " + S(TP) + ";");
  v.line("localparam integer PW = " + S(w.phase) + ";");
  v.line();
}

// The rows' path: the injector, the heart's columns (one per cube dimension), the ejector, the buffers.
void emit_router_datapath(VerilogWriter& v, const Cm1Params& p) {
  const int C = p.cube_dims, TP = p.petit_period();
  v.comment("Rows entering each heart column; col" + S(C) + "_rows leaves the heart.");
  for (int i = 0; i <= C; ++i) v.line("wire [B-1:0] col" + S(i) + "_rows;");
  v.line("wire [B-1:0] buf_rows;");
  v.line("wire [B-1:0] ejected;");
  v.line("wire [B-1:0] parity_error;");
  v.line("wire [C-1:0] desperation;");
  v.line("wire [C-1:0] wire_busy;");
  v.line("wire [B-1:0] drop;");
  v.comment("The same rows except at their MSGP bit-time (without the logic that makes the MSGP");
  v.comment("bits): body_rows[i*B +: B] leaves column i; slot_body leaves the injector.");
  v.line("wire [C*B-1:0] body_rows;");
  v.line("wire [B-1:0] slot_body;");
  v.line("wire eject_strobe;");
  v.line();
  v.instance("cm1_injector", "injector", {{"B", "B"}, {"P", "P"}, {"PW", "PW"}, {"TP", "TP"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"phase", "phase"}, {"run", "run"},
              {"buf_in", "buf_rows"}, {"proc_ahead", "proc_ahead"}, {"proc_a0", "proc_a0"}, {"proc_pend", "proc_pend"},
              {"proc_fill", "proc_fill"}, {"slot_out", "col0_rows"}, {"slot_body", "slot_body"}, {"ack", "proc_ack"}});
  v.line("assign msgs_present = |buf_rows;");
  v.line();
  for (int i = 0; i < C; ++i) {
    v.comment("Column " + S(i) + ": cube dimension " + S(i) + ".");
    v.instance("cm1_heart_column", "col" + S(i),
               {{"B", "B"}, {"C", "C"}, {"COL", S(i)}, {"L", "L"}, {"TP", "TP"}, {"PW", "PW"}},
               {{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"phase", "phase"},
                {"row_in", "col" + S(i) + "_rows"},
                {"row_in_body", i == 0 ? std::string("slot_body") : "body_rows[" + S(i - 1) + "*B +: B]"},
                {"row_out", "col" + S(i + 1) + "_rows"}, {"row_body", "body_rows[" + S(i) + "*B +: B]"},
                {"cube_out", "cube_out[" + S(i) + "]"}, {"cube_in", "cube_in[" + S(i) + "]"},
                {"desperation", "desperation[" + S(i) + "]"},
                {"wire_busy", "wire_busy[" + S(i) + "]"}});
  }
  v.line();
  v.instance("cm1_ejector", "ejector",
             {{"B", "B"}, {"P", "P"}, {"C", "C"}, {"PA", S(p.proc_bits())}, {"V", S(p.vp_bits)},
              {"D", S(p.data_bits)}, {"L", "L"}, {"TP", "TP"}, {"PW", "PW"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"phase", "phase"}, {"eject_one", "eject_one"},
              {"row_in", "col" + S(C) + "_rows"}, {"row_body", "body_rows[" + S(C - 1) + "*B +: B]"},
              {"ejected", "ejected"}, {"drop", "drop"},
              {"count_strobe", "eject_strobe"}, {"parity_error", "parity_error"},
              {"proc_rx", "proc_rx"}, {"proc_start", "proc_start"}});
  v.line();
  v.instance("cm1_buffers", "buffers", {{"B", "B"}, {"DL", S(TP - 2 * C)}, {"DP", S(TP - 3 * C)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"row_in", "col" + S(C) + "_rows"},
              {"drop", "drop"}, {"buf_out", "buf_rows"}});
  v.line();
}

// The counters: the events registered, their increments and the counter bank.
void emit_router_counters(VerilogWriter& v, const Cm1Params& p) {
  const Cm1Widths w = cm1_widths(p);
  const int B = p.rows, C = p.cube_dims;
  const auto counters = cm1_counter_names(p);
  const int N = static_cast<int>(counters.size());
  const int IW = clog2(std::max(B, C) + 1);
  v.comment("Counters (cnt_sel index: name):");
  for (int i = 0; i < N; ++i) v.comment("  " + S(i) + ": " + counters[static_cast<size_t>(i)]);
  v.line("localparam integer IW = " + S(IW) + ";");
  for (const std::string n : {"B", "C"}) {  // ones_b, ones_c: the set bits of a row, of a column's bits
    const std::string f = n == "B" ? "ones_b" : "ones_c";
    v.line("function [IW-1:0] " + f + ";");
    v.line("  input [" + n + "-1:0] x;");
    v.line("  integer k;");
    v.line("  begin");
    v.line("    " + f + " = {IW{1'b0}};");
    v.line("    for (k = 0; k < " + n + "; k = k + 1) " + f + " = " + f + " + {{IW-1{1'b0}}, x[k]};");
    v.line("  end");
    v.line("endfunction");
  }
  v.comment("The events are registered, then counted (the bank registers the increments again):");
  v.comment("a counter shows an event two ce cycles after it happened. `clear` drops the events in flight.");
  v.line("reg at_phase0;   // phase == 0, from the phase of the ce cycle before");
  v.line("reg [B-1:0] ev_rows;        // phase 0: rows filled (buffered + injected)");
  v.line("reg [B-1:0] ev_bufs;        // phase 0: rows filled from the buffers");
  v.line("reg [B-1:0] ev_delivered;");
  v.line("reg ev_petit;");
  v.line("reg [C-1:0] ev_busy;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || ce) at_phase0 <= rst || (phase == TP[PW-1:0] - 1'b1);");
  v.line("  if (rst || (ce && clear)) begin");
  v.line("    ev_rows <= {B{1'b0}};");
  v.line("    ev_bufs <= {B{1'b0}};");
  v.line("    ev_delivered <= {B{1'b0}};");
  v.line("    ev_petit <= 1'b0;");
  v.line("    ev_busy <= {C{1'b0}};");
  v.line("  end else if (ce) begin");
  v.line("    ev_rows <= at_phase0 ? col0_rows : {B{1'b0}};");
  v.line("    ev_bufs <= at_phase0 ? buf_rows : {B{1'b0}};");
  v.line("    ev_delivered <= eject_strobe ? ejected : {B{1'b0}};");
  v.line("    ev_petit <= at_phase0 && run;");
  v.line("    ev_busy <= wire_busy;");
  v.line("  end");
  v.line("end");
  v.line("wire [" + S(N * IW - 1) + ":0] cnt_inc;");
  for (int i = 0; i < N; ++i)
    v.line("assign cnt_inc[" + S(i) + "*IW +: IW] = " + counter_increment(counters[static_cast<size_t>(i)]) + ";");
  v.instance("cmnet_counter_bank", "counters",
             {{"N", S(N)}, {"CW", "32"}, {"IW", "IW"}, {"SW", S(w.sel)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"clear", "clear"}, {"inc", "cnt_inc"},
              {"sel", "cnt_sel"}, {"value", "cnt_value"}});
}

std::string emit_router(const Cm1Params& p) {
  VerilogWriter v;
  emit_router_ports(v, p);
  emit_router_datapath(v, p);
  emit_router_counters(v, p);
  v.end_module();
  return v.text();
}

// One CM-1 chip: the router and its P processor endpoints. The unit of the network top and
// of the chip-composed simulation (and of the one-chip-per-FPGA mode).
std::string emit_chip(const Cm1Params& p) {
  const Cm1Widths w = cm1_widths(p);
  const int C = p.cube_dims, P = p.procs_per_chip;
  VerilogWriter v;
  v.header("CM-1 chip: one router and its " + S(P) + " processor endpoints.", header_params(p));
  v.open("module cm1_chip (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("// Clock enable: a bit-time is one cycle with ce high. Every flip-flop updates, and every");
  v.line("// input below is sampled, only in ce cycles (rst, synchronous, acts regardless). The");
  v.line("// outputs depend on registers only and hold in between, except that cnt_value and");
  v.line("// load_full are combinational reads by cnt_sel and load_local. A consumer counts events");
  v.line("// (rx_valid, inj_valid) in ce cycles only, and so sees each exactly once.");
  v.line("input  wire ce,");
  v.line("input  wire [" + S(w.phase - 1) + ":0] phase,   // the machine-wide bit-time in the petit cycle: advances by one every ce cycle, 0 at the first after rst");
  v.line("input  wire run,         // endpoints offer messages while high; petit cycles are counted");
  v.line("input  wire clear,       // zeroes the counters");
  v.line("input  wire eject_one,   // 1: one message per petit cycle; 0: OR-combine");
  v.line("input  wire [" + S(C - 1) + ":0] my_chip,");
  v.line("// load port: push message (dst chip, dst proc, vp, data) into local endpoint load_local");
  v.line("// (in a cycle with load_en && ce && !load_full)");
  v.line("input  wire load_en,");
  v.line("input  wire [" + S(w.proc_field - 1) + ":0] load_local,");
  emit_load_fields(v, p, w);
  v.line("output wire load_full,");
  v.line("output wire [" + S(P - 1) + ":0] inj_valid, // one ce cycle (phase 1): endpoint g injected a message");
  v.line("output wire [" + S(P - 1) + ":0] rx_valid,");
  v.line("output wire [" + S(P * w.rx_word - 1) + ":0] rx_word,   // {DATA, VP} per processor");
  v.line("output wire msgs_present,  // at phase 0: the buffers hold undelivered messages");
  v.line("output wire pending,       // some endpoint still has messages to inject");
  v.line("output wire [" + S(C - 1) + ":0] cube_out,");
  v.line("input  wire [" + S(C - 1) + ":0] cube_in,");
  v.line("input  wire [" + S(w.sel - 1) + ":0] cnt_sel,");
  v.line("output wire [31:0] cnt_value");
  v.end_ports();
  v.line("localparam integer P = " + S(P) + ";");
  v.line("localparam integer W = " + S(w.rx_word) + ";");
  v.line("wire [P-1:0] proc_ahead;");
  v.line("wire [P-1:0] proc_a0;");
  v.comment("The endpoints' own serial `tx` is not needed: the router takes the offers from their");
  v.comment("pending flags and selects the message bits a cycle ahead (tx_ahead, head_a0).");
  v.line("/* verilator lint_off UNUSEDSIGNAL */");
  v.line("wire [P-1:0] ep_tx;");
  v.line("/* verilator lint_on UNUSEDSIGNAL */");
  v.line("wire [P-1:0] proc_ack;");
  v.line("wire [P-1:0] proc_rx;");
  v.line("wire [P-1:0] proc_start;");
  v.line("wire [P-1:0] ep_full;");
  v.line("wire [P-1:0] ep_pending;");
  v.line("wire [P-1:0] ep_filling;");
  v.line();
  v.instance("cm1_router", "router", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"phase", "phase"}, {"run", "run"},
              {"clear", "clear"}, {"eject_one", "eject_one"}, {"proc_ahead", "proc_ahead"}, {"proc_a0", "proc_a0"},
              {"proc_pend", "ep_pending"}, {"proc_fill", "ep_filling"},
              {"proc_ack", "proc_ack"}, {"proc_rx", "proc_rx"}, {"proc_start", "proc_start"},
              {"cube_out", "cube_out"}, {"cube_in", "cube_in"}, {"msgs_present", "msgs_present"},
              {"cnt_sel", "cnt_sel"}, {"cnt_value", "cnt_value"}});
  v.line();
  v.line("genvar g;");
  v.line("generate");
  v.open("for (g = 0; g < P; g = g + 1) begin : g_proc");
  v.line("localparam [" + S(w.proc_field - 1) + ":0] LOCAL = g;");
  v.instance("cm1_endpoint", "endpoint",
             {{"C", S(C)}, {"PA", S(p.proc_bits())}, {"V", S(p.vp_bits)}, {"D", S(p.data_bits)},
              {"L", S(p.msg_len())}, {"TP", S(p.petit_period())}, {"PW", S(w.phase)}, {"QW", S(w.queue_log2)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"phase", "phase"}, {"run", "run"},
              {"my_chip", "my_chip"}, {"load_en", "load_en && load_local == LOCAL"},
              {"load_chip", "load_chip"}, {"load_proc", "load_dproc"}, {"load_vp", "load_vp"},
              {"load_data", "load_data"}, {"full", "ep_full[g]"}, {"pending", "ep_pending[g]"},
              {"filling", "ep_filling[g]"},
              {"tx", "ep_tx[g]"}, {"tx_ahead", "proc_ahead[g]"}, {"head_a0", "proc_a0[g]"}, {"ack", "proc_ack[g]"},
              {"injected", "inj_valid[g]"}, {"rx", "proc_rx[g]"},
              {"rx_start", "proc_start[g]"}, {"rx_valid", "rx_valid[g]"},
              {"rx_word", "rx_word[g*W +: W]"}});
  v.close("end");
  v.line("endgenerate");
  v.line("assign load_full = ep_full[load_local];");
  v.line("assign pending = |ep_pending;");
  v.end_module();
  return v.text();
}

std::string emit_network(const Cm1Params& p) {
  const Cm1Widths w = cm1_widths(p);
  const HypercubeTopology topo(p.cube_dims);
  const int C = p.cube_dims, P = p.procs_per_chip, NP = p.processors(), NC = p.chips();
  const int TP = p.petit_period();
  VerilogWriter v;
  v.header("CM-1 network: " + S(NC) + " chips wired as a " + S(C) + "-cube, each with " + S(P) +
               " processor endpoints.",
           header_params(p));
  v.open("module cm1_network (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire run,        // endpoints offer messages while high");
  v.line("input  wire clear,      // zeroes every counter");
  v.line("input  wire eject_one,  // 1: one message per chip per petit cycle; 0: OR-combine");
  v.line("// host load port: push message (dst chip, dst proc, vp, data) into endpoint load_proc");
  v.line("input  wire load_en,");
  v.line("input  wire [" + S(w.gproc - 1) + ":0] load_proc,");
  emit_load_fields(v, p, w);
  v.line("output wire load_full,  // endpoint load_proc has no room");
  v.line("// receptions: rx_valid[g] for one cycle with rx_word[g*" + S(w.rx_word) + " +: " +
         S(w.rx_word) + "] = {DATA, VP}");
  v.line("output wire [" + S(NP - 1) + ":0] rx_valid,");
  v.line("output wire [" + S(NP * w.rx_word - 1) + ":0] rx_word,");
  v.line("output wire [" + S(NP - 1) + ":0] inj_valid,  // one cycle (phase 1): endpoint g injected a message");
  v.line("output wire [" + S(w.phase - 1) + ":0] phase,");
  v.line("output wire msgs_present, // at phase 0: some router's buffers hold undelivered messages");
  v.line("output wire pending,      // some endpoint still has messages to inject");
  v.line("input  wire [" + S(C - 1) + ":0] cnt_chip,");
  v.line("input  wire [" + S(w.sel - 1) + ":0] cnt_sel,");
  v.line("output wire [31:0] cnt_value,");
  v.line("// fault injection for tests: flip the bit arriving at chip fault_chip on dimension fault_dim");
  v.line("input  wire fault_en,");
  v.line("input  wire [" + S(C - 1) + ":0] fault_chip,");
  v.line("input  wire [" + S(w.fault_dim - 1) + ":0] fault_dim");
  v.end_ports();
  v.line("localparam integer C = " + S(C) + ";");
  v.line("localparam integer P = " + S(P) + ";");
  v.line("localparam integer NC = " + S(NC) + ";");
  v.line("localparam integer TP = " + S(TP) + ";");
  v.line("localparam integer PW = " + S(w.phase) + ";");
  v.line("localparam integer W = " + S(w.rx_word) + ";");
  v.line();
  v.comment("The machine is synchronous: one bit-time counter, petit cycles every TP bit-times.");
  v.line("reg [PW-1:0] phase_q;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || phase_q == TP[PW-1:0] - 1'b1) phase_q <= {PW{1'b0}};");
  v.line("  else phase_q <= phase_q + 1'b1;");
  v.line("end");
  v.line("assign phase = phase_q;");
  v.line();
  v.line("wire [NC*C-1:0] cube_out;   // cube_out[n*C + i]: chip n sends on dimension i");
  v.line("wire [NC*C-1:0] cube_in;");
  v.line("wire [NC*C-1:0] fault_mask;");
  v.line("wire [NC-1:0] chip_full;");
  v.line("wire [NC-1:0] chip_pending;");
  v.line("wire [NC-1:0] chip_msgs;");
  v.line("wire [NC*32-1:0] chip_cnt;");
  v.line();
  v.comment("Hypercube links: chip n's dimension-i wire lands on chip n XOR 2^i.");
  for (const HypercubeLink& l : topo.links()) {
    const int from = l.from * C + l.dim, to = l.to * C + l.dim;
    v.line("assign cube_in[" + S(to) + "] = cube_out[" + S(from) + "] ^ fault_mask[" + S(to) +
           "];  // " + l.name() + " -> chip " + S(l.to));
  }
  v.line();
  v.line("genvar n;");
  v.line("generate");
  v.open("for (n = 0; n < NC; n = n + 1) begin : g_chip");
  v.line("localparam [C-1:0] ME = n;");
  v.line("assign fault_mask[n*C +: C] = (fault_en && fault_chip == ME) ? ({{C-1{1'b0}}, 1'b1} << fault_dim) : {C{1'b0}};");
  const std::string local = p.proc_bits() > 0
      ? "load_proc[" + S(p.proc_bits() - 1) + ":0]" : "1'b0";
  v.instance("cm1_chip", "chip", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "1'b1"}, {"phase", "phase_q"}, {"run", "run"},
              {"clear", "clear"}, {"eject_one", "eject_one"}, {"my_chip", "ME"},
              {"load_en", "load_en && load_proc[" + S(w.gproc - 1) + ":" + S(p.proc_bits()) + "] == ME"},
              {"load_local", local}, {"load_chip", "load_chip"}, {"load_dproc", "load_dproc"},
              {"load_vp", "load_vp"}, {"load_data", "load_data"}, {"load_full", "chip_full[n]"},
              {"inj_valid", "inj_valid[n*P +: P]"}, {"rx_valid", "rx_valid[n*P +: P]"},
              {"rx_word", "rx_word[n*P*W +: P*W]"}, {"msgs_present", "chip_msgs[n]"}, {"pending", "chip_pending[n]"},
              {"cube_out", "cube_out[n*C +: C]"}, {"cube_in", "cube_in[n*C +: C]"},
              {"cnt_sel", "cnt_sel"}, {"cnt_value", "chip_cnt[n*32 +: 32]"}});
  v.close("end");
  v.line("endgenerate");
  v.line();
  v.line("assign load_full = chip_full[load_proc[" + S(w.gproc - 1) + ":" + S(p.proc_bits()) + "]];");
  v.line("assign pending = |chip_pending;");
  v.line("assign msgs_present = |chip_msgs;");
  v.line("assign cnt_value = chip_cnt[cnt_chip*32 +: 32];");
  v.end_module();
  return v.text();
}

}  // namespace

std::vector<std::string> cm1_counter_names(const Cm1Params& p) {
  std::vector<std::string> n(kCm1FixedCounters.begin(), kCm1FixedCounters.end());
  for (int i = 0; i < p.cube_dims; ++i) n.push_back(std::string(kCm1BusyCounter) + S(i));
  return n;
}

Cm1Widths cm1_widths(const Cm1Params& p) {
  Cm1Widths w;
  w.phase = std::max(1, clog2(p.petit_period()));
  w.sel = std::max(1, clog2(static_cast<int>(cm1_counter_names(p).size())));
  w.proc_field = std::max(1, p.proc_bits());
  w.vp_field = std::max(1, p.vp_bits);
  w.rx_word = p.vp_bits + p.data_bits;
  w.queue_log2 = std::max(1, clog2(p.queue_depth));
  w.gproc = std::max(1, p.cube_dims + p.proc_bits());
  w.fault_dim = std::max(1, clog2(p.cube_dims));
  return w;
}

std::string cm1_manifest_json(const Cm1Config& cfg) {
  const Cm1Params& p = cfg.cm1;
  const Cm1Widths w = cm1_widths(p);
  nlohmann::ordered_json j;
  j["generator"] = "cmnet";
  j["network"] = "cm1";
  j["name"] = cfg.name;
  j["top"] = "cm1_network";
  j["parameters"] = {{"cube_dims", p.cube_dims},   {"rows", p.rows},
                     {"procs_per_chip", p.procs_per_chip}, {"vp_bits", p.vp_bits},
                     {"data_bits", p.data_bits},   {"eject_mode", to_string(p.eject_mode)},
                     {"queue_depth", 1 << w.queue_log2}};
  j["derived"] = {{"chips", p.chips()},
                  {"processors", p.processors()},
                  {"message_length_l", p.msg_len()},
                  {"petit_period", p.petit_period()},
                  {"t_heart", p.t_heart()},
                  {"heart_storage_bits", p.heart_storage_bits()},
                  {"naive_t_heart", p.naive_t_heart()},
                  {"naive_heart_storage_bits", p.naive_heart_storage_bits()},
                  {"cube_wires", p.chips() * p.cube_dims}};
  j["counters"] = cm1_counter_names(p);
  j["widths"] = {{"phase", w.phase}, {"cnt_sel", w.sel}, {"load_dproc", w.proc_field},
                 {"load_vp", w.vp_field}, {"rx_word", w.rx_word}, {"load_proc", w.gproc}};
  return j.dump(2) + "\n";
}

GeneratedDesign emit_cm1(const Cm1Config& cfg) {
  validate(cfg.cm1, "config");
  GeneratedDesign d;
  d.top = "cm1_network";
  for (const auto& prim : kPrimitives) d.files.emplace_back(prim, read_hw_file(prim));
  d.files.emplace_back("cm1_router.v", emit_router(cfg.cm1));
  d.files.emplace_back("cm1_chip.v", emit_chip(cfg.cm1));
  d.files.emplace_back("cm1_network.v", emit_network(cfg.cm1));
  d.files.emplace_back("filelist.f", filelist(d));
  d.files.emplace_back("manifest.json", cm1_manifest_json(cfg));
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

}  // namespace cmnet

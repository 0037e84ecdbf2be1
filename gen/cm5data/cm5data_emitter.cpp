#include "gen/cm5data/cm5data_emitter.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {

std::string hex16(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof b, "16'h%04X", v & 0xFFFFu);
  return b;
}

std::string parents_text(const Cm5DataParams& p) {
  std::string s;
  for (int x : p.parents_list()) s.append(s.empty() ? "" : ",").append(S(x));
  return (p.profile.empty() ? "" : p.profile + " ") + "[" + s + "]";
}

std::vector<std::pair<std::string, std::string>> header_params(const Cm5DataParams& p) {
  std::vector<std::pair<std::string, std::string>> h = {{"height h", S(p.height)},
          {"leaves N", S(p.leaves())},
          {"parents per level", parents_text(p)},
          {"link_bits W", S(p.link_bits)},
          {"max_words", S(p.max_words)},
          {"buffer_words", p.slots > 0 ? "slots: " + S(p.slots) + " messages of " + S(p.slot_flits()) + " flits per input (credits count slots)" : S(p.buffer_words) + " (" + S(p.buffer_flits()) + " flits per input)"},
          {"seed", S(p.seed)},
          {"chips", S(p.total_chips())}};
  if (p.request_stage != 0) h.push_back({"request_stage", S(p.request_stage) + " (requests registered: a cycle more per chip for a head)"});
  return h;
}

std::string hexs(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%X", v);
  return b;
}

std::string router_name(int parents) { return "cm5data_router_p" + S(parents); }

// A chip's place in the tree, its parent ports and its widths.
struct ChipShape {
  Cm5DataChipPos pos;
  int P = 0;
  Cm5DataWidths w;
};
ChipShape chip_shape(const Cm5DataParams& p, uint32_t c) {
  const Cm5DataChipPos pos = cm5_chip_pos(p, c);
  const int P = p.parents_at(pos.level);
  return {pos, P, cm5_widths(p, P)};
}

// A design whose top is `top`, begun with the hw/ modules its routers use: the counter bank and,
// with `fifo`, the input FIFO.
GeneratedDesign router_library(const std::string& top, bool fifo) {
  GeneratedDesign d;
  d.top = top;
  d.files.emplace_back("cmnet_counter_bank.v", read_hw_file("cmnet_counter_bank.v"));
  if (fifo) d.files.emplace_back("cm5data_fifo.v", read_hw_file("cm5data_fifo.v"));
  return d;
}

// The link and counter ports of a router chip of NI ports, W bits a flit: the router module's
// (`notes`: with their comments) and cm5data_chip's around it.
void emit_link_ports(VerilogWriter& v, int NI, int W, int sel_bits, bool notes) {
  auto note = [&](const std::string& n) { return notes ? n : ""; };
  v.line("input  wire [" + S(NI - 1) + ":0] in_valid,");
  v.line("input  wire [" + S(NI * W - 1) + ":0] in_data,");
  v.line("output wire [" + S(NI - 1) + ":0] in_credit," + note("   // to the sender: one flit of our buffer freed"));
  v.line("output wire [" + S(NI - 1) + ":0] out_valid,");
  v.line("output wire [" + S(NI * W - 1) + ":0] out_data,");
  v.line("input  wire [" + S(NI - 1) + ":0] out_credit," + note("  // from the receiver: one flit of its buffer freed"));
  v.line("input  wire clear," + note("             // zeroes the message counters"));
  v.line("input  wire [" + S(sel_bits - 1) + ":0] cnt_sel,");
  v.line("output wire [31:0] cnt_value");
}

// The router module, written section by section: the chip's dimensions, shared by every section
// (the names are the module's localparams), and the writer they all append to.
struct RouterEmitter {
  const Cm5DataParams& p;
  const int P;  // parent ports
  const Cm5DataWidths w = cm5_widths(p, P);
  const int W = p.link_bits, NI = 4 + P, D = p.buffer_flits(), FPW = p.flits_per_word();
  const std::vector<std::string> counters = cm5_counter_names(P);
  const int K = cm5_mapout_entries(p), NB = std::max(2, 2 * (p.height - 1)), H = p.height;
  const int SWL = clog2(static_cast<uint64_t>(2 * NI)), EW = clog2(static_cast<uint64_t>(NI) + 1);
  // Slots mode: NS slots of SS (a power of two, at least a longest message) flits per input.
  const int NS = p.slots, SIW = clog2(static_cast<uint64_t>(p.slot_flits())), SB = std::max(1, clog2(static_cast<uint64_t>(NS)));
  const bool RS = p.request_stage != 0;  // requests registered a cycle before the arbiter (FIFO inputs)
  VerilogWriter v{};

  std::string emit();
  void emit_ports();
  void emit_localparams();
  void emit_shared_logic();
  void emit_input_arrival();
  void emit_regs();
  void emit_head_fields(const std::string& hd, bool registered);
  void emit_route(const std::string& hd, const std::string& extra);
  void emit_want();
  void emit_input_slots();
  void emit_slot_pick();
  void emit_input_send();
  void emit_outputs();
  void emit_link_registers_and_counters();
};

// The whole module, in the order of its sections.
std::string RouterEmitter::emit() {
  emit_ports();
  emit_localparams();
  emit_shared_logic();
  emit_input_arrival();
  if (NS != 0) emit_input_slots();
  emit_input_send();
  emit_outputs();
  emit_link_registers_and_counters();
  return v.text();
}

// The header and the port list (straps, map-out, fault injection, links, counter port).
void RouterEmitter::emit_ports() {
  v.header("CM-5 data network router chip: 4 child ports, " + S(P) +
               " parent ports, input buffers, crossbar (no parent-to-parent paths), round-robin "
               "output arbitration, LFSR up-routing.",
           header_params(p));
  v.open("module " + router_name(P) + " (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire [3:0] level,       // this chip's level, 1 = next to the leaves (strap)");
  v.line("input  wire [15:0] lfsr_seed,  // loaded into the LFSR at reset (0 loads 16'hACE1)");
  v.line("input  wire [1:0] afd_rot,     // all-fall-down permutation: input i falls to child (i + afd_rot) mod 4 (strap)");
  v.line("input  wire afd_mode,          // all-fall-down mode: every message reaching the head of an input falls");
  if (P > 0) {
    v.line("// Map-out (straps): parents never taken, and per destination node at this level the");
    v.line("// parents whose down link into that node is out (K entries; a zero mask is unused).");
    v.line("input  wire [" + S(P - 1) + ":0] mo_up,");
    v.line("input  wire [" + S(K * NB - 1) + ":0] mo_node,");
    v.line("input  wire [" + S(K * P - 1) + ":0] mo_mask,");
  }
  v.line("// Fault injection (straps, a test hook): flit fault_flit of every message arriving on input");
  v.line("// fault_port is XORed with fault_mask while fault_en.");
  v.line("input  wire fault_en,");
  v.line("input  wire [" + S(w.port - 1) + ":0] fault_port,");
  v.line("input  wire [" + S(w.remain - 1) + ":0] fault_flit,");
  v.line("input  wire [" + S(W - 1) + ":0] fault_mask,");
  v.line("// Links. Port k is child k for k < 4, parent k-4 above. Each link carries one flit of");
  v.line("// W bits per cycle with a valid bit, and one credit per freed buffer flit back.");
  emit_link_ports(v, NI, W, w.sel, true);
}

// The localparams and the Verilog functions (crc32w, ones).
void RouterEmitter::emit_localparams() {
  v.end_ports();
  v.line("localparam integer W = " + S(W) + ";       // flit bits");
  v.line("localparam integer NI = " + S(NI) + ";      // ports (4 children, then " + S(P) + " parents)");
  if (NS == 0) v.line("localparam integer D = " + S(D) + ";      // input buffer flits");
  v.line("localparam integer FPW = " + S(FPW) + ";    // flits per 32-bit word");
  v.line("localparam integer PW = " + S(w.port) + ";     // port index bits");
  v.line("localparam integer CW = " + S(w.credit) + ";     // credit counter bits");
  if (NS == 0) v.line("localparam integer CNTW = " + S(w.count) + ";   // buffer count bits");
  v.line("localparam integer RW = " + S(w.remain) + ";     // flits-of-a-message counter bits");
  if (NS == 0) {
    v.line("localparam [CW-1:0] CREDITS = " + S(w.credit) + "'d" + S(D) + ";  // the receiver's buffer flits");
  } else {
    v.line("localparam [CW-1:0] CREDITS = " + S(w.credit) + "'d" + S(NS) + ";  // the receiver's message slots");
    v.line("localparam integer NS = " + S(NS) + ";      // message slots per input");
    v.line("localparam integer SIW = " + S(SIW) + ";     // flit index bits within a slot (" + S(1 << SIW) + " flits; a longest message: " + S(p.slot_flits()) + ")");
    v.line("localparam integer SB = " + S(SB) + ";      // slot index bits");
    v.line("localparam integer AW = SB + SIW;  // slot memory address bits");
    v.line("localparam [SB-1:0] SLAST = " + S(SB) + "'d" + S(NS - 1) + ";");
    v.line("localparam [RW-1:0] HLAST = FPW[RW-1:0] - 1'b1;  // the head word's last flit");
  }
  v.comment("The U field (head word bits [7:4]) is in flit UFL at bit UOFF: decremented going up.");
  v.line("localparam [RW-1:0] UFL = " + S(w.remain) + "'d" + S(4 / W) + ";");
  v.line("localparam integer UOFF = " + S(4 % W) + ";");
  v.line("localparam [RW-1:0] TWO = " + S(w.remain) + "'d2;   // head and CRC words");
  v.line("localparam [RW-1:0] FPW_R = " + S(w.remain) + "'d" + S(FPW) + ";");
  v.line("localparam [W-1:0] MARK = 8;     // the all-fall-down mark, head word bit 3, in flit 0");
  v.line("localparam [31:0] HMASK = 32'hFFFFFF07;  // the head bits the CRC covers (not U, not the mark)");
  v.line();
  emit_cm5data_functions(v, p.height, false);
  v.line("function [" + S(EW - 1) + ":0] ones;");
  v.line("  input [NI-1:0] x;");
  v.line("  integer b;");
  v.line("  begin");
  v.line("    ones = 0;");
  v.line("    for (b = 0; b < NI; b = b + 1) ones = ones + {{" + S(EW - 1) + "{1'b0}}, x[b]};");
  v.line("  end");
  v.line("endfunction");
  v.line();
}

// The LFSR, the output state and the per-input wires, pick_parent and rr_grant.
void RouterEmitter::emit_shared_logic() {
  v.comment("LFSR: 16-bit Fibonacci, x^16 + x^14 + x^13 + x^11 + 1, one step every cycle.");
  v.comment("Child input k draws its up-route choice from bits [4k +: 4].");
  v.line("reg [15:0] lfsr;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) lfsr <= (lfsr_seed == 16'h0000) ? 16'hACE1 : lfsr_seed;");
  v.line("  else lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};");
  v.line("end");
  v.line();
  v.comment("Output state: allocated to a message (obusy), credits, round-robin pointer.");
  v.line("wire [NI-1:0] obusy;");
  v.line("wire [NI-1:0] credit_ok;");
  v.line("wire [NI*NI-1:0] req;     // req[i*NI + o]: input i asks for output o");
  v.line("wire [NI*NI-1:0] gnt;     // gnt[o*NI + i]: output o granted to input i");
  v.line("wire [NI-1:0] send;       // input i moves a flit this cycle");
  v.line("wire [NI-1:0] has_flit;   // input i is allocated and has a flit (it moves with its output's credit)");
  v.line("wire [NI-1:0] last;       // ... and it is the message's last");
  v.line("wire [NI-1:0] first;      // ... and it is the message's first");
  v.line("wire [NI*W-1:0] flit;     // the flit input i moves (U decremented when going up)");
  v.line("wire [NI*NI-1:0] dest;    // dest[i*NI + o]: input i is allocated to output o (one-hot)");
  v.line("wire [NI-1:0] head_in;    // a message's first flit arrived on input i");
  v.line("wire [NI-1:0] crc_pri;    // input i's message left with a CRC that was neither proper nor complemented");
  v.line("wire [NI-1:0] crc_sec;    // ... with a complemented CRC (an earlier chip found the error)");
  v.line("reg  [NI-1:0] credit_q;");
  v.line("assign in_credit = credit_q;");
  v.line();
  if (P > 0) {
    v.comment("Unobstructed parent links: not allocated to a message and with a credit (and, per");
    v.comment("input, not mapped out for its destination).");
    v.line("wire [" + S(P - 1) + ":0] par_free = ~obusy[NI-1:4] & credit_ok[NI-1:4];");
    v.comment("The idx-th set bit of f, idx = r mod popcount(f) (pseudorandom among the free).");
    v.line("function [" + S(clog2(P) > 0 ? clog2(P) - 1 : 0) + ":0] pick_parent;");
    v.line("  input [" + S(P - 1) + ":0] f;");
    v.line("  input [3:0] r;");
    v.line("  reg [2:0] n;");
    v.line("  reg [1:0] idx;");
    v.line("  reg [2:0] seen;");
    v.line("  integer k;");
    v.line("  begin");
    v.line("    n = 3'd0;");
    v.line("    for (k = 0; k < " + S(P) + "; k = k + 1) n = n + {2'b00, f[k]};");
    v.line("    case (n)");
    v.line("      3'd4: idx = r[1:0];");
    v.line("      3'd3: idx = (r == 4'd0 || r == 4'd3 || r == 4'd6 || r == 4'd9 || r == 4'd12 || r == 4'd15) ? 2'd0 :");
    v.line("                  (r == 4'd1 || r == 4'd4 || r == 4'd7 || r == 4'd10 || r == 4'd13) ? 2'd1 : 2'd2;");
    v.line("      3'd2: idx = {1'b0, r[0]};");
    v.line("      default: idx = 2'd0;");
    v.line("    endcase");
    v.line("    pick_parent = 0;");
    v.line("    seen = 3'd0;");
    v.line("    for (k = 0; k < " + S(P) + "; k = k + 1)");
    v.line("      if (f[k]) begin");
    v.line("        if (seen == {1'b0, idx}) pick_parent = k[" + S(clog2(P) > 0 ? clog2(P) - 1 : 0) + ":0];");
    v.line("        seen = seen + 3'd1;");
    v.line("      end");
    v.line("  end");
    v.line("endfunction");
    v.line();
  }
  v.comment("Round-robin: the first requester at or after the pointer, cyclically: the lowest among");
  v.comment("those at or after it (hi, the pointer kept as a mask), else the lowest of all (no adders).");
  v.line("function [NI-1:0] rr_grant;");
  v.line("  input [NI-1:0] r;");
  v.line("  input [NI-1:0] hi;");
  v.line("  reg [NI-1:0] x;");
  v.line("  integer k;");
  v.line("  begin");
  v.line("    x = ((r & hi) != {NI{1'b0}}) ? (r & hi) : r;");
  v.line("    rr_grant = {NI{1'b0}};");
  v.line("    for (k = NI - 1; k >= 0; k = k - 1)");
  v.line("      if (x[k]) rr_grant = {{(NI-1){1'b0}}, 1'b1} << k;");
  v.line("  end");
  v.line("endfunction");
  v.line();
}

// Per input (opens g_in): fault injection, the FIFO, the arrival parse and, FIFO mode, the head's route.
void RouterEmitter::emit_input_arrival() {
  v.line("genvar g;");
  v.line("generate");
  v.open("for (g = 0; g < NI; g = g + 1) begin : g_in");
  if (NS == 0) {
    v.line("wire [D*W-1:0] buf_flat;");
    v.line("wire [CNTW-1:0] buf_count;");
    v.line("wire buf_ne;  // buf_count != 0, registered");
    v.line("wire [D*W-1:0] buf_next;  // buf_flat's next state");
    v.line("wire [CNTW-1:0] buf_cnext;  // buf_count's");
    if (!RS) v.line("wire unused_count = ^buf_count;  // read through buf_cnext, registered");
  }
  v.line("localparam [PW-1:0] GP = g;");
  v.line("localparam integer GI = g % 4;");
  v.line("localparam [1:0] G2 = GI[1:0];  // the input among the children or among the parents");
  v.line("reg [RW-1:0] wr_idx;    // flit index (in its message) of the next arriving flit after a head");
  v.line("wire [RW-1:0] idx_now = head_in[g] ? {RW{1'b0}} : wr_idx;");
  v.line("wire [W-1:0] din = in_data[g*W +: W] ^ ((fault_en && fault_port == GP && idx_now == fault_flit) ? fault_mask : {W{1'b0}});");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) wr_idx <= {RW{1'b0}};");
  v.line("  else if (in_valid[g]) wr_idx <= idx_now + 1'b1;");
  v.line("end");
  if (NS == 0) {
    v.instance("cm5data_fifo", "buffer", {{"W", "W"}, {"D", "D"}, {"CNTW", "CNTW"}},
               {{"clk", "clk"}, {"rst", "rst"}, {"push", "in_valid[g]"}, {"din", "din"},
                {"pop", "send[g]"}, {"flat", "buf_flat"}, {"count", "buf_count"}, {"nonempty", "buf_ne"}, {"flat_next", "buf_next"}, {"count_next", "buf_cnext"}});
  }
  v.comment("Arriving messages are parsed for the counters: the length is in the first flit.");
  v.line("reg [RW-1:0] wr_left;   // flits of the arriving message still to come (0: next is a head)");
  v.line("wire [RW-1:0] wr_total = ({{(RW-3){1'b0}}, in_data[g*W +: 3]} + TWO) * FPW_R;");
  v.line("assign head_in[g] = in_valid[g] && wr_left == {RW{1'b0}};");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) wr_left <= {RW{1'b0}};");
  v.line("  else if (in_valid[g]) wr_left <= (head_in[g] ? wr_total : wr_left) - 1'b1;");
  v.line("end");
  if (NS == 0) {
    v.comment("The head word: the first FPW flits of the buffer (its length is read at the grant), and");
    v.comment("the same in the buffer's next state (its routing fields are registered).");
    v.line("wire [31:0] head = buf_flat[31:0];");
    v.line("wire unused_head = ^head[31:3];");
    v.line("wire [31:0] head_nx = buf_next[31:0];");
    if (RS) v.line("wire unused_nx = ^head_nx;  // request_stage: the fields come from the head itself, into req_q");
    emit_route(RS ? "head" : "head_nx", D * W > 32 ? "wire unused_rest = ^{buf_flat[D*W-1:32], buf_next[D*W-1:32]};  // the buffer beyond the head word is read flit by flit at [W-1:0]" : "");
  }
}

// An input's (FIFO) or a slot's message registers.
void RouterEmitter::emit_regs() {
  v.line("reg busy;");
  v.line("reg going_up;");
  v.line("reg fall_q;       // falling: the mark is set in flit 0 on the way out");
  v.line("reg [NI-1:0] dst_q;   // the output allocated (one-hot)");
  v.line("reg in_crc;       // the CRC word is leaving");
  v.line("reg last_q;       // the next flit to leave is the message's last");
  v.line("reg first_q;      // ... its first");
  v.line(W == 32 ? "reg acc;              // (one flit is the word)" : "reg [31-W:0] acc;     // the flits of the word leaving so far (LSB first, the newest on top)");
  v.line("reg [31:0] crc;       // the CRC of the words that left");
  v.line("reg [1:0] cst;        // CRC word so far: 0 proper, 1 complemented from some flit, 2 neither");
  v.line("reg [RW-1:0] left;    // flits still to send");
  v.line("reg [RW-1:0] sent;    // flits sent");
  v.line("reg hword;            // sent < FPW: the head word is leaving (its U and mark are not in the CRC)");
}

// The head word's fields the route needs: the digit down, the mark, whether U is nonzero and
// (with parents) the parents mapped out for its destination. registered (FIFO): from the buffer's
// next head word into registers, so they are this cycle's head's without its decoding in the
// request path (no cycle changes); else (slots) combinational from `hd`, the arriving head word,
// named *_a: the slot it goes to keeps them.
void RouterEmitter::emit_head_fields(const std::string& hd, bool registered) {
  const std::string q = registered ? "_d" : "_a";
  v.line("wire [4:0] digit_at = {level, 1'b0} + 5'd10;  // 12 + 2*(level-1), level 1..10");
  v.line("wire [1:0] digit" + q + " = " + hd + "[digit_at +: 2];");
  v.line(std::string("wire unused_tag = ^") + hd + (registered ? "[11:8] ^ ^" + hd + "[2:0];" : "[11:8];") + "  // the tag: not used for routing");
  v.line("wire mark" + q + " = " + hd + "[3];");
  v.line("wire up_nz" + q + " = " + hd + "[7:4] != 4'd0;");
  if (P > 0) {
    v.comment("Map-out: the destination's node at this level against the table.");
    v.line("wire [" + S(2 * H - 1) + ":0] dst_digits = " + hd + "[12 +: " + S(2 * H) + "];");
    v.line("wire [" + S(2 * H - 1) + ":0] dst_shift = dst_digits >> {level, 1'b0};");
    v.line("wire [" + S(NB - 1) + ":0] dst_node = dst_shift[" + S(NB - 1) + ":0];");
    if (2 * H > NB) v.line("wire unused_dst = ^dst_shift[" + S(2 * H - 1) + ":" + S(NB) + "];");
    v.line("reg [" + S(P - 1) + ":0] mo_out" + q + ";");
    v.line("integer e;");
    v.line("always @(*) begin");
    v.line("  mo_out" + q + " = mo_up;");
    v.line("  for (e = 0; e < " + S(K) + "; e = e + 1)");
    v.line("    if (mo_node[e*" + S(NB) + " +: " + S(NB) + "] == dst_node) mo_out" + q + " = mo_out" + q + " | mo_mask[e*" + S(P) + " +: " + S(P) + "];");
    v.line("end");
  }
  if (!registered) return;
  v.line("reg [1:0] digit;");
  v.line("reg mark, up_nz;");
  if (P > 0) v.line("reg [" + S(P - 1) + ":0] mo_out;");
  v.line("always @(posedge clk) begin");
  v.line("  digit <= digit_d;");
  v.line("  mark <= mark_d;");
  v.line("  up_nz <= up_nz_d;");
  if (P > 0) v.line("  mo_out <= mo_out_d;");
  v.line("end");
}

// The routing of the FIFO input's one head: its fields registered, the registers and `ready`
// declared in its order, then the output it asks for and `asking`.
void RouterEmitter::emit_route(const std::string& hd, const std::string& extra) {
  // request_stage: the request is registered, so its fields are decoded from the head in the
  // buffer (a register) rather than registered from the buffer's next state (which a pop feeds).
  emit_head_fields(hd, !RS);
  if (RS) {
    v.line("wire [1:0] digit = digit_a;");
    v.line("wire mark = mark_a;");
    v.line("wire up_nz = up_nz_a;");
    if (P > 0) v.line("wire [" + S(P - 1) + ":0] mo_out = mo_out_a;");
  }
  v.line("wire falling = mark || afd_mode;");
  v.line("wire [1:0] fall_port = G2 + afd_rot;");
  if (!extra.empty()) v.line(extra);
  emit_regs();
  if (RS) {
    v.line("wire head_in_buf = buf_count >= FPW[CNTW-1:0];  // from the count register (a pop feeds its next state)");
    v.line("wire unused_cnext = ^buf_cnext;");
  } else {
    v.line("reg head_in_buf;  // buf_count >= FPW, registered from the buffer's next count");
    v.line("always @(posedge clk) head_in_buf <= !rst && buf_cnext >= FPW[CNTW-1:0];");
  }
  v.line("wire ready = !busy && head_in_buf;");
  emit_want();
  if (P > 0) v.line("wire asking = ready && (!want_up || par_ok != 0);");
  else v.line("wire asking = ready;");
}

// The output a head asks for (want), from its fields (digit, mark, up_nz, mo_out), `falling` and
// `fall_port`: whether it climbs (want_up) and, climbing, the LFSR's choice among the
// unobstructed parents not mapped out for its destination (par_ok).
void RouterEmitter::emit_want() {
  const std::string fp = w.port > 2 ? "{{(PW-2){1'b0}}, fall_port}" : "fall_port";
  const std::string dg = w.port > 2 ? "{{(PW-2){1'b0}}, digit}" : "digit";
  if (P > 0) {
    v.line("wire want_up = !falling && (g < 4) && up_nz;");
    v.line("wire [3:0] r = lfsr[(g % 4) * 4 +: 4];");
    v.line("wire [" + S(P - 1) + ":0] par_ok = par_free & ~mo_out;");
    v.line("wire [PW-1:0] up_port = 3'd4 + {1'b0, pick_parent(par_ok, r)};");
    v.line("wire [PW-1:0] route = want_up ? up_port : " + dg + ";");
    v.line("wire [PW-1:0] want = falling ? " + fp + " : route;");
  } else {
    v.comment("A top-level chip has no parents: every message turns down here.");
    v.line("wire unused_lfsr = ^{lfsr, up_nz};");
    v.line("wire want_up = 1'b0;");
    v.line("wire [PW-1:0] want = falling ? " + fp + " : " + dg + ";");
  }
}

// Slots mode, per input: the slot memory, the arriving head's routing fields (kept per slot),
// each slot's request, the slot asked for and the route of its head.
void RouterEmitter::emit_input_slots() {
  emit_regs();
  v.line("wire granted;");
  v.comment("Slots: NS messages, each in its own 2^SIW-flit region of one memory (synchronous read, so");
  v.comment("it can be block RAM). Per slot: in use, head word in, and its head's routing fields; a slot");
  v.comment("is granted while the input is busy with it (it is freed as its last flit leaves).");
  v.line("reg [NS-1:0] s_used;");
  v.line("reg [NS-1:0] s_hin;    // its head word is in");
  v.line("reg [SB-1:0] as_q;     // the slot being sent (while busy)");
  v.line("reg [SB-1:0] sptr;     // round-robin among the slots");
  v.line("reg [SB-1:0] ws_q;     // the slot being written");
  v.line("reg [SB-1:0] sel;      // the slot this input asks for (below)");
  if (RS) v.line("reg [SB-1:0] sel_q;    // request_stage: the slot asked for in the cycle before (the one a grant is for)");
  v.comment("The slot being sent has its next flit: it is all in unless it is the slot being written (one");
  v.comment("message arrives at a time), and then the arrival counts its flits (wr_idx). The length it");
  v.comment("sends by is the one it arrived by: the fault injection never changes a head word (fault_flit >= FPW).");
  v.line("wire as_flit = as_q != ws_q || sent < wr_idx;");
  v.line("wire freeing = busy && as_flit && left == {{(RW-1){1'b0}}, 1'b1};  // the active slot's last flit leaves");
  v.comment("A head takes the first slot free at the end of this cycle (credits guarantee one).");
  v.line("reg [SB-1:0] free_slot;");
  v.line("reg free_found;");
  v.line("integer fs;");
  v.line("always @(*) begin");
  v.line("  free_slot = {SB{1'b0}};");
  v.line("  free_found = 1'b0;");
  v.line("  for (fs = 0; fs < NS; fs = fs + 1)");
  v.line("    if (!free_found && (!s_used[fs] || (freeing && as_q == fs[SB-1:0]))) begin");
  v.line("      free_slot = fs[SB-1:0];");
  v.line("      free_found = 1'b1;");
  v.line("    end");
  v.line("end");
  v.line("wire [SB-1:0] ws = head_in[g] ? free_slot : ws_q;");
  v.line("reg [W-1:0] mem [0:(1 << AW) - 1];  // slot k at {k, flit index}");
  v.line("wire [AW-1:0] wa = {ws, idx_now[SIW-1:0]};");
  v.line(std::string("wire [SB-1:0] as_next = granted && !busy ? ") + (RS ? "sel_q" : "sel") + " : as_q;");
  v.line("wire [RW-1:0] sent_next = send[g] ? sent + 1'b1 : sent;");
  v.comment("Idle, the input reads the first flit of the slot it asks for: what it reads is used only if");
  v.comment("the grant comes (so the address does not wait for it).");
  v.line(std::string("wire [AW-1:0] ra = busy ? {as_q, sent_next[SIW-1:0]} : {") + (RS ? "sel_q" : "sel") + ", {SIW{1'b0}}};");
  v.line("reg [W-1:0] rd_q, wd_q;");
  v.line("reg byp_q;  // the flit read was written in the same cycle: take it from the write side");
  v.line("always @(posedge clk) begin");
  v.line("  if (in_valid[g]) mem[wa] <= din;");
  v.line("  rd_q <= mem[ra];");
  v.line("  byp_q <= in_valid[g] && wa == ra;");
  v.line("  wd_q <= din;");
  v.line("end");
  v.line("wire [W-1:0] raw = byp_q ? wd_q : rd_q;");
  v.line("wire unused_idx = ^idx_now[RW-1:SIW] ^ ^sent_next[RW-1:SIW];");
  v.comment("The arriving head word (the last FPW-1 flits and this one): its routing fields are decoded");
  v.comment("once, at its last flit, and kept by its slot (the straps they read are constant).");
  if (W == 32) {
    v.line("wire [31:0] hw = din;");
  } else {
    v.line("reg [31-W:0] ah_q;  // the flits that arrived last, the newest on top");
    v.line(std::string("always @(posedge clk) if (in_valid[g]) ah_q <= ") + (W < 16 ? "{din, ah_q[31-W:W]};" : "din;"));
    v.line("wire [31:0] hw = {din, ah_q};");
  }
  emit_head_fields("hw", false);
  const int used_top = P > 0 ? 12 + 2 * H : 8;  // bits above: not routing fields (the tag is counted)
  if (used_top < 32) v.line("wire unused_hw = ^hw[31:" + S(used_top) + "];");
  v.line("wire [1:0] fall_port = G2 + afd_rot;");
  v.line("wire [3:0] child_ok = ~obusy[3:0] & credit_ok[3:0];  // child outputs free with a credit");
  v.line("reg [NS*2-1:0] s_digit;");
  v.line("reg [NS-1:0] s_mark, s_upnz;");
  v.line("reg [NS*3-1:0] s_len;");
  if (P > 0) v.line("reg [NS*" + S(P) + "-1:0] s_mo;");
  v.line("wire [NS-1:0] s_ask;");
  v.line("wire [NS*NI-1:0] s_req;  // per slot: the output its head asks for, one-hot");
  if (P > 0) v.line("wire [NS-1:0] s_up;     // per slot: its head climbs");
  v.line("genvar sg;");
  v.open("for (sg = 0; sg < NS; sg = sg + 1) begin : g_slot");
  v.line("wire ready = s_used[sg] && s_hin[sg] && !(busy && as_q == sg);");
  v.line("wire fall = s_mark[sg] || afd_mode;");
  v.line("wire [1:0] cport = fall ? fall_port : s_digit[sg*2 +: 2];");
  v.comment("A message for a child asks only when that output is free with a credit (a slot there); a");
  v.comment("climbing one when a parent is unobstructed and not mapped out for its destination.");
  if (P > 0) {
    v.line("wire up = !fall && (g < 4) && s_upnz[sg];");
    v.line("assign s_ask[sg] = ready && (up ? (par_free & ~s_mo[sg*" + S(P) + " +: " + S(P) + "]) != 0 : child_ok[cport]);");
  } else {
    v.line("assign s_ask[sg] = ready && child_ok[cport];");
  }
  // The slot's route beside its request, so that the input's request is the picked slot's (an
  // AND-OR of one-hot vectors) rather than a route from the picked slot's fields.
  const std::string cp = w.port > 2 ? "{{(PW-2){1'b0}}, cport}" : "cport";
  if (P > 0) v.line("assign s_up[sg] = up;");
  if (P > 0)
    v.line("wire [PW-1:0] s_want = up ? 3'd4 + {1'b0, pick_parent(par_free & ~s_mo[sg*" + S(P) + " +: " + S(P) +
           "], lfsr[(g % 4) * 4 +: 4])} : " + cp + ";");
  else
    v.line("wire [PW-1:0] s_want = " + cp + ";");
  v.line("assign s_req[sg*NI +: NI] = {{(NI-1){1'b0}}, 1'b1} << s_want;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    s_used[sg] <= 1'b0;");
  v.line("    s_hin[sg] <= 1'b0;");
  v.line("  end else begin");
  v.line("    if (freeing && as_q == sg) begin");
  v.line("      s_used[sg] <= 1'b0;");
  v.line("      s_hin[sg] <= 1'b0;");
  v.line("    end");
  v.line("    if (in_valid[g] && ws == sg) begin");
  v.line("      if (head_in[g]) s_used[sg] <= 1'b1;");
  v.line("      if (idx_now == HLAST) s_hin[sg] <= 1'b1;");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.comment("The routing fields (read only while s_hin: no reset).");
  v.line("always @(posedge clk)");
  v.line("  if (in_valid[g] && ws == sg && idx_now == HLAST) begin");
  v.line("    s_digit[sg*2 +: 2] <= digit_a;");
  v.line("    s_mark[sg] <= mark_a;");
  v.line("    s_upnz[sg] <= up_nz_a;");
  v.line("    s_len[sg*3 +: 3] <= hw[2:0];");
  if (P > 0) v.line("    s_mo[sg*" + S(P) + " +: " + S(P) + "] <= mo_out_a;");
  v.line("  end");
  v.close("end");
  emit_slot_pick();
  v.line("wire falling = mark || afd_mode;");
  if (P == 0) {
    v.line("wire unused_lfsr = ^{lfsr, s_upnz};");
    v.line("wire want_up = 1'b0;  // a top-level chip has no parents");
  }
  v.line("wire asking = !busy && s_ask != {NS{1'b0}};");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    as_q <= {SB{1'b0}};");
  v.line("    sptr <= {SB{1'b0}};");
  v.line("    ws_q <= {SB{1'b0}};");
  v.line("  end else begin");
  v.line("    as_q <= as_next;");
  const std::string gs = RS ? "sel_q" : "sel";
  v.line("    if (granted && !busy) sptr <= (" + gs + " == SLAST) ? {SB{1'b0}} : " + gs + " + 1'b1;");
  v.line("    if (in_valid[g]) ws_q <= ws;");
  v.line("  end");
  v.line("end");
}

// Slots mode: the slot an input asks for (sel, one-hot s_pick), that slot's request (each slot
// routes its own head beside its request) and the fields the grant needs.
void RouterEmitter::emit_slot_pick() {
  v.comment("The input asks for the first slot, from the pointer, that can go: the lowest asking at or");
  v.comment("after the pointer, else the lowest (one-hot s_pick and its index sel).");
  v.line("reg [NS-1:0] s_hi;");
  v.line("reg [NS-1:0] s_pick;");
  v.line("integer sk;");
  v.line("always @(*) begin");
  v.line("  for (sk = 0; sk < NS; sk = sk + 1) s_hi[sk] = sk >= {{(32-SB){1'b0}}, sptr};");
  v.line("end");
  v.line("wire [NS-1:0] s_x = ((s_ask & s_hi) != {NS{1'b0}}) ? (s_ask & s_hi) : s_ask;");
  v.line("always @(*) begin");
  v.line("  s_pick = {NS{1'b0}};");
  v.line("  sel = {SB{1'b0}};");
  v.line("  for (sk = NS - 1; sk >= 0; sk = sk - 1)");
  v.line("    if (s_x[sk]) begin");
  v.line("      s_pick = {{(NS-1){1'b0}}, 1'b1} << sk;");
  v.line("      sel = sk[SB-1:0];");
  v.line("    end");
  v.line("end");
  v.comment("The picked slot's request and fields (AND-OR): head is its length, what the grant needs.");
  v.line("reg [NI-1:0] reqp;");
  if (P > 0) v.line("reg want_up;");
  v.line("reg mark;");
  v.line("reg [2:0] head;");
  v.line("always @(*) begin");
  v.line("  reqp = {NI{1'b0}};");
  if (P > 0) v.line("  want_up = 1'b0;");
  v.line("  mark = 1'b0;");
  v.line("  head = 3'd0;");
  v.line("  for (sk = 0; sk < NS; sk = sk + 1) begin");
  v.line("    reqp = reqp | ({NI{s_pick[sk]}} & s_req[sk*NI +: NI]);");
  if (P > 0) v.line("    want_up = want_up | (s_pick[sk] & s_up[sk]);");
  v.line("    mark = mark | (s_pick[sk] & s_mark[sk]);");
  v.line("    head = head | ({3{s_pick[sk]}} & s_len[sk*3 +: 3]);");
  v.line("  end");
  v.line("end");
}

// Per input (closes g_in): the request, the grant, the flit leaving and its CRC check.
void RouterEmitter::emit_input_send() {
  if (!RS)
    v.line(NS == 0 ? "assign req[g*NI +: NI] = asking ? ({{(NI-1){1'b0}}, 1'b1} << want) : {NI{1'b0}};"
                   : "assign req[g*NI +: NI] = asking ? reqp : {NI{1'b0}};");
  if (NS == 0) v.line("wire granted;");
  v.line("wire [NI-1:0] gcol;   // the output granted to this input (one-hot)");
  v.line("genvar o;");
  v.line("for (o = 0; o < NI; o = o + 1) begin : g_gcol");
  v.line("  assign gcol[o] = gnt[o*NI + g];");
  v.line("end");
  v.line("assign granted = gcol != {NI{1'b0}};");
  if (RS) {
    v.comment("request_stage: the arbiter sees the request a cycle later, with what the head wanted then;");
    v.comment("one granted now is withdrawn (the input is busy then), so the arbiter needs no busy mask.");
    v.line("reg [NI-1:0] req_q;");
    v.line("reg want_up_q, falling_q;");
    if (NS != 0) v.line("reg [2:0] head_q;  // the asking slot's length");
    v.line("always @(posedge clk) begin");
    v.line(std::string("  req_q <= (!rst && asking && !granted) ? ") + (NS == 0 ? "({{(NI-1){1'b0}}, 1'b1} << want)" : "reqp") + " : {NI{1'b0}};");
    v.line("  want_up_q <= want_up;");
    v.line("  falling_q <= falling;");
    if (NS != 0) {
      v.line("  sel_q <= rst ? {SB{1'b0}} : sel;");
      v.line("  head_q <= head;");
    }
    v.line("end");
    v.line("assign req[g*NI +: NI] = req_q;");
  }
  v.line("assign dest[g*NI +: NI] = dst_q;");
  if (NS == 0) {
    v.line("assign has_flit[g] = busy && buf_ne;");
    v.line("assign send[g] = has_flit[g] && (credit_ok & dst_q) != {NI{1'b0}};");
  } else {
    v.line("assign has_flit[g] = busy && as_flit;");
    v.line("assign send[g] = has_flit[g];  // the receiver's slot was taken at the grant");
  }
  v.line("assign last[g] = last_q;");
  v.line("assign first[g] = first_q;");
  if (NS == 0) v.line("wire [W-1:0] raw = buf_flat[W-1:0];");
  v.line("wire [W-1:0] dec = raw - ({{(W-1){1'b0}}, 1'b1} << UOFF);");
  v.line("wire [W-1:0] routed = (going_up && sent == UFL) ? dec : (fall_q && first[g]) ? (raw | MARK) : raw;");
  v.comment("CRC check of what leaves: the words before the CRC word go into the CRC; the CRC word's");
  v.comment("flits are compared with it and replaced by it, or by its complement from the first flit");
  v.comment("that differs (so the chips after this one see a secondary error, not a primary).");
  if (W == 32) {
    v.line("wire [31:0] word_now = raw;");
    v.line("wire word_end = 1'b1;");
    v.line("wire [W-1:0] pf = crc;");
    v.line("wire unused_acc = acc;");
  } else {
    const int PB = clog2(static_cast<uint64_t>(FPW));
    v.line("wire [31:0] word_now = {raw, acc};");
    v.line("wire [" + S(PB - 1) + ":0] pos = sent[" + S(PB - 1) + ":0];");
    v.line("wire word_end = &pos;");
    v.line("wire [W-1:0] pf = crc[W-1:0];  // crc shifts a flit down as each CRC flit leaves");
  }
  v.line("wire [W-1:0] nf = ~pf;");
  v.line("wire [1:0] cst_next = (cst == 2'd0 && raw != pf) ? ((raw == nf) ? 2'd1 : 2'd2) :");
  v.line("                      (cst == 2'd1 && raw != nf) ? 2'd2 : cst;");
  v.line("assign flit[g*W +: W] = !in_crc ? routed : (cst_next == 2'd0) ? pf : nf;");
  v.line("assign crc_pri[g] = send[g] && in_crc && last[g] && cst_next == 2'd2;");
  v.line("assign crc_sec[g] = send[g] && in_crc && last[g] && cst_next == 2'd1;");
  v.comment("Idle, the message registers follow the head that asks (they matter only while busy), so a");
  v.comment("grant sets busy alone.");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    busy <= 1'b0;");
  v.line("    going_up <= 1'b0;");
  v.line("    fall_q <= 1'b0;");
  v.line("    in_crc <= 1'b0;");
  v.line("    last_q <= 1'b0;");
  v.line("    first_q <= 1'b0;");
  v.line(W == 32 ? "    acc <= 1'b0;" : "    acc <= {(32-W){1'b0}};");
  v.line("    crc <= 32'd0;");
  v.line("    cst <= 2'd0;");
  v.line("    dst_q <= {NI{1'b0}};");
  v.line("    left <= {RW{1'b0}};");
  v.line("    sent <= {RW{1'b0}};");
  v.line("    hword <= 1'b0;");
  v.line("  end else if (!busy) begin");
  v.line("    busy <= granted;");
  v.line(RS ? "    going_up <= want_up_q;" : "    going_up <= want_up;");
  v.line(RS ? "    fall_q <= falling_q;" : "    fall_q <= falling;");
  v.line("    in_crc <= 1'b0;");
  v.line("    last_q <= 1'b0;  // a message has at least 3 words");
  v.line("    first_q <= 1'b1;");
  v.line("    crc <= 32'hFFFFFFFF;");
  v.line("    cst <= 2'd0;");
  v.line("    dst_q <= gcol;");
  v.line(std::string("    left <= ({{(RW-3){1'b0}}, ") + (RS && NS != 0 ? "head_q" : "head") + "[2:0]} + TWO) * FPW_R;");
  v.line("    sent <= {RW{1'b0}};");
  v.line("    hword <= 1'b1;");
  v.line("  end else if (send[g]) begin");
  v.line("    left <= left - 1'b1;");
  v.line("    sent <= sent + 1'b1;");
  v.line("    if (word_end) hword <= 1'b0;");
  v.line("    if (last[g]) busy <= 1'b0;");
  v.line("    last_q <= left == {{(RW-2){1'b0}}, 2'd2};");
  v.line("    first_q <= 1'b0;");
  v.line("    if (left == FPW_R + 1'b1) in_crc <= 1'b1;  // the data's last flit: the CRC word is next");
  v.line("    if (!in_crc) begin");
  if (W != 32) v.line("      acc <= word_now[31:W];");
  v.line("      if (word_end) crc <= crc32w(crc, hword ? (word_now & HMASK) : word_now);");
  v.line("    end else begin");
  v.line("      cst <= cst_next;");
  if (W != 32) v.line("      crc <= {{W{1'b0}}, crc[31:W]};");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.close("end");
}

// Per output: round-robin grant, the flit mux, credits (closes the generate).
void RouterEmitter::emit_outputs() {
  v.line();
  v.comment("Per output: round-robin grant among the requesting inputs while free; the flit of the");
  v.comment("input that owns it goes to the link register; credits count the receiver's free flits.");
  v.line("wire [NI-1:0] out_send;");
  v.line("wire [NI-1:0] out_first;");
  v.line("wire [NI*W-1:0] out_flit;");
  v.open("for (g = 0; g < NI; g = g + 1) begin : g_out");
  v.line("wire [NI-1:0] asking;");
  v.line("genvar i;");
  v.line("for (i = 0; i < NI; i = i + 1) begin : g_col");
  v.line("  assign asking[i] = req[i*NI + g];");
  v.line("end");
  v.comment("The round-robin pointer is just after the input granted last (lg_q): as a mask, the inputs");
  v.comment("above it (all of them after NI-1), made from the register at the start of the cycle.");
  v.line("reg [NI-1:0] lg_q;");
  v.line("reg [NI-1:0] hi;");
  v.line("integer j;");
  v.line("always @(*) begin");
  v.line("  hi = {lg_q[NI-2:0], lg_q[NI-1]};");
  v.line("  for (j = 1; j < NI; j = j + 1) hi[j] = hi[j] | hi[j-1];");
  v.line("end");
  v.line("wire take = !obusy[g] && asking != {NI{1'b0}};  // granted to some input this cycle");
  v.line("assign gnt[g*NI +: NI] = obusy[g] ? {NI{1'b0}} : rr_grant(asking, hi);");
  v.comment("The input sending here (one at most: the output is allocated to one message), AND-OR muxed.");
  v.line("wire [NI-1:0] mine, ready_here;");
  v.line("for (i = 0; i < NI; i = i + 1) begin : g_mine");
  v.line("  assign mine[i] = send[i] && dest[i*NI + g];");
  v.line("  assign ready_here[i] = has_flit[i] && dest[i*NI + g];");
  v.line("end");
  v.comment("l: the flit that moves when a flit moves here is its message's last (from registers: the");
  v.comment("release of the output needs no input's send).");
  v.line("reg l, f;");
  v.line("reg [W-1:0] d;");
  v.line("integer k;");
  v.line("always @(*) begin");
  v.line("  l = 1'b0;");
  v.line("  f = 1'b0;");
  v.line("  d = {W{1'b0}};");
  v.line("  for (k = 0; k < NI; k = k + 1) begin");
  v.line("    l = l | (ready_here[k] & last[k]);");
  v.line("    f = f | (mine[k] & first[k]);");
  v.line("    d = d | ({W{mine[k]}} & flit[k*W +: W]);");
  v.line("  end");
  v.line("end");
  v.comment("A flit moves here when the allocated input has one (and, per flit, a credit): from registers,");
  v.comment("not through the inputs' send.");
  v.line(std::string("wire s = ") + (NS == 0 ? "credit_ok[g] && " : "") + "ready_here != {NI{1'b0}};");
  v.line("assign out_send[g] = s;");
  v.line("assign out_first[g] = f;");
  v.line("assign out_flit[g*W +: W] = d;");
  v.line("reg busy_q;");
  v.line("reg [CW-1:0] cred_q;");
  v.line("reg cok_q;  // cred_q != 0, registered: from the count before this cycle's change");
  const std::string dec = NS == 0 ? "s" : "take";
  v.line("wire dec = " + dec + ";" + (NS == 0 ? "  // a flit sent" : "  // a slot per message"));
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    busy_q <= 1'b0;");
  v.line("    cred_q <= CREDITS;");
  v.line("    cok_q <= 1'b1;");
  v.line("    lg_q <= {1'b1, {(NI-1){1'b0}}};  // the pointer at input 0");
  v.line("  end else begin");
  v.line("    if (take) busy_q <= 1'b1;");
  v.line("    else if (s && l) busy_q <= 1'b0;");
  v.line("    cred_q <= cred_q - {{(CW-1){1'b0}}, dec} + {{(CW-1){1'b0}}, out_credit[g]};");
  v.line(std::string("    cok_q <= out_credit[g] || ") + (w.credit > 1 ? "cred_q[CW-1:1] != {(CW-1){1'b0}} || " : "") + "(cred_q[0] && !dec);");
  v.line("    if (take) lg_q <= gnt[g*NI +: NI];");
  v.line("  end");
  v.line("end");
  v.line("assign credit_ok[g] = cok_q;");
  v.line("assign obusy[g] = busy_q;");
  v.close("end");
  v.line("endgenerate");
}

// The output link registers, the credits returned, the message and CRC counters.
void RouterEmitter::emit_link_registers_and_counters() {
  v.line();
  v.line("reg [NI-1:0] out_valid_q;");
  v.line("reg [NI*W-1:0] out_data_q;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst) begin");
  v.line("    out_valid_q <= {NI{1'b0}};");
  v.line("    out_data_q <= {NI*W{1'b0}};");
  v.line("    credit_q <= {NI{1'b0}};");
  v.line("  end else begin");
  v.line("    out_valid_q <= out_send;");
  v.line("    out_data_q <= out_flit;");
  v.line(NS == 0 ? "    credit_q <= send;" : "    credit_q <= send & last;  // a slot freed");
  v.line("  end");
  v.line("end");
  v.line("assign out_valid = out_valid_q;");
  v.line("assign out_data = out_data_q;");
  v.line();
  v.comment("Message counters (cnt_sel index: name), one per link end: a message counts when its");
  v.comment("head flit crosses. Kirchhoff: the ins minus the outs are the messages held here.");
  for (size_t i = 0; i < counters.size(); ++i) v.comment("  " + S(static_cast<int64_t>(i)) + ": " + counters[i]);
  v.line("wire [31:0] link_cnt, crc_cnt;");
  v.instance("cmnet_counter_bank", "counters",
             {{"N", S(2 * NI)}, {"CW", "32"}, {"IW", "1"}, {"SW", S(SWL)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "1'b1"}, {"clear", "clear"},
              {"inc", "{out_send & out_first, head_in}"}, {"sel", SWL == w.sel ? "cnt_sel" : "cnt_sel[" + S(SWL - 1) + ":0]"},
              {"value", "link_cnt"}});
  v.comment("CRC errors of the whole chip (its inputs may finish messages in the same cycle): the inputs'");
  v.comment("flags registered before they are counted (a count shows two cycles after its message; a");
  v.comment("clear drops them as the bank drops its increments).");
  v.line("reg [NI-1:0] crc_pri_q, crc_sec_q;");
  v.line("always @(posedge clk) begin");
  v.line("  crc_pri_q <= (rst || clear) ? {NI{1'b0}} : crc_pri;");
  v.line("  crc_sec_q <= (rst || clear) ? {NI{1'b0}} : crc_sec;");
  v.line("end");
  v.instance("cmnet_counter_bank", "crc_counters", {{"N", "2"}, {"CW", "32"}, {"IW", S(EW)}, {"SW", "1"}},
             {{"clk", "clk"}, {"rst", "rst"}, {"ce", "1'b1"}, {"clear", "clear"},
              {"inc", "{ones(crc_sec_q), ones(crc_pri_q)}"}, {"sel", "cnt_sel[0]"}, {"value", "crc_cnt"}});
  v.line("assign cnt_value = (cnt_sel < " + S(w.sel) + "'d" + S(2 * NI) + ") ? link_cnt : (cnt_sel < " + S(w.sel) + "'d" +
         S(2 * NI + 2) + ") ? crc_cnt : 32'd0;");
  v.end_module();
}

std::string emit_router(const Cm5DataParams& p, int P) { return RouterEmitter{p, P}.emit(); }

// A chip's instance connections: the clock, its straps as the network wires them (level, LFSR
// seed, all-fall-down rotation, map-out table, fault injection), afd_mode, then `ports`.
std::vector<std::pair<std::string, std::string>> chip_connections(const Cm5DataParams& p, uint32_t c, const std::string& afd,
                                                                  const std::vector<std::pair<std::string, std::string>>& ports) {
  const int W = p.link_bits, K = cm5_mapout_entries(p), NB = std::max(2, 2 * (p.height - 1));
  const auto [pos, P, w] = chip_shape(p, c);
  std::vector<std::pair<std::string, std::string>> straps = {
      {"clk", "clk"}, {"rst", "rst"}, {"level", "4'd" + S(pos.level)},
      {"lfsr_seed", hex16(cm5_chip_seed(p.seed, c))}, {"afd_rot", "2'd" + S(cm5_afd_rot(p.seed, c))},
      {"afd_mode", afd}};
  if (P > 0) {
    // Map-out table: every node entry, a zero mask where unused.
    const Cm5DataChipMapOut mo = cm5_chip_mapout(p, c);
    std::string nodes, masks;
    for (int e = K - 1; e >= 0; --e) {
      const bool has = e < static_cast<int>(mo.down.size());
      nodes.append(nodes.empty() ? "" : ", ").append(S(NB) + "'d" + S(has ? mo.down[static_cast<size_t>(e)].first : 0));
      masks.append(masks.empty() ? "" : ", ").append(S(P) + "'d" + S(has ? mo.down[static_cast<size_t>(e)].second : 0));
    }
    straps.push_back({"mo_up", S(P) + "'d" + S(mo.up_mask)});
    straps.push_back({"mo_node", K > 1 ? "{" + nodes + "}" : nodes});
    straps.push_back({"mo_mask", K > 1 ? "{" + masks + "}" : masks});
  }
  const bool f = p.fault.on && p.fault.chip == c;
  straps.push_back({"fault_en", f ? "1'b1" : "1'b0"});
  straps.push_back({"fault_port", S(w.port) + "'d" + S(f ? p.fault.port : 0)});
  straps.push_back({"fault_flit", S(w.remain) + "'d" + S(f ? p.fault.flit : 0)});
  straps.push_back({"fault_mask", S(W) + "'h" + hexs(f ? p.fault.mask : 0)});
  for (const auto& x : ports) straps.push_back(x);
  return straps;
}

std::string emit_network(const Cm5DataParams& p, const std::string& module) {
  const int W = p.link_bits, h = p.height;
  const uint32_t N = p.leaves(), NC = p.total_chips();
  Cm5DataWidths w0 = cm5_widths(p, 0);
  for (int l = 1; l <= h; ++l) w0.sel = std::max(w0.sel, cm5_widths(p, p.parents_at(l)).sel);
  VerilogWriter v;
  v.header("CM-5 data network: a 4-ary fat tree of " + S(NC) + " router chips and " + S(N) + " leaf links.",
           header_params(p));
  v.open("module " + module + " (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire clear,   // zeroes every chip's counters");
  v.line("input  wire [" + S(NC - 1) + ":0] afd_mode,  // chip c in all-fall-down mode (any order, any time)");
  v.line("// Leaf links: leaf x sends flits on leaf_tx_* (credits come back on leaf_tx_credit[x]) and");
  v.line("// receives on leaf_rx_* (it returns one leaf_rx_credit per flit it has taken).");
  v.line("input  wire [" + S(N - 1) + ":0] leaf_tx_valid,");
  v.line("input  wire [" + S(N * W - 1) + ":0] leaf_tx_data,");
  v.line("output wire [" + S(N - 1) + ":0] leaf_tx_credit,");
  v.line("output wire [" + S(N - 1) + ":0] leaf_rx_valid,");
  v.line("output wire [" + S(N * W - 1) + ":0] leaf_rx_data,");
  v.line("input  wire [" + S(N - 1) + ":0] leaf_rx_credit,");
  v.line("input  wire [" + S(w0.chip - 1) + ":0] cnt_chip,");
  v.line("input  wire [" + S(w0.sel - 1) + ":0] cnt_sel,");
  v.line("output wire [31:0] cnt_value");
  v.end_ports();
  v.line("localparam integer W = " + S(W) + ";");
  v.line("wire [" + S(NC * 32 - 1) + ":0] chip_cnt;");
  v.line();
  // Declarations per chip.
  for (uint32_t c = 0; c < NC; ++c) {
    const ChipShape ch = chip_shape(p, c);
    const int NI = 4 + ch.P;
    const std::string n = "c" + S(c);
    v.comment("chip " + S(c) + ": level " + S(ch.pos.level) + ", node " + S(ch.pos.node) + ", index " +
              S(ch.pos.index) + " (" + S(ch.P) + " parents)");
    v.line("wire [" + S(NI - 1) + ":0] " + n + "_in_valid, " + n + "_in_credit, " + n + "_out_valid, " + n +
           "_out_credit;");
    v.line("wire [" + S(NI * W - 1) + ":0] " + n + "_in_data, " + n + "_out_data;");
  }
  v.line();
  auto link = [&](const std::string& a, int ap, const std::string& b, int bp, const std::string& what) {
    // a's output port ap -> b's input port bp, credits back.
    v.comment(what);
    v.line("assign " + b + "_in_valid[" + S(bp) + "] = " + a + "_out_valid[" + S(ap) + "];");
    v.line("assign " + b + "_in_data[" + S(bp * W) + " +: W] = " + a + "_out_data[" + S(ap * W) + " +: W];");
    v.line("assign " + a + "_out_credit[" + S(ap) + "] = " + b + "_in_credit[" + S(bp) + "];");
  };
  v.comment("Leaf links: leaf x is child port x % 4 of the level-1 chip x / 4.");
  for (uint32_t x = 0; x < N; ++x) {
    const std::string c = "c" + S(cm5_chip_id(p, 1, x / 4, 0));
    const int k = static_cast<int>(x % 4);
    v.line("assign " + c + "_in_valid[" + S(k) + "] = leaf_tx_valid[" + S(x) + "];");
    v.line("assign " + c + "_in_data[" + S(k * W) + " +: W] = leaf_tx_data[" + S(x * W) + " +: W];");
    v.line("assign leaf_tx_credit[" + S(x) + "] = " + c + "_in_credit[" + S(k) + "];");
    v.line("assign leaf_rx_valid[" + S(x) + "] = " + c + "_out_valid[" + S(k) + "];");
    v.line("assign leaf_rx_data[" + S(x * W) + " +: W] = " + c + "_out_data[" + S(k * W) + " +: W];");
    v.line("assign " + c + "_out_credit[" + S(k) + "] = leaf_rx_credit[" + S(x) + "];");
  }
  v.line();
  v.comment("Tree links: chip j of node n at level l, parent port q <-> chip j*p_l+q of node n/4, child port n%4.");
  for (int l = 1; l < h; ++l) {
    const int pl = p.parents_at(l);
    for (uint32_t n = 0; n < p.nodes_at(l); ++n)
      for (int j = 0; j < p.chips_per_node(l); ++j)
        for (int q = 0; q < pl; ++q) {
          // (append: "c" + std::string trips a GCC 12 -Wrestrict false positive at -O2)
          const std::string a = std::string("c").append(S(cm5_chip_id(p, l, n, j)));
          const std::string b = std::string("c").append(S(cm5_chip_id(p, l + 1, n / 4, j * pl + q)));
          const int k = static_cast<int>(n % 4);
          link(a, 4 + q, b, k, a + " parent " + S(q) + " -> " + b + " child " + S(k));
          link(b, k, a, 4 + q, b + " child " + S(k) + " -> " + a + " parent " + S(q));
        }
  }
  v.line();
  for (uint32_t c = 0; c < NC; ++c) {
    const auto [pos, P, w] = chip_shape(p, c);
    const std::string n = "c" + S(c);
    const std::string sel = w.sel == w0.sel ? "cnt_sel" : "cnt_sel[" + S(w.sel - 1) + ":0]";
    const auto straps = chip_connections(p, c, "afd_mode[" + S(c) + "]",
                                         {{"in_valid", n + "_in_valid"}, {"in_data", n + "_in_data"}, {"in_credit", n + "_in_credit"},
                                          {"out_valid", n + "_out_valid"}, {"out_data", n + "_out_data"}, {"out_credit", n + "_out_credit"},
                                          {"clear", "clear"}, {"cnt_sel", sel}, {"cnt_value", "chip_cnt[" + S(c * 32) + " +: 32]"}});
    v.instance(router_name(P), "chip_l" + S(pos.level) + "_n" + S(pos.node) + "_i" + S(pos.index), {}, straps);
  }
  v.line("assign cnt_value = (cnt_chip < " + S(w0.chip) + "'d" + S(NC) + ") ? chip_cnt[cnt_chip*32 +: 32] : 32'd0;");
  v.end_module();
  return v.text();
}

}  // namespace

Cm5DataWidths cm5_widths(const Cm5DataParams& p, int parents) {
  Cm5DataWidths w;
  const int NI = 4 + parents;
  w.port = std::max(2, clog2(static_cast<uint64_t>(NI)));
  w.credit = clog2(static_cast<uint64_t>(p.link_credits()) + 1);
  w.count = w.credit;
  w.remain = clog2(static_cast<uint64_t>(9 * p.flits_per_word()) + 1);
  w.sel = clog2(static_cast<uint64_t>(2 * NI + 2));
  w.chip = std::max(1, clog2(static_cast<uint64_t>(p.total_chips()) + 1));
  return w;
}

std::vector<std::string> cm5_counter_names(int parents) {
  std::vector<std::string> n;
  for (const char* dir : {"in", "out"}) {
    for (int k = 0; k < 4; ++k) n.push_back(std::string(dir) + "_c" + S(k));
    for (int k = 0; k < parents; ++k) n.push_back(std::string(dir) + "_p" + S(k));
  }
  n.push_back("crc_primary");
  n.push_back("crc_secondary");
  return n;
}

std::string emit_cm5data_network_module(const Cm5DataParams& p, const std::string& module) {
  validate(p, "config");
  return emit_network(p, module);
}

GeneratedDesign emit_cm5data_router(const Cm5DataParams& p, int parents) {
  validate(p, "config");
  GeneratedDesign d = router_library(router_name(parents), true);
  d.files.emplace_back(router_name(parents) + ".v", emit_router(p, parents));
  d.files.emplace_back("filelist.f", filelist(d));
  return d;
}

std::string cm5data_manifest_json(const Cm5DataConfig& cfg) {
  const Cm5DataParams& p = cfg.cm5;
  nlohmann::ordered_json j;
  j["generator"] = "cmnet";
  j["network"] = "cm5data";
  j["name"] = cfg.name;
  j["top"] = "cm5data_network";
  j["parameters"] = nlohmann::json::parse(config_to_json(cfg))["cm5data"];
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (int l = 1; l <= p.height; ++l)
    levels.push_back({{"level", l}, {"parents", p.parents_at(l)}, {"chips_per_node", p.chips_per_node(l)},
                      {"nodes", p.nodes_at(l)}, {"chips", p.chips_at(l)}, {"up_links_per_node", p.up_links(l)},
                      {"up_links_per_leaf", static_cast<double>(p.up_links(l)) / static_cast<double>(1u << (2 * l))}});
  j["derived"] = {{"leaves", p.leaves()},
                  {"chips", p.total_chips()},
                  {"levels", levels},
                  {"bisection_links", p.bisection_links()},
                  {"bisection_links_per_leaf", static_cast<double>(p.bisection_links()) / (p.leaves() / 2.0)},
                  {"flits_per_word", p.flits_per_word()},
                  {"buffer_flits", p.buffer_flits()},
                  {"message_bits_min", p.message_bits(1)},
                  {"message_bits_max", p.message_bits(p.max_words)},
                  {"message_flits_max", p.message_flits(p.max_words)}};
  if (!p.partitions.empty()) {
    nlohmann::ordered_json parts = nlohmann::ordered_json::array();
    for (size_t k = 0; k < p.partitions.size(); ++k)
      parts.push_back({{"level", p.partitions[k].level}, {"node", p.partitions[k].node},
                       {"first_leaf", p.partition_base(k)}, {"leaves", p.partition_size(k)}});
    j["partitions"] = parts;
  }
  j["counters"] = {{"p4", cm5_counter_names(4)}, {"p2", cm5_counter_names(2)}, {"p0", cm5_counter_names(0)}};
  return j.dump(2) + "\n";
}

GeneratedDesign emit_cm5data(const Cm5DataConfig& cfg) {
  const Cm5DataParams& p = cfg.cm5;
  validate(p, "config");
  if (p.height > kCm5MaxEmitHeight)
    throw ConfigError("config: cm5data: height = " + S(p.height) + ": the whole-network Verilog is emitted for height 1.." +
                      S(kCm5MaxEmitHeight) + " (up to 1,024 leaves); larger machines run on the reference model");
  GeneratedDesign d = router_library("cm5data_network", true);
  std::set<int> ps;
  for (int l = 1; l <= p.height; ++l) ps.insert(p.parents_at(l));
  for (int P : ps) d.files.emplace_back(router_name(P) + ".v", emit_router(p, P));
  d.files.emplace_back("cm5data_network.v", emit_network(p, "cm5data_network"));
  d.files.emplace_back("filelist.f", filelist(d));
  d.files.emplace_back("manifest.json", cm5data_manifest_json(cfg));
  d.files.emplace_back("config.json", config_to_json(cfg));
  return d;
}

GeneratedDesign emit_cm5data_chip(const Cm5DataParams& p, uint32_t chip) {
  validate(p, "config");
  if (chip >= p.total_chips()) throw ConfigError("config: cm5data: chip " + S(chip) + " out of range 0.." + S(p.total_chips() - 1));
  const auto [pos, P, w] = chip_shape(p, chip);
  const int NI = 4 + P, W = p.link_bits;
  GeneratedDesign d = router_library("cm5data_chip", p.slots == 0);
  d.files.emplace_back(router_name(P) + ".v", emit_router(p, P));
  VerilogWriter v;
  auto hp = header_params(p);
  hp.push_back({"chip", S(chip) + " (level " + S(pos.level) + ", node " + S(pos.node) + ", index " + S(pos.index) + ")"});
  v.header("CM-5 data network: one router chip with its straps as the network wires them (level, LFSR seed, "
           "map-out, no fault injection unless configured): the chip as an FPGA build of the network has it.",
           hp);
  v.open("module cm5data_chip (");
  v.line("input  wire clk,");
  v.line("input  wire rst,");
  v.line("input  wire afd_mode,");
  emit_link_ports(v, NI, W, w.sel, false);
  v.end_ports();
  v.instance(router_name(P), "chip", {},
             chip_connections(p, chip, "afd_mode",
                              {{"in_valid", "in_valid"}, {"in_data", "in_data"}, {"in_credit", "in_credit"},
                               {"out_valid", "out_valid"}, {"out_data", "out_data"}, {"out_credit", "out_credit"},
                               {"clear", "clear"}, {"cnt_sel", "cnt_sel"}, {"cnt_value", "cnt_value"}}));
  v.end_module();
  d.files.emplace_back("cm5data_chip.v", v.text());
  d.files.emplace_back("filelist.f", filelist(d));
  return d;
}

void emit_cm5data_functions(VerilogWriter& v, int height, bool with_climb) {
  auto S = [](int64_t x) { return std::to_string(x); };
  const int H = height;
  v.comment("CRC-32 (0x04C11DB7, MSB first) of one more word.");
  v.line("function [31:0] crc32w;");
  v.line("  input [31:0] c;");
  v.line("  input [31:0] d;");
  v.line("  integer b;");
  v.line("  reg [31:0] x;");
  v.line("  begin");
  v.line("    x = c;");
  v.line("    for (b = 31; b >= 0; b = b - 1) x = {x[30:0], 1'b0} ^ ((d[b] ^ x[31]) ? 32'h04C11DB7 : 32'h00000000);");
  v.line("    crc32w = x;");
  v.line("  end");
  v.line("endfunction");
  if (!with_climb) return;
  v.comment("Levels a message from leaf s climbs above its first chip to reach leaf d (U).");
  v.line("function [3:0] climb;");
  v.line("  input [" + S(2 * H - 1) + ":0] s;");
  v.line("  input [" + S(2 * H - 1) + ":0] d;");
  v.line("  integer l;");
  v.line("  begin");
  v.line("    climb = 4'd0;");
  v.line("    for (l = 1; l < " + S(H) + "; l = l + 1)");
  v.line("      if ((s >> (2 * l)) != (d >> (2 * l))) climb = climb + 4'd1;");
  v.line("  end");
  v.line("endfunction");
}

}  // namespace cmnet

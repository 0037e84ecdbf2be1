#include "gen/cm5ctl/cm5ctl_stream.h"

#include <functional>

#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {


// Per leaf in use (inside emit_send_fifos' generate loop): its three send FIFOs' memory, the
// FIFO presented next (cp_n) and the head presented, `ph`.
void emit_send_memory(VerilogWriter& v) {
  v.line("      // The three FIFOs in one memory, block RAM (read registered, into `sq`): FIFO f's");
  v.line("      // entries at {f, pointer}. Every cycle it reads the head of the FIFO presented next,");
  v.line("      // so `ph` is the presented FIFO's head as soon as that FIFO counts it, as flip-flops");
  v.line("      // read combinationally gave it.");
  v.line("      reg [E-1:0] smem [0:(4 << SPW) - 1];");
  v.line("      reg [E-1:0] sq;");
  v.line("      reg byp;");
  v.line("      reg [SPW-1:0] rb, ri, rm, wb, wi, wm;");
  v.line("      wire [SPW-1:0] rb_n = go && cp == 2'd0 ? snext(rb, SLAST) : rb;");
  v.line("      wire [SPW-1:0] ri_n = go && cp == 2'd1 ? snext(ri, SLAST) : ri;");
  v.line("      wire [SPW-1:0] rm_n = go && cp == 2'd2 ? snext(rm, MLAST) : rm;");
  v.line("      wire [1:0] n1 = cp == 2'd2 ? 2'd0 : cp + 2'd1;");
  v.line("      wire [1:0] n2 = n1 == 2'd2 ? 2'd0 : n1 + 2'd1;");
  v.line("      // The next FIFO to present: the next non-empty one after this, unless this one waits only");
  v.line("      // for another leaf's injection (a FIFO that cannot inject does not hold the others).");
  v.line("      wire [1:0] cp_n = !elig[g] || go ? (ne[n1] ? n1 : ne[n2] ? n2 : cp) : cp;");
  v.line("      wire [SPW+1:0] raddr = {cp_n, cp_n == 2'd0 ? rb_n : cp_n == 2'd1 ? ri_n : rm_n};");
  v.line("      wire [SPW+1:0] waddr = put_b ? {2'd0, wb} : put_i ? {2'd1, wi} : {2'd2, wm};");
  v.line("      wire put = put_b || put_i || put_m;");
  v.line("      always @(posedge clk) begin");
  v.line("        if (put) smem[waddr] <= uentry;");
  v.line("        sq <= smem[raddr];");
  v.line("        byp <= put && waddr == raddr;");
  v.line("      end");
  v.line("      wire [E-1:0] ph = byp ? sbyp_d : sq;");
}

// The send side, per leaf in use (cm5ctl_stream.h): the send FIFOs per function, the FIFO each
// leaf presents to its tree leaf, one injection a cycle picked round robin over the leaves, and
// the status register. Declares what the rest of the module takes from the staging register's
// injection in the other mode: inj_valid, accepted, gets, opf, ihdr (and placed, queued,
// space_all, p_* for the tree's inputs, st_* for the status).
void emit_send_fifos(VerilogWriter& v, const Cm5ctlParams& p, const std::function<std::string(int)>& members_of,
                     const std::function<std::string(const std::string&)>& fn_of) {
  const int N = p.leaves, SD = p.send_fifo_depth;
  const int LW = std::max(1, clog2(static_cast<uint64_t>(N)));
  v.line("// The send side (paper, section 2: an outgoing FIFO per function), per leaf in use: SD units");
  v.line("// for broadcasts, SD for interrupts, SD each for combining and synchronization operations, the");
  v.line("// last two in one memory of 2 x SD in the order the host pushed them (the tree takes a leaf's");
  v.line("// multiple-source packets, reductions, scans, sync OR, router-done, in one order, the same at");
  v.line("// every leaf); broadcasts and interrupts are independent of them and of each other. A unit");
  v.line("// goes from the staging register into its FIFO at once when that FIFO has room, whatever the");
  v.line("// others hold (else it waits: the host keeps to the space the status reports).");
  v.line("localparam integer SD = " + S(SD) + ";  // send FIFO depth per function");
  v.line("localparam integer SCW = " + S(clog2(static_cast<uint64_t>(SD) + 1)) + ";");
  const int SPW = std::max(1, clog2(2 * static_cast<uint64_t>(SD)));
  v.line("localparam integer SPW = " + S(SPW) + ";  // a send FIFO pointer");
  v.line("localparam integer E = W + 9;  // an entry: {data, word 0}");
  std::string mb;
  for (int j = N - 1; j >= 0; --j) mb += members_of(j);
  v.line("localparam [N*N-1:0] MEMBERS = " + S(N * N) + "'b" + mb + ";  // leaf j's partition: bits N*j +: N");
  v.line("wire [E-1:0] uentry = {data, hdr};");
  v.line("wire [1:0] uf = " + fn_of("hdr") + ";");
  v.line("wire [N-1:0] placed_v, elig, queued_v, inj_valid;");
  v.line("wire placed = |placed_v;");
  v.line("wire queued = |queued_v;");
  v.line("// What each leaf presents to its tree leaf: the head of the FIFO it is at.");
  v.line("wire [N-1:0] p_bcast, p_abstain, p_segmented, p_seg;");
  v.line("wire [2*N-1:0] p_kind, pf_v;");
  v.line("wire [3*N-1:0] p_comb;");
  v.line("wire [W*N-1:0] p_data;");
  v.line("wire [9*N-1:0] p_hdr;");
  v.line("wire [N*N-1:0] gets_v;");
  v.line("wire [32*N-1:0] space_all;  // per leaf the status's word 2: free units per function, 8 bits each");
  auto lit = [&](int x) { return S(SPW) + "'d" + S(x); };
  v.line("localparam [SPW-1:0] SONE = " + lit(1) + ", SLAST = " + lit(SD - 1) + ", MLAST = " + lit(2 * SD - 1) + ";");
  v.line("function [SPW-1:0] snext;  // a send FIFO pointer's next value, back to 0 after `last`");
  v.line("  input [SPW-1:0] ptr, last;");
  v.line("  snext = ptr == last ? {SPW{1'b0}} : ptr + SONE;");
  v.line("endfunction");
  v.line("// The unit written in the last cycle, for a head read from the very entry it went to (the");
  v.line("// memory reads the old word then): one for every leaf, one unit is placed a cycle.");
  v.line("reg [E-1:0] sbyp_d;");
  v.line("always @(posedge clk) sbyp_d <= uentry;");
  v.line("reg st_full, st_here;");
  v.line("reg [15:0] st_leaf, st_arg;");
  v.line("wire st_load = full && ukind == 4'd5 && !st_full;");
  v.line("generate");
  v.line("  for (g = 0; g < N; g = g + 1) begin : g_send");
  v.line("    if (IN_USE[g]) begin : g_on");
  v.line("      localparam [N-1:0] ME_V = {{(N-1){1'b0}}, 1'b1} << g;");
  v.line("      localparam [N-1:0] MB = MEMBERS[N*g +: N];");
  v.line("      reg [1:0] cp;  // the FIFO presented: 0 broadcast, 1 interrupt, 2 combine and sync");
  v.line("      reg [SCW-1:0] nb, ni;  // broadcast and interrupt units");
  v.line("      reg [SCW-1:0] nc, ns;  // combining and synchronization units in the shared FIFO");
  v.line("      wire mine = full && is_op && me[g];");
  v.line("      wire put_b = mine && hdr[0] && hdr[3:2] != 2'd2 && nb != SD[SCW-1:0];");
  v.line("      wire put_i = mine && hdr[0] && hdr[3:2] == 2'd2 && ni != SD[SCW-1:0];");
  v.line("      wire put_m = mine && !hdr[0] && (uf == 2'd3 ? ns : nc) != SD[SCW-1:0];");
  v.line("      wire go = inj_valid[g];");
  v.line("      wire [3:0] ne = {1'b0, nc != {SCW{1'b0}} || ns != {SCW{1'b0}}, ni != {SCW{1'b0}}, nb != {SCW{1'b0}}};");
  emit_send_memory(v);
  v.line("      wire [1:0] pf = " + fn_of("ph") + ";");
  v.line("      wire [N-1:0] gets_g = cp == 2'd2 ? ME_V : MB;");
  v.line("      // Room for the presented head's result at every leaf that will get it.");
  v.line("      reg [N-1:0] ok;");
  v.line("      integer k;");
  v.line("      always @* for (k = 0; k < N; k = k + 1) ok[k] = owes_room[4*k + {30'd0, pf}];");
  v.line("      assign elig[g] = run && ne[cp] && inj_ready[g] && &(ok | ~gets_g);");
  v.line("      assign placed_v[g] = put_b || put_i || put_m;");
  v.line("      assign queued_v[g] = |ne;");
  v.line("      assign p_bcast[g] = cp != 2'd2;");
  v.line("      assign p_abstain[g] = ph[1];");
  v.line("      assign p_kind[2*g +: 2] = ph[3:2];");
  v.line("      assign p_comb[3*g +: 3] = ph[6:4];");
  v.line("      assign p_segmented[g] = ph[7];");
  v.line("      assign p_seg[g] = ph[8];");
  v.line("      assign p_data[W*g +: W] = ph[9 +: W];");
  v.line("      assign p_hdr[9*g +: 9] = ph[8:0];");
  v.line("      assign pf_v[2*g +: 2] = pf;");
  v.line("      assign gets_v[N*g +: N] = gets_g;");
  v.line("      assign space_all[32*g +: 32] = {{(8-SCW){1'b0}}, SD[SCW-1:0] - ns, {(8-SCW){1'b0}}, SD[SCW-1:0] - ni,");
  v.line("                                      {(8-SCW){1'b0}}, SD[SCW-1:0] - nc, {(8-SCW){1'b0}}, SD[SCW-1:0] - nb};");
  v.line("      wire m_sync = ph[3:2] == 2'd3 || ph[6:4] == 3'd7;  // the shared FIFO's head (cp 2): sync or combine");
  v.line("      always @(posedge clk)");
  v.line("        if (rst) begin");
  v.line("          cp <= 2'd0;");
  v.line("          {nb, ni, nc, ns} <= {(4*SCW){1'b0}};");
  v.line("          {rb, ri, rm, wb, wi, wm} <= {(6*SPW){1'b0}};");
  v.line("        end else begin");
  v.line("          cp <= cp_n;");
  v.line("          {rb, ri, rm} <= {rb_n, ri_n, rm_n};");
  v.line("          if (put_b) wb <= snext(wb, SLAST);");
  v.line("          if (put_i) wi <= snext(wi, SLAST);");
  v.line("          if (put_m) wm <= snext(wm, MLAST);");
  v.line("          nb <= nb + {{(SCW-1){1'b0}}, put_b} - {{(SCW-1){1'b0}}, go && cp == 2'd0};");
  v.line("          ni <= ni + {{(SCW-1){1'b0}}, put_i} - {{(SCW-1){1'b0}}, go && cp == 2'd1};");
  v.line("          nc <= nc + {{(SCW-1){1'b0}}, put_m && uf != 2'd3} - {{(SCW-1){1'b0}}, go && cp == 2'd2 && !m_sync};");
  v.line("          ns <= ns + {{(SCW-1){1'b0}}, put_m && uf == 2'd3} - {{(SCW-1){1'b0}}, go && cp == 2'd2 && m_sync};");
  v.line("        end");
  v.line("    end else begin : g_off  // a leaf not in use: its units are dropped, it never injects");
  v.line("      wire unused_ready = inj_ready[g];");
  v.line("      assign elig[g] = 1'b0;");
  v.line("      assign placed_v[g] = 1'b0;");
  v.line("      assign queued_v[g] = 1'b0;");
  v.line("      // The staging register's unit, as the other mode gives every leaf: with constants here");
  v.line("      // the lint of Verilator 5.006 fails inside (V3Gate) on the tree leaf.");
  v.line("      assign {p_bcast[g], p_abstain[g], p_segmented[g], p_seg[g]} = {hdr[0], hdr[1], hdr[7], hdr[8]};");
  v.line("      assign p_kind[2*g +: 2] = hdr[3:2];");
  v.line("      assign p_comb[3*g +: 3] = hdr[6:4];");
  v.line("      assign p_data[W*g +: W] = data;");
  v.line("      assign p_hdr[9*g +: 9] = hdr;");
  v.line("      assign pf_v[2*g +: 2] = 2'd0;");
  v.line("      assign gets_v[N*g +: N] = {N{1'b0}};");
  v.line("      assign space_all[32*g +: 32] = 32'd0;");
  v.line("    end");
  v.line("  end");
  v.line("endgenerate");
  v.line("// One injection a cycle: the first eligible leaf round robin from `ip` (the tree leaves take");
  v.line("// one packet per up frame each, so one a cycle keeps up with up to an up frame's leaves).");
  v.line("reg [" + S(LW - 1) + ":0] ip, ipick, iidx;");
  v.line("reg ifound;");
  v.line("integer q2;");
  v.line("always @* begin");
  v.line("  ifound = 1'b0;");
  v.line("  ipick = ip;");
  v.line("  iidx = ip;");
  v.line("  for (q2 = 0; q2 < N; q2 = q2 + 1) begin");
  v.line("    iidx = ip + q2[" + S(LW - 1) + ":0];  // wraps: N = 2^" + S(LW));
  v.line("    if (!ifound && elig[iidx]) begin");
  v.line("      ifound = 1'b1;");
  v.line("      ipick = iidx;");
  v.line("    end");
  v.line("  end");
  v.line("end");
  v.line("assign inj_valid = ifound ? ({{(N-1){1'b0}}, 1'b1} << ipick) : {N{1'b0}};");
  v.line("wire accepted = ifound;  // eligible: its tree leaf is ready");
  v.line("wire [N-1:0] gets = gets_v[N*ipick +: N];  // who will get its result");
  v.line("wire [1:0] opf = pf_v[2*ipick +: 2];");
  v.line("wire [8:0] ihdr = p_hdr[9*ipick +: 9];");
  v.line("always @(posedge clk)");
  v.line("  if (rst) ip <= " + S(LW) + "'d0;");
  v.line("  else if (ifound) ip <= ipick + " + S(LW) + "'d1;");
}

// The stream module: one staging register for the unit coming in, the tree, a result FIFO
// per leaf, a scan over the leaves for the unit going out, the counters. Its text is built by
// the section functions below, in order, on one VerilogWriter (the module body one level in;
// deeper blocks keep their indentation in their strings).
class StreamModule {
 public:
  explicit StreamModule(const Cm5ctlParams& params)
      : p(params),
        N(p.leaves),
        W(p.word_bits),
        sf(p.send_fifo_depth > 0),
        t(cm5_topology(p)),
        LW(std::max(1, clog2(static_cast<uint64_t>(N)))),
        lw1(S(LW - 1)),
        E(W + 9),
        R(cm5ctl_result_rows(p)),
        RW((E + R - 1) / R),
        RBW(R > 1 ? clog2(static_cast<uint64_t>(R)) : 0) {}

  std::string emit() {
    emit_header();
    emit_staging_decode();
    emit_control();
    emit_inputs_and_tree();
    emit_receive_pick();
    emit_result_memories();
    emit_output();
    emit_counters();
    return v.text();
  }

 private:
  static_assert(kCm5ResultDepth == 16, "the status word holds 5-bit counts of the function FIFOs");
  const Cm5ctlParams& p;
  const int N, W, RD = kCm5ResultDepth;
  const bool sf;  // send FIFOs per function, else the one staging register
  const Cm5Topology t;
  const int LW;  // a leaf's index bits
  const std::string lw1;
  // A result entry {data, header} is E = W + 9 bits. Where every leaf's results come far enough
  // apart (one per down frame, TD cycles, and (R + 1) x N <= TD) it is kept in R rows of at most
  // 16 bits, written and read a row per cycle: a leaf's four FIFOs then fit one 256 x 16 block
  // RAM instead of ceil(E / 16) blocks. Else in one row of E bits.
  const int E, R, RW, RBW;
  VerilogWriter v;
  // The function a result goes to, from an operation's word 0: 0 broadcast, 1 combine, 2
  // interrupt, 3 synchronization (sync OR, router-done).
  static std::string fn_of(const std::string& h) {
    return h + "[0] ? (" + h + "[3:2] == 2'd2 ? 2'd2 : 2'd0) : (" + h + "[3:2] == 2'd3 || " + h +
           "[6:4] == 3'd7) ? 2'd3 : 2'd1";
  }
  // members(j): the leaves of leaf j's partition (a broadcast's results), as N bits.
  std::string members_of(int j) const {
    std::string m;
    for (int k = N - 1; k >= 0; --k)
      m += t.part[static_cast<size_t>(j)] >= 0 && t.part[static_cast<size_t>(k)] == t.part[static_cast<size_t>(j)] ? "1" : "0";
    return m;
  }

  // Emits the header comment, the port list, the localparams and IN_USE.
  void emit_header() {
    v.line("// Generated by cmnet (gen/cm5ctl/cm5ctl_stream.cpp): the CM-5 control network's stream port");
    v.line("// (hw/common/STREAM_BOARD.md) around cm5ctl_tree, " + S(N) + " leaves. The unit format and the");
    v.line("// counters: gen/cm5ctl/cm5ctl_stream.h.");
    if (sf) {
      v.line("// Send side: per leaf a send FIFO of " + S(p.send_fifo_depth) + " units per function, and a status");
      v.line("// register apart from the operations.");
    }
    v.line("`default_nettype none");
    v.open("module cm5ctl_stream (");
    for (const std::string& d : stream_port_declarations(8 * N)) v.line(d);
    v.end_ports();
    v.line("localparam integer N = " + S(N) + ";");
    v.line("localparam integer W = " + S(W) + ";");
    v.line("localparam integer RD = " + S(RD) + ";  // results a leaf may be owed, per function");
    v.line("localparam integer RCW = " + S(clog2(static_cast<uint64_t>(RD) + 1)) + ";");
    v.line("localparam integer RPW = " + S(clog2(static_cast<uint64_t>(RD))) + ";");
    v.line("localparam integer OCW = " + S(clog2(static_cast<uint64_t>(4 * RD) + 1)) + ";  // owed, all functions");
    v.line("localparam integer R = " + S(R) + ";  // rows per result entry in the result memory");
    v.line("localparam integer RW = " + S(RW) + ";  // bits per row");
    std::string use;
    for (int j = N - 1; j >= 0; --j) use += t.part[static_cast<size_t>(j)] >= 0 ? "1" : "0";
    v.line("localparam [N-1:0] IN_USE = " + S(N) + "'b" + use + ";");
  }

  // Emits the staging register's fields, the room per leaf and function, the injection from the staging register.
  void emit_staging_decode() {
    v.line("// The unit coming in: word 0 the operation (or a control unit: its kind in bits 31:28), the");
    v.line("// last word its data.");
    v.line("reg mid, full;");
    v.line("reg [8:0] hdr;");
    v.line("reg [3:0] ukind;  // 0 operation, 1 globals, 2 counter, 3 restart, 4 link fault, 5 status");
    v.line("reg [16:0] arg;   // a control unit's word 0, bits 16:0");
    v.line("reg [W-1:0] data;");
    v.line("reg [15:0] leaf;");
    v.line("reg here;         // leaf < N");
    if (!sf) {
      v.line("assign tx_ready = !full;");
      v.line("wire take = tx_valid && !full;");
    }
    v.line("wire [" + S(31 - W < 0 ? 0 : 31 - W) + ":0] unused_tx = " + (W < 32 ? "tx_data[31:W]" : "1'b0") + ";");
    if (!sf) {
      v.line("// Room: every leaf that will get the result owes fewer than RD of its function.");
      v.line("wire [N-1:0] owes_room, owing;");
    } else {
      v.line("// Room, per leaf and function (bit 4 x leaf + f): the leaf owes fewer than RD results of f.");
      v.line("wire [4*N-1:0] owes_room;");
      v.line("wire [N-1:0] owing;");
    }
    v.line("genvar g;");
    v.line("wire [" + lw1 + ":0] li = leaf[" + lw1 + ":0];");
    if (!sf) {
      v.line("// members[j]: the leaves of leaf j's partition (a broadcast's results).");
      v.line("reg [N-1:0] members;");
      v.line("always @* begin");
      v.line("  case (li)");
      for (int j = 0; j < N; ++j)
        v.line("    " + S(LW) + "'d" + S(j) + ": members = here ? " + S(N) + "'b" + members_of(j) + " : {N{1'b0}};");
      if (N != (1 << LW)) v.line("    default: members = {N{1'b0}};");
      v.line("  endcase");
      v.line("end");
    }
    v.line("wire [N-1:0] me = here ? ({{(N-1){1'b0}}, 1'b1} << li) : {N{1'b0}};");
    if (!sf) {
      v.line("wire [N-1:0] gets = hdr[0] ? members : (me & IN_USE);  // who will get its result");
      v.line("// The function the result goes to: 0 broadcast, 1 combine, 2 interrupt, 3 synchronization");
      v.line("// (sync OR, router-done).");
      v.line("wire [1:0] opf = " + fn_of("hdr") + ";");
      v.line("wire room = &(owes_room | ~gets);");
    }
    v.line("wire useful = |(me & IN_USE);");
    v.line("wire [N-1:0] inj_ready;");
    v.line("wire is_op = ukind == 4'd0;");
    if (!sf) {
      v.line("wire offer = full && run && is_op && useful && room;");
      v.line("wire [N-1:0] inj_valid = offer ? me : {N{1'b0}};");
      v.line("wire accepted = |(inj_valid & inj_ready);");
      v.line("// A unit for a leaf not in use (or out of range) is taken and dropped.");
    }
    v.line("wire [N-1:0] halted;");
    v.line("reg [15:0] waited;  // cycles a status has waited, up to its arg");
    v.line("wire ob_idle;       // the output register free for a status (see below)");
  }

  // Emits the send FIFOs (send side on), the control units and the staging and status registers.
  void emit_control() {
    if (sf) emit_send_fifos(v, p, [this](int j) { return members_of(j); }, fn_of);
    if (!sf) {
      v.line("// Control units: globals, counter and link fault apply at once; a restart waits until the");
      v.line("// leaf is halted (a flush reached it); a status waits `arg` cycles (the host's settling");
      v.line("// time) and the output register, then goes out as a unit of its own.");
      v.line("wire ctl = full && run && !is_op;");
    } else {
      v.line("// Control units: globals, counter and link fault apply at once; a restart waits until the");
      v.line("// leaf is halted (a flush reached it), holding the units behind it; a status goes to the");
      v.line("// status register (above).");
      v.line("wire ctl = full && run && !is_op && ukind != 4'd5;");
    }
    v.line("wire restart_now = ctl && ukind == 4'd3 && (|(me & halted & IN_USE) || !useful);");
    v.line(sf ? "wire stat_ready = st_full && waited == st_arg;" : "wire stat_ready = ctl && ukind == 4'd5 && waited == arg[15:0];");
    v.line("wire stat_now = stat_ready && ob_idle;");
    v.line("// A link fault applies at once, in order with the operations: results may be owed (the host");
    v.line("// picks the instant: a packet it hits is taken as idle where the CRC catches it).");
    v.line("wire flip_now = ctl && ukind == 4'd4;");
    if (!sf) {
      v.line("wire ctl_done = ctl && (ukind == 4'd1 || ukind == 4'd2 || ukind > 4'd5 || flip_now || restart_now || stat_now);");
      v.line("wire done = accepted || (full && run && is_op && !useful) || ctl_done;");
      v.line("wire [N-1:0] inc = accepted ? gets : stat_now ? me : {N{1'b0}};");
      v.line("wire rd_start = accepted && !hdr[0] && hdr[6:4] == 3'd7;  // a router-done begins at leaf `leaf`");
    } else {
      v.line("wire ctl_done = ctl && (ukind == 4'd1 || ukind == 4'd2 || ukind > 4'd5 || flip_now || restart_now);");
      v.line("// A unit leaves the staging register: an operation into its FIFO (dropped for a leaf not in");
      v.line("// use), a control unit applied, a status into the status register.");
      v.line("wire done = (full && is_op && (placed || !useful)) || ctl_done || st_load;");
      v.line("wire [N-1:0] st_me = st_here ? ({{(N-1){1'b0}}, 1'b1} << st_leaf[" + lw1 + ":0]) : {N{1'b0}};");
      v.line("wire [N-1:0] inc = accepted ? gets : stat_now ? st_me : {N{1'b0}};");
      v.line("wire rd_start = accepted && !ihdr[0] && ihdr[6:4] == 3'd7;  // a router-done begins at the leaf injecting");
      v.line("// The next unit's first word comes in as this one leaves: two cycles a unit.");
      v.line("assign tx_ready = !full || done;");
      v.line("wire take = tx_valid && tx_ready;");
    }
    v.line("always @(posedge clk)");
    v.line("  if (rst) begin");
    v.line("    mid <= 1'b0;");
    v.line("    full <= 1'b0;");
    v.line("    hdr <= 9'd0;");
    v.line("    ukind <= 4'd0;");
    v.line("    arg <= 17'd0;");
    v.line("    data <= {W{1'b0}};");
    v.line("    leaf <= 16'd0;");
    v.line("    here <= 1'b0;");
    v.line("  end else begin");
    v.line("    if (take) begin");
    v.line("      leaf <= tx_leaf;");
    v.line("      here <= tx_leaf[15:" + S(LW) + "] == " + S(16 - LW) + "'d0;  // < N (a power of two)");
    v.line("      if (!mid) hdr <= tx_data[8:0];");
    v.line("      if (!mid) ukind <= tx_data[31:28];");
    v.line("      if (!mid) arg <= tx_data[16:0];");
    v.line("      if (mid || tx_last) data <= mid ? tx_data[W-1:0] : {W{1'b0}};");
    v.line("      mid <= !tx_last;");
    if (!sf) {
      v.line("      if (tx_last) full <= 1'b1;");
      v.line("    end");
      v.line("    if (done) full <= 1'b0;");
    } else {
      v.line("    end");
      v.line("    if (done) full <= 1'b0;");
      v.line("    if (take && tx_last) full <= 1'b1;");
    }
    v.line("  end");
    if (sf) {
      v.line("// The status register: one status request at a time, apart from the operations.");
      v.line("always @(posedge clk)");
      v.line("  if (rst) begin");
      v.line("    st_full <= 1'b0;");
      v.line("    st_leaf <= 16'd0;");
      v.line("    st_arg <= 16'd0;");
      v.line("    st_here <= 1'b0;");
      v.line("  end else if (st_load) begin");
      v.line("    st_full <= 1'b1;");
      v.line("    st_leaf <= leaf;");
      v.line("    st_arg <= arg[15:0];");
      v.line("    st_here <= here;");
      v.line("  end else if (stat_now) begin");
      v.line("    st_full <= 1'b0;");
      v.line("  end");
    }
  }

  // Emits the host-driven leaf inputs, the link faults, cm5ctl_tree and the sticky tree faults.
  void emit_inputs_and_tree() {
    v.line();
    v.line("// The host-driven inputs of every leaf and the link faults (a one-cycle flip of wire 0), a");
    v.line("// register each with a constant index (a part-select by `li` costs yosys a shifter).");
    v.line("wire [2*N-1:0] async_in;");
    v.line("wire [N-1:0] hard_in;");
    v.line("wire [W*N-1:0] rd_count;");
    v.line("wire [2*N-1:2] flip_up, flip_down;");
    v.line("wire [N-1:0] restart = restart_now ? me : {N{1'b0}};");
    v.line("wire [N-1:0] set_globals = ctl && ukind == 4'd1 ? me : {N{1'b0}};");
    v.line("wire [N-1:0] set_counter = ctl && ukind == 4'd2 ? me : {N{1'b0}};");
    v.line("always @(posedge clk)");
    v.line("  if (rst) waited <= 16'd0;");
    v.line(std::string("  else waited <= ") + (sf ? "st_full" : "ctl && ukind == 4'd5") +
      " && !stat_now ? (stat_ready ? waited : waited + 16'd1) : 16'd0;");
    v.line("generate");
    v.line("  for (g = 0; g < N; g = g + 1) begin : g_in");
    v.line("    reg [1:0] a_q;");
    v.line("    reg h_q;");
    v.line("    reg [W-1:0] c_q;");
    v.line("    assign async_in[2*g +: 2] = a_q;");
    v.line("    assign hard_in[g] = h_q;");
    v.line("    assign rd_count[W*g +: W] = c_q;");
    v.line("    always @(posedge clk)");
    v.line("      if (rst) begin");
    v.line("        a_q <= 2'd0;");
    v.line("        h_q <= 1'b0;");
    v.line("        c_q <= {W{1'b0}};");
    v.line("      end else begin");
    v.line("        if (set_globals[g]) begin");
    v.line("          a_q <= arg[1:0];");
    v.line("          h_q <= arg[2];");
    v.line("        end");
    v.line("        if (set_counter[g]) c_q <= data;");
    v.line("      end");
    v.line("  end");
    v.line("  // arg[15:0] the link's heap index (2..2N-1), arg[16] 1: up, 0: down.");
    v.line("  for (g = 2; g < 2 * N; g = g + 1) begin : g_flip");
    v.line("    localparam [15:0] K = g;");
    v.line("    reg u_q, d_q;");
    v.line("    assign flip_up[g] = u_q;");
    v.line("    assign flip_down[g] = d_q;");
    v.line("    always @(posedge clk) begin");
    v.line("      u_q <= !rst && flip_now && arg[16] && arg[15:0] == K;");
    v.line("      d_q <= !rst && flip_now && !arg[16] && arg[15:0] == K;");
    v.line("    end");
    v.line("  end");
    v.line("endgenerate");
    v.line();
    v.line("wire [N-1:0] res_valid, res_bcast, res_ovf, res_err, res_abstained;");
    v.line("wire [2*N-1:0] res_kind;");
    v.line("wire [3*N-1:0] res_comb;");
    v.line("wire [W*N-1:0] res_data;");
    v.line("wire [N-1:0] aligned, hard_error_out;");
    v.line("wire [2*N-1:0] async_out;");
    v.line("wire fault, bcast_drop, link_error;");
    v.line("cm5ctl_tree tree (");
    v.line("  .clk(clk), .rst(rst), .inj_valid(inj_valid), .inj_ready(inj_ready),");
    if (!sf) {
      v.line("  .inj_bcast({N{hdr[0]}}), .inj_abstain({N{hdr[1]}}), .inj_kind({N{hdr[3:2]}}), .inj_comb({N{hdr[6:4]}}),");
      v.line("  .inj_segmented({N{hdr[7]}}), .inj_seg({N{hdr[8]}}), .inj_data({N{data}}), .rd_count(rd_count),");
    } else {
      v.line("  .inj_bcast(p_bcast), .inj_abstain(p_abstain), .inj_kind(p_kind), .inj_comb(p_comb),");
      v.line("  .inj_segmented(p_segmented), .inj_seg(p_seg), .inj_data(p_data), .rd_count(rd_count),");
    }
    v.line("  .restart(restart), .async_in(async_in), .hard_error_in(hard_in),");
    v.line("  .res_valid(res_valid), .res_bcast(res_bcast), .res_kind(res_kind), .res_comb(res_comb), .res_data(res_data),");
    v.line("  .res_ovf(res_ovf), .res_err(res_err), .res_abstained(res_abstained), .async_out(async_out),");
    v.line("  .hard_error_out(hard_error_out), .halted(halted), .aligned(aligned),");
    v.line("  .flip_up(flip_up), .flip_down(flip_down), .fault(fault), .bcast_drop(bcast_drop),");
    v.line("  .link_error(link_error));");
    v.line();
    v.line("// Sticky: the tree's design fault, broadcast drop and CRC link error since reset.");
    v.line("reg fault_seen, drop_seen, lerr_seen;");
    v.line("always @(posedge clk)");
    v.line("  if (rst) {fault_seen, drop_seen, lerr_seen} <= 3'b000;");
    v.line("  else {fault_seen, drop_seen, lerr_seen} <= {fault_seen | fault, drop_seen | bcast_drop, lerr_seen | link_error};");
    v.line();
  }

  // Emits the receive side's declarations, the output register's state, the round-robin pick and the read stage.
  void emit_receive_pick() {
    v.line("// The network interface's receive side: per leaf a FIFO per function (broadcast, combine,");
    v.line("// interrupt, synchronization), RD deep each, in one memory per leaf (the read address");
    v.line("// registered, so block RAM holds it), an entry in R rows of RW bits. Out, a pipeline: pick");
    v.line("// the next non-empty (leaf, function) round robin and take its entry off the FIFO, read its");
    v.line("// rows, hold it in the output register for its two words.");
    v.line("localparam integer NP = 4 * N;  // (leaf, function) pairs, pair 4 x leaf + function");
    v.line("localparam integer PBW = " + S(clog2(static_cast<uint64_t>(4 * N))) + ";  // NP = 2^PBW");
    v.line("wire [NP-1:0] have_all;");
    v.line("wire [RW-1:0] heads [0:N-1];");
    v.line("wire [4*RCW*N-1:0] fcount_all;  // words waiting, per leaf and function");
    v.line("wire [4*N-1:0] ferr_all, fovf_all;");
    v.line("wire [N-1:0] rd_busy;");
    if (R > 1) v.line("wire [4*RPW*N-1:0] rp_all;  // read pointers, per leaf and function");
    v.line("// The output register: a result (its header and data) or a status going out, word 0 then");
    v.line("// word 1; a status's words are built when sent, from its leaf's registers.");
    if (!sf) {
      v.line("reg ob_full, ob_phase, ob_stat;");
    } else {
      v.line("// A status is three words (word 2: the send FIFOs' space), a result two.");
      v.line("reg ob_full, ob_stat;");
      v.line("reg [1:0] ob_phase;");
      v.line("wire ob_last = ob_phase == (ob_stat ? 2'd2 : 2'd1);");
    }
    v.line("reg [15:0] ob_leaf;");
    v.line("reg [1:0] ob_f;");
    v.line("reg [8:0] ob_hdr;");
    v.line("reg [W-1:0] ob_w1;");
    v.line(std::string("wire give = ob_full && ") + (sf ? "ob_last" : "ob_phase") + " && rx_ready;");
    v.line("wire ob_free = !ob_full || give;");
    v.line("// The read stage: the entry picked, its rows read (fbusy), then whole in `fe` (fv).");
    v.line("reg fv, fbusy;");
    v.line("reg [PBW-1:0] fpair;");
    v.line("wire fmove = fv && ob_free;");
    v.line("wire flast;         // the read stage's last row is being read (R > 1)");
    v.line("assign ob_idle = !fv && !fbusy && ob_free;");
    v.line("// Pick: round robin from `pos`, while no status is ready (it goes out next) and the read");
    v.line("// stage is free or moving on.");
    v.line("reg [PBW-1:0] pos, pick, idx;");
    v.line("reg found;");
    v.line("integer q;");
    v.line("always @* begin");
    v.line("  found = 1'b0;");
    v.line("  pick = pos;");
    v.line("  idx = pos;");
    v.line("  for (q = 0; q < NP; q = q + 1) begin");
    v.line("    idx = pos + q[PBW-1:0];  // wraps: NP = 2^PBW");
    v.line("    if (!found && have_all[idx]) begin");
    v.line("      found = 1'b1;");
    v.line("      pick = idx;");
    v.line("    end");
    v.line("  end");
    v.line("end");
    v.line("// The entry read goes to the output register from its last row if that is free, else it waits.");
    v.line("wire fdirect = flast && ob_free;");
    v.line("wire take_next = found && !stat_ready && (!fbusy || fdirect) && (!fv || fmove);");
    v.line("wire [" + lw1 + ":0] pick_leaf = pick[PBW-1:2];");
    v.line("wire [1:0] pick_f = pick[1:0];");
    v.line("wire [" + lw1 + ":0] fleaf = fpair[PBW-1:2];");
    v.line("wire [RW-1:0] head = heads[fleaf];");
    if (R > 1) {
      v.line("reg [" + S(RBW - 1) + ":0] frow;  // the row being read");
      v.line("wire frow_last = frow == " + S(RBW) + "'d" + S(R - 1) + ";");
      v.line("assign flast = fbusy && frow_last;");
      v.line("// The next row: the last one stays while the entry waits; 0 once it leaves for the output");
      v.line("// register (gated, not muxed with a constant, so yosys finds no reset in `raddr` below).");
      v.line("wire [" + S(RBW - 1) + ":0] frow_n = (frow + {" + (RBW > 1 ? S(RBW - 1) + "'d0, " : std::string()) +
        "fbusy && !frow_last}) & {" + S(RBW) + "{!(fdirect || fmove)}};");
      v.line("// One read address for every leaf's memory, loaded every cycle (no enable, no reset: yosys");
      v.line("// merges it into the block RAMs' read ports): the picked entry's first row, else the next");
      v.line("// row of the entry being read.");
      v.line("reg [RPW-1:0] fptr;");
      v.line("reg [RPW+" + S(RBW + 1) + ":0] raddr;");
      v.line("wire [RPW-1:0] pick_ptr = rp_all[pick*RPW +: RPW];");
      v.line("always @(posedge clk) begin");
      v.line("  raddr <= {take_next ? {pick_f, pick_ptr} : {fpair[1:0], fptr}, frow_n};");
      v.line("  if (take_next) fptr <= pick_ptr;");
      v.line("end");
    } else {
      v.line("assign flast = 1'b0;");
    }
  }

  // Emits per leaf the result memory holding its four function FIFOs.
  void emit_result_memories() {
    v.line("generate");
    v.line("  for (g = 0; g < N; g = g + 1) begin : g_res");
    v.line("    localparam [31:0] ME_I = g;");
    v.line("    wire [1:0] rf = res_bcast[g] ? (res_kind[g*2 +: 2] == 2'd2 ? 2'd2 : 2'd0)");
    v.line("                                 : (res_kind[g*2 +: 2] == 2'd3 || res_comb[g*3 +: 3] == 3'd7) ? 2'd3 : 2'd1;");
    v.line("    wire [R*RW-1:0] entry = {" + (R * RW > E ? "{" + S(R * RW - E) + "{1'b0}}, " : std::string()) +
      "res_data[g*W +: W], res_abstained[g], res_err[g], res_ovf[g],");
    v.line("                             res_comb[g*3 +: 3], res_kind[g*2 +: 2], res_bcast[g]};");
    v.line("    reg [RW-1:0] mem [0:" + S(4 * RD * (1 << RBW) - 1) + "];");
    if (R == 1) v.line("    reg [RPW+1:0] raddr;");
    v.line("    wire [4*RPW-1:0] wr, rp;");
    v.line("    wire [4*RCW-1:0] cnt;");
    v.line("    wire [3:0] ferr, fovf;");
    v.line("    reg busy_rd;");
    v.line("    assign heads[g] = mem[raddr];");
    if (R > 1) v.line("    assign rp_all[4*RPW*g +: 4*RPW] = rp;");
    v.line("    wire taken = take_next && pick_leaf == ME_I[" + lw1 + ":0];");
    v.line("    assign fcount_all[4*RCW*g +: 4*RCW] = cnt;");
    v.line("    assign ferr_all[4*g +: 4] = ferr;");
    v.line("    assign fovf_all[4*g +: 4] = fovf;");
    v.line("    assign rd_busy[g] = busy_rd;");
    v.line("    wire push = res_valid[g] && cnt[rf*RCW +: RCW] != RD[RCW-1:0];");
    if (R > 1) {
      v.line("    // The entry's first row is written as it comes, the others in the next R - 1 cycles");
      v.line("    // (results come a down frame apart). It counts in its FIFO at once: a read of it starts");
      v.line("    // two cycles later at the earliest, and reads a row a cycle, behind the writes.");
      v.line("    reg wbusy;");
      v.line("    reg [" + S(RBW - 1) + ":0] wrow;");
      v.line("    reg [1:0] wf;");
      v.line("    reg [RPW-1:0] wp;");
      v.line("    wire wlast = wbusy && wrow == " + S(RBW) + "'d" + S(R - 1) + ";");
    }
    v.line("    // Each function's pointers and count in a block of its own: constant indices (a");
    v.line("    // register part-select by a signal costs yosys hundreds of LUTs).");
    v.line("    genvar h;");
    v.line("    for (h = 0; h < 4; h = h + 1) begin : g_fn");
    v.line("      localparam [1:0] H = h;");
    v.line("      reg [RPW-1:0] wr_h, rp_h;");
    v.line("      reg [RCW-1:0] cnt_h;");
    v.line("      reg ferr_h, fovf_h;");
    v.line("      wire push_h = push && rf == H;");
    v.line("      wire take_h = taken && pick_f == H;");
    v.line("      assign have_all[4*g + h] = cnt_h != {RCW{1'b0}};");
    v.line("      assign wr[h*RPW +: RPW] = wr_h;");
    v.line("      assign rp[h*RPW +: RPW] = rp_h;");
    v.line("      assign cnt[h*RCW +: RCW] = cnt_h;");
    v.line("      assign ferr[h] = ferr_h;");
    v.line("      assign fovf[h] = fovf_h;");
    v.line("      always @(posedge clk)");
    v.line("        if (rst) begin");
    v.line("          wr_h <= {RPW{1'b0}};");
    v.line("          rp_h <= {RPW{1'b0}};");
    v.line("          cnt_h <= {RCW{1'b0}};");
    v.line("          ferr_h <= 1'b0;");
    v.line("          fovf_h <= 1'b0;");
    v.line("        end else begin");
    v.line("          if (push_h) wr_h <= wr_h + {{(RPW-1){1'b0}}, 1'b1};");
    v.line("          if (push && rf == H) ferr_h <= res_err[g];  // the last error of the function");
    v.line("          if (take_h) rp_h <= rp_h + {{(RPW-1){1'b0}}, 1'b1};");
    v.line("          // never, with the injection's room check");
    v.line("          if (res_valid[g] && !push && rf == H) fovf_h <= 1'b1;");
    v.line("          if (push_h && !take_h) cnt_h <= cnt_h + {{(RCW-1){1'b0}}, 1'b1};");
    v.line("          else if (take_h && !push_h) cnt_h <= cnt_h - {{(RCW-1){1'b0}}, 1'b1};");
    v.line("        end");
    v.line("    end");
    if (R > 1) {
      v.line("    // One write port (two write statements would keep yosys from a block RAM).");
      v.line("    wire [RPW+" + S(RBW + 1) + ":0] waddr = push ? {rf, wr[rf*RPW +: RPW], " + S(RBW) + "'d0} : {wf, wp, wrow};");
      v.line("    // The leaf's res_* hold until its next down frame (cm5ctl_leaf.v), so rows 1..R-1 are");
      v.line("    // written from them as they stand.");
      {
        std::string m = "entry[" + S(RW - 1) + ":0]";  // row 0 (a push), rows 1..R-1 by wrow
        for (int r = R - 1; r >= 1; --r)
          m = "wrow == " + S(RBW) + "'d" + S(r) + " ? entry[" + S((r + 1) * RW - 1) + ":" + S(r * RW) + "] : " + m;
        v.line("    wire [RW-1:0] wdata = push ? entry[RW-1:0] : " + m + ";");
      }
      v.line("    always @(posedge clk) begin");
      v.line("      if (push || wbusy) mem[waddr] <= wdata;");
      v.line("      if (rst) begin");
      v.line("        busy_rd <= 1'b0;");
      v.line("        wbusy <= 1'b0;");
      v.line("        wrow <= " + S(RBW) + "'d0;");
      v.line("        wf <= 2'd0;");
      v.line("        wp <= {RPW{1'b0}};");
      v.line("      end else begin");
      v.line("        if (push) begin");
      v.line("          wbusy <= 1'b1;");
      v.line("          wrow <= " + S(RBW) + "'d1;");
      v.line("          wf <= rf;");
      v.line("          wp <= wr[rf*RPW +: RPW];");
      v.line("        end else if (wbusy) begin");
      v.line("          wbusy <= !wlast;");
      v.line("          wrow <= wrow + " + S(RBW) + "'d1;");
      v.line("        end");
    } else {
      v.line("    always @(posedge clk) begin");
      v.line("      if (push) mem[{rf, wr[rf*RPW +: RPW]}] <= entry;");
      v.line("      if (rst) begin");
      v.line("        raddr <= {(RPW+2){1'b0}};");
      v.line("        busy_rd <= 1'b0;");
      v.line("      end else begin");
      v.line("        if (taken) raddr <= {pick_f, rp[pick_f*RPW +: RPW]};");
    }
    v.line(sf ? "        if (rd_start && inj_valid[g]) busy_rd <= 1'b1;" : "        if (rd_start && leaf == ME_I[15:0]) busy_rd <= 1'b1;");
    v.line("        else if (res_valid[g] && !res_bcast[g] && res_comb[g*3 +: 3] == 3'd7) busy_rd <= 1'b0;");
    v.line("      end");
    v.line("    end");
    v.line("  end");
    v.line("endgenerate");
  }

  // Emits the status words, the stream port's rx side and the output register.
  void emit_output() {
    v.line("// Results delivered, per leaf and function (at the unit's last word).");
    v.line("wire [4*N-1:0] got_f = give && !ob_stat ? ({{(4*N-1){1'b0}}, 1'b1} << {ob_leaf[" + lw1 + ":0], ob_f}) : {(4*N){1'b0}};");
    v.line("// The status of leaf ob_leaf (cm5ctl_stream.h), built as it is sent: word 0 {5, words waiting");
    v.line("// per function}, word 1 {router-done under way, overflow and last error per function, results");
    v.line("// owed (before this status), the sticky tree faults, aligned, halted, the global ORs}.");
    v.line("wire [" + lw1 + ":0] ol = ob_leaf[" + lw1 + ":0];");
    v.line("wire ob_here = ob_leaf[15:" + S(LW) + "] == " + S(16 - LW) + "'d0;");
    v.line("wire [OCW*N-1:0] owed_all;");
    v.line("wire [OCW-1:0] owed_o = owed_all[OCW*ol +: OCW] - {{(OCW-1){1'b0}}, 1'b1};  // this status counts");
    v.line("wire [31:0] stat_w0 = {4'd5, 8'd0, ob_here ? fcount_all[4*RCW*ol +: 4*RCW] : {(4*RCW){1'b0}}};");
    v.line("wire [31:0] stat_w1 = ob_here ? {7'd0, rd_busy[ol], fovf_all[4*ol +: 4], ferr_all[4*ol +: 4],");
    v.line("                                 {{(8-OCW){1'b0}}, owed_o}, drop_seen, fault_seen, lerr_seen, aligned[ol],");
    v.line("                                 halted[ol], hard_error_out[ol], async_out[2*ol +: 2]} : 32'd0;");
    v.line("wire [31:0] res_w1 = " + std::string(W < 32 ? "{{(32-W){1'b0}}, ob_w1}" : "ob_w1") + ";");
    v.line("assign rx_valid = ob_full;");
    v.line("assign rx_leaf = ob_leaf;");
    if (!sf) {
      v.line("assign rx_data = ob_stat ? (ob_phase ? stat_w1 : stat_w0) : (ob_phase ? res_w1 : {23'd0, ob_hdr});");
      v.line("assign rx_last = ob_phase;");
    } else {
      v.line("wire [31:0] stat_w2 = ob_here ? space_all[32*ol +: 32] : 32'd0;");
      v.line("assign rx_data = ob_stat ? (ob_phase == 2'd2 ? stat_w2 : ob_phase[0] ? stat_w1 : stat_w0)");
      v.line("                         : (ob_phase[0] ? res_w1 : {23'd0, ob_hdr});");
      v.line("assign rx_last = ob_last;");
    }
    if (R > 1) {
      v.line("// Rows 0..R-2 of the entry read (row 0 lowest); its last row stays on the memory's output");
      v.line("// (the read address holds) until the entry goes to the output register.");
      v.line("reg [(R-1)*RW-1:0] fe;");
      v.line("wire [R*RW-1:0] fent = {head, fe};");
    } else {
      v.line("wire [RW-1:0] fent = head;");
    }
    v.line("always @(posedge clk)");
    v.line("  if (rst) begin");
    v.line("    pos <= {PBW{1'b0}};");
    v.line("    fv <= 1'b0;");
    v.line("    fbusy <= 1'b0;");
    v.line("    fpair <= {PBW{1'b0}};");
    if (R > 1) {
      v.line("    frow <= " + S(RBW) + "'d0;");
      v.line("    fe <= {((R-1)*RW){1'b0}};");
    }
    v.line("    ob_full <= 1'b0;");
    v.line(sf ? "    ob_phase <= 2'd0;" : "    ob_phase <= 1'b0;");
    v.line("    ob_stat <= 1'b0;");
    v.line("    ob_leaf <= 16'd0;");
    v.line("    ob_f <= 2'd0;");
    v.line("    ob_hdr <= 9'd0;");
    v.line("    ob_w1 <= {W{1'b0}};");
    v.line("  end else begin");
    v.line(sf ? "    if (ob_full && rx_ready) ob_phase <= ob_last ? 2'd0 : ob_phase + 2'd1;"
         : "    if (ob_full && rx_ready) ob_phase <= !ob_phase;");
    v.line("    if (give) ob_full <= 1'b0;");
    v.line("    if (take_next) begin");
    v.line("      pos <= pick + {{(PBW-1){1'b0}}, 1'b1};  // wraps");
    v.line("      fpair <= pick;");
    v.line("    end");
    if (R > 1) {
      v.line(std::string("    if (fbusy && !frow_last) fe <= ") + (R > 2 ? "{head, fe[(R-1)*RW-1:RW]};" : "head;"));
      v.line("    frow <= frow_n;");
      v.line("    if (take_next) fbusy <= 1'b1;");
      v.line("    else if (fbusy) fbusy <= !frow_last;");
      v.line("    fv <= (flast && !ob_free) || (fv && !fmove);");
    } else {
      v.line("    fv <= take_next || (fv && !fmove);");
    }
    v.line("    if (fmove || fdirect) begin");
    v.line("      ob_full <= 1'b1;");
    v.line(sf ? "      ob_phase <= 2'd0;" : "      ob_phase <= 1'b0;");
    v.line("      ob_stat <= 1'b0;");
    v.line("      ob_leaf <= {" + S(16 - LW) + "'d0, fleaf};");
    v.line("      ob_f <= fpair[1:0];");
    v.line("      ob_hdr <= fent[8:0];");
    v.line("      ob_w1 <= fent[W+8:9];");
    v.line("    end else if (stat_now) begin");
    v.line("      ob_full <= 1'b1;");
    v.line(sf ? "      ob_phase <= 2'd0;" : "      ob_phase <= 1'b0;");
    v.line("      ob_stat <= 1'b1;");
    v.line(sf ? "      ob_leaf <= st_leaf;" : "      ob_leaf <= leaf;");
    v.line("      ob_f <= 2'd0;");
    v.line("    end");
    v.line("  end");
    v.line();
  }

  // Emits the owed results, the counters bus and the busy signal.
  void emit_counters() {
    v.line("// Owed results per function (the injection's room) and in all, and the counters (due -");
    v.line("// results = pending, at every instant).");
    v.line("localparam integer CB = " + S(p.counter_bits) + ";  // counter bits (the host bounds a run's units by them)");
    v.line("generate");
    v.line("  for (g = 0; g < N; g = g + 1) begin : g_cnt");
    v.line("    localparam [31:0] ME_I = g;");
    v.line("    localparam [15:0] ME = ME_I[15:0];");
    v.line("    reg [CB-1:0] due, results, pushed;");
    v.line("    reg [CB-1:0] per_f [0:3];");
    v.line("    reg [OCW-1:0] owed;");
    v.line("    reg [4*RCW-1:0] owed_f;");
    if (!sf) {
      v.line("    assign owes_room[g] = owed_f[opf*RCW +: RCW] < RD[RCW-1:0];");
    } else {
      v.line("    assign owes_room[4*g +: 4] = {owed_f[3*RCW +: RCW] < RD[RCW-1:0], owed_f[2*RCW +: RCW] < RD[RCW-1:0],");
      v.line("                                  owed_f[RCW +: RCW] < RD[RCW-1:0], owed_f[0 +: RCW] < RD[RCW-1:0]};");
    }
    v.line("    assign owed_all[OCW*g +: OCW] = owed;");
    v.line("    assign owing[g] = owed != {OCW{1'b0}};");
    v.line("    wire out_g = give && ob_leaf == ME;  // a result or a status delivered");
    v.line("    wire [OCW-1:0] next = owed + {{(OCW-1){1'b0}}, inc[g]} - {{(OCW-1){1'b0}}, out_g};");
    v.line("    // A status counts among the owed results but in no function (it has its own register).");
    v.line("    wire inc_f = inc[g] && accepted;");
    v.line("    integer f;");
    v.line("    always @(posedge clk) begin");
    v.line("      if (rst) begin");
    v.line("        owed <= {OCW{1'b0}};");
    v.line("        owed_f <= {(4*RCW){1'b0}};");
    v.line("        due <= {CB{1'b0}};");
    v.line("        results <= {CB{1'b0}};");
    v.line("        pushed <= {CB{1'b0}};");
    v.line("        for (f = 0; f < 4; f = f + 1) per_f[f] <= {CB{1'b0}};");
    v.line("      end else begin");
    v.line("        owed <= next;");
    v.line("        for (f = 0; f < 4; f = f + 1)");
    v.line("          owed_f[f*RCW +: RCW] <= owed_f[f*RCW +: RCW] + {{(RCW-1){1'b0}}, inc_f && opf == f[1:0]}");
    v.line("                                  - {{(RCW-1){1'b0}}, got_f[4*g + f]};");
    v.line("        due <= clear ? {{(CB-OCW){1'b0}}, next} : due + {{(CB-1){1'b0}}, inc[g]};");
    v.line("        results <= clear ? {CB{1'b0}} : results + {{(CB-1){1'b0}}, out_g};");
    v.line("        pushed <= clear ? {CB{1'b0}} : pushed + {{(CB-1){1'b0}}, done && here && li == ME_I[" + lw1 + ":0]};");
    v.line("        for (f = 0; f < 4; f = f + 1)");
    v.line("          per_f[f] <= clear ? {CB{1'b0}} : per_f[f] + {{(CB-1){1'b0}}, got_f[4*g + f]};");
    v.line("      end");
    v.line("    end");
    // In the order of cm5ctl_stream_spec's counter list, zero-extended to the port's 32 bits.
    const char* per_leaf[] = {"due", "results", "{{(CB-OCW){1'b0}}, owed}", "pushed",
                              "per_f[0]", "per_f[1]", "per_f[2]", "per_f[3]"};
    for (int k = 0; k < 8; ++k) {
      const std::string c = per_leaf[k];
      v.line("    assign counters[(8*g+" + S(k) + ")*32 +: 32] = " + (p.counter_bits < 32 ? "{{(32-CB){1'b0}}, " + c + "}" : c) + ";");
    }
    v.line("  end");
    v.line("endgenerate");
    v.line("// Work the network does without the host: a unit to inject, results owed or going out.");
    if (!sf) {
      v.line("assign busy = (full && run) || |owing || fv || fbusy || ob_full;");
    } else {
      v.line("// (and operations in the send FIFOs, a status to send).");
      v.line("assign busy = (full && run) || (queued && run) || st_full || |owing || fv || fbusy || ob_full;");
    }
    v.line("wire unused = &{1'b0, unused_tx" + std::string(R * RW > E ? ", fent[R*RW-1:W+9]" : "") +
      (sf ? ", ihdr[8:7], ihdr[3:1]" : "") + "};");
    v.end_module();
  }
};

std::string emit_stream_module(const Cm5ctlParams& p) { return StreamModule(p).emit(); }

}  // namespace

int cm5ctl_result_rows(const Cm5ctlParams& p) {
  const int rows16 = (p.word_bits + 9 + 15) / 16;
  return rows16 > 1 && (rows16 + 1) * p.leaves <= p.down_frame() ? rows16 : 1;
}

GeneratedDesign emit_cm5ctl_stream(const Cm5ctlConfig& cfg) {
  GeneratedDesign d = emit_cm5ctl(cfg);
  std::vector<std::pair<std::string, std::string>> files;
  for (auto& f : d.files)
    if (f.first != "filelist.f") files.push_back(f);
  files.emplace_back("cm5ctl_stream.v", emit_stream_module(cfg.p));
  d.files = files;
  d.top = "cm5ctl_stream";
  d.files.emplace_back("filelist.f", filelist(d));
  return d;
}

StreamBoardSpec cm5ctl_stream_spec(const Cm5ctlConfig& cfg) {
  const Cm5ctlParams& p = cfg.p;
  const Cm5Topology t = cm5_topology(p);
  StreamBoardSpec s;
  s.info.family = "cm5ctl";
  s.info.name = cfg.name;
  s.info.leaves = static_cast<uint32_t>(p.leaves);
  s.info.params = {{"leaves", S(p.leaves)},          {"word_bits", S(p.word_bits)},
                   {"up_width", S(p.up_width)},      {"down_width", S(p.down_width)},
                   {"crc_bits", S(p.crc_bits)},      {"chip_nodes", S(p.chip_nodes)},
                   {"partitions", S(static_cast<int64_t>(t.roots.size()))},
                   {"result_depth", S(kCm5ResultDepth)}};
  if (p.send_fifo_depth) s.info.params.push_back({"send_fifo_depth", S(p.send_fifo_depth)});
  s.info.counter_bits = static_cast<uint32_t>(p.counter_bits);
  for (size_t q = 0; q < t.roots.size(); ++q) s.info.regions.push_back("partition" + S(t.roots[q]));
  bool unused = false;
  for (int x : t.part) unused = unused || x < 0;
  const uint32_t none = static_cast<uint32_t>(t.roots.size());
  if (unused) s.info.regions.push_back("not-in-use");
  for (int j = 0; j < p.leaves; ++j) {
    const int q = t.part[static_cast<size_t>(j)];
    const uint32_t r = q >= 0 ? static_cast<uint32_t>(q) : none;
    const std::string l = "leaf" + S(j);
    s.info.counters.push_back({l + ".due", CounterKind::In, r});
    s.info.counters.push_back({l + ".results", CounterKind::Out, r});
    s.info.counters.push_back({l + ".pending", CounterKind::Held, r});
    s.info.counters.push_back({l + ".pushed", CounterKind::Other, r});
    for (const char* f : {"broadcast", "combine", "interrupt", "sync"})
      s.info.counters.push_back({l + "." + f, CounterKind::Other, r});
  }
  s.title = "CM-5 control network";
  s.canonical_json = config_to_json(cfg);
  s.network = emit_cm5ctl_stream(cfg);
  s.stream_module = "cm5ctl_stream";
  return s;
}

namespace cm5unit {

std::vector<uint32_t> encode_op(bool broadcast, bool abstain, uint8_t kind, uint8_t comb, bool segmented, bool seg,
                                uint32_t data) {
  const uint32_t w0 = (broadcast ? 1u : 0u) | (abstain ? 2u : 0u) | static_cast<uint32_t>(kind & 3) << 2 |
                      static_cast<uint32_t>(comb & 7) << 4 | (segmented ? 1u << 7 : 0u) | (seg ? 1u << 8 : 0u);
  return {w0, data};
}

Decoded decode_result(uint32_t w0, uint32_t w1) {
  Decoded d;
  d.broadcast = w0 & 1;
  d.kind = static_cast<uint8_t>((w0 >> 1) & 3);
  d.comb = static_cast<uint8_t>((w0 >> 3) & 7);
  d.ovf = (w0 >> 6) & 1;
  d.err = (w0 >> 7) & 1;
  d.abstained = (w0 >> 8) & 1;
  d.data = w1;
  return d;
}

std::vector<uint32_t> encode_control(Control kind, uint32_t arg, uint32_t data) {
  return {static_cast<uint32_t>(kind) << 28 | (arg & 0x1FFFFu), data};
}

bool is_status(uint32_t w0) { return w0 >> 28 == kStatus; }

Status decode_status(uint32_t w0, uint32_t w1) {
  Status s;
  for (int f = 0; f < 4; ++f) s.waiting[f] = (w0 >> (5 * f)) & 31;
  s.last_err = (w1 >> 16) & 15;
  s.overflow = (w1 >> 20) & 15;
  s.router_done = (w1 >> 24) & 1;
  s.globals = static_cast<uint8_t>(w1 & 7);
  s.halted = (w1 >> 3) & 1;
  s.aligned = (w1 >> 4) & 1;
  s.link_error = (w1 >> 5) & 1;
  s.fault = (w1 >> 6) & 1;
  s.bcast_drop = (w1 >> 7) & 1;
  s.owed = (w1 >> 8) & 0xFF;
  return s;
}

Status decode_status(const std::vector<uint32_t>& words) {
  Status s = decode_status(words.at(0), words.at(1));
  if (words.size() > 2) {
    s.has_space = true;
    for (int f = 0; f < 4; ++f) s.space[f] = (words[2] >> (8 * f)) & 0xFF;
  }
  return s;
}

}  // namespace cm5unit
}  // namespace cmnet

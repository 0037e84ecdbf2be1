#include "gen/cm5ctl/cm5ctl_stream.h"

#include <functional>

#include "gen/cm5ctl/cm5ctl_emitter.h"

namespace cmnet {
namespace {

std::string S(int64_t x) { return std::to_string(x); }

// The send side, per leaf in use (cm5ctl_stream.h): the send FIFOs per function, the FIFO each
// leaf presents to its tree leaf, one injection a cycle picked round robin over the leaves, and
// the status register. Declares what the rest of the module takes from the staging register's
// injection in the other mode: inj_valid, accepted, gets, opf, ihdr (and placed, queued,
// space_all, p_* for the tree's inputs, st_* for the status).
void emit_send_fifos(std::string& v, const Cm5ctlParams& p, const std::function<std::string(int)>& members_of,
                     const std::function<std::string(const std::string&)>& fn_of) {
  const int N = p.leaves, SD = p.send_fifo_depth;
  const int LW = std::max(1, clog2(static_cast<uint64_t>(N)));
  auto L = [&](const std::string& s) { v.append(s).append("\n"); };
  L("  // The send side (paper, section 2: an outgoing FIFO per function), per leaf in use: SD units");
  L("  // for broadcasts, SD for interrupts, SD each for combining and synchronization operations, the");
  L("  // last two in one memory of 2 x SD in the order the host pushed them (the tree takes a leaf's");
  L("  // multiple-source packets, reductions, scans, sync OR, router-done, in one order, the same at");
  L("  // every leaf); broadcasts and interrupts are independent of them and of each other. A unit");
  L("  // goes from the staging register into its FIFO at once when that FIFO has room, whatever the");
  L("  // others hold (else it waits: the host keeps to the space the status reports).");
  L("  localparam integer SD = " + S(SD) + ";  // send FIFO depth per function");
  L("  localparam integer SCW = " + S(clog2(static_cast<uint64_t>(SD) + 1)) + ";");
  L("  localparam integer MCW = " + S(clog2(2 * static_cast<uint64_t>(SD) + 1)) + ";");
  L("  localparam integer E = W + 9;  // an entry: {data, word 0}");
  std::string mb;
  for (int j = N - 1; j >= 0; --j) mb += members_of(j);
  L("  localparam [N*N-1:0] MEMBERS = " + S(N * N) + "'b" + mb + ";  // leaf j's partition: bits N*j +: N");
  L("  wire [E-1:0] uentry = {data, hdr};");
  L("  wire [1:0] uf = " + fn_of("hdr") + ";");
  L("  wire [N-1:0] placed_v, elig, queued_v, inj_valid;");
  L("  wire placed = |placed_v;");
  L("  wire queued = |queued_v;");
  L("  // What each leaf presents to its tree leaf: the head of the FIFO it is at.");
  L("  wire [N-1:0] p_bcast, p_abstain, p_segmented, p_seg;");
  L("  wire [2*N-1:0] p_kind, pf_v;");
  L("  wire [3*N-1:0] p_comb;");
  L("  wire [W*N-1:0] p_data;");
  L("  wire [9*N-1:0] p_hdr;");
  L("  wire [N*N-1:0] gets_v;");
  L("  wire [32*N-1:0] space_all;  // per leaf the status's word 2: free units per function, 8 bits each");
  L("  wire [3*N-1:0] sf_ovf;      // never: a unit is placed only where there is room");
  L("  reg st_full, st_here;");
  L("  reg [15:0] st_leaf, st_arg;");
  L("  wire st_load = full && ukind == 4'd5 && !st_full;");
  L("  generate");
  L("    for (g = 0; g < N; g = g + 1) begin : g_send");
  L("      if (IN_USE[g]) begin : g_on");
  L("        localparam [N-1:0] ME_V = {{(N-1){1'b0}}, 1'b1} << g;");
  L("        localparam [N-1:0] MB = MEMBERS[N*g +: N];");
  L("        reg [1:0] cp;  // the FIFO presented: 0 broadcast, 1 interrupt, 2 combine and sync");
  L("        reg [SCW-1:0] nc, ns;  // combining and synchronization units in the shared memory");
  L("        wire [SCW-1:0] nb, ni;");
  L("        wire [MCW-1:0] nm;");
  L("        wire [E-1:0] hb, hi, hm;");
  L("        wire mine = full && is_op && me[g];");
  L("        wire put_b = mine && hdr[0] && hdr[3:2] != 2'd2 && nb != SD[SCW-1:0];");
  L("        wire put_i = mine && hdr[0] && hdr[3:2] == 2'd2 && ni != SD[SCW-1:0];");
  L("        wire put_m = mine && !hdr[0] && (uf == 2'd3 ? ns : nc) != SD[SCW-1:0];");
  L("        wire go = inj_valid[g];");
  L("        cm5ctl_fifo #(.WIDTH(E), .DEPTH(SD), .CW(SCW)) fb (.clk(clk), .rst(rst), .clr(1'b0), .push(put_b),");
  L("          .din(uentry), .pop(go && cp == 2'd0), .head(hb), .count(nb), .overflow(sf_ovf[3*g]));");
  L("        cm5ctl_fifo #(.WIDTH(E), .DEPTH(SD), .CW(SCW)) fi (.clk(clk), .rst(rst), .clr(1'b0), .push(put_i),");
  L("          .din(uentry), .pop(go && cp == 2'd1), .head(hi), .count(ni), .overflow(sf_ovf[3*g+1]));");
  L("        cm5ctl_fifo #(.WIDTH(E), .DEPTH(2*SD), .CW(MCW)) fm (.clk(clk), .rst(rst), .clr(1'b0), .push(put_m),");
  L("          .din(uentry), .pop(go && cp == 2'd2), .head(hm), .count(nm), .overflow(sf_ovf[3*g+2]));");
  L("        wire [3:0] ne = {1'b0, nm != {MCW{1'b0}}, ni != {SCW{1'b0}}, nb != {SCW{1'b0}}};");
  L("        wire [E-1:0] ph = cp == 2'd0 ? hb : cp == 2'd1 ? hi : hm;");
  L("        wire [1:0] pf = " + fn_of("ph") + ";");
  L("        wire [N-1:0] gets_g = cp == 2'd2 ? ME_V : MB;");
  L("        // Room for the presented head's result at every leaf that will get it.");
  L("        reg [N-1:0] ok;");
  L("        integer k;");
  L("        always @* for (k = 0; k < N; k = k + 1) ok[k] = owes_room[4*k + {30'd0, pf}];");
  L("        assign elig[g] = run && ne[cp] && inj_ready[g] && &(ok | ~gets_g);");
  L("        assign placed_v[g] = put_b || put_i || put_m;");
  L("        assign queued_v[g] = |ne;");
  L("        assign p_bcast[g] = cp != 2'd2;");
  L("        assign p_abstain[g] = ph[1];");
  L("        assign p_kind[2*g +: 2] = ph[3:2];");
  L("        assign p_comb[3*g +: 3] = ph[6:4];");
  L("        assign p_segmented[g] = ph[7];");
  L("        assign p_seg[g] = ph[8];");
  L("        assign p_data[W*g +: W] = ph[9 +: W];");
  L("        assign p_hdr[9*g +: 9] = ph[8:0];");
  L("        assign pf_v[2*g +: 2] = pf;");
  L("        assign gets_v[N*g +: N] = gets_g;");
  L("        assign space_all[32*g +: 32] = {{(8-SCW){1'b0}}, SD[SCW-1:0] - ns, {(8-SCW){1'b0}}, SD[SCW-1:0] - ni,");
  L("                                        {(8-SCW){1'b0}}, SD[SCW-1:0] - nc, {(8-SCW){1'b0}}, SD[SCW-1:0] - nb};");
  L("        // The next FIFO to present: the next non-empty one after this, unless this one waits only");
  L("        // for another leaf's injection (a FIFO that cannot inject does not hold the others).");
  L("        wire [1:0] n1 = cp == 2'd2 ? 2'd0 : cp + 2'd1;");
  L("        wire [1:0] n2 = n1 == 2'd2 ? 2'd0 : n1 + 2'd1;");
  L("        wire m_sync = hm[3:2] == 2'd3 || hm[6:4] == 3'd7;  // the shared memory's head: sync or combine");
  L("        always @(posedge clk)");
  L("          if (rst) begin");
  L("            cp <= 2'd0;");
  L("            nc <= {SCW{1'b0}};");
  L("            ns <= {SCW{1'b0}};");
  L("          end else begin");
  L("            if (!elig[g] || go) cp <= ne[n1] ? n1 : ne[n2] ? n2 : cp;");
  L("            nc <= nc + {{(SCW-1){1'b0}}, put_m && uf != 2'd3} - {{(SCW-1){1'b0}}, go && cp == 2'd2 && !m_sync};");
  L("            ns <= ns + {{(SCW-1){1'b0}}, put_m && uf == 2'd3} - {{(SCW-1){1'b0}}, go && cp == 2'd2 && m_sync};");
  L("          end");
  L("      end else begin : g_off  // a leaf not in use: its units are dropped, it never injects");
  L("        wire unused_ready = inj_ready[g];");
  L("        assign elig[g] = 1'b0;");
  L("        assign placed_v[g] = 1'b0;");
  L("        assign queued_v[g] = 1'b0;");
  L("        // The staging register's unit, as the other mode gives every leaf: with constants here");
  L("        // the lint of Verilator 5.006 fails inside (V3Gate) on the tree leaf.");
  L("        assign {p_bcast[g], p_abstain[g], p_segmented[g], p_seg[g]} = {hdr[0], hdr[1], hdr[7], hdr[8]};");
  L("        assign p_kind[2*g +: 2] = hdr[3:2];");
  L("        assign p_comb[3*g +: 3] = hdr[6:4];");
  L("        assign p_data[W*g +: W] = data;");
  L("        assign p_hdr[9*g +: 9] = hdr;");
  L("        assign pf_v[2*g +: 2] = 2'd0;");
  L("        assign gets_v[N*g +: N] = {N{1'b0}};");
  L("        assign space_all[32*g +: 32] = 32'd0;");
  L("        assign sf_ovf[3*g +: 3] = 3'd0;");
  L("      end");
  L("    end");
  L("  endgenerate");
  L("  // One injection a cycle: the first eligible leaf round robin from `ip` (the tree leaves take");
  L("  // one packet per up frame each, so one a cycle keeps up with up to an up frame's leaves).");
  L("  reg [" + S(LW - 1) + ":0] ip, ipick, iidx;");
  L("  reg ifound;");
  L("  integer q2;");
  L("  always @* begin");
  L("    ifound = 1'b0;");
  L("    ipick = ip;");
  L("    iidx = ip;");
  L("    for (q2 = 0; q2 < N; q2 = q2 + 1) begin");
  L("      iidx = ip + q2[" + S(LW - 1) + ":0];  // wraps: N = 2^" + S(LW));
  L("      if (!ifound && elig[iidx]) begin");
  L("        ifound = 1'b1;");
  L("        ipick = iidx;");
  L("      end");
  L("    end");
  L("  end");
  L("  assign inj_valid = ifound ? ({{(N-1){1'b0}}, 1'b1} << ipick) : {N{1'b0}};");
  L("  wire accepted = ifound;  // eligible: its tree leaf is ready");
  L("  wire [N-1:0] gets = gets_v[N*ipick +: N];  // who will get its result");
  L("  wire [1:0] opf = pf_v[2*ipick +: 2];");
  L("  wire [8:0] ihdr = p_hdr[9*ipick +: 9];");
  L("  always @(posedge clk)");
  L("    if (rst) ip <= " + S(LW) + "'d0;");
  L("    else if (ifound) ip <= ipick + " + S(LW) + "'d1;");
}

// The stream module: one staging register for the unit coming in, the tree, a result FIFO
// per leaf, a scan over the leaves for the unit going out, the counters. Its text is built by
// the section functions below, in order, each appending to `v`.
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
    return v;
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
  std::string v;

  void L(const std::string& s) { v.append(s).append("\n"); }
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
    L("// Generated by cmnet (gen/cm5ctl/cm5ctl_stream.cpp): the CM-5 control network's stream port");
    L("// (hw/common/STREAM_BOARD.md) around cm5ctl_tree, " + S(N) + " leaves. The unit format and the");
    L("// counters: gen/cm5ctl/cm5ctl_stream.h.");
    if (sf) {
      L("// Send side: per leaf a send FIFO of " + S(p.send_fifo_depth) + " units per function, and a status");
      L("// register apart from the operations.");
    }
    L("`default_nettype none");
    L("module cm5ctl_stream (");
    for (const std::string& d : stream_port_declarations(8 * N)) L("  " + d);
    L(");");
    L("  localparam integer N = " + S(N) + ";");
    L("  localparam integer W = " + S(W) + ";");
    L("  localparam integer RD = " + S(RD) + ";  // results a leaf may be owed, per function");
    L("  localparam integer RCW = " + S(clog2(static_cast<uint64_t>(RD) + 1)) + ";");
    L("  localparam integer RPW = " + S(clog2(static_cast<uint64_t>(RD))) + ";");
    L("  localparam integer OCW = " + S(clog2(static_cast<uint64_t>(4 * RD) + 1)) + ";  // owed, all functions");
    L("  localparam integer R = " + S(R) + ";  // rows per result entry in the result memory");
    L("  localparam integer RW = " + S(RW) + ";  // bits per row");
    std::string use;
    for (int j = N - 1; j >= 0; --j) use += t.part[static_cast<size_t>(j)] >= 0 ? "1" : "0";
    L("  localparam [N-1:0] IN_USE = " + S(N) + "'b" + use + ";");
  }

  // Emits the staging register's fields, the room per leaf and function, the injection from the staging register.
  void emit_staging_decode() {
    L("  // The unit coming in: word 0 the operation (or a control unit: its kind in bits 31:28), the");
    L("  // last word its data.");
    L("  reg mid, full;");
    L("  reg [8:0] hdr;");
    L("  reg [3:0] ukind;  // 0 operation, 1 globals, 2 counter, 3 restart, 4 link fault, 5 status");
    L("  reg [16:0] arg;   // a control unit's word 0, bits 16:0");
    L("  reg [W-1:0] data;");
    L("  reg [15:0] leaf;");
    L("  reg here;         // leaf < N");
    if (!sf) {
      L("  assign tx_ready = !full;");
      L("  wire take = tx_valid && !full;");
    }
    L("  wire [" + S(31 - W < 0 ? 0 : 31 - W) + ":0] unused_tx = " + (W < 32 ? "tx_data[31:W]" : "1'b0") + ";");
    if (!sf) {
      L("  // Room: every leaf that will get the result owes fewer than RD of its function.");
      L("  wire [N-1:0] owes_room, owing;");
    } else {
      L("  // Room, per leaf and function (bit 4 x leaf + f): the leaf owes fewer than RD results of f.");
      L("  wire [4*N-1:0] owes_room;");
      L("  wire [N-1:0] owing;");
    }
    L("  genvar g;");
    L("  wire [" + lw1 + ":0] li = leaf[" + lw1 + ":0];");
    if (!sf) {
      L("  // members[j]: the leaves of leaf j's partition (a broadcast's results).");
      L("  reg [N-1:0] members;");
      L("  always @* begin");
      L("    case (li)");
      for (int j = 0; j < N; ++j)
        L("      " + S(LW) + "'d" + S(j) + ": members = here ? " + S(N) + "'b" + members_of(j) + " : {N{1'b0}};");
      if (N != (1 << LW)) L("      default: members = {N{1'b0}};");
      L("    endcase");
      L("  end");
    }
    L("  wire [N-1:0] me = here ? ({{(N-1){1'b0}}, 1'b1} << li) : {N{1'b0}};");
    if (!sf) {
      L("  wire [N-1:0] gets = hdr[0] ? members : (me & IN_USE);  // who will get its result");
      L("  // The function the result goes to: 0 broadcast, 1 combine, 2 interrupt, 3 synchronization");
      L("  // (sync OR, router-done).");
      L("  wire [1:0] opf = " + fn_of("hdr") + ";");
      L("  wire room = &(owes_room | ~gets);");
    }
    L("  wire useful = |(me & IN_USE);");
    L("  wire [N-1:0] inj_ready;");
    L("  wire is_op = ukind == 4'd0;");
    if (!sf) {
      L("  wire offer = full && run && is_op && useful && room;");
      L("  wire [N-1:0] inj_valid = offer ? me : {N{1'b0}};");
      L("  wire accepted = |(inj_valid & inj_ready);");
      L("  // A unit for a leaf not in use (or out of range) is taken and dropped.");
    }
    L("  wire [N-1:0] halted;");
    L("  reg [15:0] waited;  // cycles a status has waited, up to its arg");
    L("  wire ob_idle;       // the output register free for a status (see below)");
  }

  // Emits the send FIFOs (send side on), the control units and the staging and status registers.
  void emit_control() {
    if (sf) emit_send_fifos(v, p, [this](int j) { return members_of(j); }, fn_of);
    if (!sf) {
      L("  // Control units: globals, counter and link fault apply at once; a restart waits until the");
      L("  // leaf is halted (a flush reached it); a status waits `arg` cycles (the host's settling");
      L("  // time) and the output register, then goes out as a unit of its own.");
      L("  wire ctl = full && run && !is_op;");
    } else {
      L("  // Control units: globals, counter and link fault apply at once; a restart waits until the");
      L("  // leaf is halted (a flush reached it), holding the units behind it; a status goes to the");
      L("  // status register (above).");
      L("  wire ctl = full && run && !is_op && ukind != 4'd5;");
    }
    L("  wire restart_now = ctl && ukind == 4'd3 && (|(me & halted & IN_USE) || !useful);");
    L(sf ? "  wire stat_ready = st_full && waited == st_arg;" : "  wire stat_ready = ctl && ukind == 4'd5 && waited == arg[15:0];");
    L("  wire stat_now = stat_ready && ob_idle;");
    L("  // A link fault applies at once, in order with the operations: results may be owed (the host");
    L("  // picks the instant: a packet it hits is taken as idle where the CRC catches it).");
    L("  wire flip_now = ctl && ukind == 4'd4;");
    if (!sf) {
      L("  wire ctl_done = ctl && (ukind == 4'd1 || ukind == 4'd2 || ukind > 4'd5 || flip_now || restart_now || stat_now);");
      L("  wire done = accepted || (full && run && is_op && !useful) || ctl_done;");
      L("  wire [N-1:0] inc = accepted ? gets : stat_now ? me : {N{1'b0}};");
      L("  wire rd_start = accepted && !hdr[0] && hdr[6:4] == 3'd7;  // a router-done begins at leaf `leaf`");
    } else {
      L("  wire ctl_done = ctl && (ukind == 4'd1 || ukind == 4'd2 || ukind > 4'd5 || flip_now || restart_now);");
      L("  // A unit leaves the staging register: an operation into its FIFO (dropped for a leaf not in");
      L("  // use), a control unit applied, a status into the status register.");
      L("  wire done = (full && is_op && (placed || !useful)) || ctl_done || st_load;");
      L("  wire [N-1:0] st_me = st_here ? ({{(N-1){1'b0}}, 1'b1} << st_leaf[" + lw1 + ":0]) : {N{1'b0}};");
      L("  wire [N-1:0] inc = accepted ? gets : stat_now ? st_me : {N{1'b0}};");
      L("  wire rd_start = accepted && !ihdr[0] && ihdr[6:4] == 3'd7;  // a router-done begins at the leaf injecting");
      L("  // The next unit's first word comes in as this one leaves: two cycles a unit.");
      L("  assign tx_ready = !full || done;");
      L("  wire take = tx_valid && tx_ready;");
    }
    L("  always @(posedge clk)");
    L("    if (rst) begin");
    L("      mid <= 1'b0;");
    L("      full <= 1'b0;");
    L("      hdr <= 9'd0;");
    L("      ukind <= 4'd0;");
    L("      arg <= 17'd0;");
    L("      data <= {W{1'b0}};");
    L("      leaf <= 16'd0;");
    L("      here <= 1'b0;");
    L("    end else begin");
    L("      if (take) begin");
    L("        leaf <= tx_leaf;");
    L("        here <= tx_leaf[15:" + S(LW) + "] == " + S(16 - LW) + "'d0;  // < N (a power of two)");
    L("        if (!mid) hdr <= tx_data[8:0];");
    L("        if (!mid) ukind <= tx_data[31:28];");
    L("        if (!mid) arg <= tx_data[16:0];");
    L("        if (mid || tx_last) data <= mid ? tx_data[W-1:0] : {W{1'b0}};");
    L("        mid <= !tx_last;");
    if (!sf) {
      L("        if (tx_last) full <= 1'b1;");
      L("      end");
      L("      if (done) full <= 1'b0;");
    } else {
      L("      end");
      L("      if (done) full <= 1'b0;");
      L("      if (take && tx_last) full <= 1'b1;");
    }
    L("    end");
    if (sf) {
      L("  // The status register: one status request at a time, apart from the operations.");
      L("  always @(posedge clk)");
      L("    if (rst) begin");
      L("      st_full <= 1'b0;");
      L("      st_leaf <= 16'd0;");
      L("      st_arg <= 16'd0;");
      L("      st_here <= 1'b0;");
      L("    end else if (st_load) begin");
      L("      st_full <= 1'b1;");
      L("      st_leaf <= leaf;");
      L("      st_arg <= arg[15:0];");
      L("      st_here <= here;");
      L("    end else if (stat_now) begin");
      L("      st_full <= 1'b0;");
      L("    end");
    }
  }

  // Emits the host-driven leaf inputs, the link faults, cm5ctl_tree and the sticky tree faults.
  void emit_inputs_and_tree() {
    L("");
    L("  // The host-driven inputs of every leaf and the link faults (a one-cycle flip of wire 0), a");
    L("  // register each with a constant index (a part-select by `li` costs yosys a shifter).");
    L("  wire [2*N-1:0] async_in;");
    L("  wire [N-1:0] hard_in;");
    L("  wire [W*N-1:0] rd_count;");
    L("  wire [2*N-1:2] flip_up, flip_down;");
    L("  wire [N-1:0] restart = restart_now ? me : {N{1'b0}};");
    L("  wire [N-1:0] set_globals = ctl && ukind == 4'd1 ? me : {N{1'b0}};");
    L("  wire [N-1:0] set_counter = ctl && ukind == 4'd2 ? me : {N{1'b0}};");
    L("  always @(posedge clk)");
    L("    if (rst) waited <= 16'd0;");
    L(std::string("    else waited <= ") + (sf ? "st_full" : "ctl && ukind == 4'd5") +
      " && !stat_now ? (stat_ready ? waited : waited + 16'd1) : 16'd0;");
    L("  generate");
    L("    for (g = 0; g < N; g = g + 1) begin : g_in");
    L("      reg [1:0] a_q;");
    L("      reg h_q;");
    L("      reg [W-1:0] c_q;");
    L("      assign async_in[2*g +: 2] = a_q;");
    L("      assign hard_in[g] = h_q;");
    L("      assign rd_count[W*g +: W] = c_q;");
    L("      always @(posedge clk)");
    L("        if (rst) begin");
    L("          a_q <= 2'd0;");
    L("          h_q <= 1'b0;");
    L("          c_q <= {W{1'b0}};");
    L("        end else begin");
    L("          if (set_globals[g]) begin");
    L("            a_q <= arg[1:0];");
    L("            h_q <= arg[2];");
    L("          end");
    L("          if (set_counter[g]) c_q <= data;");
    L("        end");
    L("    end");
    L("    // arg[15:0] the link's heap index (2..2N-1), arg[16] 1: up, 0: down.");
    L("    for (g = 2; g < 2 * N; g = g + 1) begin : g_flip");
    L("      localparam [15:0] K = g;");
    L("      reg u_q, d_q;");
    L("      assign flip_up[g] = u_q;");
    L("      assign flip_down[g] = d_q;");
    L("      always @(posedge clk) begin");
    L("        u_q <= !rst && flip_now && arg[16] && arg[15:0] == K;");
    L("        d_q <= !rst && flip_now && !arg[16] && arg[15:0] == K;");
    L("      end");
    L("    end");
    L("  endgenerate");
    L("");
    L("  wire [N-1:0] res_valid, res_bcast, res_ovf, res_err, res_abstained;");
    L("  wire [2*N-1:0] res_kind;");
    L("  wire [3*N-1:0] res_comb;");
    L("  wire [W*N-1:0] res_data;");
    L("  wire [N-1:0] aligned, hard_error_out;");
    L("  wire [2*N-1:0] async_out;");
    L("  wire fault, bcast_drop, link_error;");
    L("  cm5ctl_tree tree (");
    L("    .clk(clk), .rst(rst), .inj_valid(inj_valid), .inj_ready(inj_ready),");
    if (!sf) {
      L("    .inj_bcast({N{hdr[0]}}), .inj_abstain({N{hdr[1]}}), .inj_kind({N{hdr[3:2]}}), .inj_comb({N{hdr[6:4]}}),");
      L("    .inj_segmented({N{hdr[7]}}), .inj_seg({N{hdr[8]}}), .inj_data({N{data}}), .rd_count(rd_count),");
    } else {
      L("    .inj_bcast(p_bcast), .inj_abstain(p_abstain), .inj_kind(p_kind), .inj_comb(p_comb),");
      L("    .inj_segmented(p_segmented), .inj_seg(p_seg), .inj_data(p_data), .rd_count(rd_count),");
    }
    L("    .restart(restart), .async_in(async_in), .hard_error_in(hard_in),");
    L("    .res_valid(res_valid), .res_bcast(res_bcast), .res_kind(res_kind), .res_comb(res_comb), .res_data(res_data),");
    L("    .res_ovf(res_ovf), .res_err(res_err), .res_abstained(res_abstained), .async_out(async_out),");
    L("    .hard_error_out(hard_error_out), .halted(halted), .aligned(aligned),");
    L("    .flip_up(flip_up), .flip_down(flip_down), .fault(fault), .bcast_drop(bcast_drop),");
    L("    .link_error(link_error));");
    L("");
    L("  // Sticky: the tree's design fault, broadcast drop and CRC link error since reset.");
    L("  reg fault_seen, drop_seen, lerr_seen;");
    L("  always @(posedge clk)");
    L("    if (rst) {fault_seen, drop_seen, lerr_seen} <= 3'b000;");
    L("    else {fault_seen, drop_seen, lerr_seen} <= {fault_seen | fault, drop_seen | bcast_drop, lerr_seen | link_error};");
    L("");
  }

  // Emits the receive side's declarations, the output register's state, the round-robin pick and the read stage.
  void emit_receive_pick() {
    L("  // The network interface's receive side: per leaf a FIFO per function (broadcast, combine,");
    L("  // interrupt, synchronization), RD deep each, in one memory per leaf (the read address");
    L("  // registered, so block RAM holds it), an entry in R rows of RW bits. Out, a pipeline: pick");
    L("  // the next non-empty (leaf, function) round robin and take its entry off the FIFO, read its");
    L("  // rows, hold it in the output register for its two words.");
    L("  localparam integer NP = 4 * N;  // (leaf, function) pairs, pair 4 x leaf + function");
    L("  localparam integer PBW = " + S(clog2(static_cast<uint64_t>(4 * N))) + ";  // NP = 2^PBW");
    L("  wire [NP-1:0] have_all;");
    L("  wire [RW-1:0] heads [0:N-1];");
    L("  wire [4*RCW*N-1:0] fcount_all;  // words waiting, per leaf and function");
    L("  wire [4*N-1:0] ferr_all, fovf_all;");
    L("  wire [N-1:0] rd_busy;");
    if (R > 1) L("  wire [4*RPW*N-1:0] rp_all;  // read pointers, per leaf and function");
    L("  // The output register: a result (its header and data) or a status going out, word 0 then");
    L("  // word 1; a status's words are built when sent, from its leaf's registers.");
    if (!sf) {
      L("  reg ob_full, ob_phase, ob_stat;");
    } else {
      L("  // A status is three words (word 2: the send FIFOs' space), a result two.");
      L("  reg ob_full, ob_stat;");
      L("  reg [1:0] ob_phase;");
      L("  wire ob_last = ob_phase == (ob_stat ? 2'd2 : 2'd1);");
    }
    L("  reg [15:0] ob_leaf;");
    L("  reg [1:0] ob_f;");
    L("  reg [8:0] ob_hdr;");
    L("  reg [W-1:0] ob_w1;");
    L(std::string("  wire give = ob_full && ") + (sf ? "ob_last" : "ob_phase") + " && rx_ready;");
    L("  wire ob_free = !ob_full || give;");
    L("  // The read stage: the entry picked, its rows read (fbusy), then whole in `fe` (fv).");
    L("  reg fv, fbusy;");
    L("  reg [PBW-1:0] fpair;");
    L("  wire fmove = fv && ob_free;");
    L("  wire flast;         // the read stage's last row is being read (R > 1)");
    L("  assign ob_idle = !fv && !fbusy && ob_free;");
    L("  // Pick: round robin from `pos`, while no status is ready (it goes out next) and the read");
    L("  // stage is free or moving on.");
    L("  reg [PBW-1:0] pos, pick, idx;");
    L("  reg found;");
    L("  integer q;");
    L("  always @* begin");
    L("    found = 1'b0;");
    L("    pick = pos;");
    L("    idx = pos;");
    L("    for (q = 0; q < NP; q = q + 1) begin");
    L("      idx = pos + q[PBW-1:0];  // wraps: NP = 2^PBW");
    L("      if (!found && have_all[idx]) begin");
    L("        found = 1'b1;");
    L("        pick = idx;");
    L("      end");
    L("    end");
    L("  end");
    L("  // The entry read goes to the output register from its last row if that is free, else it waits.");
    L("  wire fdirect = flast && ob_free;");
    L("  wire take_next = found && !stat_ready && (!fbusy || fdirect) && (!fv || fmove);");
    L("  wire [" + lw1 + ":0] pick_leaf = pick[PBW-1:2];");
    L("  wire [1:0] pick_f = pick[1:0];");
    L("  wire [" + lw1 + ":0] fleaf = fpair[PBW-1:2];");
    L("  wire [RW-1:0] head = heads[fleaf];");
    if (R > 1) {
      L("  reg [" + S(RBW - 1) + ":0] frow;  // the row being read");
      L("  wire frow_last = frow == " + S(RBW) + "'d" + S(R - 1) + ";");
      L("  assign flast = fbusy && frow_last;");
      L("  // The next row: the last one stays while the entry waits; 0 once it leaves for the output");
      L("  // register (gated, not muxed with a constant, so yosys finds no reset in `raddr` below).");
      L("  wire [" + S(RBW - 1) + ":0] frow_n = (frow + {" + (RBW > 1 ? S(RBW - 1) + "'d0, " : std::string()) +
        "fbusy && !frow_last}) & {" + S(RBW) + "{!(fdirect || fmove)}};");
      L("  // One read address for every leaf's memory, loaded every cycle (no enable, no reset: yosys");
      L("  // merges it into the block RAMs' read ports): the picked entry's first row, else the next");
      L("  // row of the entry being read.");
      L("  reg [RPW-1:0] fptr;");
      L("  reg [RPW+" + S(RBW + 1) + ":0] raddr;");
      L("  wire [RPW-1:0] pick_ptr = rp_all[pick*RPW +: RPW];");
      L("  always @(posedge clk) begin");
      L("    raddr <= {take_next ? {pick_f, pick_ptr} : {fpair[1:0], fptr}, frow_n};");
      L("    if (take_next) fptr <= pick_ptr;");
      L("  end");
    } else {
      L("  assign flast = 1'b0;");
    }
  }

  // Emits per leaf the result memory holding its four function FIFOs.
  void emit_result_memories() {
    L("  generate");
    L("    for (g = 0; g < N; g = g + 1) begin : g_res");
    L("      localparam [31:0] ME_I = g;");
    L("      wire [1:0] rf = res_bcast[g] ? (res_kind[g*2 +: 2] == 2'd2 ? 2'd2 : 2'd0)");
    L("                                   : (res_kind[g*2 +: 2] == 2'd3 || res_comb[g*3 +: 3] == 3'd7) ? 2'd3 : 2'd1;");
    L("      wire [R*RW-1:0] entry = {" + (R * RW > E ? "{" + S(R * RW - E) + "{1'b0}}, " : std::string()) +
      "res_data[g*W +: W], res_abstained[g], res_err[g], res_ovf[g],");
    L("                               res_comb[g*3 +: 3], res_kind[g*2 +: 2], res_bcast[g]};");
    L("      reg [RW-1:0] mem [0:" + S(4 * RD * (1 << RBW) - 1) + "];");
    if (R == 1) L("      reg [RPW+1:0] raddr;");
    L("      wire [4*RPW-1:0] wr, rp;");
    L("      wire [4*RCW-1:0] cnt;");
    L("      wire [3:0] ferr, fovf;");
    L("      reg busy_rd;");
    L("      assign heads[g] = mem[raddr];");
    if (R > 1) L("      assign rp_all[4*RPW*g +: 4*RPW] = rp;");
    L("      wire taken = take_next && pick_leaf == ME_I[" + lw1 + ":0];");
    L("      assign fcount_all[4*RCW*g +: 4*RCW] = cnt;");
    L("      assign ferr_all[4*g +: 4] = ferr;");
    L("      assign fovf_all[4*g +: 4] = fovf;");
    L("      assign rd_busy[g] = busy_rd;");
    L("      wire push = res_valid[g] && cnt[rf*RCW +: RCW] != RD[RCW-1:0];");
    if (R > 1) {
      L("      // The entry's first row is written as it comes, the others in the next R - 1 cycles");
      L("      // (results come a down frame apart). It counts in its FIFO at once: a read of it starts");
      L("      // two cycles later at the earliest, and reads a row a cycle, behind the writes.");
      L("      reg wbusy;");
      L("      reg [" + S(RBW - 1) + ":0] wrow;");
      L("      reg [1:0] wf;");
      L("      reg [RPW-1:0] wp;");
      L("      wire wlast = wbusy && wrow == " + S(RBW) + "'d" + S(R - 1) + ";");
    }
    L("      // Each function's pointers and count in a block of its own: constant indices (a");
    L("      // register part-select by a signal costs yosys hundreds of LUTs).");
    L("      genvar h;");
    L("      for (h = 0; h < 4; h = h + 1) begin : g_fn");
    L("        localparam [1:0] H = h;");
    L("        reg [RPW-1:0] wr_h, rp_h;");
    L("        reg [RCW-1:0] cnt_h;");
    L("        reg ferr_h, fovf_h;");
    L("        wire push_h = push && rf == H;");
    L("        wire take_h = taken && pick_f == H;");
    L("        assign have_all[4*g + h] = cnt_h != {RCW{1'b0}};");
    L("        assign wr[h*RPW +: RPW] = wr_h;");
    L("        assign rp[h*RPW +: RPW] = rp_h;");
    L("        assign cnt[h*RCW +: RCW] = cnt_h;");
    L("        assign ferr[h] = ferr_h;");
    L("        assign fovf[h] = fovf_h;");
    L("        always @(posedge clk)");
    L("          if (rst) begin");
    L("            wr_h <= {RPW{1'b0}};");
    L("            rp_h <= {RPW{1'b0}};");
    L("            cnt_h <= {RCW{1'b0}};");
    L("            ferr_h <= 1'b0;");
    L("            fovf_h <= 1'b0;");
    L("          end else begin");
    L("            if (push_h) wr_h <= wr_h + {{(RPW-1){1'b0}}, 1'b1};");
    L("            if (push && rf == H) ferr_h <= res_err[g];  // the last error of the function");
    L("            if (take_h) rp_h <= rp_h + {{(RPW-1){1'b0}}, 1'b1};");
    L("            // never, with the injection's room check");
    L("            if (res_valid[g] && !push && rf == H) fovf_h <= 1'b1;");
    L("            if (push_h && !take_h) cnt_h <= cnt_h + {{(RCW-1){1'b0}}, 1'b1};");
    L("            else if (take_h && !push_h) cnt_h <= cnt_h - {{(RCW-1){1'b0}}, 1'b1};");
    L("          end");
    L("      end");
    if (R > 1) {
      L("      // One write port (two write statements would keep yosys from a block RAM).");
      L("      wire [RPW+" + S(RBW + 1) + ":0] waddr = push ? {rf, wr[rf*RPW +: RPW], " + S(RBW) + "'d0} : {wf, wp, wrow};");
      L("      // The leaf's res_* hold until its next down frame (cm5ctl_leaf.v), so rows 1..R-1 are");
      L("      // written from them as they stand.");
      {
        std::string m = "entry[" + S(RW - 1) + ":0]";  // row 0 (a push), rows 1..R-1 by wrow
        for (int r = R - 1; r >= 1; --r)
          m = "wrow == " + S(RBW) + "'d" + S(r) + " ? entry[" + S((r + 1) * RW - 1) + ":" + S(r * RW) + "] : " + m;
        L("      wire [RW-1:0] wdata = push ? entry[RW-1:0] : " + m + ";");
      }
      L("      always @(posedge clk) begin");
      L("        if (push || wbusy) mem[waddr] <= wdata;");
      L("        if (rst) begin");
      L("          busy_rd <= 1'b0;");
      L("          wbusy <= 1'b0;");
      L("          wrow <= " + S(RBW) + "'d0;");
      L("          wf <= 2'd0;");
      L("          wp <= {RPW{1'b0}};");
      L("        end else begin");
      L("          if (push) begin");
      L("            wbusy <= 1'b1;");
      L("            wrow <= " + S(RBW) + "'d1;");
      L("            wf <= rf;");
      L("            wp <= wr[rf*RPW +: RPW];");
      L("          end else if (wbusy) begin");
      L("            wbusy <= !wlast;");
      L("            wrow <= wrow + " + S(RBW) + "'d1;");
      L("          end");
    } else {
      L("      always @(posedge clk) begin");
      L("        if (push) mem[{rf, wr[rf*RPW +: RPW]}] <= entry;");
      L("        if (rst) begin");
      L("          raddr <= {(RPW+2){1'b0}};");
      L("          busy_rd <= 1'b0;");
      L("        end else begin");
      L("          if (taken) raddr <= {pick_f, rp[pick_f*RPW +: RPW]};");
    }
    L(sf ? "          if (rd_start && inj_valid[g]) busy_rd <= 1'b1;" : "          if (rd_start && leaf == ME_I[15:0]) busy_rd <= 1'b1;");
    L("          else if (res_valid[g] && !res_bcast[g] && res_comb[g*3 +: 3] == 3'd7) busy_rd <= 1'b0;");
    L("        end");
    L("      end");
    L("    end");
    L("  endgenerate");
  }

  // Emits the status words, the stream port's rx side and the output register.
  void emit_output() {
    L("  // Results delivered, per leaf and function (at the unit's last word).");
    L("  wire [4*N-1:0] got_f = give && !ob_stat ? ({{(4*N-1){1'b0}}, 1'b1} << {ob_leaf[" + lw1 + ":0], ob_f}) : {(4*N){1'b0}};");
    L("  // The status of leaf ob_leaf (cm5ctl_stream.h), built as it is sent: word 0 {5, words waiting");
    L("  // per function}, word 1 {router-done under way, overflow and last error per function, results");
    L("  // owed (before this status), the sticky tree faults, aligned, halted, the global ORs}.");
    L("  wire [" + lw1 + ":0] ol = ob_leaf[" + lw1 + ":0];");
    L("  wire ob_here = ob_leaf[15:" + S(LW) + "] == " + S(16 - LW) + "'d0;");
    L("  wire [OCW*N-1:0] owed_all;");
    L("  wire [OCW-1:0] owed_o = owed_all[OCW*ol +: OCW] - {{(OCW-1){1'b0}}, 1'b1};  // this status counts");
    L("  wire [31:0] stat_w0 = {4'd5, 8'd0, ob_here ? fcount_all[4*RCW*ol +: 4*RCW] : {(4*RCW){1'b0}}};");
    L("  wire [31:0] stat_w1 = ob_here ? {7'd0, rd_busy[ol], fovf_all[4*ol +: 4], ferr_all[4*ol +: 4],");
    L("                                   {{(8-OCW){1'b0}}, owed_o}, drop_seen, fault_seen, lerr_seen, aligned[ol],");
    L("                                   halted[ol], hard_error_out[ol], async_out[2*ol +: 2]} : 32'd0;");
    L("  wire [31:0] res_w1 = " + std::string(W < 32 ? "{{(32-W){1'b0}}, ob_w1}" : "ob_w1") + ";");
    L("  assign rx_valid = ob_full;");
    L("  assign rx_leaf = ob_leaf;");
    if (!sf) {
      L("  assign rx_data = ob_stat ? (ob_phase ? stat_w1 : stat_w0) : (ob_phase ? res_w1 : {23'd0, ob_hdr});");
      L("  assign rx_last = ob_phase;");
    } else {
      L("  wire [31:0] stat_w2 = ob_here ? space_all[32*ol +: 32] : 32'd0;");
      L("  assign rx_data = ob_stat ? (ob_phase == 2'd2 ? stat_w2 : ob_phase[0] ? stat_w1 : stat_w0)");
      L("                           : (ob_phase[0] ? res_w1 : {23'd0, ob_hdr});");
      L("  assign rx_last = ob_last;");
    }
    if (R > 1) {
      L("  // Rows 0..R-2 of the entry read (row 0 lowest); its last row stays on the memory's output");
      L("  // (the read address holds) until the entry goes to the output register.");
      L("  reg [(R-1)*RW-1:0] fe;");
      L("  wire [R*RW-1:0] fent = {head, fe};");
    } else {
      L("  wire [RW-1:0] fent = head;");
    }
    L("  always @(posedge clk)");
    L("    if (rst) begin");
    L("      pos <= {PBW{1'b0}};");
    L("      fv <= 1'b0;");
    L("      fbusy <= 1'b0;");
    L("      fpair <= {PBW{1'b0}};");
    if (R > 1) {
      L("      frow <= " + S(RBW) + "'d0;");
      L("      fe <= {((R-1)*RW){1'b0}};");
    }
    L("      ob_full <= 1'b0;");
    L(sf ? "      ob_phase <= 2'd0;" : "      ob_phase <= 1'b0;");
    L("      ob_stat <= 1'b0;");
    L("      ob_leaf <= 16'd0;");
    L("      ob_f <= 2'd0;");
    L("      ob_hdr <= 9'd0;");
    L("      ob_w1 <= {W{1'b0}};");
    L("    end else begin");
    L(sf ? "      if (ob_full && rx_ready) ob_phase <= ob_last ? 2'd0 : ob_phase + 2'd1;"
         : "      if (ob_full && rx_ready) ob_phase <= !ob_phase;");
    L("      if (give) ob_full <= 1'b0;");
    L("      if (take_next) begin");
    L("        pos <= pick + {{(PBW-1){1'b0}}, 1'b1};  // wraps");
    L("        fpair <= pick;");
    L("      end");
    if (R > 1) {
      L(std::string("      if (fbusy && !frow_last) fe <= ") + (R > 2 ? "{head, fe[(R-1)*RW-1:RW]};" : "head;"));
      L("      frow <= frow_n;");
      L("      if (take_next) fbusy <= 1'b1;");
      L("      else if (fbusy) fbusy <= !frow_last;");
      L("      fv <= (flast && !ob_free) || (fv && !fmove);");
    } else {
      L("      fv <= take_next || (fv && !fmove);");
    }
    L("      if (fmove || fdirect) begin");
    L("        ob_full <= 1'b1;");
    L(sf ? "        ob_phase <= 2'd0;" : "        ob_phase <= 1'b0;");
    L("        ob_stat <= 1'b0;");
    L("        ob_leaf <= {" + S(16 - LW) + "'d0, fleaf};");
    L("        ob_f <= fpair[1:0];");
    L("        ob_hdr <= fent[8:0];");
    L("        ob_w1 <= fent[W+8:9];");
    L("      end else if (stat_now) begin");
    L("        ob_full <= 1'b1;");
    L(sf ? "        ob_phase <= 2'd0;" : "        ob_phase <= 1'b0;");
    L("        ob_stat <= 1'b1;");
    L(sf ? "        ob_leaf <= st_leaf;" : "        ob_leaf <= leaf;");
    L("        ob_f <= 2'd0;");
    L("      end");
    L("    end");
    L("");
  }

  // Emits the owed results, the counters bus and the busy signal.
  void emit_counters() {
    L("  // Owed results per function (the injection's room) and in all, and the counters (due -");
    L("  // results = pending, at every instant).");
    L("  generate");
    L("    for (g = 0; g < N; g = g + 1) begin : g_cnt");
    L("      localparam [31:0] ME_I = g;");
    L("      localparam [15:0] ME = ME_I[15:0];");
    L("      reg [31:0] due, results, pushed;");
    L("      reg [31:0] per_f [0:3];");
    L("      reg [OCW-1:0] owed;");
    L("      reg [4*RCW-1:0] owed_f;");
    if (!sf) {
      L("      assign owes_room[g] = owed_f[opf*RCW +: RCW] < RD[RCW-1:0];");
    } else {
      L("      assign owes_room[4*g +: 4] = {owed_f[3*RCW +: RCW] < RD[RCW-1:0], owed_f[2*RCW +: RCW] < RD[RCW-1:0],");
      L("                                    owed_f[RCW +: RCW] < RD[RCW-1:0], owed_f[0 +: RCW] < RD[RCW-1:0]};");
    }
    L("      assign owed_all[OCW*g +: OCW] = owed;");
    L("      assign owing[g] = owed != {OCW{1'b0}};");
    L("      wire out_g = give && ob_leaf == ME;  // a result or a status delivered");
    L("      wire [OCW-1:0] next = owed + {{(OCW-1){1'b0}}, inc[g]} - {{(OCW-1){1'b0}}, out_g};");
    L("      // A status counts among the owed results but in no function (it has its own register).");
    L("      wire inc_f = inc[g] && accepted;");
    L("      integer f;");
    L("      always @(posedge clk) begin");
    L("        if (rst) begin");
    L("          owed <= {OCW{1'b0}};");
    L("          owed_f <= {(4*RCW){1'b0}};");
    L("          due <= 32'd0;");
    L("          results <= 32'd0;");
    L("          pushed <= 32'd0;");
    L("          for (f = 0; f < 4; f = f + 1) per_f[f] <= 32'd0;");
    L("        end else begin");
    L("          owed <= next;");
    L("          for (f = 0; f < 4; f = f + 1)");
    L("            owed_f[f*RCW +: RCW] <= owed_f[f*RCW +: RCW] + {{(RCW-1){1'b0}}, inc_f && opf == f[1:0]}");
    L("                                    - {{(RCW-1){1'b0}}, got_f[4*g + f]};");
    L("          due <= clear ? {{(32-OCW){1'b0}}, next} : due + {31'd0, inc[g]};");
    L("          results <= clear ? 32'd0 : results + {31'd0, out_g};");
    L("          pushed <= clear ? 32'd0 : pushed + {31'd0, done && here && li == ME_I[" + lw1 + ":0]};");
    L("          for (f = 0; f < 4; f = f + 1) per_f[f] <= clear ? 32'd0 : per_f[f] + {31'd0, got_f[4*g + f]};");
    L("        end");
    L("      end");
    L("      assign counters[(8*g)*32 +: 32] = due;");
    L("      assign counters[(8*g+1)*32 +: 32] = results;");
    L("      assign counters[(8*g+2)*32 +: 32] = {{(32-OCW){1'b0}}, owed};");
    L("      assign counters[(8*g+3)*32 +: 32] = pushed;");
    L("      assign counters[(8*g+4)*32 +: 32] = per_f[0];");
    L("      assign counters[(8*g+5)*32 +: 32] = per_f[1];");
    L("      assign counters[(8*g+6)*32 +: 32] = per_f[2];");
    L("      assign counters[(8*g+7)*32 +: 32] = per_f[3];");
    L("    end");
    L("  endgenerate");
    L("  // Work the network does without the host: a unit to inject, results owed or going out.");
    if (!sf) {
      L("  assign busy = (full && run) || |owing || fv || fbusy || ob_full;");
    } else {
      L("  // (and operations in the send FIFOs, a status to send).");
      L("  assign busy = (full && run) || (queued && run) || st_full || |owing || fv || fbusy || ob_full;");
    }
    L("  wire unused = &{1'b0, unused_tx" + std::string(R * RW > E ? ", fent[R*RW-1:W+9]" : "") +
      (sf ? ", sf_ovf, ihdr[8:7], ihdr[3:1]" : "") + "};");
    L("endmodule");
    L("`default_nettype wire");
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

#include "gen/hcube/hcube_stream.h"

#include <algorithm>

#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"
#include "gen/hcube/hcube_emitter.h"

namespace cmnet {
namespace {


const char* kKinds[4] = {"packets", "messages", "bytes", "blocked"};

// The stream module (hcube_stream.h). Its text is built by the section functions below, in
// order, on one writer.
class StreamModule {
 public:
  StreamModule(const HcubeParams& params, const HcubeStreamSizes& sizes) : p(params), z(sizes) {}

  std::string emit() {
    emit_header();
    emit_unit_parser();
    emit_network();
    emit_message_store();
    emit_feeders();
    emit_receive_fifos();
    emit_output();
    emit_counters();
    emit_port_counters();
    return v.text();
  }

 private:
  const HcubeParams& p;
  const HcubeStreamSizes& z;
  // Derived from p and z, in declaration order.
  const HcubeWidths w = hcube_widths(p);
  const bool pk = p.packet();
  const int N = p.dims, NN = p.nodes(), P = p.packet_bytes, PW = (P + 3) / 4;
  const HcubeStreamStore store = hcube_stream_store(p);
  const int SLB = store.slot_bits, SWB = store.word_bits, AW = SLB + SWB,
            RBW = z.rx_byte_bits, DSW = z.rx_seg_bits;
  const int KW = pk ? w.kw : w.worm_kw, TW = w.tw, WL = w.wl;
  const int NODEW = std::max(1, w.nodew), CSW = w.csw;
  const int FW = clog2(static_cast<uint64_t>(NN * N)) + 1;  // a (node, dim) FIFO index
  const int LW = std::max(1, N);
  const int NCNT = 5 * NN + 3 + 4 * N * NN;
  const int SEG = pk ? 65535 : kHcubeStreamWormSegment;
  VerilogWriter v;

  // Emits the header comment, the port list and the localparams.
  void emit_header() {
    v.header("hcube_stream: the hypercube network (" + std::string(pk ? "packet scheme" : "wormhole") +
                 ") on the stream board, units as gen/hcube/hcube_stream.h describes",
             {{"dims n", S(N)},
              {"scheme", pk ? "packet" : "wormhole"},
              {"packet_bytes P", S(P)},
              {"message slots per node", S(1 << SLB)},
              {"store words per slot", S(1 << SWB)},
              {"receive FIFO bytes per incoming dimension", S(1 << RBW)},
              {"receive FIFO segments", S(1 << DSW)}});
    v.open("module hcube_stream (");
    for (const std::string& d : stream_port_declarations(NCNT)) v.line(d);
    v.end_ports();
    v.line("localparam integer NN = " + S(NN) + ";");
    v.line("localparam integer N = " + S(N) + ";");
    v.line("localparam integer NF = NN * N;  // receive FIFOs, node * N + dim");
    v.line("localparam integer SL = " + S(1 << SLB) + ";");
    v.line("localparam integer SLB = " + S(SLB) + ";");
    v.line("localparam integer SWB = " + S(SWB) + ";");
    v.line("localparam integer SW = " + S(1 << AW) + ";");
    v.line("localparam integer AW = " + S(AW) + ";");
    v.line("localparam integer RBW = " + S(RBW) + ";");
    v.line("localparam integer DSW = " + S(DSW) + ";");
    v.line("localparam integer TW = " + S(TW) + ";");
    v.line("localparam integer KW = " + S(KW) + ";");
    v.line("localparam integer FW = " + S(FW) + ";");
    v.line("localparam [15:0] SEG = 16'd" + S(SEG) + ";  // bytes per segment at most");
    if (pk) {
      v.line("localparam integer P = " + S(P) + ";");
      v.line("localparam integer PW = " + S(PW) + ";  // words of a packet's bytes");
      v.line("localparam integer WL = " + S(WL) + ";");
      v.line("localparam [SWB-1:0] PR = " + S(SWB) + "'d" + S(PW + 1) + ";  // words per packet record");
    }
  }

  // Emits the global unit parser, the tick counter and the clock enable `en`.
  void emit_unit_parser() {
    v.line();
    v.comment("The host's bus: a global unit parser (units arrive whole, one after another).");
    v.line("reg [2:0] upos;      // word of the unit: 0..3 its head, 4 its data");
    v.line("reg started;         // the start unit has come");
    v.line("reg [NN-1:0] ended;  // the node's end unit has come: no more messages for it");
    v.line("reg [31:0] tick;     // model ticks: enabled cycles since the start");
    v.line("wire take = tx_valid;");
    v.line("assign tx_ready = 1'b1;  // words a slot cannot hold are dropped and counted");
    for (const std::string& l : stream_leaf_select(NN, LW)) v.line(l);
    v.line("wire ctl = take && upos == 3'd0 && tx_last;  // a one-word unit: 0 start, 1 the leaf's end");
    v.line("wire [NN-1:0] rdy;   // node x has its next message, or there is none to come");
    v.line("wire [NN*N-1:0] f_room;  // receive FIFO f has room for a byte and a segment");
    v.line("wire live = started && run;");
    v.comment("The clock enable of every router register: a cycle is a tick only when no receive FIFO");
    v.comment("could overflow and every node's next message is in its store (or none is to come).");
    v.line("wire en = live && &rdy && &f_room;");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst || clear) begin");
    v.line("    upos <= 3'd0;");
    v.line("    started <= 1'b0;");
    v.line("    ended <= {NN{1'b0}};");
    v.line("    tick <= 32'd0;");
    v.line("  end else begin");
    v.line("    if (take) upos <= tx_last ? 3'd0 : (upos == 3'd4 ? 3'd4 : upos + 3'd1);");
    v.line("    if (ctl && tx_data[0] == 1'b0) started <= 1'b1;");
    v.line("    if (ctl && tx_data[0] == 1'b1 && tx_in_range) ended[tx_sel] <= 1'b1;");
    v.line("    if (en) tick <= tick + 32'd1;");
    v.line("  end");
    v.line("end");
  }

  // Emits hcube_network and the wires between it, the nodes and the output.
  void emit_network() {
    v.line();
    v.comment("The network.");
    v.line("wire [NN-1:0] src_valid, src_take;");
    v.line("wire [NN*N-1:0] src_dst;");
    v.line("wire [NN*TW-1:0] src_tag;");
    v.line("wire [NF-1:0] fd_active;");
    v.line("wire [NF*TW-1:0] fd_tag;");
    v.line("wire [NF-1:0] ej_bvalid, ej_fin;");
    v.line("wire [NF*8-1:0] ej_byte;");
    v.line("wire [" + S(NODEW - 1) + ":0] cnt_node;");
    v.line("wire [" + S(CSW - 1) + ":0] cnt_sel;");
    v.line("wire [31:0] cnt_value;");
    std::vector<std::pair<std::string, std::string>> ports = {
        {"clk", "clk"},           {"rst", "rst"},         {"en", "en"},           {"clear", "clear"},
        {"src_valid", "src_valid"},
        {"src_dst", "src_dst"},   {"src_tag", "src_tag"}};
    if (pk) {
      v.line("wire [NN*KW-1:0] src_npk;");
      v.line("wire [NN*P*8-1:0] src_pkt;");
      v.line("wire [NN*WL-1:0] src_w;");
      v.line("wire [NF*KW-1:0] fd_k;");
      v.line("wire [NF*P*8-1:0] fd_pkt;");
      v.line("wire [NF*WL-1:0] fd_w;");
      ports.insert(ports.end(), {{"src_npk", "src_npk"}, {"src_pkt", "src_pkt"}, {"src_w", "src_w"},
                                 {"fd_pkt", "fd_pkt"}, {"fd_w", "fd_w"}});
    } else {
      v.line("wire [NF*KW-1:0] fd_idx;");
      v.line("wire [NF*8-1:0] fd_byte;");
      v.line("wire [NF-1:0] fd_last, ej_hdr;");
      v.line("wire unused_hdr = ^ej_hdr;  // the host knows a worm's destination: it is this node");
      ports.insert(ports.end(), {{"fd_byte", "fd_byte"}, {"fd_last", "fd_last"}});
    }
    ports.insert(ports.end(), {{"cnt_node", "cnt_node"}, {"cnt_sel", "cnt_sel"}, {"src_take", "src_take"},
                               {"fd_active", "fd_active"}, {"fd_tag", "fd_tag"}});
    if (pk)
      ports.insert(ports.end(), {{"fd_k", "fd_k"}, {"ej_bvalid", "ej_bvalid"}, {"ej_end", "ej_fin"}, {"ej_byte", "ej_byte"}});
    else
      ports.insert(ports.end(), {{"fd_idx", "fd_idx"}, {"ej_hdr", "ej_hdr"}, {"ej_bvalid", "ej_bvalid"},
                                 {"ej_byte", "ej_byte"}, {"ej_last", "ej_fin"}});
    ports.push_back({"cnt_value", "cnt_value"});
    v.instance("hcube_network", "net", {}, ports);
    v.line();
    v.line("wire [NN*32-1:0] n_loaded;   // bytes loaded this cycle, per node (word 3 of a message)");
    v.line("wire [NN-1:0] n_msg, n_ref;  // a message loaded, a word refused");
    v.line("wire [NF-1:0] f_has;         // FIFO f holds a whole segment");
    v.line("wire [NF*49-1:0] f_desc;     // its descriptor {last, bytes, tick}");
    v.line("wire [NF*8-1:0] f_byte;      // its byte at the read pointer (registered read)");
    v.line("wire [NF-1:0] f_ovf;         // a byte found FIFO f full");
    v.line("wire [NN*SL-1:0] n_cred;     // per node the freed slots to report");
    v.line("wire [NN*SL-1:0] cred_clr;   // ... reported this cycle");
    v.line("wire [NF-1:0] f_pop;         // the output takes FIFO f's descriptor");
    v.line("wire [NF-1:0] f_adv;         // the output takes a byte of FIFO f");
    v.line();
  }

  // Emits the generate block's opening, per node the message store and the source.
  void emit_message_store() {
    v.line(pk ? "genvar g, d, j;" : "genvar g, d;");
    v.line("generate");
    v.open("for (g = 0; g < NN; g = g + 1) begin : g_node");
    v.comment("The message store: a slot per message, chosen by the host (the tag's low bits): its head");
    v.comment("fields and SLW data words. The queue holds the slots in arrival order; a slot taken by the");
    v.comment("source is free again once no feeder reads it, and a credit goes back to the host.");
    if (pk) v.line("reg [31:0] smem [0:SW-1];  // flip-flops: a feeder reads a whole packet at once");
    v.line("reg [31:0] sgen [0:SL-1];");
    v.line("reg [15:0] stag [0:SL-1];");
    v.line("reg [N-1:0] sdst [0:SL-1];");
    v.line("reg [KW-1:0] scnt [0:SL-1];");
    v.line("reg [SLB-1:0] qs [0:SL-1];   // the queue of slots");
    v.line("reg [SLB:0] qw, qr;");
    v.line("reg [SL-1:0] occ, tkn;       // slots holding a message; taken by the source");
    v.line("reg [SL-1:0] cred;           // freed slots not yet reported to the host");
    v.line("reg [SLB-1:0] us;            // the slot of the unit in progress");
    v.line("reg [SWB:0] woff;            // its data words written");
    v.line("reg udrop;                   // the unit in progress names a slot in use");
    v.line("wire mine = take && tx_in_range && tx_sel == g && !ctl;");
    v.line("wire [SLB-1:0] ws = tx_data[16 +: SLB];");
    v.line("wire drop_now = upos == 3'd0 ? occ[ws] : udrop;");
    v.line("wire [SLB-1:0] cs = upos == 3'd0 ? ws : us;");
    v.line("wire wdata = mine && !drop_now && upos == 3'd4 && !woff[SWB];");
    v.line("assign n_ref[g] = mine && (drop_now || (upos == 3'd4 && woff[SWB]));");
    v.line("assign n_msg[g] = mine && !drop_now && tx_last;");
    v.line("assign n_loaded[g*32 +: 32] = (mine && !drop_now && upos == 3'd3) ? tx_data : 32'd0;");
    v.line("wire [SLB-1:0] h = qs[qr[SLB-1:0]];");
    v.line("wire pop = en && src_take[g];");
    v.line("wire [SL-1:0] inuse;         // slots a feeder reads");
    v.line("wire [SL-1:0] freed = tkn & ~inuse;");
    v.line("wire [SL-1:0] hbit = {{(SL-1){1'b0}}, 1'b1} << h;");
    v.line("wire [SL-1:0] lbit = {{(SL-1){1'b0}}, 1'b1} << cs;");
    v.line("assign rdy[g] = qw != qr || ended[g];");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst || clear) begin");
    v.line("    qw <= {(SLB+1){1'b0}};");
    v.line("    qr <= {(SLB+1){1'b0}};");
    v.line("    occ <= {SL{1'b0}};");
    v.line("    tkn <= {SL{1'b0}};");
    v.line("    cred <= {SL{1'b0}};");
    v.line("    us <= {SLB{1'b0}};");
    v.line("    woff <= {(SWB+1){1'b0}};");
    v.line("    udrop <= 1'b0;");
    v.line("  end else begin");
    v.line("    if (mine && upos == 3'd0) begin");
    v.line("      udrop <= occ[ws];");
    v.line("      us <= ws;");
    v.line("      woff <= {(SWB+1){1'b0}};");
    v.line("    end");
    v.line("    if (mine && !drop_now) begin");
    v.line("      case (upos)");
    v.line("        3'd0: begin");
    v.line("          stag[cs] <= tx_data[31:16];");
    v.line("          sdst[cs] <= tx_data[N-1:0];");
    v.line("        end");
    v.line("        3'd1: sgen[cs] <= tx_data;");
    v.line("        3'd2: scnt[cs] <= tx_data[KW-1:0];");
    v.line("        default: ;");
    v.line("      endcase");
    v.line("      if (tx_last) begin");
    v.line("        qs[qw[SLB-1:0]] <= cs;");
    v.line("        qw <= qw + 1'b1;");
    v.line("      end");
    v.line("    end");
    v.line("    if (wdata) begin");
    if (pk) v.line("      smem[{us, woff[SWB-1:0]}] <= tx_data;");
    v.line("      woff <= woff + 1'b1;");
    v.line("    end");
    v.line("    if (pop) qr <= qr + 1'b1;");
    v.line("    tkn <= (tkn & ~freed) | (pop ? hbit : {SL{1'b0}});");
    v.line("    occ <= (occ & ~freed) | ((n_msg[g]) ? lbit : {SL{1'b0}});");
    v.line("    cred <= (cred | freed) & ~cred_clr[g*SL +: SL];");
    v.line("  end");
    v.line("end");
    v.line("assign n_cred[g*SL +: SL] = cred;");
    v.comment("The source: the queue head from its generation tick (wormhole: the tick after).");
    v.line(std::string("assign src_valid[g] = started && qw != qr && sgen[h] ") + (pk ? "<=" : "<") + " tick;");
    v.line("assign src_dst[g*N +: N] = sdst[h];");
    v.line("assign src_tag[g*TW +: TW] = stag[h];");
    if (pk) {
      v.line("assign src_npk[g*KW +: KW] = scnt[h];");
      v.line("wire [AW-1:0] hb = {h, {SWB{1'b0}}};");
      v.line("wire [31:0] hw0 = smem[hb];");
      v.line("assign src_w[g*WL +: WL] = hw0[WL-1:0];");
      v.line("wire unused_hw0 = ^hw0[31:WL];");
      v.line("wire [PW*32-1:0] hpk;");
      v.open("for (j = 0; j < PW; j = j + 1) begin : g_hw");
      v.line("localparam [AW-1:0] JJ = j + 1;");
      v.line("assign hpk[j*32 +: 32] = smem[hb + JJ];");
      v.close("end");
      v.line("assign src_pkt[g*P*8 +: P*8] = hpk[P*8-1:0];");
      if (PW * 32 > P * 8) v.line("wire unused_hpk = ^hpk[PW*32-1:P*8];");
    }
  }

  // Emits per node the feeders reading the store for the network.
  void emit_feeders() {
    v.line("wire [N*SL-1:0] inuse_v;");
    v.line("reg [SL-1:0] inuse_or;");
    v.comment("The feeders: packet k (packet scheme) or byte i (wormhole) of the message tagged t,");
    v.comment("whose slot is t's low bits.");
    v.open("for (d = 0; d < N; d = d + 1) begin : g_fd");
    v.line("localparam integer F = g * N + d;");
    v.line("wire [TW-1:0] ft = fd_tag[F*TW +: TW];");
    v.line("wire [" + S(SLB - 1) + ":0] fs = ft[" + S(SLB - 1) + ":0];");
    v.line("wire unused_ft = ^ft[TW-1:" + S(SLB) + "];");
    v.line("assign inuse_v[d*SL +: SL] = fd_active[F] ? {{(SL-1){1'b0}}, 1'b1} << fs : {SL{1'b0}};");
    if (pk) {
      v.line("wire [KW-1:0] fk = fd_k[F*KW +: KW];");
      v.line("wire [SWB-1:0] fo = fk[SWB-1:0] * PR;");
      v.line("wire [AW-1:0] fb = {fs, fo};");
      v.line("wire unused_fk = ^fk[KW-1:SWB];");
      v.line("wire [31:0] fw0 = smem[fb];");
      v.line("assign fd_w[F*WL +: WL] = fw0[WL-1:0];");
      v.line("wire unused_fw0 = ^fw0[31:WL];");
      v.line("wire [PW*32-1:0] fpk;");
      v.open("for (j = 0; j < PW; j = j + 1) begin : g_fw");
      v.line("localparam [AW-1:0] JJ = j + 1;");
      v.line("assign fpk[j*32 +: 32] = smem[fb + JJ];");
      v.close("end");
      v.line("assign fd_pkt[F*P*8 +: P*8] = fpk[P*8-1:0];");
      if (PW * 32 > P * 8) v.line("wire unused_fpk = ^fpk[PW*32-1:P*8];");
    } else {
      v.line("wire [KW-1:0] fi = fd_idx[F*KW +: KW];");
      v.line("wire [AW-1:0] fa = {fs, fi[SWB+1:2]};");
      v.line("wire unused_fi = ^fi[KW-1:SWB+2];");
      v.comment("This feeder's copy of the store, in block RAM: the word of its current byte, read in the");
      v.comment("cycle after its index moved, is on time (a byte moves at most every T >= 2 ticks, and not");
      v.comment("in the tick after its worm's grant).");
      v.line("reg [31:0] fmem [0:SW-1];");
      v.line("reg [31:0] fq;");
      v.line("always @(posedge clk) begin");
      v.line("  if (wdata) fmem[{us, woff[SWB-1:0]}] <= tx_data;");
      v.line("  fq <= fmem[fa];");
      v.line("end");
      v.line("wire [31:0] fwd = fq >> {fi[1:0], 3'd0};");
      v.line("assign fd_byte[F*8 +: 8] = fwd[7:0];");
      v.line("wire unused_fwd = ^fwd[31:8];");
      v.line("assign fd_last[F] = fi + 1'b1 == scnt[fs];");
    }
    v.close("end");
    v.line("integer u;");
    v.line("always @(*) begin");
    v.line("  inuse_or = {SL{1'b0}};");
    v.line("  for (u = 0; u < N; u = u + 1) inuse_or = inuse_or | inuse_v[u*SL +: SL];");
    v.line("end");
    v.line("assign inuse = inuse_or;");
  }

  // Emits per node the receive FIFOs, one per incoming dimension, and the generate block's end.
  void emit_receive_fifos() {
    v.comment("The receive FIFOs, one per incoming dimension: bytes (block RAM, read a cycle ahead: rq is the");
    v.comment("byte at rrp) and segment descriptors (flip-flops).");
    v.open("for (d = 0; d < N; d = d + 1) begin : g_rx");
    v.line("localparam integer F = g * N + d;");
    v.line("reg [7:0] rmem [0:(1<<RBW)-1];");
    v.line("reg [7:0] rq;");
    v.line("reg [48:0] dq [0:(1<<DSW)-1];");
    v.line("reg [RBW:0] rwp, rrp;");
    v.line("reg [DSW:0] dwp, drp;");
    v.line("reg [15:0] segn;   // bytes of the open segment");
    v.line("wire bv = en && ej_bvalid[F];  // the network's outputs count in enabled cycles only");
    v.line("wire [RBW:0] rocc = rwp - rrp;");
    v.line("wire [DSW:0] docc = dwp - drp;");
    v.line("wire room = !rocc[RBW] && !docc[DSW];");
    v.line("wire put = bv && room;");
    v.line("wire close = put && (ej_fin[F] || segn + 16'd1 == SEG);");
    v.line("assign f_ovf[F] = bv && !room;  // never: en waits for room");
    v.line("assign f_room[F] = room;");
    v.line("assign f_has[F] = dwp != drp;");
    v.line("assign f_desc[F*49 +: 49] = dq[drp[DSW-1:0]];");
    v.line("wire [RBW:0] rrp_n = rrp + {{RBW{1'b0}}, f_adv[F]};");
    v.line("assign f_byte[F*8 +: 8] = rq;");
    v.comment("The output reads a segment's bytes only once its descriptor is in, cycles after they were written.");
    v.line("always @(posedge clk) begin");
    v.line("  if (put) rmem[rwp[RBW-1:0]] <= ej_byte[F*8 +: 8];");
    v.line("  rq <= rmem[rrp_n[RBW-1:0]];");
    v.line("end");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst || clear) begin");
    v.line("    rwp <= {(RBW+1){1'b0}};");
    v.line("    rrp <= {(RBW+1){1'b0}};");
    v.line("    dwp <= {(DSW+1){1'b0}};");
    v.line("    drp <= {(DSW+1){1'b0}};");
    v.line("    segn <= 16'd0;");
    v.line("  end else begin");
    v.line("    if (put) begin");
    v.line("      rwp <= rwp + 1'b1;");
    v.line("      segn <= close ? 16'd0 : segn + 16'd1;");
    v.line("    end");
    v.line("    if (close) begin");
    v.line("      dq[dwp[DSW-1:0]] <= {ej_fin[F], segn + 16'd1, tick};");
    v.line("      dwp <= dwp + 1'b1;");
    v.line("    end");
    v.line("    if (f_pop[F]) drp <= drp + 1'b1;");
    v.line("    rrp <= rrp_n;");
    v.line("  end");
    v.line("end");
    v.close("end");
    v.close("end");
    v.line("endgenerate");
  }

  // Emits the output: credits, then whole segments, onto the stream port's rx side.
  void emit_output() {
    v.line();
    v.comment("Output: credits first (a one-word unit {2'b01, slot} from a node whose slot is free again),");
    v.comment("then one whole segment at a time, the lowest FIFO first: its head, its tick, its bytes (each data");
    v.comment("word gathered a byte per cycle from the FIFO's block RAM before it is offered).");
    v.line("reg out_busy;");
    v.line("reg [1:0] out_ph;    // 0 head, 1 tick, 2 data, 3 a credit");
    v.line("reg [FW-1:0] out_src;");
    v.line("reg [48:0] out_desc;");
    v.line("reg [15:0] out_rem;  // bytes still to go");
    v.line("reg [31:0] out_w;    // the data word being gathered");
    v.line("reg [2:0] out_k;     // ... its bytes so far");
    v.line("reg [" + S(NODEW - 1) + ":0] out_cnode;");
    v.line("reg [SLB-1:0] out_cslot;");
    v.line("reg pick_any, cpick_any;");
    v.line("reg [FW-1:0] pick;");
    v.line("reg [" + S(NODEW - 1) + ":0] cpick_n;");
    v.line("reg [SLB-1:0] cpick_s;");
    v.line("integer k, ks;");
    v.line("always @(*) begin");
    v.line("  pick_any = 1'b0;");
    v.line("  pick = {FW{1'b0}};");
    v.line("  for (k = NF - 1; k >= 0; k = k - 1)");
    v.line("    if (f_has[k]) begin");
    v.line("      pick_any = 1'b1;");
    v.line("      pick = k[FW-1:0];");
    v.line("    end");
    v.line("  cpick_any = 1'b0;");
    v.line("  cpick_n = 0;");
    v.line("  cpick_s = {SLB{1'b0}};");
    v.line("  for (k = NN - 1; k >= 0; k = k - 1)");
    v.line("    for (ks = SL - 1; ks >= 0; ks = ks - 1)");
    v.line("      if (n_cred[k*SL + ks]) begin");
    v.line("        cpick_any = 1'b1;");
    v.line("        cpick_n = k[" + S(NODEW - 1) + ":0];");
    v.line("        cpick_s = ks[SLB-1:0];");
    v.line("      end");
    v.line("end");
    v.line("wire [2:0] need = out_rem <= 16'd4 ? out_rem[2:0] : 3'd4;  // bytes of this data word");
    v.line("wire gather = out_busy && out_ph == 2'd2 && out_k != need;");
    v.line("wire give = out_busy && !gather && rx_ready;");
    v.line("wire data_word = give && out_ph == 2'd2;");
    v.line("wire done_unit = data_word && out_rem <= 16'd4;");
    v.line("wire [NF-1:0] one = {{(NF-1){1'b0}}, 1'b1};");
    v.line("wire cstart = !out_busy && cpick_any;");
    v.line("assign f_pop = (!out_busy && !cpick_any && pick_any) ? (one << pick) : {NF{1'b0}};");
    v.line("assign f_adv = gather ? (one << out_src) : {NF{1'b0}};");
    v.line("wire [31:0] cbit = {{(32-" + S(NODEW) + "){1'b0}}, cpick_n} * SL + {{(32-SLB){1'b0}}, cpick_s};");
    v.line("assign cred_clr = cstart ? ({{(NN*SL-1){1'b0}}, 1'b1} << cbit) : {(NN*SL){1'b0}};");
    v.line("localparam [FW-1:0] NW = " + S(FW) + "'d" + S(N) + ";");
    v.line("wire [FW-1:0] o_node = out_src / NW;");
    v.line("wire [FW-1:0] o_dim = out_src % NW;");
    v.line("assign rx_valid = out_busy && !gather;");
    v.line("assign rx_leaf = out_ph == 2'd3 ? {{(16-" + S(NODEW) + "){1'b0}}, out_cnode} : {{(16-FW){1'b0}}, o_node};");
    v.line("assign rx_data = out_ph == 2'd0 ? {out_desc[48], 7'd0, {(8-FW){1'b0}}, o_dim, out_desc[47:32]}");
    v.line("               : out_ph == 2'd1 ? out_desc[31:0]");
    v.line("               : out_ph == 2'd3 ? {2'b01, {(30-SLB){1'b0}}, out_cslot} : out_w;");
    v.line("assign rx_last = out_ph == 2'd3 || (out_ph == 2'd2 && out_rem <= 16'd4);");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst) begin");
    v.line("    out_busy <= 1'b0;");
    v.line("    out_ph <= 2'd0;");
    v.line("    out_src <= {FW{1'b0}};");
    v.line("    out_desc <= 49'd0;");
    v.line("    out_rem <= 16'd0;");
    v.line("    out_w <= 32'd0;");
    v.line("    out_k <= 3'd0;");
    v.line("    out_cnode <= 0;");
    v.line("    out_cslot <= {SLB{1'b0}};");
    v.line("  end else if (!out_busy) begin");
    v.line("    if (cpick_any) begin");
    v.line("      out_busy <= 1'b1;");
    v.line("      out_ph <= 2'd3;");
    v.line("      out_cnode <= cpick_n;");
    v.line("      out_cslot <= cpick_s;");
    v.line("    end else if (pick_any) begin");
    v.line("      out_busy <= 1'b1;");
    v.line("      out_ph <= 2'd0;");
    v.line("      out_src <= pick;");
    v.line("      out_desc <= f_desc[pick*49 +: 49];");
    v.line("      out_rem <= f_desc[pick*49 + 32 +: 16];");
    v.line("    end");
    v.line("  end else if (gather) begin");
    v.line("    out_w[out_k*8 +: 8] <= f_byte[out_src*8 +: 8];");
    v.line("    out_k <= out_k + 3'd1;");
    v.line("  end else if (give) begin");
    v.line("    if (out_ph == 2'd3) out_busy <= 1'b0;");
    v.line("    else if (out_ph != 2'd2) out_ph <= out_ph + 2'd1;");
    v.line("    else begin");
    v.line("      out_w <= 32'd0;");
    v.line("      out_k <= 3'd0;");
    v.line("      if (done_unit) out_busy <= 1'b0;");
    v.line("      else out_rem <= out_rem - 16'd4;");
    v.line("    end");
    v.line("  end");
    v.line("end");
  }

  // Emits the per-node counters, network.held and the wait counters.
  void emit_counters() {
    v.line();
    v.comment("Counters: per node bytes loaded (In) and delivered (Out), messages loaded, words refused,");
    v.comment("bytes overflowed; bytes held; the ports' (scanned into shadows).");
    v.line("reg [31:0] held;");
    v.line("reg [31:0] load_sum;");
    v.line("integer c;");
    v.line("always @(*) begin");
    v.line("  load_sum = 32'd0;");
    v.line("  for (c = 0; c < NN; c = c + 1) load_sum = load_sum + n_loaded[c*32 +: 32];");
    v.line("end");
    v.line("wire [31:0] out_n = done_unit ? {16'd0, out_desc[47:32]} : 32'd0;");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst || clear) held <= 32'd0;");
    v.line("  else held <= held + load_sum - out_n;");
    v.line("end");
    v.line("generate");
    v.open("for (g = 0; g < NN; g = g + 1) begin : g_cnt");
    v.line("reg [31:0] ld, dl, ms, rf, ov;");
    v.line("reg [31:0] ovn;  // bytes that found a FIFO of this node full this cycle");
    v.line("integer e;");
    v.line("always @(*) begin");
    v.line("  ovn = 32'd0;");
    v.line("  for (e = 0; e < N; e = e + 1) ovn = ovn + {31'd0, f_ovf[g*N + e]};");
    v.line("end");
    v.line("wire [FW-1:0] gn = g;");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst || clear) begin");
    v.line("    ld <= 32'd0;");
    v.line("    dl <= 32'd0;");
    v.line("    ms <= 32'd0;");
    v.line("    rf <= 32'd0;");
    v.line("    ov <= 32'd0;");
    v.line("  end else begin");
    v.line("    ld <= ld + n_loaded[g*32 +: 32];");
    v.line("    if (o_node == gn) dl <= dl + out_n;");
    v.line("    ms <= ms + {31'd0, n_msg[g]};");
    v.line("    rf <= rf + {31'd0, n_ref[g]};");
    v.line("    ov <= ov + ovn;");
    v.line("  end");
    v.line("end");
    v.line("assign counters[160*g +: 32] = ld;");
    v.line("assign counters[160*g + 32 +: 32] = dl;");
    v.line("assign counters[160*g + 64 +: 32] = ms;");
    v.line("assign counters[160*g + 96 +: 32] = rf;");
    v.line("assign counters[160*g + 128 +: 32] = ov;");
    v.close("end");
    v.line("endgenerate");
    v.line("assign counters[160*NN +: 32] = held;");
    v.comment("Cycles the network was held (run on, the start come): waiting for the host's next message,");
    v.comment("waiting for room in a receive FIFO.");
    v.line("reg [31:0] wait_in, wait_rx;");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst || clear) begin");
    v.line("    wait_in <= 32'd0;");
    v.line("    wait_rx <= 32'd0;");
    v.line("  end else begin");
    v.line("    if (live && !(&rdy)) wait_in <= wait_in + 32'd1;");
    v.line("    if (live && !(&f_room)) wait_rx <= wait_rx + 32'd1;");
    v.line("  end");
    v.line("end");
    v.line("assign counters[160*NN + 32 +: 32] = wait_in;");
    v.line("assign counters[160*NN + 64 +: 32] = wait_rx;");
  }

  // Emits the scan of the ports' counters into shadow registers, and the module's end.
  void emit_port_counters() {
    v.line();
    v.comment("The ports' counters: a scan reads every (node, select) in turn into a shadow register;");
    v.comment("busy stays 1 until a whole pass has begun and ended after the last cycle with bytes inside.");
    v.line("reg [" + S(NODEW - 1) + ":0] sc_node;");
    v.line("reg [" + S(CSW - 1) + ":0] sc_sel;");
    v.line("assign cnt_node = sc_node;");
    v.line("assign cnt_sel = sc_sel;");
    v.line("wire sel_end = sc_sel == " + S(CSW) + "'d" + S(4 * N - 1) + ";");
    v.line("wire scan_end = sel_end && sc_node == " + S(NODEW) + "'d" + S(NN - 1) + ";");
    v.line("wire act = held != 32'd0 || load_sum != 32'd0 || out_busy || |n_cred;");
    v.line("reg seen, fresh;");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst) begin");
    v.line("    sc_node <= 0;");
    v.line("    sc_sel <= 0;");
    v.line("    seen <= 1'b0;");
    v.line("    fresh <= 1'b1;");
    v.line("  end else begin");
    v.line("    sc_sel <= sel_end ? 0 : sc_sel + 1'b1;");
    v.line("    if (sel_end) sc_node <= scan_end ? 0 : sc_node + 1'b1;");
    v.line("    if (scan_end) begin");
    v.line("      fresh <= !seen && !act;");
    v.line("      seen <= act;");
    v.line("    end else begin");
    v.line("      seen <= seen || act;");
    v.line("      if (act) fresh <= 1'b0;");
    v.line("    end");
    v.line("  end");
    v.line("end");
    v.line("assign busy = act || !fresh;");
    for (int x = 0; x < NN; ++x)
      for (int s = 0; s < 4 * N; ++s) {
        const std::string r = "sh_" + S(x) + "_" + S(s);
        v.line("reg [31:0] " + r + ";  // " + hcube_stream_port_counter(x, s / 4, s % 4));
        v.line("always @(posedge clk)");
        v.line("  if (rst || clear) " + r + " <= 32'd0;");
        v.line("  else if (sc_node == " + S(NODEW) + "'d" + S(x) + " && sc_sel == " + S(CSW) + "'d" + S(s) + ") " + r +
               " <= cnt_value;");
        v.line("assign counters[" + S((5 * NN + 3 + x * 4 * N + s) * 32) + " +: 32] = " + r + ";");
      }
    v.end_module();
  }
};

std::string emit_stream_module(const HcubeParams& p, const HcubeStreamSizes& z) {
  return StreamModule(p, z).emit();
}

}  // namespace

HcubeStreamStore hcube_stream_store(const HcubeParams& p) {
  if (p.packet()) return {3, 8};
  return {std::max(2, clog2(static_cast<uint64_t>(p.dims) + 1)), 6};
}

std::string hcube_stream_port_counter(int node, int dim, int kind) {
  return "n" + S(node) + ".d" + S(dim) + "." + kKinds[kind];
}

GeneratedDesign emit_hcube_stream(const HcubeConfig& cfg, const HcubeStreamSizes& z) {
  // A receive FIFO must hold a whole segment (a packet, or a worm's segment) to pass it on.
  const int seg = cfg.hc.packet() ? cfg.hc.packet_bytes : kHcubeStreamWormSegment;
  if (z.rx_byte_bits < 2 || z.rx_byte_bits > 16 || (1 << z.rx_byte_bits) < seg || z.rx_seg_bits < 1 ||
      z.rx_seg_bits > 16)
    throw ConfigError("hcube stream: receive FIFOs of 2^" + S(z.rx_byte_bits) + " bytes and 2^" + S(z.rx_seg_bits) +
                      " segments: they hold at least a segment (" + S(seg) + " bytes), at most 2^16");
  if (!cfg.hc.packet() && cfg.hc.ticks_per_byte < 2)
    throw ConfigError("hcube stream: a wormhole board needs ticks_per_byte >= 2 (its feeders' store is block RAM, "
                      "read the cycle after a feeder's index moves), not " + S(cfg.hc.ticks_per_byte));
  GeneratedDesign d = emit_hcube(cfg);
  auto it = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "filelist.f"; });
  d.files.insert(it, {"hcube_stream.v", emit_stream_module(cfg.hc, z)});
  d.top = "hcube_stream";
  for (auto& f : d.files)
    if (f.first == "filelist.f") f.second = filelist(d);
  return d;
}

StreamBoardSpec hcube_stream_spec(const HcubeConfig& cfg, const HcubeStreamSizes& z) {
  const HcubeParams& p = cfg.hc;
  StreamBoardSpec s;
  s.info.family = "hcube";
  s.info.name = cfg.name;
  s.info.leaves = static_cast<uint32_t>(p.nodes());
  s.info.params = {{"dims", S(p.dims)},
                   {"scheme", p.packet() ? "packet" : "wormhole"},
                   {"routing", p.quasi() ? "quasi" : "fixed"},
                   {"packet_bytes", S(p.packet_bytes)},
                   {"buffers", S(p.buffers)},
                   {"ticks_per_byte", S(p.ticks_per_byte)},
                   {"arb_ticks", S(p.arb_ticks)},
                   {"seed", S(p.seed)},
                   {"rx_fifo_bytes", S(1 << z.rx_byte_bits)},
                   {"rx_fifo_segments", S(1 << z.rx_seg_bits)}};
  s.info.regions = {"network"};
  for (int x = 0; x < p.nodes(); ++x) {
    const std::string n = "leaf" + S(x);
    s.info.counters.push_back({n + ".loaded_bytes", CounterKind::In, 0});
    s.info.counters.push_back({n + ".delivered_bytes", CounterKind::Out, 0});
    s.info.counters.push_back({n + ".messages", CounterKind::Other, 0});
    s.info.counters.push_back({n + ".refused_words", CounterKind::Other, 0});
    s.info.counters.push_back({n + ".overflow_bytes", CounterKind::Other, 0});
  }
  s.info.counters.push_back({"network.held_bytes", CounterKind::Held, 0});
  s.info.counters.push_back({"network.wait_host_cycles", CounterKind::Other, 0});
  s.info.counters.push_back({"network.wait_rx_cycles", CounterKind::Other, 0});
  for (int x = 0; x < p.nodes(); ++x)
    for (int k = 0; k < 4 * p.dims; ++k)
      s.info.counters.push_back({hcube_stream_port_counter(x, k / 4, k % 4), CounterKind::Other, 0});
  s.title = "hypercube network (seed-004 packet / wormhole)";
  s.canonical_json = config_to_json(cfg);
  s.network = emit_hcube_stream(cfg, z);
  s.stream_module = "hcube_stream";
  s.fifo_log2 = 9;
  return s;
}

}  // namespace cmnet

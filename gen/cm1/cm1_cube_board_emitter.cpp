#include "gen/cm1/cm1_cube_board_emitter.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/cm1/cm1_board_top_parts.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

using board_parts::hexlit;

std::string S(int64_t x) { return std::to_string(x); }
std::string U(uint64_t x) { return std::to_string(x); }

}  // namespace

void check_cm1_cube_board_options(const Cm1Config& cfg, const CubeTopOptions& o) {
  board_parts::check_selftest_options(cfg, o.board, "cube board top");
  if (o.bit_clocks < 8 || o.bit_clocks > 64)
    throw ConfigError("cube board top: bit_clocks = " + S(o.bit_clocks) +
                      " out of range 8..64 (a cube bit needs about 4 clocks to cross the pin register "
                      "and the two-flip-flop synchronizer, with margin either side)");
  if (o.go_delay_petit < 4 || o.go_delay_petit > (1 << 24))
    throw ConfigError("cube board top: go_delay_petit = " + S(o.go_delay_petit) + " out of range 4..16777216");
  if (cfg.cm1.cube_dims > 8)
    throw ConfigError("cube board top: cube_dims = " + S(cfg.cm1.cube_dims) +
                      " out of range 1..8 (one board per chip: 2^c boards)");
}


GeneratedDesign emit_cm1_cube_board_top(const Cm1Config& cfg, const CubeTopOptions& opt, const Traffic& t,
                                        const CubeSelfTestExpect& e) {
  check_cm1_cube_board_options(cfg, opt);
  const BoardTopOptions& o = opt.board;
  const Cm1Params& p = cfg.cm1;
  const Cm1Widths w = cm1_widths(p);
  const int C = p.cube_dims, P = p.procs_per_chip, NC = p.chips(), D = p.data_bits;
  const int W = w.rx_word, TP = p.petit_period(), PW = w.phase, KB = opt.bit_clocks;
  const int pb = p.proc_bits();
  const auto cnt_names = cm1_counter_names(p);
  const int NCNT = static_cast<int>(cnt_names.size());
  const int NSEL = 1 << w.sel;

  if (e.receptions.size() != static_cast<size_t>(NC) || e.rx_xor.size() != static_cast<size_t>(NC) ||
      e.counters.size() != static_cast<size_t>(NC))
    throw ConfigError("cube board top: the expectation covers " + S(static_cast<int64_t>(e.counters.size())) +
                      " chips, the cube has " + S(NC));
  uint64_t max_cnt = 1;
  for (const auto& v : e.counters) {
    if (v.size() != cnt_names.size())
      throw ConfigError("cube board top: the expectation has " + S(static_cast<int64_t>(v.size())) +
                        " counters per chip, the chip has " + S(NCNT));
    for (uint64_t x : v) max_cnt = std::max(max_cnt, x);
  }

  // Messages in order of their source chip (each chip's in file order).
  std::vector<Message> rom = t.messages;
  std::stable_sort(rom.begin(), rom.end(),
                   [&](const Message& a, const Message& b) { return (a.src >> pb) < (b.src >> pb); });
  std::vector<int> base(static_cast<size_t>(NC + 1), 0);
  for (const Message& m : rom) ++base[(m.src >> pb) + 1];
  for (int n = 0; n < NC; ++n) base[static_cast<size_t>(n + 1)] += base[static_cast<size_t>(n)];
  const int NM = static_cast<int>(rom.size());
  const int AW = std::max(1, clog2(static_cast<uint64_t>(NM) + 1));
  const int TW = std::max(2, clog2(static_cast<uint64_t>(NM) + 1) + 1);
  const int CW = std::max(1, clog2(max_cnt + 1));
  const int R = static_cast<int>(e.run_petit);
  const int RPW = std::max(1, clog2(static_cast<uint64_t>(R) + 1));
  const int FLUSH = 3 * TP + 8;
  const int FW = clog2(static_cast<uint64_t>(FLUSH) + 1);
  const int K = static_cast<int>(o.led_active_low.size());
  const std::string PH = S(PW) + "'d";

  VerilogWriter v;
  v.header("CM-1 multi-board top: one router chip per FPGA, boards cabled into a hypercube;"
           " cube-wide SELF-TEST (each board checks its own chip against the reference model).",
           {{"cube_dims c", S(C)},
            {"boards", S(NC)},
            {"rows b", S(p.rows)},
            {"procs_per_chip P", S(P)},
            {"vp_bits v", S(p.vp_bits)},
            {"data_bits d", S(D)},
            {"eject mode", to_string(p.eject_mode)},
            {"clocks per bit-time K", S(KB)},
            {"go delay (petit cycles)", S(opt.go_delay_petit)},
            {"pattern", o.pattern + " seed " + U(o.seed) + " per_proc " + S(o.per_proc)},
            {"messages", S(NM)},
            {"run (petit cycles)", S(R)}});
  v.comment("Cabling: cube_out[i] of board n -> cube_in[i] of board n ^ 2^i (both ways); sync_out of");
  v.comment("chip 0 -> sync_in of every board, chip 0 included; chip_id[] straps: open = 1 (pull-up),");
  v.comment("jumper to ground = 0. Every board runs this same design.");
  v.open("module cm1_cube_board_top (");
  v.line("input  wire clk,");
  if (o.reset_port)
    v.line(std::string("input  wire rst_btn,          // reset button, active ") +
           (o.reset_active_low ? "low" : "high") + " (restarts this board's self-test)");
  v.line("output wire [" + S(C - 1) + ":0] cube_out,   // to the neighbour across each dimension (registered)");
  v.line("input  wire [" + S(C - 1) + ":0] cube_in,    // from the neighbour across each dimension (synchronized)");
  v.line("output wire sync_out,         // chip 0: the sync bus, markers and the go bit (others drive 0)");
  v.line("input  wire sync_in,          // the sync bus, on every board");
  v.line("input  wire [" + S(C - 1) + ":0] chip_id,    // straps: this board's chip number");
  v.line("output wire [" + S(K - 1) + ":0] led,        // " +
         std::string(K >= 3 ? "0: pass, 1: fail, 2: running" : "0: pass (blinks while running), 1: fail"));
  v.line("output wire uart_tx           // idle high");
  v.end_ports();
  v.line("localparam integer P = " + S(P) + ";");
  v.line("localparam integer W = " + S(W) + ";");
  v.line("localparam integer TW = " + S(TW) + ";");
  v.line("localparam [" + S(PW - 1) + ":0] PH_LAST = " + PH + S(TP - 1) + ";");
  v.line();
  board_parts::emit_reset(v, o.reset_port, o.reset_active_low);

  v.comment("The chip number, read from the straps while in reset; chip 0 drives the sync bus.");
  v.line("reg [" + S(C - 1) + ":0] id_q;");
  v.line("always @(posedge clk) if (rst) id_q <= chip_id;");
  v.line("wire master = (id_q == " + S(C) + "'d0);");
  v.line();

  v.comment("Bit-times: one every " + S(KB) + " clocks, locked to the sync bus.");
  v.line("wire ce;");
  v.line("wire [" + S(PW - 1) + ":0] phase;");
  v.line("wire sample;");
  v.line("wire locked;");
  v.line("wire go;");
  v.line("wire slip;");
  v.line("wire ready;");
  v.instance("cm1_cube_sync", "sync",
             {{"K", S(KB)}, {"TP", S(TP)}, {"PW", S(PW)}, {"GO_DELAY", S(opt.go_delay_petit)}},
             {{"clk", "clk"}, {"rst", "rst"}, {"master", "master"}, {"ready", "ready"},
              {"sync_out", "sync_out"}, {"sync_in", "sync_in"}, {"ce", "ce"}, {"phase", "phase"},
              {"sample", "sample"}, {"locked", "locked"}, {"go", "go"}, {"slip", "slip"}});
  v.line();

  v.comment("The chip stays in reset until the schedule is locked, and leaves it so that its first");
  v.comment("bit-time is phase 0.");
  v.line("reg chip_rst;");
  v.line("always @(posedge clk) begin");
  v.line("  if (rst || !locked) chip_rst <= 1'b1;");
  v.line("  else if (ce && phase == PH_LAST) chip_rst <= 1'b0;");
  v.line("end");
  v.line();

  v.comment("Cube pins: out registered; in through two flip-flops, then latched at `sample` (mid");
  v.comment("bit-time) for the chip's next ce. Floating inputs are ignored until locked.");
  v.line("reg [" + S(C - 1) + ":0] cube_out_q;");
  v.line("reg [" + S(C - 1) + ":0] cube_in_s1;");
  v.line("reg [" + S(C - 1) + ":0] cube_in_s2;");
  v.line("reg [" + S(C - 1) + ":0] cube_in_h;");
  v.line("wire [" + S(C - 1) + ":0] chip_cube_out;");
  v.line("always @(posedge clk) begin");
  v.line("  cube_out_q <= chip_cube_out;");
  v.line("  cube_in_s1 <= cube_in;");
  v.line("  cube_in_s2 <= cube_in_s1;");
  v.line("  if (sample) cube_in_h <= cube_in_s2 & {" + S(C) + "{locked}};");
  v.line("end");
  v.line("assign cube_out = cube_out_q;");
  v.line();

  v.comment("The pattern: " + S(NM) + " messages {data, vp, dst proc, dst chip, src proc}, by source chip.");
  board_parts::PatternRom pr;
  pr.src_w = w.proc_field;
  pr.src_local = true;
  pr.C = C;
  pr.P = P;
  pr.proc_field = w.proc_field;
  pr.vp_field = w.vp_field;
  pr.D = D;
  board_parts::emit_pattern_rom(v, pr, rom, 1 << AW);
  v.comment("Each chip's slice of the ROM and its expected receptions {xor, count}.");
  v.line("reg [" + S(AW - 1) + ":0] first_q;");
  v.line("reg [" + S(AW - 1) + ":0] end_q;");
  v.line("reg [" + S(TW - 1) + ":0] exp_rx;");
  v.line("reg [" + S(W - 1) + ":0] exp_x;");
  v.line("always @(posedge clk) begin");
  v.line("  case (id_q)");
  for (int n = 0; n < NC; ++n) {
    const size_t k = static_cast<size_t>(n);
    v.line("    " + S(C) + "'d" + S(n) + ": begin first_q <= " + S(AW) + "'d" + S(base[k]) + "; end_q <= " + S(AW) +
           "'d" + S(base[k + 1]) + "; exp_rx <= " + S(TW) + "'d" + U(e.receptions[k]) + "; exp_x <= " +
           hexlit(e.rx_xor[k], W) + "; end");
  }
  if (NC < (1 << C)) v.line("    default: ;");
  v.line("  endcase");
  v.line("end");
  v.comment("Each chip's expected counters, indexed {chip, counter select}.");
  v.line("reg [" + S(CW - 1) + ":0] exp_cnt [0:" + S(NC * NSEL - 1) + "];");
  v.line("initial begin");
  for (int n = 0; n < NC; ++n)
    for (int s = 0; s < NSEL; ++s) {
      const uint64_t x = s < NCNT ? e.counters[static_cast<size_t>(n)][static_cast<size_t>(s)] : 0;
      v.line("  exp_cnt[" + S(n * NSEL + s) + "] = " + S(CW) + "'d" + U(x) + ";" +
             (s < NCNT ? "  // chip " + S(n) + " " + cnt_names[static_cast<size_t>(s)] : ""));
    }
  v.line("end");
  v.line();

  v.comment("Self-test states.");
  v.line("localparam [3:0] S_SYNC = 4'd0, S_LOAD = 4'd1, S_READY = 4'd2, S_ARM = 4'd3, S_RUN = 4'd4,");
  v.line("                 S_FLUSH = 4'd5, S_IDLE = 4'd6, S_READ = 4'd7, S_DRAIN = 4'd8, S_CHECK = 4'd9,");
  v.line("                 S_DONE = 4'd10;");
  v.line("reg [3:0] state;");
  v.line("reg [" + S(AW - 1) + ":0] addr;");
  v.line("reg [" + S(pr.width() - 1) + ":0] rom_q;");
  v.line("always @(posedge clk) rom_q <= rom[addr];");
  board_parts::emit_pattern_fields(v, pr);
  v.comment("The chip takes a message at a ce with load_en (rom_q has caught up with addr by then).");
  v.line("wire load_en = (state == S_LOAD) && (addr != end_q);");
  v.line("wire load_full;");
  v.line("assign ready = (state == S_READY);");
  v.line();

  v.line("reg run;");
  v.line("wire msgs_present;");
  v.line("wire pending;");
  v.line("wire [" + S(P - 1) + ":0] rx_valid;");
  v.line("wire [" + S(P * W - 1) + ":0] rx_word;");
  v.line("wire [" + S(P - 1) + ":0] inj_valid;");
  v.line("wire unused_inj = &{1'b0, inj_valid};  // the self-test checks receptions and counters");
  v.line("reg [" + S(w.sel - 1) + ":0] cnt_sel;");
  v.line("wire [31:0] cnt_value;");
  const std::string eject = p.eject_mode == EjectMode::kOnePerPetit ? "1'b1" : "1'b0";
  v.comment("The design under test: one chip (router and " + S(P) + " endpoints) on the clock enable.");
  v.instance("cm1_chip", "chip", {},
             {{"clk", "clk"}, {"rst", "chip_rst"}, {"ce", "ce"}, {"phase", "phase"}, {"run", "run"},
              {"clear", "1'b0"}, {"eject_one", eject}, {"my_chip", "id_q"},
              {"load_en", "load_en"}, {"load_local", "ld_src"}, {"load_chip", "ld_chip"},
              {"load_dproc", "ld_dproc"}, {"load_vp", "ld_vp"}, {"load_data", "ld_data"},
              {"load_full", "load_full"}, {"rx_valid", "rx_valid"}, {"rx_word", "rx_word"},
              {"inj_valid", "inj_valid"}, {"msgs_present", "msgs_present"}, {"pending", "pending"},
              {"cube_out", "chip_cube_out"}, {"cube_in", "cube_in_h"},
              {"cnt_sel", "cnt_sel"}, {"cnt_value", "cnt_value"}});
  v.line();

  v.comment("Receptions: count and XOR of the {DATA, VP} words, one look per bit-time (at ce).");
  board_parts::emit_reception_functions(v);
  v.line("reg [TW-1:0] pc_q;");
  v.line("reg [W-1:0] px_q;");
  v.line("reg [TW-1:0] rx_n /*verilator public_flat_rd*/;");
  v.line("reg [W-1:0] x_n /*verilator public_flat_rd*/;");
  v.line("always @(posedge clk) begin");
  v.line("  if (chip_rst) begin");
  v.line("    pc_q <= {TW{1'b0}};");
  v.line("    px_q <= {W{1'b0}};");
  v.line("    rx_n <= {TW{1'b0}};");
  v.line("    x_n <= {W{1'b0}};");
  v.line("  end else begin");
  v.line("    pc_q <= ce ? pop_p(rx_valid) : {TW{1'b0}};");
  v.line("    px_q <= ce ? xor_p(rx_valid, rx_word) : {W{1'b0}};");
  v.line("    rx_n <= rx_n + pc_q;");
  v.line("    x_n <= x_n ^ px_q;");
  v.line("  end");
  v.line("end");
  v.line();

  v.comment("Run control and the check.");
  v.line("reg [" + S(RPW - 1) + ":0] runs;");
  v.line("reg [" + S(FW - 1) + ":0] wait_cnt;");
  v.comment("Why a board failed, for the simulation harness (public to Verilator; plain registers");
  v.comment("to synthesis).");
  v.line("reg load_lost /*verilator public_flat_rd*/;     // a message met a full queue");
  v.line("reg late /*verilator public_flat_rd*/;          // the go bit came before this board was loaded");
  v.line("reg idle_ok /*verilator public_flat_rd*/;       // nothing buffered or pending after the run");
  v.line("reg cnt_bad /*verilator public_flat_rd*/;       // a counter differed from the model");
  v.line("reg [" + S(w.sel - 1) + ":0] bad_sel /*verilator public_flat_rd*/;  // the first such counter");
  v.line("reg [31:0] bad_got /*verilator public_flat_rd*/;");
  v.line("reg q_valid;");
  v.line("reg [31:0] q_cnt;");
  v.line("reg [" + S(w.sel - 1) + ":0] q_sel;");
  v.line("reg [" + S(CW - 1) + ":0] q_exp;");
  v.line("reg pass;");
  v.line("always @(posedge clk) begin");
  v.line("  q_valid <= (state == S_READ);");
  v.line("  q_cnt <= cnt_value;");
  v.line("  q_sel <= cnt_sel;");
  v.line("  q_exp <= exp_cnt[{id_q, cnt_sel}];");
  v.line("  if (rst) begin");
  v.line("    state <= S_SYNC;");
  v.line("    addr <= {" + S(AW) + "{1'b0}};");
  v.line("    run <= 1'b0;");
  v.line("    runs <= {" + S(RPW) + "{1'b0}};");
  v.line("    wait_cnt <= {" + S(FW) + "{1'b0}};");
  v.line("    cnt_sel <= {" + S(w.sel) + "{1'b0}};");
  v.line("    load_lost <= 1'b0;");
  v.line("    late <= 1'b0;");
  v.line("    idle_ok <= 1'b0;");
  v.line("    cnt_bad <= 1'b0;");
  v.line("    bad_sel <= {" + S(w.sel) + "{1'b0}};");
  v.line("    bad_got <= 32'd0;");
  v.line("    pass <= 1'b0;");
  v.line("  end else begin");
  v.line("    if (q_valid && q_cnt != {{" + S(32 - CW) + "{1'b0}}, q_exp} && !cnt_bad) begin");
  v.line("      cnt_bad <= 1'b1;");
  v.line("      bad_sel <= q_sel;");
  v.line("      bad_got <= q_cnt;");
  v.line("    end");
  v.line("    case (state)");
  v.line("      S_SYNC: begin");
  v.line("        addr <= first_q;");
  v.line("        if (go) late <= 1'b1;");
  v.line("        if (!chip_rst) state <= S_LOAD;");
  v.line("      end");
  v.line("      S_LOAD: begin");
  v.line("        if (go) late <= 1'b1;");
  v.line("        if (ce) begin");
  v.line("          if (load_en) begin");
  v.line("            if (load_full) load_lost <= 1'b1;");
  v.line("            addr <= addr + " + S(AW) + "'d1;");
  v.line("          end else begin");
  v.line("            state <= S_READY;");
  v.line("          end");
  v.line("        end");
  v.line("      end");
  v.line("      S_READY: if (go) state <= S_ARM;");
  v.line("      // run is high from the ce before phase 0 through the last run petit cycle's phase 0.");
  v.line("      S_ARM: if (ce && phase == PH_LAST) begin");
  v.line("        run <= 1'b1;");
  v.line("        state <= S_RUN;");
  v.line("      end");
  v.line("      S_RUN: if (ce && phase == " + PH + "0) begin");
  v.line("        if (runs == " + S(RPW) + "'d" + S(R - 1) + ") begin");
  v.line("          run <= 1'b0;");
  v.line("          state <= S_FLUSH;");
  v.line("        end else begin");
  v.line("          runs <= runs + " + S(RPW) + "'d1;");
  v.line("        end");
  v.line("      end");
  v.line("      // Let the last receptions leave the ejector and the accounting.");
  v.line("      S_FLUSH: if (ce) begin");
  v.line("        wait_cnt <= wait_cnt + " + S(FW) + "'d1;");
  v.line("        if (wait_cnt == " + S(FW) + "'d" + S(FLUSH - 1) + ") state <= S_IDLE;");
  v.line("      end");
  v.line("      S_IDLE: if (ce && phase == " + PH + "0) begin");
  v.line("        idle_ok <= !msgs_present && !pending;");
  v.line("        state <= S_READ;");
  v.line("      end");
  v.line("      S_READ: begin");
  v.line("        if (cnt_sel == " + S(w.sel) + "'d" + S(NCNT - 1) + ") state <= S_DRAIN;");
  v.line("        else cnt_sel <= cnt_sel + " + S(w.sel) + "'d1;");
  v.line("      end");
  v.line("      S_DRAIN: state <= S_CHECK;");
  v.line("      S_CHECK: begin");
  v.line("        pass <= !load_lost && !late && !slip && idle_ok && !cnt_bad");
  v.line("             && rx_n == exp_rx && x_n == exp_x;");
  v.line("        state <= S_DONE;");
  v.line("      end");
  v.line("      default: ;");
  v.line("    endcase");
  v.line("  end");
  v.line("end");
  v.line();
  v.line("wire done = (state == S_DONE);");
  board_parts::emit_leds(v, o.led_active_low, o.blink_log2);
  v.close("endmodule");
  v.line("`default_nettype wire");

  GeneratedDesign d = emit_cm1(cfg);
  {
    auto it = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "cm1_chip.v"; });
    d.files.insert(it, {"cm1_cube_sync.v", read_hw_file("cm1_cube_sync.v")});
  }
  board_parts::add_top(d, "cm1_cube_board_top", v.text(), "cm1_network.v");

  nlohmann::ordered_json j;
  j["top"] = "cm1_cube_board_top";
  j["mode"] = "cube";
  j["note"] = "one router chip per FPGA; every board runs this design, its chip number from the chip_id straps";
  j["boards"] = NC;
  j["bit_clocks"] = KB;
  j["go_delay_petit"] = opt.go_delay_petit;
  j["pattern"] = o.pattern;
  j["seed"] = o.seed;
  j["per_proc"] = o.per_proc;
  j["messages"] = e.messages;
  j["run_petit_cycles"] = e.run_petit;
  j["cabling"] = {"cube_out[i] of board n -> cube_in[i] of board n ^ 2^i",
                  "sync_out of chip 0 -> sync_in of every board (chip 0 included)",
                  "chip_id straps: open = 1 (pull-up), jumper to ground = 0"};
  for (int n = 0; n < NC; ++n) {
    nlohmann::ordered_json c;
    c["chip"] = n;
    c["messages"] = base[static_cast<size_t>(n + 1)] - base[static_cast<size_t>(n)];
    c["receptions"] = e.receptions[static_cast<size_t>(n)];
    c["rx_xor"] = e.rx_xor[static_cast<size_t>(n)];
    for (int s = 0; s < NCNT; ++s) c[cnt_names[static_cast<size_t>(s)]] = e.counters[static_cast<size_t>(n)][static_cast<size_t>(s)];
    j["chips"].push_back(c);
  }
  d.files.emplace_back("cube_selftest.json", j.dump(2) + "\n");
  return d;
}

}  // namespace cmnet

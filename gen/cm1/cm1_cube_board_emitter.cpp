#include "gen/core/verilog_writer.h"
#include "gen/cm1/cm1_cube_board_emitter.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/cm1/cm1_board_top_parts.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

using board_parts::hexlit;

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


namespace {

// Everything the sections of the cube top share: the options, the expectation, and what is
// derived from them (widths, the ROM in source-chip order, each chip's slice of it).
struct CubeTop : board_parts::SelftestSizes {
  const CubeTopOptions& opt;
  const BoardTopOptions& o;
  const Cm1Params& p;
  const CubeSelfTestExpect& e;
  std::vector<std::string> cnt_names;
  int NC = 0, KB = 0, pb = 0, NSEL = 0;  // chips, clocks per bit-time, processor bits, counter selects
  std::vector<Message> rom{}; // the pattern by source chip (each chip's in file order)
  std::vector<int> base{};    // chip n's messages are rom[base[n]..base[n+1])
  int AW = 0, CW = 0, R = 0, RPW = 0;
  std::string PH{};           // the phase literal's prefix
  board_parts::PatternRom pr{};
};

CubeTop make_cube_top(const Cm1Config& cfg, const CubeTopOptions& opt, const Traffic& t, const CubeSelfTestExpect& e) {
  const Cm1Params& p = cfg.cm1;
  CubeTop c{board_parts::selftest_sizes(p, opt.board, t.messages.size()), opt, opt.board, p, e, cm1_counter_names(p)};
  c.NC = p.chips();
  c.KB = opt.bit_clocks;
  c.pb = p.proc_bits();
  c.NSEL = 1 << c.w.sel;
  const int NC = c.NC, NCNT = c.NCNT, pb = c.pb;
  if (e.receptions.size() != static_cast<size_t>(NC) || e.rx_xor.size() != static_cast<size_t>(NC) ||
      e.counters.size() != static_cast<size_t>(NC))
    throw ConfigError("cube board top: the expectation covers " + S(static_cast<int64_t>(e.counters.size())) +
                      " chips, the cube has " + S(NC));
  uint64_t max_cnt = 1;
  for (const auto& v : e.counters) {
    if (v.size() != c.cnt_names.size())
      throw ConfigError("cube board top: the expectation has " + S(static_cast<int64_t>(v.size())) +
                        " counters per chip, the chip has " + S(NCNT));
    for (uint64_t x : v) max_cnt = std::max(max_cnt, x);
  }

  // Messages in order of their source chip (each chip's in file order).
  c.rom = t.messages;
  std::stable_sort(c.rom.begin(), c.rom.end(),
                   [&](const Message& a, const Message& b) { return (a.src >> pb) < (b.src >> pb); });
  c.base.assign(static_cast<size_t>(NC + 1), 0);
  for (const Message& m : c.rom) ++c.base[(m.src >> pb) + 1];
  for (int n = 0; n < NC; ++n) c.base[static_cast<size_t>(n + 1)] += c.base[static_cast<size_t>(n)];
  c.AW = std::max(1, clog2(static_cast<uint64_t>(c.NM) + 1));
  c.CW = std::max(1, clog2(max_cnt + 1));
  c.R = static_cast<int>(e.run_petit);
  c.RPW = std::max(1, clog2(static_cast<uint64_t>(c.R) + 1));
  c.PH = S(c.PW) + "'d";

  c.pr = board_parts::pattern_rom_layout(p, c.w.proc_field, true);
  return c;
}

// The header, the ports, the localparams and the reset.
void emit_cube_ports(VerilogWriter& v, const CubeTop& c) {
  std::vector<std::pair<std::string, std::string>> hp = {{"cube_dims c", S(c.C)}, {"boards", S(c.NC)}};
  const auto chip = board_parts::chip_header_rows(c.p);
  hp.insert(hp.end(), chip.begin(), chip.end());
  hp.insert(hp.end(), {{"clocks per bit-time K", S(c.KB)},
                       {"go delay (petit cycles)", S(c.opt.go_delay_petit)},
                       {"pattern", c.o.pattern + " seed " + U(c.o.seed) + " per_proc " + S(c.o.per_proc)},
                       {"messages", S(c.NM)},
                       {"run (petit cycles)", S(c.R)}});
  v.header("CM-1 multi-board top: one router chip per FPGA, boards cabled into a hypercube;"
           " cube-wide SELF-TEST (each board checks its own chip against the reference model).",
           hp);
  v.comment("Cabling: cube_out[i] of board n -> cube_in[i] of board n ^ 2^i (both ways); sync_out of");
  v.comment("chip 0 -> sync_in of every board, chip 0 included; chip_id[] straps: open = 1 (pull-up),");
  v.comment("jumper to ground = 0. Every board runs this same design.");
  v.open("module cm1_cube_board_top (");
  board_parts::emit_clock_reset_ports(v, c.o, "restarts this board's self-test");
  v.line("output wire [" + S(c.C - 1) + ":0] cube_out,   // to the neighbour across each dimension (registered)");
  v.line("input  wire [" + S(c.C - 1) + ":0] cube_in,    // from the neighbour across each dimension (synchronized)");
  v.line("output wire sync_out,         // chip 0: the sync bus, markers and the go bit (others drive 0)");
  v.line("input  wire sync_in,          // the sync bus, on every board");
  v.line("input  wire [" + S(c.C - 1) + ":0] chip_id,    // straps: this board's chip number");
  board_parts::emit_led_port(v, c.K);
  v.line("output wire uart_tx           // idle high");
  v.end_ports();
  board_parts::emit_reception_localparams(v, c);
  v.line("localparam [" + S(c.PW - 1) + ":0] PH_LAST = " + c.PH + S(c.TP - 1) + ";");
  v.line();
  board_parts::emit_reset(v, c.o.reset_port, c.o.reset_active_low);
}

// The chip number from the straps, the bit-time lock, the chip's reset, the cube pins.
void emit_cube_sync_and_pins(VerilogWriter& v, const CubeTop& c) {
  v.comment("The chip number, read from the straps while in reset; chip 0 drives the sync bus.");
  v.line("reg [" + S(c.C - 1) + ":0] id_q;");
  v.line("always @(posedge clk) if (rst) id_q <= chip_id;");
  v.line("wire master = (id_q == " + S(c.C) + "'d0);");
  v.line();

  v.comment("Bit-times: one every " + S(c.KB) + " clocks, locked to the sync bus.");
  v.line("wire ce;");
  v.line("wire [" + S(c.PW - 1) + ":0] phase;");
  v.line("wire sample;");
  v.line("wire locked;");
  v.line("wire go;");
  v.line("wire slip;");
  v.line("wire ready;");
  v.instance("cm1_cube_sync", "sync",
             {{"K", S(c.KB)}, {"TP", S(c.TP)}, {"PW", S(c.PW)}, {"GO_DELAY", S(c.opt.go_delay_petit)}},
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
  v.line("reg [" + S(c.C - 1) + ":0] cube_out_q;");
  v.line("reg [" + S(c.C - 1) + ":0] cube_in_s1;");
  v.line("reg [" + S(c.C - 1) + ":0] cube_in_s2;");
  v.line("reg [" + S(c.C - 1) + ":0] cube_in_h;");
  v.line("wire [" + S(c.C - 1) + ":0] chip_cube_out;");
  v.line("always @(posedge clk) begin");
  v.line("  cube_out_q <= chip_cube_out;");
  v.line("  cube_in_s1 <= cube_in;");
  v.line("  cube_in_s2 <= cube_in_s1;");
  v.line("  if (sample) cube_in_h <= cube_in_s2 & {" + S(c.C) + "{locked}};");
  v.line("end");
  v.line("assign cube_out = cube_out_q;");
  v.line();
}

// The pattern ROM and each chip's expected receptions and counters.
void emit_cube_pattern(VerilogWriter& v, const CubeTop& c) {
  v.comment("The pattern: " + S(c.NM) + " messages {data, vp, dst proc, dst chip, src proc}, by source chip.");
  board_parts::emit_pattern_rom(v, c.pr, c.rom, 1 << c.AW);
  v.comment("Each chip's slice of the ROM and its expected receptions {xor, count}.");
  v.line("reg [" + S(c.AW - 1) + ":0] first_q;");
  v.line("reg [" + S(c.AW - 1) + ":0] end_q;");
  v.line("reg [" + S(c.TW - 1) + ":0] exp_rx;");
  v.line("reg [" + S(c.W - 1) + ":0] exp_x;");
  v.line("always @(posedge clk) begin");
  v.line("  case (id_q)");
  for (int n = 0; n < c.NC; ++n) {
    const size_t k = static_cast<size_t>(n);
    v.line("    " + S(c.C) + "'d" + S(n) + ": begin first_q <= " + S(c.AW) + "'d" + S(c.base[k]) + "; end_q <= " + S(c.AW) +
           "'d" + S(c.base[k + 1]) + "; exp_rx <= " + S(c.TW) + "'d" + U(c.e.receptions[k]) + "; exp_x <= " +
           hexlit(c.e.rx_xor[k], c.W) + "; end");
  }
  if (c.NC < (1 << c.C)) v.line("    default: ;");
  v.line("  endcase");
  v.line("end");
  v.comment("Each chip's expected counters, indexed {chip, counter select}.");
  v.line("reg [" + S(c.CW - 1) + ":0] exp_cnt [0:" + S(c.NC * c.NSEL - 1) + "];");
  v.line("initial begin");
  for (int n = 0; n < c.NC; ++n)
    for (int s = 0; s < c.NSEL; ++s) {
      const uint64_t x = s < c.NCNT ? c.e.counters[static_cast<size_t>(n)][static_cast<size_t>(s)] : 0;
      v.line("  exp_cnt[" + S(n * c.NSEL + s) + "] = " + S(c.CW) + "'d" + U(x) + ";" +
             (s < c.NCNT ? "  // chip " + S(n) + " " + c.cnt_names[static_cast<size_t>(s)] : ""));
    }
  v.line("end");
  v.line();
}

// The self-test states, the ROM loader, the chip and the reception accounting.
void emit_cube_chip(VerilogWriter& v, const CubeTop& c) {
  v.comment("Self-test states.");
  v.line("localparam [3:0] S_SYNC = 4'd0, S_LOAD = 4'd1, S_READY = 4'd2, S_ARM = 4'd3, S_RUN = 4'd4,");
  v.line("                 S_FLUSH = 4'd5, S_IDLE = 4'd6, S_READ = 4'd7, S_DRAIN = 4'd8, S_CHECK = 4'd9,");
  v.line("                 S_DONE = 4'd10;");
  v.line("reg [3:0] state;");
  v.line("reg [" + S(c.AW - 1) + ":0] addr;");
  v.line("reg [" + S(c.pr.width() - 1) + ":0] rom_q;");
  board_parts::emit_pattern_read(v, c.pr, "addr");
  v.comment("The chip takes a message at a ce with load_en (rom_q has caught up with addr by then).");
  v.line("wire load_en = (state == S_LOAD) && (addr != end_q);");
  v.line("wire load_full;");
  v.line("assign ready = (state == S_READY);");
  v.line();

  board_parts::emit_dut_wires(v, c.P, c.W, 0, "the self-test checks receptions and counters");
  v.line("reg [" + S(c.w.sel - 1) + ":0] cnt_sel;");
  v.line("wire [31:0] cnt_value;");
  v.comment("The design under test: one chip (router and " + S(c.P) + " endpoints) on the clock enable.");
  board_parts::emit_chip_instance(v, c.p, {"chip_rst", "ce", "phase", "id_q", "cube_in_h"});
  v.line();

  v.comment("Receptions: count and XOR of the {DATA, VP} words, one look per bit-time (at ce).");
  board_parts::emit_reception_functions(v);
  board_parts::emit_reception_counter(v, {"chip_rst", "rx_valid", "rx_word", "ce", true});
  v.line();
}

// Run control and the check against the expectation; the LEDs.
void emit_cube_check(VerilogWriter& v, const CubeTop& c) {
  v.comment("Run control and the check.");
  v.line("reg [" + S(c.RPW - 1) + ":0] runs;");
  v.line("reg [" + S(c.FW - 1) + ":0] wait_cnt;");
  v.comment("Why a board failed, for the simulation harness (public to Verilator; plain registers");
  v.comment("to synthesis).");
  v.line("reg load_lost /*verilator public_flat_rd*/;     // a message met a full queue");
  v.line("reg late /*verilator public_flat_rd*/;          // the go bit came before this board was loaded");
  v.line("reg idle_ok /*verilator public_flat_rd*/;       // nothing buffered or pending after the run");
  v.line("reg cnt_bad /*verilator public_flat_rd*/;       // a counter differed from the model");
  v.line("reg [" + S(c.w.sel - 1) + ":0] bad_sel /*verilator public_flat_rd*/;  // the first such counter");
  v.line("reg [31:0] bad_got /*verilator public_flat_rd*/;");
  v.line("reg q_valid;");
  v.line("reg [31:0] q_cnt;");
  v.line("reg [" + S(c.w.sel - 1) + ":0] q_sel;");
  v.line("reg [" + S(c.CW - 1) + ":0] q_exp;");
  v.line("reg pass;");
  v.line("always @(posedge clk) begin");
  v.line("  q_valid <= (state == S_READ);");
  v.line("  q_cnt <= cnt_value;");
  v.line("  q_sel <= cnt_sel;");
  v.line("  q_exp <= exp_cnt[{id_q, cnt_sel}];");
  v.line("  if (rst) begin");
  v.line("    state <= S_SYNC;");
  v.line("    addr <= {" + S(c.AW) + "{1'b0}};");
  v.line("    run <= 1'b0;");
  v.line("    runs <= {" + S(c.RPW) + "{1'b0}};");
  v.line("    wait_cnt <= {" + S(c.FW) + "{1'b0}};");
  v.line("    cnt_sel <= {" + S(c.w.sel) + "{1'b0}};");
  v.line("    load_lost <= 1'b0;");
  v.line("    late <= 1'b0;");
  v.line("    idle_ok <= 1'b0;");
  v.line("    cnt_bad <= 1'b0;");
  v.line("    bad_sel <= {" + S(c.w.sel) + "{1'b0}};");
  v.line("    bad_got <= 32'd0;");
  v.line("    pass <= 1'b0;");
  v.line("  end else begin");
  v.line("    if (q_valid && q_cnt != {{" + S(32 - c.CW) + "{1'b0}}, q_exp} && !cnt_bad) begin");
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
  v.line("            addr <= addr + " + S(c.AW) + "'d1;");
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
  v.line("      S_RUN: if (ce && phase == " + c.PH + "0) begin");
  v.line("        if (runs == " + S(c.RPW) + "'d" + S(c.R - 1) + ") begin");
  v.line("          run <= 1'b0;");
  v.line("          state <= S_FLUSH;");
  v.line("        end else begin");
  v.line("          runs <= runs + " + S(c.RPW) + "'d1;");
  v.line("        end");
  v.line("      end");
  v.line("      // Let the last receptions leave the ejector and the accounting.");
  v.line("      S_FLUSH: if (ce) begin");
  v.line("        wait_cnt <= wait_cnt + " + S(c.FW) + "'d1;");
  v.line("        if (wait_cnt == " + S(c.FW) + "'d" + S(c.FLUSH - 1) + ") state <= S_IDLE;");
  v.line("      end");
  v.line("      S_IDLE: if (ce && phase == " + c.PH + "0) begin");
  v.line("        idle_ok <= !msgs_present && !pending;");
  v.line("        state <= S_READ;");
  v.line("      end");
  v.line("      S_READ: begin");
  v.line("        if (cnt_sel == " + S(c.w.sel) + "'d" + S(c.NCNT - 1) + ") state <= S_DRAIN;");
  v.line("        else cnt_sel <= cnt_sel + " + S(c.w.sel) + "'d1;");
  v.line("      end");
  board_parts::emit_check_and_end(v, {"!load_lost && !late && !slip && idle_ok && !cnt_bad", "rx_n == exp_rx && x_n == exp_x"},
                                  {}, c.o);
}

// cube_selftest.json: what every board runs and checks, chip by chip.
std::string cube_selftest_json(const CubeTop& c) {
  nlohmann::ordered_json j;
  j["top"] = "cm1_cube_board_top";
  j["mode"] = "cube";
  j["note"] = "one router chip per FPGA; every board runs this design, its chip number from the chip_id straps";
  j["boards"] = c.NC;
  j["bit_clocks"] = c.KB;
  j["go_delay_petit"] = c.opt.go_delay_petit;
  j["pattern"] = c.o.pattern;
  j["seed"] = c.o.seed;
  j["per_proc"] = c.o.per_proc;
  j["messages"] = c.e.messages;
  j["run_petit_cycles"] = c.e.run_petit;
  j["cabling"] = {"cube_out[i] of board n -> cube_in[i] of board n ^ 2^i",
                  "sync_out of chip 0 -> sync_in of every board (chip 0 included)",
                  "chip_id straps: open = 1 (pull-up), jumper to ground = 0"};
  for (int n = 0; n < c.NC; ++n) {
    nlohmann::ordered_json chip;
    chip["chip"] = n;
    chip["messages"] = c.base[static_cast<size_t>(n + 1)] - c.base[static_cast<size_t>(n)];
    chip["receptions"] = c.e.receptions[static_cast<size_t>(n)];
    chip["rx_xor"] = c.e.rx_xor[static_cast<size_t>(n)];
    for (int s = 0; s < c.NCNT; ++s) chip[c.cnt_names[static_cast<size_t>(s)]] = c.e.counters[static_cast<size_t>(n)][static_cast<size_t>(s)];
    j["chips"].push_back(chip);
  }
  return j.dump(2) + "\n";
}

}  // namespace

GeneratedDesign emit_cm1_cube_board_top(const Cm1Config& cfg, const CubeTopOptions& opt, const Traffic& t,
                                        const CubeSelfTestExpect& e) {
  check_cm1_cube_board_options(cfg, opt);
  const CubeTop c = make_cube_top(cfg, opt, t, e);
  VerilogWriter v;
  emit_cube_ports(v, c);
  emit_cube_sync_and_pins(v, c);
  emit_cube_pattern(v, c);
  emit_cube_chip(v, c);
  emit_cube_check(v, c);

  GeneratedDesign d = emit_cm1(cfg);
  {
    auto it = std::find_if(d.files.begin(), d.files.end(), [](const auto& f) { return f.first == "cm1_chip.v"; });
    d.files.insert(it, {"cm1_cube_sync.v", read_hw_file("cm1_cube_sync.v")});
  }
  board_parts::add_top(d, "cm1_cube_board_top", v.text(), "cm1_network.v");
  d.files.emplace_back("cube_selftest.json", cube_selftest_json(c));
  return d;
}

}  // namespace cmnet

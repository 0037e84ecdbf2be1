#include "gen/cm1/cm1_board_emitter.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "gen/cm1/cm1_board_top_parts.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {

using board_parts::add_top;
using board_parts::emit_chip_instance;
using board_parts::emit_reception_functions;
using board_parts::emit_reset;
using board_parts::hexlit;

struct TopShape {
  bool chip_mode = false;
  std::string name;
  int nc = 1;       // chips whose receptions are counted
  int src_w = 1;    // width of the load port's source field
};

// What the sections of a self-test top share: the sizes, its shape, options, pattern and
// expectation.
struct Top : board_parts::SelftestSizes {
  const Cm1Config& cfg;
  const Cm1Params& p;
  const BoardTopOptions& o;
  const TopShape& sh;
  const Traffic& t;
  const SelfTestExpect& e;
  int NC = 0, AW = 0;            // chips counted, ROM address bits
  board_parts::PatternRom pr{};  // the ROM's entry layout
};

Top make_top(const Cm1Config& cfg, const BoardTopOptions& o, const TopShape& sh, const Traffic& t,
             const SelfTestExpect& e) {
  const Cm1Params& p = cfg.cm1;
  Top c{board_parts::selftest_sizes(p, o, t.messages.size()), cfg, p, o, sh, t, e};
  c.NC = sh.nc;
  c.AW = std::max(1, clog2(static_cast<uint64_t>(c.NM)));
  c.pr = board_parts::pattern_rom_layout(p, sh.src_w, sh.chip_mode);
  return c;
}

// The header (the self-test as built), the ports, the localparams and the reset.
void emit_top_ports(VerilogWriter& v, const Top& c) {
  std::vector<std::pair<std::string, std::string>> hp = {
      {"mode", c.sh.chip_mode ? "chip (one router chip per FPGA)" : "network (whole network in one FPGA)"},
      {"cube_dims c", S(c.C)}};
  const auto chip = board_parts::chip_header_rows(c.p);
  hp.insert(hp.end(), chip.begin(), chip.end());
  hp.insert(hp.end(), {
      {"pattern", c.sh.chip_mode ? "local ring (processor g -> g+1 on this chip)"
                               : c.o.pattern + " seed " + S(static_cast<int64_t>(c.o.seed)) +
                                     " per_proc " + S(c.o.per_proc)},
      {"messages", S(c.NM)},
      {"expected receptions", S(static_cast<int64_t>(c.e.receptions))},
      {"expected rx xor", hexlit(c.e.rx_xor, std::max(1, c.W))},
      {"model petit cycles", S(static_cast<int64_t>(c.e.model_petit_cycles))}});
  if (c.sh.chip_mode) hp.push_back({"chip id", S(c.o.chip_id)});
  v.header(std::string(c.sh.chip_mode ? "CM-1 chip board top" : "CM-1 network board top") +
               " - SELF-TEST top (no host): a ROM pattern is loaded, routed and checked;"
               " LEDs show running / pass / fail. The host-link top replaces the loader later.",
           hp);
  v.open("module " + c.sh.name + " (");
  board_parts::emit_clock_reset_ports(v, c.o, "also restarts the self-test");
  if (c.sh.chip_mode) {
    v.line("output wire [" + S(c.C - 1) + ":0] cube_out,   // to the neighbour across each dimension (registered)");
    v.line("input  wire [" + S(c.C - 1) + ":0] cube_in,    // from the neighbour across each dimension (registered)");
  }
  board_parts::emit_led_port(v, c.K);
  v.line("output wire uart_tx           // idle high until the host link is added");
  v.end_ports();
  board_parts::emit_reception_localparams(v, c);
  v.line("localparam integer NC = " + S(c.NC) + ";");
  v.line();

  emit_reset(v, c.o.reset_port, c.o.reset_active_low);
}

// The pattern ROM, in file order.
void emit_top_pattern(VerilogWriter& v, const Top& c) {
  v.comment("The pattern: " + S(c.NM) + " messages {data, vp, dst proc, dst chip, src} in file order.");
  board_parts::emit_pattern_rom(v, c.pr, c.t.messages, c.NM);
  v.line();
}

// The self-test states and the loader.
void emit_top_loader(VerilogWriter& v, const Top& c) {
  v.comment("Self-test states.");
  v.line("localparam [2:0] S_LOAD = 3'd0, S_ARM = 3'd1, S_RUN = 3'd2, S_FLUSH = 3'd3,");
  v.line("                 S_READ = 3'd4, S_DRAIN = 3'd5, S_CHECK = 3'd6, S_DONE = 3'd7;");
  v.line("reg [2:0] state;");
  v.line("reg [" + S(c.AW - 1) + ":0] addr;");
  v.line("reg [" + S(c.pr.width() - 1) + ":0] rom_q;");
  v.comment("Every endpoint's queue holds its share of the pattern (checked when this top is");
  v.comment("generated), so the loader does not wait on load_full; a message that met a full queue");
  v.comment("would be lost, which fails the test.");
  v.line("wire load_full;");
  v.line("wire load_en = (state == S_LOAD);");
  v.line("reg load_hit_full;");
  v.line("reg load_lost;");
  v.line("always @(posedge clk) load_hit_full <= load_en && load_full;");
  v.line("wire last_load = (addr == " + S(c.AW) + "'d" + S(c.NM - 1) + ");");
  v.line("wire [" + S(c.AW - 1) + ":0] rd_addr = rst ? {" + S(c.AW) + "{1'b0}} : (load_en && !last_load) ? addr + " +
         S(c.AW) + "'d1 : addr;");
  board_parts::emit_pattern_read(v, c.pr, "rd_addr");
  v.line();

  board_parts::emit_dut_wires(v, c.NC * c.P, c.W, c.PW, "the self-test checks receptions, not injections");
  if (!c.sh.chip_mode) v.line("reg [" + S(c.C - 1) + ":0] cnt_chip;");
  v.line("reg [" + S(c.w.sel - 1) + ":0] cnt_sel;");
  v.line("wire [31:0] cnt_value;");
  v.line();
}

// The design under test: the whole network, or one chip with its cube pins.
void emit_top_dut(VerilogWriter& v, const Top& c) {
  const std::string eject = c.p.eject_mode == EjectMode::kOnePerPetit ? "1'b1" : "1'b0";
  if (!c.sh.chip_mode) {
    v.comment("The design under test: the whole network.");
    v.instance("cm1_network", "net", {},
               {{"clk", "clk"}, {"rst", "rst"}, {"run", "run"}, {"clear", "1'b0"},
                {"eject_one", eject}, {"load_en", "load_en"}, {"load_proc", "ld_src"},
                {"load_chip", "ld_chip"}, {"load_dproc", "ld_dproc"}, {"load_vp", "ld_vp"},
                {"load_data", "ld_data"}, {"load_full", "load_full"}, {"rx_valid", "rx_valid"},
                {"rx_word", "rx_word"}, {"inj_valid", "inj_valid"}, {"phase", "phase"}, {"msgs_present", "msgs_present"},
                {"pending", "pending"}, {"cnt_chip", "cnt_chip"}, {"cnt_sel", "cnt_sel"},
                {"cnt_value", "cnt_value"}, {"fault_en", "1'b0"},
                {"fault_chip", "{" + S(c.C) + "{1'b0}}"},
                {"fault_dim", "{" + S(c.w.fault_dim) + "{1'b0}}"}});
  } else {
    v.comment("This FPGA's bit-time counter: a single-board test at full clock rate. Boards cabled into");
    v.comment("a cube use cm1_cube_board_top (a bit-time every K clocks, locked to a sync bus).");
    v.line("reg [" + S(c.PW - 1) + ":0] phase_q;");
    v.line("always @(posedge clk) begin");
    v.line("  if (rst || phase_q == " + S(c.PW) + "'d" + S(c.TP - 1) + ") phase_q <= {" + S(c.PW) + "{1'b0}};");
    v.line("  else phase_q <= phase_q + " + S(c.PW) + "'d1;");
    v.line("end");
    v.line("assign phase = phase_q;");
    v.line();
    v.comment("Cube wires are registered at the pins. The inputs are ignored until the local");
    v.comment("self-test has passed (floating header pins must not inject messages).");
    v.line("reg [" + S(c.C - 1) + ":0] cube_in_q;");
    v.line("reg [" + S(c.C - 1) + ":0] cube_out_q;");
    v.line("reg link_en;");
    v.line("wire [" + S(c.C - 1) + ":0] chip_cube_out;");
    v.line("always @(posedge clk) begin");
    v.line("  cube_in_q <= cube_in & {" + S(c.C) + "{link_en}};");
    v.line("  cube_out_q <= chip_cube_out;");
    v.line("end");
    v.line("assign cube_out = cube_out_q;");
    v.line();
    v.comment("The design under test: one chip (router and " + S(c.P) + " endpoints).");
    emit_chip_instance(v, c.p, {"rst", "1'b1", "phase_q", S(c.C) + "'d" + S(c.o.chip_id), "cube_in_q"});
  }
  v.line();
}

// Each chip's count and XOR of the words it received.
void emit_top_receptions(VerilogWriter& v) {
  v.comment("Receptions: per chip, the count and the XOR of the {DATA, VP} words received.");
  emit_reception_functions(v);
  v.line("wire [NC*TW-1:0] chip_rx;");
  v.line("wire [NC*W-1:0] chip_x;");
  v.line("genvar n;");
  v.line("generate");
  v.open("for (n = 0; n < NC; n = n + 1) begin : g_acc");
  board_parts::emit_reception_counter(v, {"rst", "rx_valid[n*P +: P]", "rx_word[n*P*W +: P*W]", "", false});
  v.line("assign chip_rx[n*TW +: TW] = rx_n;");
  v.line("assign chip_x[n*W +: W] = x_n;");
  v.close("end");
  v.line("endgenerate");
  v.line();
}

// Counter read-back, run control, the check against the expectation, the LEDs.
void emit_top_check(VerilogWriter& v, const Top& c) {
  v.comment("Counter read-back, pipelined: select (cnt_chip, cnt_sel), register, accumulate.");
  const std::string chip_idx = c.sh.chip_mode ? "0" : "cnt_chip";
  v.line("reg q_valid;");
  v.line("reg was_phase0;       // the cycle before was phase 0");
  v.line("reg idle_at_phase0;   // ... and nothing was buffered or pending then");
  v.line("reg petit_at_limit;    // petit (which changes at phase 1 only) is at the limit");
  v.line("reg [" + S(c.w.sel - 1) + ":0] q_sel;");
  v.line("reg [31:0] q_cnt;");
  v.line("reg [TW-1:0] q_rx;");
  v.line("reg [W-1:0] q_x;");
  v.line("reg [31:0] sum_injected;");
  v.line("reg [31:0] sum_delivered;");
  v.line("reg [31:0] sum_parity;");
  v.line("reg any_petit;");
  v.line("reg [31:0] sum_rx;");
  v.line("reg [W-1:0] sum_x;");
  v.line("reg [15:0] petit;");
  v.line("reg timeout;");
  v.line("reg [" + S(c.FW - 1) + ":0] wait_cnt;");
  v.line("reg pass;");
  const std::string last_sel = "(cnt_sel == " + S(c.w.sel) + "'d" + S(c.NCNT - 1) + ")";
  const std::string last_chip = c.sh.chip_mode ? "1'b1" : "(cnt_chip == " + S(c.C) + "'d" + S(c.NC - 1) + ")";
  v.line("always @(posedge clk) begin");
  v.line("  q_valid <= (state == S_READ);");
  v.line("  was_phase0 <= (phase == " + S(c.PW) + "'d0);");
  v.line("  idle_at_phase0 <= !msgs_present && !pending;");
  v.line("  petit_at_limit <= (petit == 16'd" + S(static_cast<int64_t>(c.e.petit_limit)) + ");");
  v.line("  q_sel <= cnt_sel;");
  v.line("  q_cnt <= cnt_value;");
  v.line("  q_rx <= chip_rx[" + chip_idx + "*TW +: TW];");
  v.line("  q_x <= chip_x[" + chip_idx + "*W +: W];");
  v.line("  if (rst) begin");
  v.line("    state <= S_LOAD;");
  v.line("    addr <= {" + S(c.AW) + "{1'b0}};");
  v.line("    run <= 1'b0;");
  if (!c.sh.chip_mode) v.line("    cnt_chip <= {" + S(c.C) + "{1'b0}};");
  else v.line("    link_en <= 1'b0;");
  v.line("    cnt_sel <= {" + S(c.w.sel) + "{1'b0}};");
  v.line("    sum_injected <= 32'd0;");
  v.line("    sum_delivered <= 32'd0;");
  v.line("    sum_parity <= 32'd0;");
  v.line("    any_petit <= 1'b0;");
  v.line("    sum_rx <= 32'd0;");
  v.line("    sum_x <= {W{1'b0}};");
  v.line("    petit <= 16'd0;");
  v.line("    timeout <= 1'b0;");
  v.line("    wait_cnt <= {" + S(c.FW) + "{1'b0}};");
  v.line("    pass <= 1'b0;");
  v.line("    load_lost <= 1'b0;");
  v.line("  end else begin");
  v.line("    if (load_hit_full) load_lost <= 1'b1;");
  v.line("    if (q_valid) begin");
  v.line("      if (q_sel == " + S(c.w.sel) + "'d0) begin");
  v.line("        sum_injected <= sum_injected + q_cnt;");
  v.line("        sum_rx <= sum_rx + {{32-TW{1'b0}}, q_rx};");
  v.line("        sum_x <= sum_x ^ q_x;");
  v.line("      end");
  v.line("      if (q_sel == " + S(c.w.sel) + "'d1) sum_delivered <= sum_delivered + q_cnt;");
  v.line("      if (q_sel == " + S(c.w.sel) + "'d3 && q_cnt != 32'd0) any_petit <= 1'b1;");
  v.line("      if (q_sel == " + S(c.w.sel) + "'d4) sum_parity <= sum_parity + q_cnt;");
  v.line("    end");
  v.line("    case (state)");
  v.line("      S_LOAD: if (load_en) begin");
  v.line("        if (last_load) state <= S_ARM;");
  v.line("        else addr <= addr + " + S(c.AW) + "'d1;");
  v.line("      end");
  v.line("      // Start so that the first petit cycle begins at the next phase 0.");
  v.line("      S_ARM: if (phase == " + S(c.PW) + "'d" + S(c.TP - 1) + ") begin");
  v.line("        run <= 1'b1;");
  v.line("        state <= S_RUN;");
  v.line("      end");
  v.line("      // Decide at phase 1 on what the design showed at phase 0 (run only matters at phase 0).");
  v.line("      S_RUN: if (was_phase0) begin");
  v.line("        if (idle_at_phase0) begin");
  v.line("          run <= 1'b0;");
  v.line("          state <= S_FLUSH;");
  v.line("        end else if (petit_at_limit) begin");
  v.line("          run <= 1'b0;");
  v.line("          timeout <= 1'b1;");
  v.line("          state <= S_FLUSH;");
  v.line("        end else begin");
  v.line("          petit <= petit + 16'd1;");
  v.line("        end");
  v.line("      end");
  v.line("      // Let the last receptions leave the ejector and the accounting pipeline.");
  v.line("      S_FLUSH: begin");
  v.line("        wait_cnt <= wait_cnt + " + S(c.FW) + "'d1;");
  v.line("        if (wait_cnt == " + S(c.FW) + "'d" + S(c.FLUSH - 1) + ") state <= S_READ;");
  v.line("      end");
  v.line("      S_READ: begin");
  v.line("        if (" + last_sel + ") begin");
  v.line("          cnt_sel <= {" + S(c.w.sel) + "{1'b0}};");
  if (!c.sh.chip_mode) v.line("          cnt_chip <= cnt_chip + " + S(c.C) + "'d1;");
  v.line("          if (" + last_chip + ") state <= S_DRAIN;");
  v.line("        end else begin");
  v.line("          cnt_sel <= cnt_sel + " + S(c.w.sel) + "'d1;");
  v.line("        end");
  v.line("      end");
  std::vector<std::string> more;
  if (c.sh.chip_mode) more.push_back("      S_DONE: link_en <= pass;  // the chip joins the cube once its local test passed");
  board_parts::emit_check_and_end(v,
                                  {"!timeout && !load_lost",
                                   "sum_rx == 32'd" + S(static_cast<int64_t>(c.e.receptions) + c.o.expect_offset),
                                   "sum_x == " + hexlit(c.e.rx_xor, c.W), "sum_injected == 32'd" + S(c.NM),
                                   "sum_delivered == 32'd" + S(c.NM), "sum_parity == 32'd0", "any_petit"},
                                  more, c.o);
}

// The body shared by both tops: reset, ROM loader, run control, reception accounting,
// counter read-back and check, LEDs. The design under test is instantiated by `dut`.
std::string emit_top(const Cm1Config& cfg, const BoardTopOptions& o, const TopShape& sh,
                     const Traffic& t, const SelfTestExpect& e) {
  const Top c = make_top(cfg, o, sh, t, e);
  VerilogWriter v;
  emit_top_ports(v, c);
  emit_top_pattern(v, c);
  emit_top_loader(v, c);
  emit_top_dut(v, c);
  emit_top_receptions(v);
  emit_top_check(v, c);
  return v.text();
}

std::string expect_json(const SelfTestExpect& e, const BoardTopOptions& o, const std::string& top) {
  nlohmann::ordered_json j;
  j["top"] = top;
  j["mode"] = e.mode;
  j["note"] = "self-test top: ROM pattern loaded, routed and checked on the FPGA; LEDs show the result";
  if (e.mode == "network") {
    j["pattern"] = o.pattern;
    j["seed"] = o.seed;
    j["per_proc"] = o.per_proc;
  } else {
    j["pattern"] = "local ring";
    j["chip_id"] = o.chip_id;
  }
  j["messages"] = e.messages;
  j["expected_receptions"] = e.receptions;
  j["expected_rx_xor"] = e.rx_xor;
  j["model_petit_cycles"] = e.model_petit_cycles;
  j["petit_limit"] = e.petit_limit;
  j["leds"] = o.led_active_low.size() >= 3 ? "led[0] pass, led[1] fail, led[2] running"
                                           : "led[0] pass (blinks while running), led[1] fail";
  return j.dump(2) + "\n";
}

}  // namespace

Traffic cm1_chip_selftest_traffic(const Cm1Params& p, int chip_id) {
  if (chip_id < 0 || chip_id >= p.chips())
    throw ConfigError("chip board top: chip_id = " + S(chip_id) + " out of range 0.." + S(p.chips() - 1));
  // The local self-test: processor g of this chip sends to processor g+1 of this chip.
  Traffic t;
  const uint32_t P = static_cast<uint32_t>(p.procs_per_chip);
  const uint32_t base = static_cast<uint32_t>(chip_id) * P;
  const uint64_t dmask = p.data_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << p.data_bits) - 1;
  const uint32_t vmask = p.vp_bits > 0 ? (1u << p.vp_bits) - 1 : 0;
  for (uint32_t g = 0; g < P; ++g) {
    Message m;
    m.src = base + g;
    m.dst = base + (g + 1) % P;
    m.vp = (g * 3 + 1) & vmask;
    m.data = (0x5a + 0x37 * uint64_t{g}) & dmask;
    t.messages.push_back(m);
  }
  return t;
}

void check_cm1_board_top_options(const Cm1Config& cfg, const BoardTopOptions& opt) {
  board_parts::check_selftest_options(cfg, opt, "board top");
}

GeneratedDesign emit_cm1_board_top(const Cm1Config& cfg, const BoardTopOptions& opt, const Traffic& t,
                                   const SelfTestExpect& e) {
  check_cm1_board_top_options(cfg, opt);
  GeneratedDesign d = emit_cm1(cfg);
  TopShape sh;
  sh.name = "cm1_board_top";
  sh.nc = cfg.cm1.chips();
  sh.src_w = cm1_widths(cfg.cm1).gproc;
  add_top(d, sh.name, emit_top(cfg, opt, sh, t, e), "");
  d.files.emplace_back("selftest.json", expect_json(e, opt, sh.name));
  return d;
}

GeneratedDesign emit_cm1_chip_board_top(const Cm1Config& cfg, const BoardTopOptions& opt,
                                        const SelfTestExpect& e) {
  check_cm1_board_top_options(cfg, opt);
  const Cm1Params& p = cfg.cm1;
  const Traffic t = cm1_chip_selftest_traffic(p, opt.chip_id);
  GeneratedDesign d = emit_cm1(cfg);
  TopShape sh;
  sh.chip_mode = true;
  sh.name = "cm1_chip_board_top";
  sh.nc = 1;
  sh.src_w = cm1_widths(p).proc_field;
  add_top(d, sh.name, emit_top(cfg, opt, sh, t, e), "cm1_network.v");
  d.files.emplace_back("selftest.json", expect_json(e, opt, sh.name));
  return d;
}

}  // namespace cmnet

#include "gen/cm1/cm1_host_board_emitter.h"

#include <fstream>
#include <sstream>

#include "gen/cm1/cm1_regmap.h"
#include "gen/core/errors.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {


std::vector<std::pair<std::string, std::string>> header(const Cm1Config& cfg,
                                                        const HostBoardOptions& o) {
  const Cm1Params& p = cfg.cm1;
  return {{"cube_dims c", S(p.cube_dims)},        {"rows b", S(p.rows)},
          {"procs_per_chip P", S(p.procs_per_chip)}, {"vp_bits v", S(p.vp_bits)},
          {"data_bits d", S(p.data_bits)},        {"clock_hz", S(o.clock_hz)},
          {"baud", S(o.baud)},                    {"phy", host_link_phy_name(o.phy)},
          {"config_id", S(config_id(cfg))}};
}

std::string emit_core(const Cm1Config& cfg, const HostBoardOptions& o) {
  const Cm1Params& p = cfg.cm1;
  const Cm1Widths w = cm1_widths(p);
  const int C = p.cube_dims, NP = p.processors();
  VerilogWriter v;
  v.header("CM-1 host core: protocol-v1 frame engine, register block, CM-1 network (byte-stream ports).",
           header(cfg, o));
  host_core_ports(v, "cm1_host_core");
  v.line("wire net_run, net_clear, net_eject_one, net_load_en, net_load_full, net_msgs, net_pending;");
  v.line("wire [" + S(w.gproc - 1) + ":0] net_load_proc;");
  v.line("wire [" + S(C - 1) + ":0] net_load_chip;");
  v.line("wire [" + S(w.proc_field - 1) + ":0] net_load_dproc;");
  v.line("wire [" + S(w.vp_field - 1) + ":0] net_load_vp;");
  v.line("wire [" + S(p.data_bits - 1) + ":0] net_load_data;");
  v.line("wire [" + S(NP - 1) + ":0] net_rx_valid;");
  v.line("wire [" + S(NP - 1) + ":0] net_inj_valid;");
  v.line("wire [" + S(NP * w.rx_word - 1) + ":0] net_rx_word;");
  v.line("wire [" + S(w.phase - 1) + ":0] net_phase;");
  v.line("wire [" + S(C - 1) + ":0] net_cnt_chip;");
  v.line("wire [" + S(w.sel - 1) + ":0] net_cnt_sel;");
  v.line("wire [31:0] net_cnt_value;");
  v.line("assign link_busy = !fe_idle || fe_stalled;");
  v.line("assign link_stalled = fe_stalled;");
  v.line("wire unused_fe = &{1'b0, fe_overrun};  // a dropped byte shows up as a CRC error at the host");
  v.line();
  frame_engine_instance(v, o);
  v.line();
  v.instance("cm1_host_regs", "regs",
             {{"C", S(C)}, {"B", S(p.rows)}, {"P", S(p.procs_per_chip)}, {"PA", S(p.proc_bits())},
              {"V", S(p.vp_bits)}, {"D", S(p.data_bits)}, {"L", S(p.msg_len())},
              {"TP", S(p.petit_period())}, {"PW", S(w.phase)}, {"QD", S(1 << w.queue_log2)},
              {"NCNT", S(static_cast<long long>(cm1_counter_names(p).size()))}, {"SW", S(w.sel)},
              {"GW", S(w.gproc)}, {"PAW", S(w.proc_field)}, {"VW", S(w.vp_field)},
              {"CLOCK_HZ", S(o.clock_hz)}, {"LINK", o.phy == HostLinkPhy::Fifo ? "1" : "0"},
              {"IDENT_LEN", S(static_cast<long long>(cm1_identifier(cfg, o).size()))},
              {"IDENT", "\"" + cm1_identifier(cfg, o) + "\""},
              {"CONFIG_ID", verilog_hex32(config_id(cfg))}},
             {{"clk", "clk"}, {"rst", "rst"}, {"bus_valid", "bus_valid"}, {"bus_write", "bus_write"},
              {"bus_addr", "bus_addr"}, {"bus_wdata", "bus_wdata"}, {"bus_ready", "bus_ready"},
              {"bus_rdata", "bus_rdata"}, {"bus_err", "bus_err"}, {"net_run", "net_run"},
              {"net_clear", "net_clear"}, {"net_eject_one", "net_eject_one"},
              {"net_load_en", "net_load_en"}, {"net_load_proc", "net_load_proc"},
              {"net_load_chip", "net_load_chip"}, {"net_load_dproc", "net_load_dproc"},
              {"net_load_vp", "net_load_vp"}, {"net_load_data", "net_load_data"},
              {"net_load_full", "net_load_full"}, {"net_inj_valid", "net_inj_valid"},
              {"net_rx_valid", "net_rx_valid"},
              {"net_rx_word", "net_rx_word"}, {"net_phase", "net_phase"},
              {"net_msgs_present", "net_msgs"}, {"net_pending", "net_pending"},
              {"net_cnt_chip", "net_cnt_chip"}, {"net_cnt_sel", "net_cnt_sel"},
              {"net_cnt_value", "net_cnt_value"}, {"running", "running"}});
  v.line();
  v.instance("cm1_network", "network", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"run", "net_run"}, {"clear", "net_clear"},
              {"eject_one", "net_eject_one"}, {"load_en", "net_load_en"},
              {"load_proc", "net_load_proc"}, {"load_chip", "net_load_chip"},
              {"load_dproc", "net_load_dproc"}, {"load_vp", "net_load_vp"},
              {"load_data", "net_load_data"}, {"load_full", "net_load_full"},
              {"inj_valid", "net_inj_valid"}, {"rx_valid", "net_rx_valid"},
              {"rx_word", "net_rx_word"}, {"phase", "net_phase"},
              {"msgs_present", "net_msgs"}, {"pending", "net_pending"},
              {"cnt_chip", "net_cnt_chip"}, {"cnt_sel", "net_cnt_sel"},
              {"cnt_value", "net_cnt_value"}, {"fault_en", "1'b0"},
              {"fault_chip", "{" + S(C) + "{1'b0}}"},
              {"fault_dim", "{" + S(w.fault_dim) + "{1'b0}}"}});
  v.end_module();
  return v.text();
}

}  // namespace

std::string cm1_identifier(const Cm1Config& cfg, const HostBoardOptions& o) {
  const Cm1Params& p = cfg.cm1;
  char id[16];
  std::snprintf(id, sizeof id, "%08x", config_id(cfg));
  const std::string name = identifier_text(cfg.name, 64);
  return "cmnet cm1 " + name + ": c=" + S(p.cube_dims) + " b=" + S(p.rows) + " P=" + S(p.procs_per_chip) +
         " v=" + S(p.vp_bits) + " d=" + S(p.data_bits) + " q=" + S(p.queue_depth) + " " +
         (p.eject_mode == EjectMode::kOrCombine ? "or" : "one") + ", config " + id + ", " + host_link_phy_name(o.phy) + " " +
         S(o.clock_hz) + " Hz";
}

uint32_t config_id(const Cm1Config& cfg) { return config_hash(config_to_json(cfg)); }

GeneratedDesign emit_cm1_host_board(const Cm1Config& cfg, const HostBoardOptions& opt) {
  if (cfg.cm1.cube_dims + cfg.cm1.proc_bits() > 16)
    throw ConfigError("host board: c + log2(P) = " +
                      S(cfg.cm1.cube_dims + cfg.cm1.proc_bits()) +
                      " processors' worth of address is above the board's limit of 16");
  {
    // hw/cm1/cm1_host_regs.v's map: the counter window (2^SW words per chip from 0x800) must end
    // below the endpoints' window at 0x8000; per-run counts are narrower than 32 bits.
    const Cm1Widths w = cm1_widths(cfg.cm1);
    const long long window = 0x800LL + 4LL * cfg.cm1.chips() * (1LL << w.sel);
    if (window > 0x8000)
      throw ConfigError("host board: " + S(cfg.cm1.chips()) + " chips' counters (" +
                        S(1LL << w.sel) + " words each) overrun the register map at 0x8000 "
                        "(allowed: c <= 8 with the default counters)");
    if (static_cast<long long>(cfg.cm1.processors()) * cfg.cm1.queue_depth >= (1LL << 24))
      throw ConfigError("host board: processors x queue_depth = " +
                        S(static_cast<long long>(cfg.cm1.processors()) * cfg.cm1.queue_depth) +
                        " messages per run is above the board's limit of 2^24");
  }
  check_host_board_options(opt);
  GeneratedDesign d = emit_cm1(cfg);
  // Keep the network's files, then add the host link and the two tops before the metadata.
  std::vector<std::pair<std::string, std::string>> files = d.verilog_sources();
  for (const std::string& prim : host_link_files(opt)) files.emplace_back(prim, read_hw_file(prim));
  for (const char* prim : {"cm1_traffic_gen.v", "cm1_endpoint_hist.v"}) files.emplace_back(prim, read_hw_file(prim));
  // The register block's decode comes from the one description of the map.
  files.emplace_back("cm1_host_regs_decode.v", regmap::emit_decode(cm1map::kBlock));
  files.emplace_back("cm1_host_regs.v", read_hw_file("cm1_host_regs.v"));
  files.emplace_back("cm1_host_core.v", emit_core(cfg, opt));
  files.emplace_back("cm1_host_board.v", emit_host_board_top("CM-1", "cm1", header(cfg, opt), opt));
  const std::string list = filelist(GeneratedDesign{"", files});
  for (auto& f : d.files)
    if (f.first == "manifest.json" || f.first == "config.json") files.push_back(f);
  files.emplace_back("filelist.f", list);
  // The register map for LiteX's host tools (litex_client --regs, RemoteClient), from its one
  // description.
  files.emplace_back("csr.csv", cm1map::csr_csv(cfg.cm1, 1u << cm1_widths(cfg.cm1).sel));
  d.files = std::move(files);
  d.top = "cm1_host_board";
  return d;
}

}  // namespace cmnet

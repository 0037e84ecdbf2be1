#include "gen/core/stream_board.h"

#include <cstdio>
#include <sstream>

#include "gen/core/errors.h"
#include "gen/core/stream_regmap.h"
#include "gen/core/verilog_writer.h"

namespace cmnet {
namespace {

// A token of the info text: printable, no spaces (names and values are single words).
bool is_token(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c <= 0x20 || c > 0x7E) return false;
  return true;
}

void check_token(const std::string& what, const std::string& s) {
  if (!is_token(s))
    throw ConfigError("stream board: " + what + " '" + s + "' must be one printable word (no spaces)");
}

uint32_t words_of(const std::string& text) { return static_cast<uint32_t>((text.size() + 1 + 3) / 4); }

std::string emit_info_rom(const std::string& module, const std::string& text, int aw) {
  VerilogWriter v;
  v.header("Info ROM of the stream board: the board's self-description (gen/core/stream_board.h), "
           "4 characters per word, the first in bits 7:0, NUL-terminated.",
           {{"words", S(words_of(text))}});
  v.open("module " + module + " (");
  v.line("input  wire clk,");
  v.line("input  wire [" + S(aw - 1) + ":0] addr,");
  v.line("output reg  [31:0] data   // the word at the address of the previous cycle");
  v.end_ports();
  const uint32_t n = words_of(text);
  v.line("reg [31:0] rom [0:" + S(n - 1) + "];");
  v.line("always @(posedge clk) data <= rom[addr];");
  // The text itself, one line per comment, so a reader sees what the words say.
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) v.comment("| " + l);
  v.open("initial begin");
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t w = 0;
    for (uint32_t b = 0; b < 4; ++b) {
      const size_t k = 4 * i + b;
      const uint8_t c = k < text.size() ? static_cast<uint8_t>(text[k]) : 0;
      w |= static_cast<uint32_t>(c) << (8 * b);
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "rom[%u] = 32'h%08x;", i, w);
    v.line(buf);
  }
  v.close("end");
  v.end_module();
  return v.text();
}

}  // namespace

const char* counter_kind_name(CounterKind k) {
  switch (k) {
    case CounterKind::In: return "in";
    case CounterKind::Out: return "out";
    case CounterKind::Held: return "held";
    case CounterKind::Other: break;
  }
  return "other";
}

std::string stream_info_text(const StreamInfo& info) {
  std::string s = "cmnet-stream 1\n";
  s += "family " + info.family + "\n";
  s += "name " + info.name + "\n";
  s += "leaves " + S(info.leaves) + "\n";
  for (const auto& [k, v] : info.params) s += "param " + k + " " + v + "\n";
  if (info.counter_bits != 32) s += "counter_bits " + S(info.counter_bits) + "\n";  // 32 is not written
  for (size_t i = 0; i < info.regions.size(); ++i) s += "region " + S(static_cast<long long>(i)) + " " + info.regions[i] + "\n";
  for (size_t i = 0; i < info.counters.size(); ++i) {
    const StreamCounter& c = info.counters[i];
    s += "counter " + S(static_cast<long long>(i)) + " " + counter_kind_name(c.kind) + " " + S(c.region) + " " + c.name + "\n";
  }
  return s;
}

StreamInfo parse_stream_info(const std::string& text, const std::string& where) {
  StreamInfo info;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  auto fail = [&](const std::string& why) -> void {
    throw InputError(where + ": info line " + S(n) + " ('" + line + "'): " + why);
  };
  auto number = [&](const std::string& s) -> uint32_t {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) fail("'" + s + "' is not a number");
    return static_cast<uint32_t>(std::stoul(s));
  };
  bool header = false;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    std::istringstream ls(line);
    std::vector<std::string> t;
    for (std::string w; ls >> w;) t.push_back(w);
    if (!header) {
      if (t.size() != 2 || t[0] != "cmnet-stream" || t[1] != "1") fail("expected 'cmnet-stream 1' (another info format?)");
      header = true;
      continue;
    }
    const std::string& key = t[0];
    if (key == "family" && t.size() == 2) info.family = t[1];
    else if (key == "name" && t.size() == 2) info.name = t[1];
    else if (key == "leaves" && t.size() == 2) info.leaves = number(t[1]);
    else if (key == "param" && t.size() == 3) info.params.emplace_back(t[1], t[2]);
    else if (key == "counter_bits" && t.size() == 2) {
      info.counter_bits = number(t[1]);
      if (info.counter_bits < 1 || info.counter_bits > 32) fail("counter_bits must be 1..32");
    }
    else if (key == "region" && t.size() == 3) {
      if (number(t[1]) != info.regions.size()) fail("regions must be numbered 0, 1, ... in order");
      info.regions.push_back(t[2]);
    } else if (key == "counter" && t.size() == 5) {
      if (number(t[1]) != info.counters.size()) fail("counters must be numbered 0, 1, ... in order");
      StreamCounter c;
      if (t[2] == "in") c.kind = CounterKind::In;
      else if (t[2] == "out") c.kind = CounterKind::Out;
      else if (t[2] == "held") c.kind = CounterKind::Held;
      else if (t[2] == "other") c.kind = CounterKind::Other;
      else fail("counter kind '" + t[2] + "' (allowed: in, out, held, other)");
      c.region = number(t[3]);
      if (c.region >= info.regions.size()) fail("region " + t[3] + " is not defined before it");
      c.name = t[4];
      info.counters.push_back(c);
    } else {
      fail("unknown or malformed line");
    }
  }
  if (!header) throw InputError(where + ": the info ROM is empty");
  if (info.family.empty()) throw InputError(where + ": the info names no family");
  return info;
}

namespace streammap {

namespace {
// The counter window holds `counters` words, the info ROM window `info_words`.
regmap::WindowWords window_words(uint32_t counters, uint32_t info_words) {
  return [=](const Register& r) { return r.name == "COUNTERS" ? counters : info_words; };
}
}  // namespace
std::string markdown_table(uint32_t counters, uint32_t info_words) {
  return regmap::markdown_table(kBlock, window_words(counters, info_words));
}
std::string csr_csv(uint32_t counters, uint32_t info_words) {
  return regmap::csr_csv(kBlock, window_words(counters, info_words));
}

}  // namespace streammap

std::vector<std::string> stream_port_declarations(int ncounters, const std::string& counters_comment) {
  std::vector<std::string> d = {"input  wire        clk,",      "input  wire        rst,",
                                "input  wire        run,",      "input  wire        clear,",
                                "input  wire        tx_valid,", "output wire        tx_ready,",
                                "input  wire [15:0] tx_leaf,",  "input  wire [31:0] tx_data,",
                                "input  wire        tx_last,",  "output wire        rx_valid,",
                                "input  wire        rx_ready,", "output wire [15:0] rx_leaf,",
                                "output wire [31:0] rx_data,",  "output wire        rx_last,",
                                "output wire        busy,"};
  std::string counters = "output wire [";
  counters.append(std::to_string(ncounters * 32 - 1)).append(":0] counters");
  if (!counters_comment.empty()) counters.append("  // ").append(counters_comment);
  d.push_back(counters);
  return d;
}

std::vector<std::string> stream_leaf_select(int nleaves, int sel_bits) {
  if (sel_bits < 1 || sel_bits > 16 || nleaves < 1 || nleaves > (1 << sel_bits))
    throw ConfigError("stream board: " + std::to_string(nleaves) + " leaves cannot be selected by " +
                      std::to_string(sel_bits) + " bits of tx_leaf");
  const std::string top = std::to_string(sel_bits - 1);
  std::vector<std::string> d = {"wire tx_in_range = tx_leaf < " + std::to_string(nleaves) + ";",
                                "wire [" + top + ":0] tx_sel = tx_leaf[" + top + ":0];"};
  if (sel_bits < 16) d.push_back("wire unused_tx_leaf = ^tx_leaf[15:" + std::to_string(sel_bits) + "];");
  return d;
}

GeneratedDesign emit_stream_board(const StreamBoardSpec& spec, const HostBoardOptions& opt) {
  check_host_board_options(opt);
  const StreamInfo& info = spec.info;
  check_token("family", info.family);
  for (char c : info.family)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      throw ConfigError("stream board: family '" + info.family + "' must be a Verilog-safe lower-case name");
  check_token("name", info.name);
  for (const auto& [k, v] : info.params) {
    check_token("parameter name", k);
    check_token("value of parameter " + k, v);
  }
  for (const auto& r : info.regions) check_token("region", r);
  for (const auto& c : info.counters) {
    check_token("counter", c.name);
    if (c.region >= info.regions.size())
      throw ConfigError("stream board: counter " + c.name + " names region " + S(c.region) + " of " +
                        S(static_cast<long long>(info.regions.size())));
  }
  if (info.leaves == 0 || info.leaves > 65536)
    throw ConfigError("stream board: " + S(info.leaves) + " leaves (allowed: 1..65536, a 16-bit leaf number)");
  if (info.counters.empty() || info.counters.size() > streammap::kMaxCounters)
    throw ConfigError("stream board: " + S(static_cast<long long>(info.counters.size())) +
                      " counters (allowed: 1.." + S(streammap::kMaxCounters) + ", the counter window)");
  if (spec.fifo_log2 < 4 || spec.fifo_log2 > 12)
    throw ConfigError("stream board: fifo_log2 = " + S(spec.fifo_log2) + " out of range 4..12");
  const std::string text = stream_info_text(info);
  const uint32_t info_words = words_of(text);
  if (info_words > streammap::kMaxInfoWords)
    throw ConfigError("stream board: the info text needs " + S(info_words) + " words (allowed: " +
                      S(streammap::kMaxInfoWords) + "); fewer counters or shorter names");
  int info_aw = 1;
  while ((1u << info_aw) < info_words) ++info_aw;
  // The shell's FIFOs keep a leaf field wide enough for the leaves and one more value (NLEAF: a
  // header's leaf out of range), at most the port's 16 bits.
  int leaf_w = 1;
  while (leaf_w < 16 && (1u << leaf_w) <= info.leaves) ++leaf_w;

  const std::string& fam = info.family;
  const uint32_t cfg_id = config_hash(spec.canonical_json);
  const std::string ident = identifier_text("cmnet " + fam + " " + info.name + ": " + S(info.leaves) +
                                                " leaves, " + S(static_cast<long long>(info.counters.size())) +
                                                " counters, config " + verilog_hex32(cfg_id).substr(4) + ", " +
                                                host_link_phy_name(opt.phy) + " " + S(opt.clock_hz) + " Hz",
                                            255);
  std::vector<std::pair<std::string, std::string>> header = {{"network", fam}, {"name", info.name},
                                                              {"leaves", S(info.leaves)}};
  for (const auto& p : info.params) header.push_back(p);
  header.push_back({"clock_hz", S(opt.clock_hz)});
  header.push_back({"baud", S(opt.baud)});
  header.push_back({"phy", host_link_phy_name(opt.phy)});
  header.push_back({"config_id", S(cfg_id)});

  const long long ncnt = static_cast<long long>(info.counters.size());
  VerilogWriter v;
  v.header(spec.title + " host core: protocol-v1 frame engine, stream register block, info ROM, "
           "the network's stream module (byte-stream ports).", header);
  host_core_ports(v, fam + "_host_core");
  v.line("wire net_run, net_clear, net_busy;");
  v.line("wire tx_valid, tx_ready, tx_last, rx_valid, rx_ready, rx_last;");
  v.line("wire [15:0] tx_leaf, rx_leaf;");
  v.line("wire [31:0] tx_data, rx_data;");
  v.line("wire [" + S(ncnt * 32 - 1) + ":0] counters;");
  v.line("wire [" + S(info_aw - 1) + ":0] info_addr;");
  v.line("wire [31:0] info_data;");
  v.line("assign link_busy = !fe_idle || fe_stalled;");
  v.line("assign link_stalled = fe_stalled;");
  v.line("wire unused_fe = &{1'b0, fe_overrun};  // a dropped byte shows up as a CRC error at the host");
  v.line();
  frame_engine_instance(v, opt);
  v.line();
  v.instance("cmnet_stream_regs", "regs",
             {{"NLEAF", S(info.leaves)}, {"LEAF_W", S(leaf_w)}, {"NCNT", S(ncnt)}, {"NINFO", S(info_words)}, {"INFO_AW", S(info_aw)},
              {"FIFO_AW", S(spec.fifo_log2)}, {"CLOCK_HZ", S(opt.clock_hz)},
              {"LINK", opt.phy == HostLinkPhy::Fifo ? "1" : "0"}, {"CONFIG_ID", verilog_hex32(cfg_id)},
              {"IDENT_LEN", S(static_cast<long long>(ident.size()))}, {"IDENT", "\"" + ident + "\""}},
             {{"clk", "clk"}, {"rst", "rst"}, {"bus_valid", "bus_valid"}, {"bus_write", "bus_write"},
              {"bus_addr", "bus_addr"}, {"bus_wdata", "bus_wdata"}, {"bus_ready", "bus_ready"},
              {"bus_rdata", "bus_rdata"}, {"bus_err", "bus_err"}, {"net_run", "net_run"},
              {"net_clear", "net_clear"}, {"tx_valid", "tx_valid"}, {"tx_ready", "tx_ready"},
              {"tx_leaf", "tx_leaf"}, {"tx_data", "tx_data"}, {"tx_last", "tx_last"},
              {"rx_valid", "rx_valid"}, {"rx_ready", "rx_ready"}, {"rx_leaf", "rx_leaf"},
              {"rx_data", "rx_data"}, {"rx_last", "rx_last"}, {"net_busy", "net_busy"},
              {"counters", "counters"}, {"info_addr", "info_addr"}, {"info_data", "info_data"},
              {"active", "running"}});
  v.line();
  v.instance(fam + "_stream_info", "info", {}, {{"clk", "clk"}, {"addr", "info_addr"}, {"data", "info_data"}});
  v.line();
  v.instance(spec.stream_module, "network", {},
             {{"clk", "clk"}, {"rst", "rst"}, {"run", "net_run"}, {"clear", "net_clear"},
              {"tx_valid", "tx_valid"}, {"tx_ready", "tx_ready"}, {"tx_leaf", "tx_leaf"},
              {"tx_data", "tx_data"}, {"tx_last", "tx_last"}, {"rx_valid", "rx_valid"},
              {"rx_ready", "rx_ready"}, {"rx_leaf", "rx_leaf"}, {"rx_data", "rx_data"},
              {"rx_last", "rx_last"}, {"busy", "net_busy"}, {"counters", "counters"}});
  v.end_module();

  std::vector<std::pair<std::string, std::string>> files = spec.network.verilog_sources();
  for (const std::string& prim : host_link_files(opt)) files.emplace_back(prim, read_hw_file(prim));
  files.emplace_back("cmnet_sync_fifo.v", read_hw_file("cmnet_sync_fifo.v"));
  // The register block's decode, made from the one description of its map.
  files.emplace_back("cmnet_stream_regs_decode.v", regmap::emit_decode(streammap::kBlock));
  files.emplace_back("cmnet_stream_regs.v", read_hw_file("cmnet_stream_regs.v"));
  files.emplace_back(fam + "_stream_info.v", emit_info_rom(fam + "_stream_info", text, info_aw));
  files.emplace_back(fam + "_host_core.v", v.text());
  files.emplace_back(fam + "_host_board.v", emit_host_board_top(spec.title, fam, header, opt));
  const std::string list = filelist(GeneratedDesign{"", files});
  for (const auto& f : spec.network.files)
    if (f.first == "manifest.json" || f.first == "config.json") files.push_back(f);
  files.emplace_back("filelist.f", list);
  files.emplace_back("csr.csv", streammap::csr_csv(static_cast<uint32_t>(ncnt), info_words));
  files.emplace_back("stream_info.txt", text);
  GeneratedDesign d;
  d.files = std::move(files);
  d.top = fam + "_host_board";
  return d;
}

}  // namespace cmnet

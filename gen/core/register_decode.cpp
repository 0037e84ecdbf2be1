#include "gen/core/register_decode.h"

#include <cctype>
#include <cstdio>
#include <vector>

#include "gen/core/host_board.h"
#include "gen/core/verilog_writer.h"

namespace cmnet::regmap {
namespace {

// The identifier ROM is read at addr[9:2].
static_assert(kIdentifierBase == 0x400 && kIdentifierWords == 256);

std::string fmt(const char* f, uint32_t v) {
  char b[256];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}
// The four characters of a block type, quoted: 'CM1 '.
std::string type_text(uint32_t t) {
  std::string s = "'";
  for (int k = 3; k >= 0; --k) s += static_cast<char>((t >> (8 * k)) & 0xFF);
  return s + "'";
}
// A window or a register of several words: decoded as a range, read at a word offset.
bool ranged(const Register& r) { return r.window() || r.words > 1; }
bool selected(const Register& r) { return !ranged(r) && (r.writable() || r.fifo); }
bool has_input(const Register& r) { return r.access != "wo" && r.value.empty(); }
std::string base_name(const Register& r) { return "A_" + upper(r.name); }
// The end of a ranged register's addresses (exclusive), as a Verilog expression.
std::string range_end(const Register& r) {
  return r.window() ? base_name(r) + " + 4 * " + upper(r.name) + "_WORDS" : base_name(r) + fmt(" + 32'h%X", 4 * r.words);
}

// One line of the map comment: address, name, access, words, meaning.
std::string map_line(const Block& b, const Register& r) {
  std::string words = r.window() ? " (" + upper(r.name) + "_WORDS words)" : r.words > 1 ? fmt(" (%u words)", r.words) : "";
  return fmt("0x%04X ", address(b, r)) + std::string(r.name) + " " + std::string(r.access) + words + ": " +
         std::string(r.doc);
}

void ports(VerilogWriter& v, const Block& b) {
  std::vector<std::pair<std::string, std::string>> p;  // (declaration, comment above it or "")
  p.push_back({"input  wire [31:0] addr", "the bus address"});
  for (const Register& r : b.registers) {
    const std::string n = port_name(r.name);
    const std::string what = map_line(b, r);
    if (ranged(r)) {
      p.push_back({"input  wire [31:0] r_" + n, what});
      p.push_back({"output wire        in_" + n, ""});
      p.push_back({"output wire [31:0] " + n + "_word", ""});
    } else {
      if (has_input(r)) p.push_back({"input  wire [31:0] r_" + n, what});
      if (selected(r)) p.push_back({"output wire        hit_" + n, has_input(r) ? "" : what});
    }
  }
  p.push_back({"output reg  [31:0] rdata", "what a read of addr answers"});
  p.push_back({"output reg         err", "addr reads nothing (the host sees BAD_ADDRESS)"});
  for (size_t i = 0; i < p.size(); ++i) {
    if (!p[i].second.empty()) v.line("// " + p[i].second);
    v.line(p[i].first + (i + 1 < p.size() ? "," : ""));
  }
}

void module_head(VerilogWriter& v, const Block& b) {
  v.comment("The map (" + std::string(b.source) + "): every block starts with TYPE, VERSION, NEXT, SIZE;");
  v.comment("  0x0000 BOARD ('CMNT', v1): +0x10 CLOCK_HZ, +0x14 LINK (0 UART, 1 FIFO), +0x18 CONFIG_ID");
  v.comment(fmt("  0x%04X ", b.base) + type_text(b.type) + fmt(", v%u:", b.version));
  for (const Register& r : b.registers) v.comment("    " + map_line(b, r));
  v.comment(fmt("  0x%04X identifier_mem: LiteX's identifier, one character per word (bits 7:0), then 0",
                kIdentifierBase));
  v.open("module " + std::string(b.decode_module) + " #(");
  v.line("parameter integer CLOCK_HZ = 12000000,");
  v.line("parameter integer LINK = 0,         // 0 UART, 1 FIFO");
  v.line("parameter [31:0] CONFIG_ID = 32'h0,");
  for (const Register& r : b.registers)
    if (r.window()) v.line("parameter integer " + upper(r.name) + "_WORDS = 1,  // words of " + std::string(r.name));
  v.line("parameter integer IDENT_LEN = 5,    // characters of IDENT, 1..255");
  v.line("parameter [8*IDENT_LEN-1:0] IDENT = \"cmnet\"");
  v.end_params();
}

// The window bases, the ranges and word offsets of windows and multi-word registers, the
// identifier memory and the selects.
void bases_and_selects(VerilogWriter& v, const Block& b) {
  v.line(fmt("localparam [31:0] A_BLOCK = 32'h%X;", b.base));
  v.line(fmt("localparam [31:0] A_IDENTIFIER = 32'h%X;", kIdentifierBase));
  for (const Register& r : b.registers)
    if (ranged(r)) v.line("localparam [31:0] " + base_name(r) + fmt(" = 32'h%X;", address(b, r)) + "  // " + std::string(r.name));
  for (const Register& r : b.registers) {
    if (!ranged(r)) continue;
    const std::string n = port_name(r.name);
    v.line("assign in_" + n + " = (addr >= " + base_name(r) + ") && (addr < " + range_end(r) + ");");
    v.line("assign " + n + "_word = (addr - " + base_name(r) + ") >> 2;");
  }
  for (const Register& r : b.registers)
    if (selected(r)) v.line("assign hit_" + port_name(r.name) + " = (addr == A_BLOCK + " + fmt("32'h%X);", r.offset) + "  // " + std::string(r.name));
  v.line(fmt("wire in_identifier = (addr >= A_IDENTIFIER) && (addr < A_IDENTIFIER + 32'h%X);", 4 * kIdentifierWords));
  v.line("wire [7:0] ident_c;");
  v.line("cmnet_ident_rom #(.IDENT_LEN(IDENT_LEN), .IDENT(IDENT)) ident_rom (.index(addr[9:2]), .char(ident_c));");
}

std::string item(uint32_t addr, const std::string& value, const std::string& comment) {
  return fmt("32'h%03X: rdata = ", addr) + value + ";  // " + comment;
}

// The read mux: the identifier memory, the ranges, then one case item per one-word address.
void read_mux(VerilogWriter& v, const Block& b) {
  v.open("always @* begin");
  v.line("rdata = 32'd0;");
  v.line("err = 1'b0;");
  v.line("if (in_identifier) rdata = {24'd0, ident_c};");
  for (const Register& r : b.registers)
    if (ranged(r)) v.line("else if (in_" + port_name(r.name) + ") rdata = r_" + port_name(r.name) + ";");
  v.open("else begin");
  v.open("case (addr)");
  v.line(item(kType, fmt("32'h%08X", kBoardType), "BOARD TYPE " + type_text(kBoardType)));
  v.line(item(kVersion, fmt("32'd%u", kBoardVersion), "BOARD VERSION"));
  v.line(item(kNext, "A_BLOCK", "BOARD NEXT"));
  v.line(item(kSize, fmt("32'h%X", kBoardSize), "BOARD SIZE"));
  v.line(item(kClockHz, "CLOCK_HZ", "CLOCK_HZ"));
  v.line(item(kLink, "LINK", "LINK"));
  v.line(item(kConfigId, "CONFIG_ID", "CONFIG_ID"));
  const std::string block = type_text(b.type);
  v.line(item(b.base + kType, fmt("32'h%08X", b.type), block + " TYPE"));
  v.line(item(b.base + kVersion, fmt("32'd%u", b.version), block + " VERSION"));
  v.line(item(b.base + kNext, "32'd0", block + " NEXT (the last block)"));
  v.line(item(b.base + kSize, fmt("32'h%X", b.size), block + " SIZE"));
  for (const Register& r : b.registers)
    if (!ranged(r) && r.access != "wo")
      v.line(item(address(b, r), r.value.empty() ? "r_" + port_name(r.name) : std::string(r.value), std::string(r.name)));
  v.line("default: err = 1'b1;");
  v.close("endcase");
  v.close("end");
  v.close("end");
}

}  // namespace

std::string port_name(std::string_view name) {
  std::string s(name);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string emit_decode(const Block& b) {
  VerilogWriter v;
  v.header(std::string(b.name) + " (" + std::string(b.rtl) + "): the register decode, made from " + std::string(b.source) +
               " (the read mux, the write selects, the window bases).",
           {{"block", type_text(b.type)}, {"base", fmt("0x%04X", b.base)}, {"version", fmt("%u", b.version)},
            {"size", fmt("0x%X", b.size)}});
  module_head(v, b);
  ports(v, b);
  v.end_ports();
  bases_and_selects(v, b);
  v.line();
  read_mux(v, b);
  v.end_module();
  return v.text();
}

namespace {
uint32_t words(const Register& r, const WindowWords& window_words) { return r.window() ? window_words(r) : r.words; }
}  // namespace

std::string markdown_table(const Block& b, const WindowWords& window_words) {
  std::string s = "| register | address | words | access | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const Register& r : b.registers)
    s += "| " + std::string(r.name) + " | " + fmt("0x%08x", address(b, r)) + " | " + std::to_string(words(r, window_words)) +
         " | " + std::string(r.access) + " | " + std::string(r.doc) + " |\n";
  return s;
}

std::string csr_csv(const Block& b, const WindowWords& window_words) {
  std::vector<LitexCsrRegister> rows;
  for (const Register& r : b.registers)
    rows.push_back({std::string(r.name), address(b, r), words(r, window_words), std::string(r.access)});
  return host_board_csr_csv(std::string(b.name) + " (" + std::string(b.source) + ")", std::string(b.litex), b.base,
                            kIdentifierBase, rows);
}

}  // namespace cmnet::regmap

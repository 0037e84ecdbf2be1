#include "gen/cm1/cm1_regmap.h"

#include <cstdio>

#include "gen/core/errors.h"
#include "gen/core/host_board.h"

namespace cmnet::cm1map {

uint32_t window_words(const Register& r, const Cm1Params& p, uint32_t cnt_stride) {
  if (!r.window()) return r.words;
  const uint32_t np = static_cast<uint32_t>(p.processors());
  if (r.name == "COUNTERS") return static_cast<uint32_t>(p.chips()) * cnt_stride;
  if (r.name == "ENDPOINTS") return np * 4;
  return np * 16;  // ENDPOINT_HIST
}

namespace {
std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}
}  // namespace

namespace {
constexpr std::string_view kBegin = "// BEGIN generated read decode";
constexpr std::string_view kEnd = "// END generated read decode";

std::string item(int indent, uint32_t addr, const std::string& value, const std::string& comment = "") {
  char b[32];
  std::snprintf(b, sizeof b, "32'h%03X: ", addr);
  return std::string(static_cast<size_t>(indent), ' ') + b + "rdata_c = " + value + ";" +
         (comment.empty() ? "" : "  // " + comment) + "\n";
}

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "32'h%X", v);
  return b;
}
}  // namespace

std::string read_decode(int indent) {
  // The block headers: TYPE, VERSION, NEXT, SIZE (host/board_blocks.h), then the BOARD block's
  // CLOCK_HZ, LINK and CONFIG_ID.
  std::string s;
  s += item(indent, 0x000, "32'h434D4E54", "'CMNT'");
  s += item(indent, 0x004, "32'd1");
  s += item(indent, 0x008, "A_CM1");
  s += item(indent, 0x00C, "32'h100");
  s += item(indent, 0x010, "CLOCK_HZ");
  s += item(indent, 0x014, "LINK");
  s += item(indent, 0x018, "CONFIG_ID");
  s += item(indent, kBlockBase + 0x0, hex32(kBlockType), "'CM1 '");
  s += item(indent, kBlockBase + 0x4, "32'd" + std::to_string(kBlockVersion));
  s += item(indent, kBlockBase + 0x8, "32'd0");
  s += item(indent, kBlockBase + 0xC, "32'h10000");
  for (const Register& r : kRegisters)
    if (!r.rtl.empty()) s += item(indent, address(r), std::string(r.rtl));
  return s;
}

std::string with_generated_read_decode(const std::string& v) {
  const size_t b = v.find(kBegin);
  const size_t e = v.find(kEnd);
  if (b == std::string::npos || e == std::string::npos || e < b)
    throw ConfigError("cm1_host_regs.v: no '" + std::string(kBegin) + "' ... '" + std::string(kEnd) +
                      "' markers for the generated read decode");
  const size_t body = v.find('\n', b) + 1;
  const size_t line_start = v.rfind('\n', b) + 1;
  const int indent = static_cast<int>(b - line_start);
  const size_t end_line = v.rfind('\n', e) + 1;
  return v.substr(0, body) + read_decode(indent) + v.substr(end_line);
}

std::string markdown_table(const Cm1Params& p, uint32_t cnt_stride) {
  std::string s = "| register | address | words | access | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const Register& r : kRegisters)
    s += "| " + std::string(r.name) + " | " + hex(address(r)) + " | " + std::to_string(window_words(r, p, cnt_stride)) +
         " | " + std::string(r.access) + " | " + std::string(r.doc) + " |\n";
  return s;
}

std::string csr_csv(const Cm1Params& p, uint32_t cnt_stride) {
  std::vector<LitexCsrRegister> rows;
  for (const Register& r : kRegisters)
    rows.push_back({std::string(r.name), address(r), window_words(r, p, cnt_stride), std::string(r.access)});
  return host_board_csr_csv("CM-1 register block (gen/cm1/cm1_regmap.h)", "cm1", kBlockBase, kIdentifierBase, rows);
}

}  // namespace cmnet::cm1map

#include "gen/cm1/cm1_regmap.h"

#include <cstdio>

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
std::string lower(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return o;
}
}  // namespace

std::string markdown_table(const Cm1Params& p, uint32_t cnt_stride) {
  std::string s = "| register | address | words | access | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const Register& r : kRegisters)
    s += "| " + std::string(r.name) + " | " + hex(address(r)) + " | " + std::to_string(window_words(r, p, cnt_stride)) +
         " | " + std::string(r.access) + " | " + std::string(r.doc) + " |\n";
  return s;
}

std::string csr_csv(const Cm1Params& p, uint32_t cnt_stride) {
  // LiteX's format: "csr_base,<name>,<address>,," and "csr_register,<name>,<address>,<size>,<mode>".
  std::string s = "#--------------------------------------------------------------------------------\n"
                  "# cmnet CM-1 register block (gen/cm1/cm1_regmap.h), LiteX csr.csv format\n"
                  "#--------------------------------------------------------------------------------\n";
  s += "csr_base,board," + hex(0) + ",,\n";
  s += "csr_base,cm1," + hex(kBlockBase) + ",,\n";
  // LiteX's identifier (litex_client --ident reads bases.identifier_mem + 4 i until a 0).
  s += "csr_base,identifier_mem," + hex(kIdentifierBase) + ",,\n";
  s += "csr_register,board_type," + hex(0x0) + ",1,ro\n";
  s += "csr_register,board_clock_hz," + hex(0x10) + ",1,ro\n";
  s += "csr_register,board_link," + hex(0x14) + ",1,ro\n";
  s += "csr_register,board_config_id," + hex(0x18) + ",1,ro\n";
  for (const Register& r : kRegisters)
    s += "csr_register,cm1_" + lower(r.name) + "," + hex(address(r)) + "," +
         std::to_string(window_words(r, p, cnt_stride)) + "," + std::string(r.access) + "\n";
  return s;
}

}  // namespace cmnet::cm1map

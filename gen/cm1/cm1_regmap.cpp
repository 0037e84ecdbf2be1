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

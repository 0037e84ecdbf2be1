#include "gen/cm1/cm1_regmap.h"

namespace cmnet::cm1map {

uint32_t window_words(const Register& r, const Cm1Params& p, uint32_t cnt_stride) {
  if (!r.window()) return r.words;
  const uint32_t np = static_cast<uint32_t>(p.processors());
  if (r.name == "COUNTERS") return static_cast<uint32_t>(p.chips()) * cnt_stride;
  if (r.name == "ENDPOINTS") return np * 4;
  return np * 16;  // ENDPOINT_HIST
}

std::string markdown_table(const Cm1Params& p, uint32_t cnt_stride) {
  return regmap::markdown_table(kBlock, [&](const Register& r) { return window_words(r, p, cnt_stride); });
}

std::string csr_csv(const Cm1Params& p, uint32_t cnt_stride) {
  return regmap::csr_csv(kBlock, [&](const Register& r) { return window_words(r, p, cnt_stride); });
}

}  // namespace cmnet::cm1map

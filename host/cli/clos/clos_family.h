// The Clos family (CONNECT, Li and Rishe 1991): the three-stage Clos circuit network N(m, n, r),
// its off-line router and the reference model of its parallel circuit set-up. ClosFamily
// implements the family interface; the functions below are its commands.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "gen/clos/clos_config.h"
#include "gen/clos/clos_router.h"
#include "sim/clos/clos_rtl.h"
#include "host/cli/family.h"

namespace cmnet {

class ClosFamily final : public Family {
 public:
  std::string name() const override { return "clos"; }
  CMNET_FAMILY_MEMBERS
  std::vector<std::string> bench_sections() const override { return {"blocking"}; }
};

// `cmnet sim` (clos_sim.cpp): route the pattern (off-line router when m >= n, first fit
// otherwise), load the settings, send per_proc words over every circuit; JSON lines out.
int clos_sim(const ClosConfig& cfg, const SimArgs& a);
// What a `cmnet sim` engine did with the drawn words ([word][input port], clos_case_words): per
// source port (sent, received) for every word over its circuit, and the RTL harness's own count
// of wrong output words (it also checks that outputs no circuit is meant for read 0).
struct ClosSimWords {
  std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> data;
  uint64_t harness_mismatches = 0;
  std::vector<std::string> first_mismatches;  // "case word output got want"
};
ClosSimWords clos_model_words(const ClosParams& p, const ClosSettings& settings, const std::vector<ClosCircuit>& routed,
                              const std::vector<std::vector<uint64_t>>& drawn);
ClosSimWords clos_rtl_words(const ClosRtlRun& r, const std::vector<std::vector<uint64_t>>& drawn);
// `cmnet sim`'s exit code: 3 (RTL or model disagrees with the circuits) when a word went wrong.
int clos_sim_exit(uint64_t word_mismatches, const ClosSimWords& sw);
// `cmnet bench` (clos_bench.cpp).
int clos_bench(const BenchArgs& a);
// N(4, 4, 4)'s switch with its controllers (clos_switched, 2 hnodes), circuits `width` bits wide,
// with or without the pair start and RESEND after a wait, as a module placed alone on the iCE40
// (clos_bench.cpp; cmnet bench, bench-fpga).
PlaceableModule clos_switched_placeable(int width, bool options);
// Its blocking curve (clos_blocking_bench.cpp): blocking of `p` (30 active ports per switch)
// against occupancy, the plot written to `svg_path`; the rows for the JSON.
nlohmann::ordered_json clos_blocking_curve(const ClosParams& p, bool quick, const std::string& svg_path);

}  // namespace cmnet

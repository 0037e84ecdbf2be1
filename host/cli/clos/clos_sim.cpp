// `cmnet sim` for the Clos family: one pattern of circuits routed (the off-line router when
// m >= n, first fit otherwise: blocked circuits are reported), the settings loaded into the
// switches, and --per-proc data words sent over every circuit, on the RTL (Verilator, through
// the configuration port) or on the model (traced through the settings). One JSON object per
// circuit, then a summary.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "host/cli/clos/clos_family.h"
#include "gen/clos/clos_router.h"
#include "gen/core/errors.h"
#include "sim/clos/clos_patterns.h"
#include "sim/clos/clos_rtl.h"

namespace cmnet {
namespace {

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

ClosSimWords clos_model_words(const ClosParams& p, const ClosSettings& settings, const std::vector<ClosCircuit>& routed,
                              const std::vector<std::vector<uint64_t>>& drawn) {
  const ClosTrace t = trace(p, settings);
  if (!t.error.empty()) throw std::runtime_error("model: settings are inconsistent: " + t.error);
  std::vector<int> src_at(static_cast<size_t>(p.ports()), -1);
  for (size_t i = 0; i < t.reached.size(); ++i)
    if (t.reached[i] >= 0) src_at[static_cast<size_t>(t.reached[i])] = static_cast<int>(i);
  ClosSimWords sw;
  for (const std::vector<uint64_t>& in : drawn)
    for (const ClosCircuit& c : routed) {
      const int s = src_at[static_cast<size_t>(c.dst)];
      sw.data[c.src].emplace_back(in[static_cast<size_t>(c.src)], s >= 0 ? in[static_cast<size_t>(s)] : 0);
    }
  return sw;
}

ClosSimWords clos_rtl_words(const ClosRtlRun& r, const std::vector<std::vector<uint64_t>>& drawn) {
  ClosSimWords sw;
  // The drawn word as sent: a harness that drew another shows as a mismatch, not as agreement.
  for (const ClosRx& x : r.rx) sw.data[x.src].emplace_back(drawn.at(x.word).at(static_cast<size_t>(x.src)), x.got);
  sw.harness_mismatches = r.mismatches;
  sw.first_mismatches = r.first_mismatches;
  return sw;
}

int clos_sim_exit(uint64_t word_mismatches, const ClosSimWords& sw) {
  return word_mismatches == 0 && sw.harness_mismatches == 0 ? 0 : 3;
}

int clos_sim(const ClosConfig& cfg, const SimArgs& a) {
  const ClosParams& p = cfg.clos;
  if (!a.mode.empty()) throw InputError("--mode: not used by the clos family");
  if (a.pattern.empty() && a.traffic.empty()) throw InputError("sim: give --pattern NAME or --traffic FILE");
  check_trace(a.trace, a.engine);
  const std::vector<int> dest = a.traffic.empty() ? make_clos_pattern(a.pattern, p, a.seed) : read_clos_circuits(a.traffic, p);
  const bool rearrangeable = p.m >= p.n;
  const std::vector<ClosCircuit> circuits = rearrangeable ? route_permutation(p, dest) : route_first_fit(p, dest);
  std::vector<ClosCircuit> routed;
  std::vector<int> meant(dest.size(), -1);
  for (const ClosCircuit& c : circuits)
    if (c.middle >= 0) {
      routed.push_back(c);
      meant[static_cast<size_t>(c.src)] = c.dst;
    }
  const ClosSettings settings = settings_of(p, routed);
  const uint64_t words = static_cast<uint64_t>(a.per_proc);
  // Drawn once, before the engine: both send these words for the same --seed.
  const std::vector<std::vector<uint64_t>> drawn = clos_case_words(p, a.seed, 0, words);
  ClosSimWords sw;
  const auto t0 = std::chrono::steady_clock::now();
  if (a.engine == "model") {
    sw = clos_model_words(p, settings, routed, drawn);
  } else if (a.engine == "rtl") {
    ClosRtlCase k;
    k.dest = meant;
    k.settings = settings;
    k.words = words;
    k.verbose = true;
    sw = clos_rtl_words(run_clos_rtl(cfg, {k}, a.seed, 600, a.trace), drawn);
  } else {
    throw InputError("--engine " + a.engine + ": unknown engine (allowed: rtl, model)");
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ofstream out(a.out);
  if (!out) throw InputError(a.out + ": cannot write output file");
  uint64_t mismatches = 0, blocked = 0, sent_words = 0;
  for (const ClosCircuit& c : circuits) {
    nlohmann::ordered_json j;
    j["src"] = c.src;
    j["dst"] = c.dst;
    j["middle"] = c.middle >= 0 ? nlohmann::ordered_json(c.middle) : nlohmann::ordered_json(nullptr);
    j["blocked"] = c.middle < 0;
    nlohmann::ordered_json sent = nlohmann::ordered_json::array(), got = nlohmann::ordered_json::array();
    bool ok = c.middle >= 0;
    if (c.middle < 0) {
      ++blocked;
    } else {
      const auto& v = sw.data[c.src];
      if (v.size() != words) ok = false;
      for (const auto& [s, g] : v) {
        sent.push_back(hex(s));
        got.push_back(hex(g));
        ++sent_words;
        if (s != g) {
          ok = false;
          ++mismatches;
        }
      }
    }
    j["sent"] = sent;
    j["received"] = got;
    j["ok"] = ok;
    out << j.dump() << '\n';
  }
  nlohmann::ordered_json s;
  s["summary"] = {{"engine", a.engine},
                  {"network", clos_name(p)},
                  {"case", to_string(p.kind())},
                  {"router", rearrangeable ? "edge colouring (looping)" : "first fit"},
                  {"circuits", circuits.size()},
                  {"routed", routed.size()},
                  {"blocked", blocked},
                  {"words", sent_words},
                  {"mismatches", mismatches},
                  {"harness_mismatches", sw.harness_mismatches},
                  {"seconds", secs}};
  if (!sw.first_mismatches.empty()) s["summary"]["first_mismatches"] = sw.first_mismatches;
  out << s.dump() << '\n';
  std::printf("%s: %s, %zu circuits, %zu routed, %llu blocked, %llu words, %llu mismatches (harness: %llu) -> %s\n",
              a.engine.c_str(), clos_name(p).c_str(), circuits.size(), routed.size(),
              static_cast<unsigned long long>(blocked), static_cast<unsigned long long>(sent_words),
              static_cast<unsigned long long>(mismatches), static_cast<unsigned long long>(sw.harness_mismatches),
              a.out.c_str());
  return clos_sim_exit(mismatches, sw);
}

}  // namespace cmnet

// `cmnet sim` for the Clos family: one pattern of circuits routed (the off-line router when
// m >= n, first fit otherwise: blocked circuits are reported), the settings loaded into the
// switches, and data words sent over every circuit, on the RTL (Verilator, through the
// configuration port) or on the model (traced through the settings). With --traffic, a user's
// connection set (sim/clos/clos_circuit_file.h) is first set up through the hnodes, CONNECT's
// parallel set-up (sim/clos/clos_circuit_setup.h: the model, or the hnodes' engines in RTL
// compared with it message by message), then its words cross the switch as above. One JSON
// line per circuit (host/cli/sim_lines.h: source port, words sent, destination port, words
// received), then a summary.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "host/cli/clos/clos_family.h"
#include "host/cli/sim_lines.h"
#include "gen/clos/clos_router.h"
#include "gen/core/errors.h"
#include "sim/clos/clos_circuit_setup.h"
#include "sim/clos/clos_patterns.h"
#include "sim/clos/clos_rtl.h"

namespace cmnet {
namespace {

nlohmann::ordered_json setup_fields(const ClosCircuitOutcome& o) {
  nlohmann::ordered_json j;
  j["line"] = o.req.line;
  j["set_up"] = o.ready;
  j["ready_at"] = o.ready ? nlohmann::ordered_json(o.ready_at) : nlohmann::ordered_json(nullptr);
  j["released_at"] = o.released_at ? nlohmann::ordered_json(o.released_at) : nlohmann::ordered_json(nullptr);
  j["hnode_middle"] = o.middle >= 0 ? nlohmann::ordered_json(o.middle) : nlohmann::ordered_json(nullptr);
  j["crs"] = o.crs;
  j["cancels"] = o.cancels;
  j["blocked_selections"] = o.blocked;
  j["resends"] = o.resends;
  return j;
}

// Circuit c's line: from its source port, the `mine` words it should carry, to its destination
// port, the words that came out there (none when blocked); the hnodes' set-up of a file's
// circuit in extra (its time in the engine's own unit: RTL cycles, model rounds).
SimRecord clos_record(const ClosCircuit& c, uint64_t id, size_t mine, std::vector<std::pair<uint64_t, uint64_t>>& v,
                      const ClosCircuitOutcome* setup) {
  SimRecord r;
  r.id = id;
  r.kind = "circuit";
  r.dst = c.dst;
  SimEnd from{static_cast<uint64_t>(c.src), std::nullopt, {}, {}, {}};
  SimEnd to{static_cast<uint64_t>(c.dst), std::nullopt, {}, {}, {}};
  uint64_t bad = 0;
  bool ok = c.middle >= 0;
  if (ok) {
    if (v.size() < mine) ok = false;
    v.resize(std::min(v.size(), mine));
    for (const auto& [sent, got] : v) {
      from.words.push_back(sent);
      to.words.push_back(got);
      if (sent != got) ++bad;
    }
  }
  r.sent.push_back(from);
  if (c.middle >= 0) r.arrived.push_back(to);
  r.delivered = ok && bad == 0;
  r.extra["middle"] = c.middle >= 0 ? nlohmann::ordered_json(c.middle) : nlohmann::ordered_json(nullptr);
  r.extra["blocked"] = c.middle < 0;
  r.extra["mismatches"] = bad;
  if (setup) r.extra["setup"] = setup_fields(*setup);
  return r;
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
  if (a.pattern.empty() == a.traffic.empty()) throw InputError("sim: give --pattern NAME or --traffic FILE");
  if (a.engine != "model" && a.engine != "rtl")
    throw InputError("--engine " + a.engine + ": unknown engine (allowed: rtl, model)");
  check_trace(a.trace, a.engine);
  const auto t0 = std::chrono::steady_clock::now();
  // A connection set: the hnodes set it up first (the waveform, if any, is theirs).
  std::vector<ClosCircuitRequest> file;
  ClosCircuitSetup setup;
  if (!a.traffic.empty()) {
    file = read_clos_circuit_file(a.traffic, p, a.per_proc);
    setup = a.engine == "rtl" ? setup_circuits_rtl(cfg, file, a.trace) : setup_circuits_model(p, file);
  }
  const std::vector<int> dest = a.traffic.empty() ? make_clos_pattern(a.pattern, p, a.seed) : circuit_dests(file, p);
  std::map<int, int> words_of;  // source port -> words its circuit carries (a file's own counts)
  for (const ClosCircuitRequest& x : file) words_of[x.src] = x.words;
  uint64_t words = static_cast<uint64_t>(a.per_proc);
  if (!file.empty()) {
    words = 0;
    for (const ClosCircuitRequest& x : file) words = std::max(words, static_cast<uint64_t>(x.words));
  }
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
  // Drawn once, before the engine: both send these words for the same --seed.
  const std::vector<std::vector<uint64_t>> drawn = clos_case_words(p, a.seed, 0, words);
  ClosSimWords sw;
  if (a.engine == "model") {
    sw = clos_model_words(p, settings, routed, drawn);
  } else {
    ClosRtlCase k;
    k.dest = meant;
    k.settings = settings;
    k.words = words;
    k.verbose = true;
    // With a connection set the waveform is the hnodes' set-up (above).
    sw = clos_rtl_words(run_clos_rtl(cfg, {k}, a.seed, 600, a.traffic.empty() ? a.trace : TraceWindow{}), drawn);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  SimLinesWriter out(a.out);
  std::map<int, const ClosCircuitOutcome*> outcome_of;
  for (const ClosCircuitOutcome& o : setup.circuits) outcome_of[o.req.src] = &o;
  std::map<int, size_t> id_of;  // a file's circuits by their order in it; a pattern's by source port (after a file's)
  for (size_t k = 0; k < file.size(); ++k) id_of[file[k].src] = k;
  uint64_t mismatches = 0, blocked = 0, sent_words = 0;
  std::vector<SimRecord> records;
  for (const ClosCircuit& c : circuits) {
    // A file's circuit carries its own WORDS (the first of the words every input drove).
    const auto wi = words_of.find(c.src);
    const size_t mine = wi == words_of.end() ? words : static_cast<size_t>(wi->second);
    const auto oi = outcome_of.find(c.src);
    const auto ii = id_of.find(c.src);
    const uint64_t id = ii != id_of.end() ? ii->second : file.size() + static_cast<uint64_t>(c.src);
    records.push_back(clos_record(c, id, mine, sw.data[c.src],
                                  oi == outcome_of.end() ? nullptr : oi->second));
    blocked += c.middle < 0;
    sent_words += records.back().sent.front().words.size();
    mismatches += records.back().extra["mismatches"].get<uint64_t>();
  }
  std::sort(records.begin(), records.end(), [](const SimRecord& x, const SimRecord& y) { return x.id < y.id; });
  for (const SimRecord& r : records) out.write(r);
  uint64_t set_up = 0, met_blocked = 0, cancels = 0;
  for (const ClosCircuitOutcome& o : setup.circuits) {
    set_up += o.ready;
    met_blocked += o.blocked > 0;
    cancels += o.cancels;
  }
  SimSummary s;
  s.family = "clos";
  s.engine = a.engine;
  s.completed = sw.harness_mismatches == 0 && (a.traffic.empty() || setup.done);
  s.extra = {{"network", clos_name(p)},
             {"case", to_string(p.kind())},
             {"router", rearrangeable ? "edge colouring (looping)" : "first fit"},
             {"circuits", circuits.size()},
             {"routed", routed.size()},
             {"blocked", blocked},
             {"words", sent_words},
             {"mismatches", mismatches},
             {"harness_mismatches", sw.harness_mismatches},
             {"seconds", secs}};
  if (!a.traffic.empty())
    s.extra["setup"] = {{"engine", setup.engine},
                        {"hnodes", p.hnodes()},
                        {"time_unit", setup.engine == "rtl" ? "cycles" : "rounds"},
                        {"time", setup.time},
                        {"handled", setup.handled},
                        {"set_up", set_up},
                        {"met_blocked_selection", met_blocked},
                        {"cancels", cancels},
                        {"done", setup.done},
                        {"error", setup.error}};
  if (!sw.first_mismatches.empty()) s.extra["first_mismatches"] = sw.first_mismatches;
  out.finish(s);
  if (!a.traffic.empty())
    std::printf("%s: %s, %zu circuits set up through %d hnodes in %llu %s (%llu set up, %llu met a blocked selection, "
                "%llu CANCELs)%s%s\n",
                a.engine.c_str(), a.traffic.c_str(), file.size(), p.hnodes(), static_cast<unsigned long long>(setup.time),
                setup.engine == "rtl" ? "cycles, the model agreeing message by message" : "rounds",
                static_cast<unsigned long long>(set_up), static_cast<unsigned long long>(met_blocked),
                static_cast<unsigned long long>(cancels), setup.done ? "" : ": FAILED: ", setup.error.c_str());
  std::printf("%s: %s, %zu circuits, %zu routed, %llu blocked, %llu words, %llu mismatches (harness: %llu) -> %s\n",
              a.engine.c_str(), clos_name(p).c_str(), circuits.size(), routed.size(),
              static_cast<unsigned long long>(blocked), static_cast<unsigned long long>(sent_words),
              static_cast<unsigned long long>(mismatches), static_cast<unsigned long long>(sw.harness_mismatches),
              a.out.c_str());
  if (const int rc = clos_sim_exit(mismatches, sw); rc != 0) return rc;
  return a.traffic.empty() || setup.done ? 0 : 1;
}

}  // namespace cmnet

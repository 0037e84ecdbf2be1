#include "host/cli/cm5/cm5_family.h"
#include "host/cli/cm5/cm5_lines.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gen/cm5/cm5_emitter.h"
#include "gen/core/errors.h"
#include "sim/cm5/cm5_machine.h"

namespace cmnet {

std::string Cm5Family::title() const {
  return "CM-5 machine: the data network and the control network over the same leaves, router-done fed by the "
         "data network's interface counters (Leiserson et al. 1992, sections 2, 3 and 5)";
}

// No board of its own: "none" names that (board_top refuses it, pointing at the two families).
std::vector<std::string> Cm5Family::build_modes() const { return {"none"}; }
std::vector<std::string> Cm5Family::patterns() const { return cm5_machine_patterns(); }

std::vector<std::string> Cm5Family::figures() const {
  return {"model: cycles from the last message whole at its receiver to router-done's result, 4 / 16 / 64 / 256 leaves"};
}

void Cm5Family::check(const NetworkConfig& cfg) const { (void)cm5_machine_config(cfg); }

std::string Cm5Family::canonical_json(const NetworkConfig& cfg) const { return config_to_json(cm5_machine_config(cfg)); }

GeneratedDesign Cm5Family::emit(const NetworkConfig& cfg) const { return emit_cm5_machine(cm5_machine_config(cfg)); }

std::string Cm5Family::summary(const NetworkConfig& cfg) const {
  const Cm5MachineConfig c = cm5_machine_config(cfg);
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "CM-5 machine: %d leaves; data network height %d, %u chips per network, links of %d bits, two "
                "networks; control network height %d, packet time %d cycles; router-done counters of %d bits",
                c.leaves(), c.data.cm5.height, c.data.cm5.total_chips(), c.data.cm5.link_bits, c.ctl.p.height(),
                c.ctl.p.packet_time(), c.ctl.p.word_bits);
  return buf;
}

GeneratedDesign Cm5Family::board_top(const NetworkConfig&, const Board&, const BuildArgs&) const {
  throw InputError("build: the cm5 machine has no board top (each network's family builds its own: cm5data, cm5ctl)");
}

int Cm5Family::sim(const NetworkConfig& cfg, const SimArgs& a) const {
  const Cm5MachineConfig c = cm5_machine_config(cfg);
  reject_option(*this, !a.traffic.empty(), "--traffic");
  reject_option(*this, !a.mode.empty(), "--mode");
  if (a.engine != "model" && a.engine != "rtl") throw InputError("--engine " + a.engine + ": unknown engine (allowed: rtl, model)");
  if (a.out.empty()) throw InputError("sim: give --out FILE.jsonl");
  const std::string pattern = a.pattern.empty() ? "router-done" : a.pattern;
  check_trace(a.trace, a.engine);
  const Cm5MachineWorkload w = cm5_machine_scenario(c, pattern, a.per_proc, a.seed);
  Cm5MachineOptions o;
  // A lost message never lets router-done end: the run stops 1,000 cycles past where the same
  // workload without the hook ends.
  if (pattern == "lost") {
    Cm5MachineWorkload balanced = w;
    balanced.faults.clear();
    o.max_cycles = run_cm5_machine_model(c, balanced, o).cycles + 1000;
  }
  const auto t0 = std::chrono::steady_clock::now();
  Cm5MachineRun r = run_cm5_machine_model(c, w, o);
  // The RTL run is checked against the model's, cycle by cycle (messages, counters, results).
  std::string diff;
  if (a.engine == "rtl") {
    o.trace = a.trace;
    const Cm5MachineRun model = r;
    r = run_cm5_machine_rtl(c, w, model.cycles, o);
    r.last_arrival = model.last_arrival;  // the model's (the RTL harness does not see it)
    diff = compare_machine_runs(model, r);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  SimLinesWriter out(a.out);
  for (const SimRecord& x : cm5_machine_records(c, w, r)) out.write(x);
  uint64_t done = 0;
  bool err = false;
  int64_t sum = 0;
  for (const Cm5Result& x : r.results) {
    done = std::max(done, x.cycle);
    err = err || x.err;
    sum = cm5::to_signed(x.data, c.ctl.p.word_bits);
  }
  const bool all_read = r.received.size() == w.messages.size();
  const bool all_done = r.results.size() == static_cast<size_t>(c.leaves());
  // What the pattern should give: complete after the last arrival with 0; never; the error bit.
  bool ok = all_read && !r.fault && diff.empty();
  if (pattern == "router-done") ok = ok && all_done && !err && sum == 0 && done > r.last_arrival;
  if (pattern == "lost") ok = ok && r.results.empty();
  if (pattern == "duplicated") ok = ok && all_done && err && sum < 0;
  SimSummary s;
  s.family = "cm5";
  s.engine = a.engine;
  s.time_unit = "cycles";
  s.completed = all_read && all_done;
  s.extra = {{"pattern", pattern},
             {"leaves", c.leaves()},
             {"messages", w.messages.size()},
             {"read", r.received.size()},
             {"router_done_pushed", w.ctl.leaf.empty() || w.ctl.leaf[0].empty() ? 0 : w.ctl.leaf[0][0].release},
             {"last_arrival", r.last_arrival},
             {"router_done", done},
             {"router_done_err", err},
             {"cycles", r.cycles}};
  if (a.engine == "rtl") s.extra["model_difference"] = diff;
  s.extra["ok"] = ok;
  s.extra["seconds"] = secs;
  out.finish(s);
  std::printf("cmnet sim (cm5, %s, %s): %zu of %zu messages read; router-done %s (last arrival %llu); %llu cycles; %s\n",
              a.engine.c_str(), pattern.c_str(), r.received.size(), w.messages.size(),
              r.results.empty() ? "still under way"
                                : (std::string("at cycle ") + std::to_string(done) + (err ? ", error bit, sum " : ", sum ") +
                                   std::to_string(sum))
                                      .c_str(),
              static_cast<unsigned long long>(r.last_arrival), static_cast<unsigned long long>(r.cycles),
              ok ? "as the pattern says" : "NOT as the pattern says");
  if (!diff.empty()) std::printf("  the RTL differs from the model: %s\n", diff.c_str());
  return ok ? 0 : 3;
}

namespace {
[[noreturn]] void no_board(const std::string& cmd) {
  throw InputError(cmd + ": the cm5 machine has no board (cmnet sim runs it; cm5data and cm5ctl have boards of their own)");
}
}  // namespace

int Cm5Family::run(const NetworkConfig&, const RunArgs&) const { no_board("run"); }

std::unique_ptr<SimBoard> Cm5Family::start_board(const NetworkConfig&, const BoardArgs&) const { no_board("board"); }

int Cm5Family::sweep(const NetworkConfig&, const SweepArgs&) const {
  throw InputError("sweep: the cm5 machine has no board (cmnet sim runs it; cm5data and cm5ctl have sweeps of their own)");
}

// The machine's blocks are its two networks' (cm5data, cm5ctl): none of its own.
std::vector<FpgaBlock> Cm5Family::fpga_blocks() const { return {}; }

int Cm5Family::bench(const BenchArgs& args) const {
  // The model at growing sizes: the traffic of `cmnet sim --pattern router-done` (2 messages per
  // leaf on each network), router-done pushed by every leaf after the last send.
  nlohmann::ordered_json rows = nlohmann::json::array();
  std::printf("cm5 machine (model): router-done after the last arrival\n");
  std::printf("  %8s %9s %8s %13s %12s %11s %9s\n", "leaves", "messages", "pushed", "last arrival", "router-done",
              "difference", "bound");
  const int max_h = args.quick ? 3 : 4;
  for (int h = 1; h <= max_h; ++h) {
    const std::string text = R"({"network": "cm5", "cm5": {"cm5data": {"height": )" + std::to_string(h) +
                             R"(, "link_bits": 8, "max_words": 3}, "cm5ctl": {"word_bits": 16}}})";
    const Cm5MachineConfig c = parse_cm5_machine_config(text, "bench");
    const Cm5MachineWorkload w = cm5_machine_scenario(c, "router-done", 2, 1);
    const Cm5MachineRun r = run_cm5_machine_model(c, w);
    uint64_t done = 0;
    for (const Cm5Result& x : r.results) done = std::max(done, x.cycle);
    const uint64_t pushed = w.ctl.leaf[0][0].release;
    // A round that starts after the counters reach zero: at most a round's latency bound plus
    // the round under way when they did.
    const long long bound = 2 * c.ctl.p.latency_bound() + c.ctl.p.packet_time();
    std::printf("  %8d %9zu %8llu %13llu %12llu %11llu %9lld\n", c.leaves(), w.messages.size(),
                static_cast<unsigned long long>(pushed), static_cast<unsigned long long>(r.last_arrival),
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(done - r.last_arrival), bound);
    rows.push_back({{"leaves", c.leaves()},
                    {"messages", w.messages.size()},
                    {"router_done_pushed", pushed},
                    {"last_arrival", r.last_arrival},
                    {"router_done", done},
                    {"after_last_arrival", done - r.last_arrival},
                    {"control_latency_bound", c.ctl.p.latency_bound()}});
  }
  const std::string path = args.json.empty() ? "out/bench-cm5.json" : args.json;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream(path) << nlohmann::ordered_json{{"family", "cm5"}, {"router_done", rows}}.dump(2) << '\n';
  std::printf("  written %s\n", path.c_str());
  return 0;
}

}  // namespace cmnet

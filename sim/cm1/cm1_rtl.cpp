#include "sim/cm1/cm1_rtl.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unistd.h>

#include "gen/cm1/cm1_emitter.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

bool Cm1Reception::operator<(const Cm1Reception& o) const {
  return std::tie(group, petit, dst, vp, data) < std::tie(o.group, o.petit, o.dst, o.vp, o.data);
}
bool Cm1Reception::operator==(const Cm1Reception& o) const {
  return std::tie(group, petit, dst, vp, data) == std::tie(o.group, o.petit, o.dst, o.vp, o.data);
}

Cm1RtlRun run_cm1_rtl(const Cm1Config& cfg, const Traffic& t, EjectMode mode,
                      const Cm1RtlOptions& opt) {
  return run_cm1_rtl_groups(cfg, {t}, mode, opt);
}

Cm1RtlRun run_cm1_rtl_groups(const Cm1Config& cfg_in, const std::vector<Traffic>& groups,
                             EjectMode mode, const Cm1RtlOptions& opt) {
  const bool whole = opt.whole_network || !opt.trace_file.empty();
  if (!opt.trace_file.empty() && groups.size() != 1)
    throw std::invalid_argument("a traced run takes one group of messages");
  if (!opt.trace_file.empty() && opt.ce_gated())
    throw std::invalid_argument("a traced run has no clock enable (it runs the whole network top)");
  if (opt.whole_network && groups.size() != 1)
    throw std::invalid_argument("the whole-network harness runs one group only");
  if (opt.whole_network && opt.ce_gated())
    throw std::invalid_argument("the whole-network harness has no clock enable");
  if (opt.ce_period == 0) throw std::invalid_argument("ce_period must be at least 1");
  Cm1Config cfg = cfg_in;
  Cm1Params& p = cfg.cm1;
  // Every endpoint must hold its whole share of the pattern: the model assumes a processor's
  // next message is always ready.
  int need = 1;
  for (const Traffic& t : groups) {
    check_traffic(t, p, "traffic");
    std::vector<int> per_src(static_cast<size_t>(p.processors()), 0);
    for (const Message& m : t.messages) need = std::max(need, ++per_src.at(m.src));
  }
  while (p.queue_depth < need) p.queue_depth *= 2;

  const GeneratedDesign design = emit_cm1(cfg);
  const std::string src = CMNET_SOURCE_DIR;
  const std::string exe =
      whole
          ? build_verilated_model(design, "cm1_network", src + "/sim/cm1/cm1_network_main.cpp", {}, {},
                                  opt.trace_file.empty() ? std::vector<std::string>{} : trace_flags())
          : build_verilated_model(design, "cm1_chip", src + "/sim/cm1/cm1_chip_main.cpp");

  char tmpl[] = "/tmp/cmnet-rtl-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("cannot create a temporary directory");
  const fs::path work(tmpl);
  const std::string in_path = (work / "in.txt").string(), out_path = (work / "out.txt").string();
  {
    std::ofstream in(in_path);
    in << "params " << p.cube_dims << ' ' << p.msg_len() << ' ' << p.petit_period() << ' '
       << p.procs_per_chip << ' ' << p.proc_bits() << ' ' << p.vp_bits << ' ' << p.data_bits
       << ' ' << (mode == EjectMode::kOnePerPetit ? 1 : 0) << ' ' << opt.max_petit << '\n';
    for (size_t g = 0; g < groups.size(); ++g) {
     if (g > 0) in << "group\n";
     for (const Message& m : groups[g].messages) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "msg %u %u %u %u %" PRIx64 "\n", m.src,
                    m.dst / static_cast<uint32_t>(p.procs_per_chip),
                    m.dst % static_cast<uint32_t>(p.procs_per_chip), m.vp, m.data);
      in << buf;
     }
    }
    for (const Cm1Fault& f : opt.faults)
      in << "fault " << f.bit_time << ' ' << f.chip << ' ' << f.dim << '\n';
    if (opt.ce_period != 1 || opt.ce_seed != 0) in << "ce " << opt.ce_period << ' ' << opt.ce_seed << '\n';
    for (const Cm1Freeze& f : opt.freezes) in << "freeze " << f.bit_time << ' ' << f.clocks << '\n';
  }
  std::vector<std::string> env;
  if (!opt.trace_file.empty())
    env = {"CMNET_TRACE=" + fs::absolute(opt.trace_file).string(),
           "CMNET_TRACE_FROM=" + std::to_string(opt.trace_from),
           "CMNET_TRACE_TO=" + std::to_string(std::min<uint64_t>(opt.trace_to, INT64_MAX))};
  const int rc = run_child({exe, in_path, out_path}, opt.timeout_s, (work / "log.txt").string(), env);
  if (rc != 0) {
    std::ifstream lg(work / "log.txt");
    std::stringstream ss;
    ss << lg.rdbuf();
    fs::remove_all(work);
    throw std::runtime_error("RTL harness failed (exit " + std::to_string(rc) + "): " + ss.str());
  }
  Cm1RtlRun run;
  run.chips.resize(static_cast<size_t>(p.chips()));
  std::ifstream out(out_path);
  std::string kind;
  const int W = p.vp_bits + p.data_bits;
  while (out >> kind) {
    if (kind == "rx") {
      Cm1Reception r;
      std::string word;
      out >> r.group >> r.petit >> r.bit_time >> r.dst >> word;
      const uint64_t w = std::stoull(word, nullptr, 16);
      r.vp = static_cast<uint32_t>(w & ((1ull << p.vp_bits) - 1));
      r.data = p.data_bits >= 64 ? (w >> p.vp_bits) : ((w >> p.vp_bits) & ((1ull << p.data_bits) - 1));
      (void)W;
      run.receptions.push_back(r);
    } else if (kind == "cnt") {
      size_t chip = 0;
      out >> chip;
      Cm1ChipCounters& c = run.chips.at(chip);
      out >> c.injected >> c.delivered >> c.desperation >> c.petit_cycles >> c.parity_errors;
      c.dim_busy.resize(static_cast<size_t>(p.cube_dims));
      for (auto& b : c.dim_busy) out >> b;
    } else if (kind == "speed") {
      size_t group = 0;
      uint64_t cycles = 0;
      double secs = 0;
      out >> group >> cycles >> secs;
      run.sim_cycles += cycles;
      run.sim_seconds += secs;
    } else if (kind == "idle") {
      out >> run.idle_clocks >> run.idle_changes;
    } else if (kind == "done") {
      int completed = 0;
      size_t group = 0;
      out >> group >> run.petit_cycles >> run.bit_times >> completed;
      run.group_petit_cycles.push_back(run.petit_cycles);
      run.completed = completed != 0 && (group == 0 || run.completed);
    } else {
      throw std::runtime_error("RTL harness output: unknown record '" + kind + "'");
    }
  }
  fs::remove_all(work);
  if (run.group_petit_cycles.size() != groups.size()) run.completed = false;
  std::sort(run.receptions.begin(), run.receptions.end());
  return run;
}

std::vector<Cm1Reception> receptions_from_model(const Cm1Params& p, const Traffic& t,
                                                const Cm1RunResult& r) {
  (void)p;
  // One reception per (petit, destination processor); its value is the OR of the group.
  std::map<std::pair<uint64_t, uint32_t>, Cm1Reception> groups;
  for (const Cm1Delivery& d : r.deliveries) {
    const Message& m = t.messages.at(d.msg);
    Cm1Reception rx;
    rx.petit = d.petit;
    rx.dst = m.dst;
    rx.vp = d.rx_vp;
    rx.data = d.rx_data;
    groups[{d.petit, m.dst}] = rx;
  }
  std::vector<Cm1Reception> out;
  for (auto& [k, v] : groups) out.push_back(v);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Cm1Delivery> deliveries_from_receptions(const Cm1Params& p, const Traffic& t,
                                                    const std::vector<Cm1Reception>& rx) {
  (void)p;
  std::map<uint32_t, std::vector<size_t>> waiting;  // dst -> undelivered messages in file order
  for (size_t i = 0; i < t.messages.size(); ++i) waiting[t.messages[i].dst].push_back(i);
  std::vector<Cm1Delivery> out;
  for (const Cm1Reception& r : rx) {
    auto& list = waiting[r.dst];
    // Exact match first (the usual, uncombined case), then OR-cover matches.
    std::vector<size_t> taken;
    for (auto it = list.begin(); it != list.end(); ++it) {
      const Message& m = t.messages[*it];
      if (m.data == r.data && m.vp == r.vp) {
        taken.push_back(*it);
        list.erase(it);
        break;
      }
    }
    if (taken.empty()) {
      for (auto it = list.begin(); it != list.end();) {
        const Message& m = t.messages[*it];
        if ((m.data & ~r.data) == 0 && (m.vp & ~r.vp) == 0) {
          taken.push_back(*it);
          it = list.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (size_t i : taken) {
      Cm1Delivery d;
      d.msg = i;
      d.petit = r.petit;
      d.rx_vp = r.vp;
      d.rx_data = r.data;
      d.combined = static_cast<int>(taken.size());
      out.push_back(d);
    }
  }
  return out;
}

}  // namespace cmnet

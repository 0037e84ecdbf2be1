// The CM-5 machine's RTL run (cm5_machine under Verilator, harness sim/cm5/cm5_machine_main.cpp)
// and the comparison of two runs.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gen/cm5/cm5_emitter.h"
#include "sim/cm5/cm5_machine.h"
#include "sim/core/harness_run.h"

namespace cmnet {
namespace fs = std::filesystem;

Cm5MachineRun run_cm5_machine_rtl(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w, uint64_t cycles,
                                  const Cm5MachineOptions& opt) {
  check_machine_workload(cfg, w);
  const int N = cfg.leaves(), WC = cfg.ctl.p.word_bits;
  const GeneratedDesign design = emit_cm5_machine(cfg);
  const std::string exe =
      build_verilated_model(design, "cm5_machine", std::string(CMNET_SOURCE_DIR) + "/sim/cm5/cm5_machine_main.cpp", {}, {},
                            opt.trace.on() ? trace_flags() : std::vector<std::string>{});
  std::ostringstream in;
  {
    in << "params " << N << ' ' << WC << ' ' << cycles << '\n';
    for (const Cm5MachineMessage& m : w.messages) {
      in << "msg " << m.side << ' ' << m.src << ' ' << m.dst << ' ' << m.tag << ' ' << m.release << ' ' << m.data.size()
         << std::hex;
      for (uint32_t d : m.data) in << ' ' << d;
      in << std::dec << '\n';
    }
    for (size_t x = 0; x < w.ctl.leaf.size(); ++x)
      for (const Cm5Op& o : w.ctl.leaf[x])
        in << "op " << x << ' ' << o.release << ' ' << o.broadcast << ' ' << o.abstain << ' ' << int(o.kind) << ' '
           << int(o.comb) << ' ' << o.segmented << ' ' << o.seg << ' ' << std::hex << o.data << std::dec << '\n';
    for (const Cm5MachineFault& f : w.faults) in << "fault " << f.cycle << ' ' << f.leaf << ' ' << f.duplicate << '\n';
  }
  const HarnessRunResult run_out = run_harness("cm5 machine harness", exe, in.str(), 1200, opt.trace.env());
  Cm5MachineRun r;
  r.injected.resize(static_cast<size_t>(N));
  std::istringstream o(run_out.out);
  std::string kind;
  while (o >> kind) {
    if (kind == "cnt") {
      Cm5CounterChange c;
      o >> c.leaf >> c.cycle >> c.value;
      r.counters.push_back(c);
    } else if (kind == "rx") {
      Cm5MachineReceived m;
      size_t n = 0;
      o >> m.leaf >> m.side >> m.msg.cycle >> std::hex >> m.msg.head >> std::dec >> n;
      m.msg.words.resize(n);
      o >> std::hex;
      for (uint32_t& x : m.msg.words) o >> x;
      o >> std::dec;
      r.received.push_back(m);
    } else if (kind == "res") {
      Cm5Result x;
      int b = 0, k = 0, c = 0, ov = 0, er = 0, ab = 0;
      o >> x.leaf >> x.cycle >> b >> k >> c >> std::hex >> x.data >> std::dec >> ov >> er >> ab;
      x.broadcast = b;
      x.kind = static_cast<uint8_t>(k);
      x.comb = static_cast<uint8_t>(c);
      x.ovf = ov;
      x.err = er;
      x.abstained = ab;
      r.results.push_back(x);
    } else if (kind == "inj") {
      uint32_t leaf = 0;
      uint64_t t = 0;
      o >> leaf >> t;
      if (leaf < r.injected.size()) r.injected[leaf].push_back(t);
    } else if (kind == "done") {
      int f = 0;
      o >> r.cycles >> f >> r.last_send;
      r.fault = f;
    } else {
      throw std::runtime_error("cm5 machine harness output: unknown record '" + kind + "'");
    }
    if (!o) {
      throw std::runtime_error("cm5 machine harness output: a bad '" + kind + "' record");
    }
  }
  return r;
}

namespace {

std::string show(const Cm5MachineReceived& m) {
  std::ostringstream s;
  s << "leaf " << m.leaf << " side " << m.side << " cycle " << m.msg.cycle << " head 0x" << std::hex << m.msg.head << " words";
  for (uint32_t w : m.msg.words) s << " 0x" << w;
  return s.str();
}

std::string show(const Cm5CounterChange& c) {
  return "leaf " + std::to_string(c.leaf) + " from cycle " + std::to_string(c.cycle) + ": " + std::to_string(c.value);
}

template <class T, class F>
std::string first_difference(const char* what, const std::vector<T>& a, const std::vector<T>& b, F show_one) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (!(a[i] == b[i])) return std::string(what) + " " + std::to_string(i) + ": model " + show_one(a[i]) + ", RTL " + show_one(b[i]);
  if (a.size() != b.size())
    return std::string(what) + ": model " + std::to_string(a.size()) + ", RTL " + std::to_string(b.size());
  return "";
}

std::vector<Cm5Result> by_cycle(std::vector<Cm5Result> v) {
  std::stable_sort(v.begin(), v.end(), [](const Cm5Result& a, const Cm5Result& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.leaf < b.leaf;
  });
  return v;
}

}  // namespace

std::string compare_machine_runs(const Cm5MachineRun& model, const Cm5MachineRun& rtl) {
  std::string d = first_difference("message read", model.received, rtl.received, [](const auto& m) { return show(m); });
  if (d.empty()) d = first_difference("counter change", model.counters, rtl.counters, [](const auto& c) { return show(c); });
  if (d.empty())
    d = first_difference("control result", by_cycle(model.results), by_cycle(rtl.results),
                         [](const Cm5Result& r) { return r.str() + " at cycle " + std::to_string(r.cycle); });
  if (d.empty() && model.injected != rtl.injected) d = "control pushes differ";
  if (d.empty() && model.last_send != rtl.last_send)
    d = "last SEND: model " + std::to_string(model.last_send) + ", RTL " + std::to_string(rtl.last_send);
  if (d.empty() && model.cycles != rtl.cycles)
    d = "cycles: model " + std::to_string(model.cycles) + ", RTL " + std::to_string(rtl.cycles);
  if (d.empty() && model.fault != rtl.fault) d = "fault: model " + std::to_string(model.fault) + ", RTL " + std::to_string(rtl.fault);
  return d;
}

}  // namespace cmnet

#include "sim/cm5ctl/cm5ctl_figures.h"

#include <algorithm>
#include <stdexcept>

#include "sim/cm5ctl/cm5ctl_model.h"

namespace cmnet {

Cm5Engine cm5_model_engine(const Cm5ctlParams& p) {
  return [p](const Cm5Workload& w) {
    const Cm5RunResult r = run_cm5ctl_model(p, w);
    if (!r.completed) throw std::runtime_error("model run of '" + w.name + "' did not complete");
    return r.results;
  };
}

namespace {

Cm5Workload one_op(int leaves, uint8_t kind, uint8_t comb, const std::string& name) {
  Cm5Workload w;
  w.name = name;
  w.leaf.resize(static_cast<size_t>(leaves));
  for (int i = 0; i < leaves; ++i) {
    Cm5Op o;
    o.kind = kind;
    o.comb = comb;
    o.data = static_cast<uint64_t>(i + 1);
    w.leaf[static_cast<size_t>(i)].push_back(o);
  }
  return w;
}

int64_t last_cycle(const std::vector<Cm5Result>& r) {
  uint64_t c = 0;
  for (const auto& x : r) c = std::max(c, x.cycle);
  return static_cast<int64_t>(c);
}

}  // namespace

Cm5Latency measure_latency(const Cm5ctlParams& p, const Cm5Engine& engine) {
  Cm5Latency l;
  l.leaves = p.leaves;
  l.height = p.height();
  l.bound = p.latency_bound();
  // Every push is accepted at cycle 0 (empty FIFOs): the latency is the last result's cycle.
  Cm5Workload b;
  b.name = "latency-broadcast";
  b.leaf.resize(static_cast<size_t>(p.leaves));
  Cm5Op o;
  o.broadcast = true;
  o.data = 0x5a;
  b.leaf[0].push_back(o);
  l.broadcast = last_cycle(engine(b));
  l.reduce = last_cycle(engine(one_op(p.leaves, cm5::kReduce, cm5::kAdd, "latency-reduce")));
  l.scan = last_cycle(engine(one_op(p.leaves, cm5::kScanFwd, cm5::kAdd, "latency-scan")));
  l.barrier = last_cycle(engine(one_op(p.leaves, cm5::kSync, cm5::kOr, "latency-barrier")));
  return l;
}

Cm5Throughput measure_throughput(const Cm5ctlParams& p, const Cm5Engine& engine, int ops) {
  if (ops < 8) throw std::invalid_argument("throughput needs at least 8 operations");
  Cm5Workload w;
  w.name = "throughput-scan";
  w.leaf.resize(static_cast<size_t>(p.leaves));
  for (int k = 0; k < ops; ++k)
    for (int i = 0; i < p.leaves; ++i) {
      Cm5Op o;
      o.kind = cm5::kScanFwd;
      o.comb = static_cast<uint8_t>(k % cm5::kCombs);
      o.data = static_cast<uint64_t>(k * 131 + i);
      w.leaf[static_cast<size_t>(i)].push_back(o);
    }
  std::vector<uint64_t> at;
  for (const auto& x : engine(w))
    if (x.leaf == 0) at.push_back(x.cycle);
  if (at.size() != static_cast<size_t>(ops)) throw std::runtime_error("throughput run lost results");
  const size_t a = static_cast<size_t>(ops) / 4, b = 3 * static_cast<size_t>(ops) / 4;
  Cm5Throughput t;
  t.leaves = p.leaves;
  t.ops = ops;
  t.cycles_per_op = static_cast<double>(at[b] - at[a]) / static_cast<double>(b - a);
  t.ops_per_packet_time = p.packet_time() / t.cycles_per_op;
  return t;
}

}  // namespace cmnet

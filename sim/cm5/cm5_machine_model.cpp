// The CM-5 machine's reference model: the data network's model and the control network's model
// in lockstep (see cm5_machine.h), and the workload checks and traffic both engines share.
#include <algorithm>
#include <map>
#include <random>

#include "gen/core/errors.h"
#include "sim/cm5/cm5_machine.h"
#include "sim/cm5data/cm5data_ni.h"
#include "sim/cm5data/cm5data_ni_regs.h"

namespace cmnet {

void check_machine_workload(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w) {
  const uint32_t N = static_cast<uint32_t>(cfg.leaves());
  for (size_t i = 0; i < w.messages.size(); ++i) {
    const Cm5MachineMessage& m = w.messages[i];
    const std::string at = "cm5 workload: message " + std::to_string(i) + ": ";
    if (m.src >= N || m.dst >= N)
      throw InputError(at + "leaf " + std::to_string(std::max(m.src, m.dst)) + " out of range 0.." + std::to_string(N - 1));
    if (m.side != 0 && m.side != 1) throw InputError(at + "side " + std::to_string(m.side) + " (0 left, 1 right)");
    if (m.data.empty() || static_cast<int>(m.data.size()) > cfg.data.cm5.max_words)
      throw InputError(at + std::to_string(m.data.size()) + " data words, out of range 1.." +
                       std::to_string(cfg.data.cm5.max_words));
    if (m.tag < 0 || m.tag > 15) throw InputError(at + "tag " + std::to_string(m.tag) + " out of range 0..15");
    if (cfg.data.cm5.leaf_mapped_out(m.src) || cfg.data.cm5.leaf_mapped_out(m.dst))
      throw InputError(at + "from or to a mapped-out leaf (its interface would refuse it: the processor would retry forever)");
  }
  for (const auto& c : w.ctl.counters)
    if (!c.empty()) throw InputError("cm5 workload: ctl.counters must be empty (the machine's counters are the data network's)");
  for (const Cm5MachineFault& f : w.faults)
    if (f.leaf >= N) throw InputError("cm5 workload: fault at leaf " + std::to_string(f.leaf) + " out of range");
  check_workload(w.ctl, cm5_topology(cfg.ctl.p));
}

Cm5Op router_done_op(uint64_t release) {
  Cm5Op o;
  o.kind = cm5::kReduce;
  o.comb = cm5::kRouterDone;
  o.release = release;
  return o;
}

Cm5MachineWorkload cm5_machine_traffic(const Cm5MachineConfig& cfg, int per_leaf, uint64_t seed, uint64_t rd_release) {
  const uint32_t N = static_cast<uint32_t>(cfg.leaves());
  std::mt19937_64 rng(seed);
  Cm5MachineWorkload w;
  for (uint32_t x = 0; x < N; ++x)
    for (int k = 0; k < per_leaf; ++k)
      for (int side = 0; side < 2; ++side) {
        Cm5MachineMessage m;
        m.src = x;
        m.dst = static_cast<uint32_t>(rng() % N);
        m.side = side;
        m.tag = k & 15;
        const int len = 1 + static_cast<int>(rng() % static_cast<uint64_t>(cfg.data.cm5.max_words));
        m.data.push_back(x);
        for (int i = 1; i < len; ++i) m.data.push_back(static_cast<uint32_t>(rng()));
        w.messages.push_back(m);
      }
  w.ctl.name = "router-done";
  w.ctl.leaf.assign(N, {router_done_op(rd_release)});
  return w;
}

std::vector<std::string> cm5_machine_patterns() { return {"router-done", "lost", "duplicated"}; }

Cm5MachineFault cm5_aim_at_last_arrival(const Cm5MachineRun& r, bool duplicate) {
  const Cm5CounterChange* last = nullptr;
  for (const auto& c : r.counters)
    if (c.cycle == r.last_arrival + 1) last = &c;
  if (!last || r.last_arrival == 0) throw InputError("cm5 scenario: no message arrived to aim the hook at");
  Cm5MachineFault f;
  f.duplicate = duplicate;
  f.leaf = last->leaf;
  uint64_t p = 1;
  for (const auto& c : r.counters)
    if (c.leaf == f.leaf && c.cycle < last->cycle) p = c.cycle;
  f.cycle = p - 1;
  return f;
}

Cm5MachineWorkload cm5_machine_scenario(const Cm5MachineConfig& cfg, const std::string& pattern, int per_leaf, uint64_t seed) {
  const auto names = cm5_machine_patterns();
  if (std::find(names.begin(), names.end(), pattern) == names.end())
    throw InputError("--pattern " + pattern + ": unknown pattern for cm5 (allowed: router-done, lost, duplicated)");
  if (per_leaf < 1 || per_leaf > 64) throw InputError("--per-proc " + std::to_string(per_leaf) + " out of range 1..64");
  Cm5MachineWorkload w = cm5_machine_traffic(cfg, per_leaf, seed, 0);
  w.ctl.leaf.assign(static_cast<size_t>(cfg.leaves()), {});  // the traffic alone
  const Cm5MachineRun traffic = run_cm5_machine_model(cfg, w);
  w = cm5_machine_traffic(cfg, per_leaf, seed, traffic.last_send + 1);
  if (pattern != "router-done") w.faults = {cm5_aim_at_last_arrival(run_cm5_machine_model(cfg, w), pattern == "duplicated")};
  return w;
}

namespace {

int64_t wrap(int64_t v, int bits) { return cm5::to_signed(static_cast<uint64_t>(v) & cm5::mask(bits), bits); }

}  // namespace

Cm5MachineRun run_cm5_machine_model(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w, const Cm5MachineOptions& opt) {
  check_machine_workload(cfg, w);
  const Cm5DataParams& dp = cfg.data.cm5;
  const uint32_t N = static_cast<uint32_t>(cfg.leaves());
  const int WC = cfg.ctl.p.word_bits;
  // The NIs as the RTL block builds them (its send and receive FIFOs).
  Cm5DataNiConfig nc;
  nc.send_words = cm5_ni_send_words(dp);
  nc.recv_flits = dp.ni_recv_words * dp.flits_per_word();
  Cm5DataParams right = dp;
  right.seed = (right.seed + 1) & 0xFFFFu;
  Cm5DataNetwork nets[2] = {Cm5DataNetwork(dp), Cm5DataNetwork(right)};
  std::vector<Cm5DataNi> nis;
  nis.reserve(N);
  for (uint32_t x = 0; x < N; ++x) nis.emplace_back(dp, x, nc);
  std::vector<Cm5NiModelRegs> regs;  // q = side * N + leaf
  std::vector<cm5mach::Processor> procs(2 * N);
  for (int s = 0; s < 2; ++s)
    for (uint32_t x = 0; x < N; ++x) regs.emplace_back(dp, nis[x], s);
  for (const Cm5MachineMessage& m : w.messages)
    procs[static_cast<size_t>(m.side) * N + m.src].add({m.dst, m.tag, m.data, m.release});
  Cm5ctlStepper ctl(cfg.ctl.p, w.ctl);
  const uint64_t want = expected_result_count(w.ctl);
  const uint64_t drain = opt.drain_cycles ? opt.drain_cycles : 4ull * static_cast<uint64_t>(cfg.ctl.p.packet_time());
  std::vector<int64_t> cnt(N, 0), shown(N, 0);
  std::vector<bool> lose(N, false), dup(N, false);
  std::vector<Cm5NiAccess> acc(2 * N);
  std::vector<cm5mach::Access> pa(2 * N);
  Cm5MachineRun r;
  size_t fault_next = 0;
  std::vector<Cm5MachineFault> faults = w.faults;
  std::stable_sort(faults.begin(), faults.end(), [](const auto& a, const auto& b) { return a.cycle < b.cycle; });
  bool done = false;
  uint64_t done_at = 0, t = 0;
  for (; t < opt.max_cycles; ++t) {
    if (done && t >= done_at + drain) break;
    // Router-done's inputs in this cycle: the counters as the events before it left them.
    for (uint32_t x = 0; x < N; ++x)
      if (cnt[x] != shown[x]) {
        ctl.set_counter(x, cnt[x]);
        shown[x] = cnt[x];
        r.counters.push_back({x, t, cnt[x]});
      }
    // The processors' accesses: reads see the state at the start of the cycle.
    for (size_t q = 0; q < 2 * N; ++q) {
      pa[q] = procs[q].next(t);
      acc[q] = {t, static_cast<uint32_t>(q % N), pa[q].write, pa[q].addr, pa[q].data};
      const uint32_t v = pa[q].write ? 0u : regs[q].read(pa[q].addr);
      regs[q].before(acc[q]);
      const size_t before = procs[q].received().size();
      procs[q].done(t, pa[q], v);
      if (procs[q].received().size() != before)
        r.received.push_back({static_cast<uint32_t>(q % N), static_cast<int>(q / N), procs[q].received().back()});
    }
    // The interfaces and the networks; then the accesses' effects (the clock edge).
    std::vector<int> put(N, 0), got(N, 0);
    for (int s = 0; s < 2; ++s)
      for (uint32_t x = 0; x < N; ++x) {
        const uint64_t rec = nis[x].counters(s).received;
        nis[x].cycle(s, nets[s]);
        got[x] += static_cast<int>(nis[x].counters(s).received - rec);
      }
    nets[0].step();
    nets[1].step();
    for (size_t q = 0; q < 2 * N; ++q) {
      const int s = static_cast<int>(q / N);
      const uint32_t x = static_cast<uint32_t>(q % N);
      const int words = nis[x].send_words(s);
      regs[q].after(acc[q]);
      if (nis[x].send_words(s) > words) ++put[x];  // accepted into the send FIFO
    }
    // The counters: + accepted, - whole at the receiver (a lost one not counted, a duplicated one
    // twice), the hooks armed in this cycle from the next.
    for (uint32_t x = 0; x < N; ++x) {
      const bool hit = got[x] > 0;
      const int counted = got[x] - (hit && lose[x] ? 1 : 0) + (hit && dup[x] ? 1 : 0);
      cnt[x] = wrap(cnt[x] + put[x] - counted, WC);
      if (hit) lose[x] = dup[x] = false;
      if (got[x] > 0) r.last_arrival = t;
    }
    while (fault_next < faults.size() && faults[fault_next].cycle <= t) {
      const Cm5MachineFault& f = faults[fault_next++];
      if (f.cycle == t) (f.duplicate ? dup : lose)[f.leaf] = true;
    }
    ctl.step();
    if (!done) {
      bool idle = ctl.so_far().results.size() >= want;
      size_t read = 0;
      for (const auto& p : procs) {
        idle = idle && p.sending_done();
        read += p.received().size();
      }
      if (idle && read == w.messages.size()) {
        done = true;
        done_at = t;
      }
    }
  }
  const Cm5RunResult c = ctl.finish();
  r.results = c.results;
  r.injected = c.injected;
  r.fault = c.faults.any_design_fault() || c.faults.bcast_drops > 0;
  r.cycles = t;
  for (const auto& p : procs)
    if (!p.sends().empty()) r.last_send = std::max(r.last_send, p.sends().back());
  return r;
}

}  // namespace cmnet

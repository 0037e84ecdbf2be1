#include "sim/clos/clos_occupancy.h"

#include <random>
#include <vector>

#include "gen/core/errors.h"

namespace cmnet {

namespace {

struct Circuit {
  int src, dst, mid;
};

// The network's state: busy s-links and the free active ports, drawn uniformly.
class Occupancy {
 public:
  Occupancy(const ClosParams& p, const ClosOccupancyOptions& o)
      : p_(p), o_(o), rng_(o.seed), in_busy_(static_cast<size_t>(p.r * p.m)), out_busy_(static_cast<size_t>(p.r * p.m)) {
    const int active = o.active_per_switch ? o.active_per_switch : p.n;
    for (int sw = 0; sw < p.r; ++sw)
      for (int k = 0; k < active; ++k) free_in_.push_back(sw * p.n + k), free_out_.push_back(sw * p.n + k);
  }
  int active_ports() const { return static_cast<int>(free_in_.size() + circuits_.size()); }

  // One request from a random free input to a random free output; false when blocked.
  bool request() {
    const size_t i = pick(free_in_.size()), j = pick(free_out_.size());
    const int src = free_in_[i], dst = free_out_[j];
    const int in_sw = src / p_.n, out_sw = dst / p_.n;
    const int start = o_.select == ClosSelectStart::kPair   ? (in_sw + out_sw) % p_.m
                      : o_.select == ClosSelectStart::kRandom ? static_cast<int>(pick(static_cast<size_t>(p_.m)))
                                                              : out_sw % p_.hnodes() % p_.m;
    for (int d = 0; d < p_.m; ++d) {
      const int k = (start + d) % p_.m;
      if (in_busy_[link(in_sw, k)] || out_busy_[link(out_sw, k)]) continue;
      in_busy_[link(in_sw, k)] = out_busy_[link(out_sw, k)] = 1;
      take(free_in_, i);
      take(free_out_, j);
      circuits_.push_back({src, dst, k});
      return true;
    }
    return false;
  }
  // Tears down a random circuit.
  void release() {
    const size_t c = pick(circuits_.size());
    const Circuit x = circuits_[c];
    in_busy_[link(x.src / p_.n, x.mid)] = out_busy_[link(x.dst / p_.n, x.mid)] = 0;
    free_in_.push_back(x.src);
    free_out_.push_back(x.dst);
    take(circuits_, c);
  }
  size_t circuits() const { return circuits_.size(); }

 private:
  size_t link(int sw, int k) const { return static_cast<size_t>(sw * p_.m + k); }
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  template <typename T>
  static void take(std::vector<T>& v, size_t i) {
    v[i] = v.back();
    v.pop_back();
  }

  const ClosParams& p_;
  const ClosOccupancyOptions& o_;
  std::mt19937_64 rng_;
  std::vector<char> in_busy_, out_busy_;  // s-links: [input switch][middle], [output switch][middle]
  std::vector<int> free_in_, free_out_;
  std::vector<Circuit> circuits_;
};

}  // namespace

ClosOccupancyResult run_clos_occupancy(const ClosParams& p, const ClosOccupancyOptions& o) {
  if (o.active_per_switch < 0 || o.active_per_switch > p.n)
    throw InputError("clos occupancy: active_per_switch must be 0.." + std::to_string(p.n));
  Occupancy net(p, o);
  ClosOccupancyResult r;
  r.active_ports = net.active_ports();
  if (o.circuits < 0 || o.circuits > r.active_ports)
    throw InputError("clos occupancy: circuits must be 0.." + std::to_string(r.active_ports));
  r.occupancy = static_cast<double>(o.circuits) / r.active_ports;
  if (o.circuits == 0) return r;  // nothing to tear down: an empty network never blocks
  // Fill (blocked requests are redrawn; a state where every free pair blocks is left by tearing a
  // circuit down), warm up, then count. After a tear-down the freed pair always fits again.
  for (int fails = 0; net.circuits() < static_cast<size_t>(o.circuits);)
    if (!net.request() && ++fails > 1000) net.release(), fails = 0;
  const uint64_t warmup = o.warmup ? o.warmup : 4 * static_cast<uint64_t>(o.circuits);
  for (uint64_t s = 0; s < warmup; ++s) {
    net.release();
    while (!net.request()) {
    }
  }
  while (r.requests < o.requests) {
    net.release();
    for (;;) {
      ++r.requests;
      if (net.request()) break;
      ++r.blocked;
    }
  }
  return r;
}

}  // namespace cmnet

#include "sim/clos/clos_eval.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <random>
#include <tuple>

#include "sim/clos/clos_setup_model.h"
#include "sim/clos/clos_tree.h"

namespace cmnet {
namespace {

constexpr double kLinkMBs = 0.8 * 0.83;  // bytes per us
constexpr int kDataProcessors = 960;
constexpr double kShortShare = 0.6, kShortMean = 50, kLongMean = 3000, kLongMin = 100;
constexpr double kMeanBytes = kShortShare * kShortMean + (1 - kShortShare) * kLongMean;  // 1,230

// The paper's length mix. Short: log-normal, sigma 0.5, mean 50, redrawn above 100 (the paper
// gives only "near log-normal, average 50, below 100"); long: 100 + exponential (mean 3,000).
struct Lengths {
  std::lognormal_distribution<double> sh{std::log(kShortMean) - 0.125, 0.5};
  std::exponential_distribution<double> lg{1.0 / (kLongMean - kLongMin)};
  std::uniform_real_distribution<double> u{0, 1};
  int draw(std::mt19937_64& rng, bool& is_long) {
    is_long = u(rng) >= kShortShare;
    if (is_long) return static_cast<int>(kLongMin + lg(rng));
    for (;;) {
      const double x = sh(rng);
      if (x < kLongMin) return std::max(1, static_cast<int>(x));
    }
  }
};

// Store-and-forward: every message (or packet) is received whole by a node, routed by its CPU
// (a FIFO server, uniform 0..2 x 30 us), then queued for the next link (a FIFO server at
// kLinkMBs). The source and the destination do not route.
class StoreAndForward {
 public:
  StoreAndForward(int nodes, double cpu_factor, uint64_t seed) : cpu_free_(static_cast<size_t>(nodes), 0.0), cpu_factor_(cpu_factor), rng_(seed) {}
  // A message along `path` (node ids), split in packets of at most packet_bytes (0: whole).
  void send(double t, const std::vector<int>& path, int bytes, int packet_bytes, bool measure, bool is_long) {
    const int id = static_cast<int>(msgs_.size());
    const int packets = packet_bytes > 0 ? (bytes + packet_bytes - 1) / packet_bytes : 1;
    msgs_.push_back({path, bytes, t, packets, measure, is_long, 0.0});
    for (int k = 0; k < packets; ++k) {
      const int b = packet_bytes > 0 ? std::min(packet_bytes, bytes - k * packet_bytes) : bytes;
      q_.push({t, seq_++, id, 0, b, false});
    }
  }
  void run() {
    while (!q_.empty()) {
      Ev e = q_.top();
      q_.pop();
      Msg& m = msgs_[static_cast<size_t>(e.msg)];
      if (e.hop == static_cast<int>(m.path.size()) - 1) {  // arrived
        if (--m.packets_left == 0) m.done = e.t;
        continue;
      }
      double t = e.t;
      if (e.hop > 0 && !e.routed) {  // an intermediate node's CPU
        double& f = cpu_free_[static_cast<size_t>(m.path[static_cast<size_t>(e.hop)])];
        f = std::max(f, t) + cpu_factor_ * cpu_(rng_);
        q_.push({f, seq_++, e.msg, e.hop, e.bytes, true});
        continue;
      }
      const auto key = std::make_pair(m.path[static_cast<size_t>(e.hop)], m.path[static_cast<size_t>(e.hop) + 1]);
      double& l = link_free_[key];
      l = std::max(l, t) + e.bytes / kLinkMBs;
      q_.push({l, seq_++, e.msg, e.hop + 1, e.bytes, false});
    }
  }
  struct Msg {
    std::vector<int> path;
    int bytes;
    double t;
    int packets_left;
    bool measure, is_long;
    double done;
  };
  const std::vector<Msg>& msgs() const { return msgs_; }

 private:
  struct Ev {
    double t;
    uint64_t seq;
    int msg, hop, bytes;
    bool routed;
    bool operator>(const Ev& o) const { return std::tie(t, seq) > std::tie(o.t, o.seq); }
  };
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> q_;
  std::vector<Msg> msgs_;
  std::vector<double> cpu_free_;
  std::map<std::pair<int, int>, double> link_free_;
  double cpu_factor_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> cpu_{0, 60};
  uint64_t seq_ = 0;
};

void short_stats(const std::vector<StoreAndForward::Msg>& msgs, ClosEvalResult& r) {
  std::vector<double> x, y;
  double long_sum = 0;
  uint64_t longs = 0;
  for (const auto& m : msgs) {
    if (!m.measure) continue;
    if (m.is_long) {
      long_sum += m.done - m.t;
      ++longs;
    } else {
      x.push_back(m.bytes);
      y.push_back(m.done - m.t);
    }
  }
  if (longs) {
    r.long_delivery_us = long_sum / static_cast<double>(longs);
    r.long_msgs = longs;
  }
  const double n = static_cast<double>(x.size());
  r.short_msgs = x.size();
  if (x.size() < 3) return;
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n, my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxx = 0, syy = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  r.short_delivery_us = my;
  r.short_size_delay_corr = sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
  const double b = sxx > 0 ? sxy / sxx : 0;
  double mse = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double e = y[i] - (my + b * (x[i] - mx));
    mse += e * e;
  }
  r.short_mse_us2 = mse / n;
}

}  // namespace

ClosEvalResult run_connect_eval(const ClosEvalOptions& o) {
  ClosEvalResult r;
  r.offered_mb_s = o.load_mb_s;
  // Messages per data processor per us, all lengths.
  const double rate = o.load_mb_s / (kDataProcessors * kMeanBytes);
  // Long messages: the parallel set-up model, open loop, as many as the offered rate makes in sim_us.
  {
    ClosParams p;
    p.m = p.n = p.r = 32;
    p.width = 1;
    p.hnode_dims = 5;
    p.cancel_limit = 3;
    ClosSetupOptions so;
    so.open_loop = true;
    so.interarrival_us = 1.0 / (rate * (1 - kShortShare));
    so.hold_us = kLongMean / o.circuit_mb_s;
    so.duplex_leaves = o.duplex_leaves;
    so.hop_us *= o.control_scale;
    so.handle_us *= o.control_scale;
    if (!o.two_hypercubes) {
      // The short messages' routing jobs at the hnodes: each short message is routed by the CPU of
      // every hnode on its path except its ends (the leaves): its source tree's, the hypercube's
      // intermediate ones, the destination tree's (all data messages pass an hnode: the trees
      // hang below it). Counted on sampled routes.
      const ClosTree tree(ClosTreeShape{});
      std::mt19937_64 g(o.seed + 7);
      std::uniform_int_distribution<int> any(0, kDataProcessors - 1);
      double crossings = 0;
      constexpr int kSamples = 4000;
      for (int i = 0; i < kSamples; ++i) {
        const int a = any(g);
        int b = any(g);
        if (b == a) b = (a + 1) % kDataProcessors;
        for (const ClosTreeNode& n : tree.route(a, b).path) crossings += n.level == 0 ? 1 : 0;
      }
      const double per_msg = crossings / kSamples;
      const double short_per_us = rate * kShortShare * kDataProcessors;
      const double per_hnode_per_us = short_per_us * per_msg / (1 << p.hnode_dims);
      so.background_gap_us = per_hnode_per_us > 0 ? 1.0 / per_hnode_per_us : 0;
    }
    so.active_per_switch = 30;
    so.tree_hops = ClosTree(ClosTreeShape{}).depth();
    so.requests = static_cast<uint64_t>(kDataProcessors * o.sim_us / so.interarrival_us);
    so.seed = o.seed;
    so.full_trace_every = 0;
    const ClosSetupStats s = run_clos_setup(p, so);
    // Skip the warm-up share of the requests (they are issued at a steady rate).
    const size_t skip = static_cast<size_t>(static_cast<double>(s.delivery_us.size()) * o.warmup_us / o.sim_us);
    double sum = 0;
    for (size_t i = skip; i < s.delivery_us.size(); ++i) sum += s.delivery_us[i];
    r.long_msgs = s.delivery_us.size() - skip;
    r.long_delivery_us = r.long_msgs ? sum / static_cast<double>(r.long_msgs) : 0;
    r.long_mb_s = s.end_us > 0 ? s.hold_sum_us * o.circuit_mb_s / s.end_us : 0;
    r.mean_circuits = s.mean_circuits;
    double lat = 0;
    for (double x : s.latency_us) lat += x;
    r.setup_latency_us = s.latency_us.empty() ? 0 : lat / static_cast<double>(s.latency_us.size());
    const double leaf_time = s.end_us * kDataProcessors * (o.duplex_leaves ? 2 : 1);
    r.leaf_busy = leaf_time > 0 ? s.leaf_busy_us / leaf_time : 0;
    r.leaf_data = leaf_time > 0 ? 2 * s.hold_sum_us / leaf_time : 0;
    r.hnode_util = s.end_us > 0 ? s.hnode_busy_us / (s.end_us * (1 << p.hnode_dims)) : 0;
    r.hnode_util_max = s.end_us > 0 ? s.hnode_busy_max_us / s.end_us : 0;
    r.s_link_util = 2 * s.mean_circuits / p.s_links();
  }
  // Short messages: the trees and the communication hypercube.
  const ClosTree tree(ClosTreeShape{});
  std::map<std::tuple<int, int, int>, int> ids;
  auto id = [&](const ClosTreeNode& n) {
    const auto k = std::make_tuple(n.tree, n.level, n.lo);
    const auto it = ids.find(k);
    if (it != ids.end()) return it->second;
    const int v = static_cast<int>(ids.size());
    ids[k] = v;
    return v;
  };
  StoreAndForward net(4096, 1.0, o.seed + 1);
  std::mt19937_64 rng(o.seed + 2);
  Lengths len;
  std::exponential_distribution<double> gap(rate * kShortShare);
  std::uniform_int_distribution<int> other(0, kDataProcessors - 2);
  for (int leaf = 0; leaf < kDataProcessors; ++leaf)
    for (double t = gap(rng); t < o.sim_us; t += gap(rng)) {
      bool is_long = true;
      int bytes = 0;
      while (is_long) bytes = len.draw(rng, is_long);
      int dst = other(rng);
      if (dst >= leaf) ++dst;
      std::vector<int> path;
      for (const ClosTreeNode& n : tree.route(leaf, dst).path) path.push_back(id(n));
      net.send(t, path, bytes, 0, t >= o.warmup_us, false);
    }
  net.run();
  const double keep_long = r.long_delivery_us;
  const uint64_t keep_n = r.long_msgs;
  short_stats(net.msgs(), r);
  r.long_delivery_us = keep_long;
  r.long_msgs = keep_n;
  return r;
}

ClosEvalResult run_hypercube_eval(const ClosEvalOptions& o) {
  ClosEvalResult r;
  r.offered_mb_s = o.load_mb_s;
  constexpr int kDims = 10, kNodes = 1 << kDims;
  // The same load per processor as CONNECT's 960 (the paper compares at equal system load).
  const double rate = o.load_mb_s / (kNodes * kMeanBytes);
  StoreAndForward net(kNodes, 1.0 / (1 - 0.17), o.seed + 3);
  std::mt19937_64 rng(o.seed + 4);
  Lengths len;
  std::exponential_distribution<double> gap(rate);
  std::uniform_int_distribution<int> other(0, kNodes - 2);
  double long_bytes = 0;
  for (int src = 0; src < kNodes; ++src)
    for (double t = gap(rng); t < o.sim_us; t += gap(rng)) {
      bool is_long = false;
      const int bytes = len.draw(rng, is_long);
      int dst = other(rng);
      if (dst >= src) ++dst;
      std::vector<int> path{src};
      for (int x = src; x != dst;) {
        x ^= 1 << std::countr_zero(static_cast<unsigned>(x ^ dst));
        path.push_back(x);
      }
      if (is_long) long_bytes += bytes;
      net.send(t, path, bytes, is_long ? o.hypercube_packet_bytes : 0, t >= o.warmup_us, is_long);
    }
  net.run();
  short_stats(net.msgs(), r);
  r.long_mb_s = long_bytes / o.sim_us;
  return r;
}

std::vector<int> clos_dynamic_pairs(int trials, uint64_t seed) {
  constexpr int m = 32, n = 32, r = 32, active = 30;
  std::mt19937_64 rng(seed);
  std::vector<int> out;
  std::vector<int> procs;
  for (int s = 0; s < r; ++s)
    for (int k = 0; k < active; ++k) procs.push_back(s * n + k);
  for (int t = 0; t < trials; ++t) {
    std::vector<int> order = procs;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::vector<char>> in_used(r, std::vector<char>(m, 0)), out_used(r, std::vector<char>(m, 0));
    // h_d's selection: the first middle switch from h_d's own (= the output switch) with both
    // s-links free.
    auto connect = [&](int a, int b) {
      const int u = a / n, v = b / n;
      for (int i = 0; i < m; ++i) {
        const int k = (v + i) % m;
        if (!in_used[static_cast<size_t>(u)][static_cast<size_t>(k)] && !out_used[static_cast<size_t>(v)][static_cast<size_t>(k)]) {
          in_used[static_cast<size_t>(u)][static_cast<size_t>(k)] = out_used[static_cast<size_t>(v)][static_cast<size_t>(k)] = 1;
          return k;
        }
      }
      return -1;
    };
    int pairs = 0;
    for (size_t i = 0; i + 1 < order.size(); i += 2) {
      const int a = order[i], b = order[i + 1];
      const int k1 = connect(a, b);
      if (k1 < 0) continue;
      if (connect(b, a) < 0) {
        in_used[static_cast<size_t>(a / n)][static_cast<size_t>(k1)] = out_used[static_cast<size_t>(b / n)][static_cast<size_t>(k1)] = 0;
        continue;
      }
      ++pairs;
    }
    out.push_back(pairs);
  }
  return out;
}

}  // namespace cmnet

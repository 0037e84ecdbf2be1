#include "gen/clos/clos_router.h"

#include <bit>

#include "gen/core/errors.h"

namespace cmnet {

ClosSettings ClosSettings::empty(const ClosParams& p) {
  ClosSettings s;
  s.in_sel.assign(static_cast<size_t>(p.r), std::vector<int>(static_cast<size_t>(p.m), -1));
  s.mid_sel.assign(static_cast<size_t>(p.m), std::vector<int>(static_cast<size_t>(p.r), -1));
  s.out_sel.assign(static_cast<size_t>(p.r), std::vector<int>(static_cast<size_t>(p.n), -1));
  return s;
}

void check_permutation(const ClosParams& p, const std::vector<int>& dest) {
  const int N = p.ports();
  if (static_cast<int>(dest.size()) != N)
    throw InputError("permutation has " + std::to_string(dest.size()) + " entries, the network " +
                     clos_name(p) + " has " + std::to_string(N) + " input ports");
  std::vector<char> used(static_cast<size_t>(N), 0);
  for (int i = 0; i < N; ++i) {
    const int d = dest[static_cast<size_t>(i)];
    if (d < 0) continue;
    if (d >= N)
      throw InputError("permutation: input " + std::to_string(i) + " -> " + std::to_string(d) +
                       " out of range 0.." + std::to_string(N - 1));
    if (used[static_cast<size_t>(d)]++)
      throw InputError("permutation: output " + std::to_string(d) + " is the destination of two inputs");
  }
}

std::vector<ClosCircuit> route_permutation(const ClosParams& p, const std::vector<int>& dest) {
  check_permutation(p, dest);
  if (p.m < p.n)
    throw InputError("the off-line router needs a rearrangeable network (m >= n); " + clos_name(p) +
                     " is blocking");
  const int n = p.n, N = p.ports();
  const size_t r = static_cast<size_t>(p.r), C = static_cast<size_t>(n);
  // at_u[u*n + c] / at_v[v*n + c]: the edge of colour c at input switch u / output switch v.
  std::vector<int> at_u(r * C, -1), at_v(r * C, -1), colour;
  std::vector<int> eu, ev, esrc;
  for (int i = 0; i < N; ++i) {
    const int d = dest[static_cast<size_t>(i)];
    if (d < 0) continue;
    const int e = static_cast<int>(esrc.size());
    esrc.push_back(i);
    eu.push_back(i / n);
    ev.push_back(d / n);
    colour.push_back(-1);
    const size_t u = static_cast<size_t>(i / n), v = static_cast<size_t>(d / n);
    int a = 0, b = 0;
    while (at_u[u * C + static_cast<size_t>(a)] >= 0) ++a;  // degree <= n: one is free
    while (at_v[v * C + static_cast<size_t>(b)] >= 0) ++b;
    if (at_v[v * C + static_cast<size_t>(a)] >= 0) {
      // a is taken at v: swap a and b along the path from v that alternates a, b, a, ... It
      // cannot reach u (u has no a-edge, and reaching u through a b-edge would close an odd cycle).
      std::vector<int> path;
      size_t x = v;
      bool on_v = true;
      int want = a;
      for (;;) {
        const int f = on_v ? at_v[x * C + static_cast<size_t>(want)] : at_u[x * C + static_cast<size_t>(want)];
        if (f < 0) break;
        path.push_back(f);
        x = static_cast<size_t>(on_v ? eu[static_cast<size_t>(f)] : ev[static_cast<size_t>(f)]);
        on_v = !on_v;
        want = want == a ? b : a;
      }
      for (int f : path) {
        const size_t fu = static_cast<size_t>(eu[static_cast<size_t>(f)]), fv = static_cast<size_t>(ev[static_cast<size_t>(f)]);
        const size_t c = static_cast<size_t>(colour[static_cast<size_t>(f)]);
        at_u[fu * C + c] = -1;
        at_v[fv * C + c] = -1;
      }
      for (int f : path) {
        int& c = colour[static_cast<size_t>(f)];
        c = c == a ? b : a;
        const size_t fu = static_cast<size_t>(eu[static_cast<size_t>(f)]), fv = static_cast<size_t>(ev[static_cast<size_t>(f)]);
        at_u[fu * C + static_cast<size_t>(c)] = f;
        at_v[fv * C + static_cast<size_t>(c)] = f;
      }
    }
    colour[static_cast<size_t>(e)] = a;
    at_u[u * C + static_cast<size_t>(a)] = e;
    at_v[v * C + static_cast<size_t>(a)] = e;
  }
  std::vector<ClosCircuit> out;
  for (size_t e = 0; e < esrc.size(); ++e)
    out.push_back(ClosCircuit{esrc[e], dest[static_cast<size_t>(esrc[e])], colour[e]});
  return out;
}

std::vector<ClosCircuit> route_first_fit(const ClosParams& p, const std::vector<int>& dest) {
  check_permutation(p, dest);
  const int n = p.n;
  std::vector<char> in_used(static_cast<size_t>(p.r * p.m), 0), out_used(static_cast<size_t>(p.m * p.r), 0);
  std::vector<ClosCircuit> out;
  for (int i = 0; i < p.ports(); ++i) {
    const int d = dest[static_cast<size_t>(i)];
    if (d < 0) continue;
    ClosCircuit c{i, d, -1};
    const int u = i / n, v = d / n;
    for (int k = 0; k < p.m && c.middle < 0; ++k) {
      if (in_used[static_cast<size_t>(u * p.m + k)] || out_used[static_cast<size_t>(k * p.r + v)]) continue;
      in_used[static_cast<size_t>(u * p.m + k)] = out_used[static_cast<size_t>(k * p.r + v)] = 1;
      c.middle = k;
    }
    out.push_back(c);
  }
  return out;
}

ClosSettings settings_of(const ClosParams& p, const std::vector<ClosCircuit>& circuits) {
  ClosSettings s = ClosSettings::empty(p);
  const int n = p.n, N = p.ports();
  auto claim = [](int& slot, int value, const std::string& what) {
    if (slot >= 0) throw InputError("two circuits need " + what);
    slot = value;
  };
  for (const ClosCircuit& c : circuits) {
    if (c.src < 0 || c.src >= N || c.dst < 0 || c.dst >= N || c.middle < 0 || c.middle >= p.m)
      throw InputError("circuit " + std::to_string(c.src) + " -> " + std::to_string(c.dst) + " via " +
                       std::to_string(c.middle) + " out of range for " + clos_name(p));
    const size_t u = static_cast<size_t>(c.src / n), v = static_cast<size_t>(c.dst / n),
                 k = static_cast<size_t>(c.middle);
    claim(s.in_sel[u][k], c.src % n, "input s-link " + std::to_string(u) + " -> middle " + std::to_string(k));
    claim(s.mid_sel[k][v], static_cast<int>(u), "output s-link middle " + std::to_string(k) + " -> " + std::to_string(v));
    claim(s.out_sel[v][static_cast<size_t>(c.dst % n)], c.middle, "output c-link " + std::to_string(c.dst));
  }
  // Two circuits from one input c-link would fan out: refuse that too.
  std::vector<char> src_used(static_cast<size_t>(N), 0);
  for (const ClosCircuit& c : circuits)
    if (src_used[static_cast<size_t>(c.src)]++) throw InputError("two circuits need input c-link " + std::to_string(c.src));
  return s;
}

ClosTrace trace(const ClosParams& p, const ClosSettings& s) {
  const int n = p.n, N = p.ports();
  ClosTrace t;
  t.reached.assign(static_cast<size_t>(N), -1);
  auto fail = [&](const std::string& e) {
    if (t.error.empty()) t.error = e;
  };
  // Circuits crossing each input s-link (u -> j) and output s-link (j -> o).
  std::vector<int> in_use(static_cast<size_t>(p.r * p.m), 0), out_use(static_cast<size_t>(p.m * p.r), 0);
  std::vector<int> dst_use(static_cast<size_t>(N), 0);
  for (int i = 0; i < N; ++i) {
    const int u = i / n, port = i % n;
    std::vector<int> ends;
    for (int j = 0; j < p.m; ++j) {
      if (s.in_sel[static_cast<size_t>(u)][static_cast<size_t>(j)] != port) continue;
      ++in_use[static_cast<size_t>(u * p.m + j)];
      for (int o = 0; o < p.r; ++o) {
        if (s.mid_sel[static_cast<size_t>(j)][static_cast<size_t>(o)] != u) continue;
        ++out_use[static_cast<size_t>(j * p.r + o)];
        for (int q = 0; q < n; ++q)
          if (s.out_sel[static_cast<size_t>(o)][static_cast<size_t>(q)] == j) ends.push_back(o * n + q);
      }
    }
    if (ends.size() > 1) fail("input " + std::to_string(i) + " fans out to " + std::to_string(ends.size()) + " outputs");
    if (!ends.empty()) {
      t.reached[static_cast<size_t>(i)] = ends[0];
      for (int e : ends) ++dst_use[static_cast<size_t>(e)];
    }
  }
  for (int u = 0; u < p.r; ++u)
    for (int j = 0; j < p.m; ++j)
      if (in_use[static_cast<size_t>(u * p.m + j)] > 1)
        fail("input s-link " + std::to_string(u) + " -> middle " + std::to_string(j) + " used twice");
  for (int j = 0; j < p.m; ++j)
    for (int o = 0; o < p.r; ++o)
      if (out_use[static_cast<size_t>(j * p.r + o)] > 1)
        fail("output s-link middle " + std::to_string(j) + " -> " + std::to_string(o) + " used twice");
  for (int d = 0; d < N; ++d)
    if (dst_use[static_cast<size_t>(d)] > 1) fail("output " + std::to_string(d) + " reached twice");
  return t;
}

std::vector<std::pair<uint32_t, uint32_t>> cfg_writes(const ClosParams& p, const ClosSettings& s) {
  std::vector<std::pair<uint32_t, uint32_t>> w;
  const uint32_t valid = 1u << p.cfg_sel_bits();
  auto word = [&](int sel) { return sel < 0 ? 0u : (valid | static_cast<uint32_t>(sel)); };
  uint32_t a = 0;
  for (const auto& sw : s.in_sel)
    for (int sel : sw) w.emplace_back(a++, word(sel));
  for (const auto& sw : s.mid_sel)
    for (int sel : sw) w.emplace_back(a++, word(sel));
  for (const auto& sw : s.out_sel)
    for (int sel : sw) w.emplace_back(a++, word(sel));
  return w;
}

namespace {

// Routes `dest` (a permutation of 2^k) on the Benes sub-network whose first stage is `stage`
// and whose switches are rows row..row + 2^(k-1) - 1.
void benes_route(int k, const std::vector<int>& dest, int stage, int row, BenesSettings& s) {
  const int N = 1 << k, last = stage + 2 * k - 2;
  if (k == 1) {
    s.cross[static_cast<size_t>(stage)][static_cast<size_t>(row)] = dest[0] == 1;
    return;
  }
  ClosParams p;
  p.m = 2;
  p.n = 2;
  p.r = N / 2;
  std::vector<std::vector<int>> half(2, std::vector<int>(static_cast<size_t>(N / 2), -1));
  for (const ClosCircuit& c : route_permutation(p, dest)) {
    const int u = c.src / 2, v = c.dst / 2;
    // Input port c.src % 2 to output c.middle of switch u; input c.middle to port c.dst % 2 of v.
    s.cross[static_cast<size_t>(stage)][static_cast<size_t>(row + u)] = (c.src % 2) != c.middle;
    s.cross[static_cast<size_t>(last)][static_cast<size_t>(row + v)] = (c.dst % 2) != c.middle;
    half[static_cast<size_t>(c.middle)][static_cast<size_t>(u)] = v;
  }
  for (int h = 0; h < 2; ++h) benes_route(k - 1, half[static_cast<size_t>(h)], stage + 1, row + h * N / 4, s);
}

int benes_trace(const BenesSettings& s, int k, int stage, int row, int port) {
  const auto cross = [&](int st, int w) { return s.cross[static_cast<size_t>(st)][static_cast<size_t>(w)] != 0; };
  if (k == 1) return port ^ (cross(stage, row) ? 1 : 0);
  const int N = 1 << k, u = port / 2;
  const int half = (port % 2) ^ (cross(stage, row + u) ? 1 : 0);
  const int v = benes_trace(s, k - 1, stage + 1, row + half * N / 4, u);
  return 2 * v + (half ^ (cross(stage + 2 * k - 2, row + v) ? 1 : 0));
}

}  // namespace

BenesSettings route_benes(const std::vector<int>& dest) {
  const size_t N = dest.size();
  if (N < 2 || N > 65536 || (N & (N - 1)) != 0)
    throw InputError("Benes network: " + std::to_string(N) + " ports is not a power of two 2..65536");
  const int k = std::countr_zero(N);
  std::vector<char> seen(N, 0);
  for (int d : dest)
    if (d < 0 || static_cast<size_t>(d) >= N || seen[static_cast<size_t>(d)]++)
      throw InputError("Benes network: not a full permutation of " + std::to_string(N) + " ports");
  BenesSettings s;
  s.k = k;
  s.cross.assign(static_cast<size_t>(2 * k - 1), std::vector<char>(N / 2, 0));
  benes_route(k, dest, 0, 0, s);
  return s;
}

std::vector<int> trace_benes(const BenesSettings& s) {
  std::vector<int> out(static_cast<size_t>(1) << s.k);
  for (size_t i = 0; i < out.size(); ++i) out[i] = benes_trace(s, s.k, 0, 0, static_cast<int>(i));
  return out;
}

}  // namespace cmnet

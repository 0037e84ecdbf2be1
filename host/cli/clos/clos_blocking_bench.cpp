// `cmnet bench --family clos`, the blocking curve (also alone: `--only blocking`): blocking
// probability of the paper's N(32, 32, 32) (960 active ports, 30 per switch) against occupancy,
// the fraction of those ports in circuits, from light load up to every port busy
// (sim/clos/clos_occupancy.h). Each point: the mean over three seeds with its spread in a steady
// window of requests (host/cli/bench_stats.h), and the 95% Wilson upper bound of the seeds'
// pooled counts; the paper's < 1e-4 holds at a point when that bound is below it. The curve
// goes to the JSON and to an SVG plot (log10 of the rate, since the paper's figure is 1e-4).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "host/cli/bench_stats.h"
#include "host/cli/clos/clos_family.h"
#include "host/svg_plot.h"
#include "sim/clos/clos_occupancy.h"

namespace cmnet {

namespace {

using json = nlohmann::ordered_json;

constexpr double kPaperBlocking = 1e-4;

struct Order {
  const char* name;
  ClosSelectStart select;
};

// One point of the curve: the figure and the pooled counts at its window.
struct CurvePoint {
  bench::SteadyFigure f;
  uint64_t blocked = 0, requests = 0;
  double upper() const { return bench::wilson95(blocked, requests).second; }
};

CurvePoint blocking_point(const ClosParams& p, int circuits, ClosSelectStart select, bool quick) {
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> pooled;  // window -> (blocked, requests)
  bench::SteadyOptions o;
  o.window = quick ? 2000 : 100000;
  o.max_doublings = quick ? 1 : 3;
  o.window_unit = "requests";
  o.load = std::to_string(circuits) + " circuits";
  const bench::SteadyFigure f = bench::measure_steady(
      [&](uint64_t seed, uint64_t w) {
        ClosOccupancyOptions oo;
        oo.circuits = circuits;
        oo.active_per_switch = 30;
        oo.requests = w;
        oo.select = select;
        oo.seed = seed;
        const ClosOccupancyResult r = run_clos_occupancy(p, oo);
        pooled[w].first += r.blocked;
        pooled[w].second += r.requests;
        return r.blocking();
      },
      o);
  return {f, pooled[f.window].first, pooled[f.window].second};
}

std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2e", v);
  return b;
}

void write_plot(const std::vector<plot::Series>& series, double max_occ, const std::string& path) {
  plot::LineChart c;
  c.title = "Clos N(32, 32, 32), 960 active ports: blocking against occupancy";
  c.x_label = "occupancy (fraction of the 960 active ports in circuits)";
  c.y_label = "log10 blocking probability";
  c.series = series;
  c.series.push_back({"paper: < 1e-4", {{0, -4}, {max_occ, -4}}, "#555555", "2 3"});
  c.y_min = -7;
  c.y_max = 0;
  std::ofstream(path) << plot::line_chart(c);
}

}  // namespace

json clos_blocking_curve(const ClosParams& p, bool quick, const std::string& svg_path) {
  const int active = 30 * p.r;
  const std::vector<double> occ = quick ? std::vector<double>{0.2, 0.5, 0.9}
                                        : std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0};
  const std::vector<Order> orders = quick ? std::vector<Order>{{"h_d's order", ClosSelectStart::kDest}}
                                          : std::vector<Order>{{"h_d's order", ClosSelectStart::kDest},
                                                               {"Latin square", ClosSelectStart::kPair},
                                                               {"random start", ClosSelectStart::kRandom}};
  std::printf("== blocking against occupancy: %s, %d active ports (30 per switch), random connections held at each\n"
              "   occupancy (a circuit torn down, a random free input asks for a random free output; exact vectors,\n"
              "   no races); blocking = requests finding no middle switch with both s-links free; mean [min, max]\n"
              "   over seeds 7, 8, 9, window doubled until steady; 95%% upper bound of the pooled counts\n",
              clos_name(p).c_str(), active);
  std::printf("   %-13s %9s %8s %-30s %10s %-22s %s\n", "search", "occupancy", "circuits", "blocking", "95% upper",
              "window (requests)", "paper < 1e-4");
  json rows = json::array();
  std::vector<plot::Series> series;
  for (const Order& order : orders) {
    plot::Series up{std::string(order.name) + ": 95% upper bound", {}, "", ""};
    plot::Series mean{std::string(order.name) + ": mean (where > 0)", {}, "", "6 4"};
    for (double x : occ) {
      const int circuits = static_cast<int>(std::lround(x * active));
      const CurvePoint pt = blocking_point(p, circuits, order.select, quick);
      const bool holds = pt.upper() < kPaperBlocking;
      const std::string fig = sci(pt.f.figure.mean) + " [" + sci(pt.f.figure.min) + ", " + sci(pt.f.figure.max) + "]";
      std::printf("   %-13s %9.2f %8d %-30s %10s %-22s %s\n", order.name, x, circuits, fig.c_str(), sci(pt.upper()).c_str(),
                  (std::to_string(pt.f.window) + (pt.f.steady ? ", steady" : ", NOT steady")).c_str(),
                  holds ? "holds" : "no");
      std::fflush(stdout);
      up.points.push_back({x, std::log10(pt.upper())});
      if (pt.f.figure.mean > 0) mean.points.push_back({x, std::log10(pt.f.figure.mean)});
      json j = pt.f.to_json();
      j.update({{"search", order.name}, {"occupancy", x}, {"circuits", circuits}, {"active_ports", active},
                {"pooled_blocked", pt.blocked}, {"pooled_requests", pt.requests}, {"ci95_upper", pt.upper()},
                {"paper_holds", holds}});
      rows.push_back(j);
    }
    series.push_back(up);
    if (!mean.points.empty()) series.push_back(mean);
  }
  write_plot(series, occ.back(), svg_path);
  std::printf("   plot: %s\n\n", svg_path.c_str());
  return {{"network", clos_name(p)}, {"active_ports", active}, {"paper_below", kPaperBlocking}, {"svg", svg_path},
          {"points", rows}};
}

}  // namespace cmnet

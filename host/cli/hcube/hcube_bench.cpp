// `cmnet bench --family hcube`: the seed-004 paper's experiment (section 6) re-run on the
// reference models, printed beside the paper's ratios, written as JSON (default
// out/bench-hcube.json) and SVG plots beside it.
//   - n = 6, uniform destinations, exponential lengths (means 512 and 2,048 bytes), normal
//     inter-generation times (variance = mean / 2) at the paper's nine means per length, the
//     same messages for every scheme; x = the paper's ideal link utilization; y = mean ticks
//     from generation to the first packet (wormhole: the first 16 data bytes) and to the last
//     byte, for wormhole, fixed packet and quasi-adaptive packet;
//   - latency ratio = mean first (scheme) / mean first (wormhole); bandwidth ratio = (last - first)
//     of the wormhole / (last - first) of the scheme (the paper: "last less first" is bandwidth);
//   - further (not --quick): n = 8 and 10, other patterns, packet size x buffer count at the
//     paper's storage per port (320 bytes); and first the hardware: each router (packet chip,
//     wormhole router) placed on the iCE40 HX8K (LUT4s, flip-flops, logic cells, Fmax), the
//     emitted 5-cubes against the models message by message.
#include <algorithm>
#include <cstdio>
#include <tuple>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "host/cli/bench_stats.h"
#include "host/cli/hcube/hcube_family.h"
#include "gen/core/process.h"
#include "bitstreams/flow.h"
#include "gen/hcube/hcube_emitter.h"
#include "host/svg_plot.h"
#include "sim/hcube/hcube_model.h"
#include "sim/hcube/hcube_rtl.h"

namespace cmnet {
namespace {

using json = nlohmann::ordered_json;

struct Scheme {
  const char* label;
  const char* scheme;
  const char* routing;
};
constexpr Scheme kSchemes[3] = {{"wormhole", "wormhole", "fixed"},
                                {"fixed packet", "packet", "fixed"},
                                {"quasi packet", "packet", "quasi"}};

struct Result {
  double first = 0, last = 0;  // mean ticks from generation
  bool ok = false;
  uint64_t ticks = 0;
  double seconds = 0;
};

struct RatioPoint {
  double gap = 0, util = 0;
  size_t messages = 0;
  Result s[3];
  double lat(int k) const { return s[k].first / s[0].first; }
  double bw(int k) const { return (s[0].last - s[0].first) / (s[k].last - s[k].first); }
};

struct Setup {
  int dims = 6;
  std::string pattern = "uniform";
  double mean_len = 512;
  int per_node = 40;
  int packet_bytes = 20, buffers = 16;
  uint64_t seed = 1;
};

HcubeParams params_of(const Setup& su, const Scheme& s) {
  HcubeParams p;
  p.dims = su.dims;
  p.scheme = s.scheme;
  p.routing = s.routing;
  p.packet_bytes = su.packet_bytes;
  p.buffers = su.buffers;
  return p;
}

RatioPoint run_point(const Setup& su, double gap, int schemes = 3) {
  const HcubeTraffic t = make_hcube_workload(su.dims, su.pattern, su.mean_len, gap, su.per_node, su.seed);
  RatioPoint pt;
  pt.gap = gap;
  pt.messages = t.messages.size();
  pt.util = hcube_ideal_utilization(t, params_of(su, kSchemes[0]));
  for (int k = 0; k < schemes; ++k) {
    const HcubeParams p = params_of(su, kSchemes[k]);
    const HcubeRunResult r = run_hcube_model(p, t);
    Result& x = pt.s[k];
    x.ok = r.completed;
    x.ticks = r.ticks;
    x.seconds = r.seconds;
    for (size_t i = 0; i < t.messages.size(); ++i) {
      x.first += static_cast<double>(r.deliveries[i].first - t.messages[i].gen);
      x.last += static_cast<double>(r.deliveries[i].last - t.messages[i].gen);
    }
    x.first /= static_cast<double>(t.messages.size());
    x.last /= static_cast<double>(t.messages.size());
  }
  return pt;
}

// The paper's nine mean inter-generation times (section 6; its 36,846 read as 36,864 = 4 x 9,216).
std::vector<double> paper_gaps(double mean_len) {
  const std::vector<double> g512 = {1024, 1280, 1536, 2048, 2560, 3072, 5120, 7168, 9216};
  std::vector<double> g;
  for (double x : g512) g.push_back(x * mean_len / 512.0);
  return g;
}

json point_json(const RatioPoint& pt) {
  json s = json::object();
  for (int k = 0; k < 3; ++k)
    s[kSchemes[k].label] = {{"mean_first_ticks", pt.s[k].first}, {"mean_last_ticks", pt.s[k].last},
                            {"completed", pt.s[k].ok}, {"ticks", pt.s[k].ticks}, {"seconds", pt.s[k].seconds}};
  return {{"mean_gap_ticks", pt.gap},
          {"ideal_link_utilization", pt.util},
          {"messages", pt.messages},
          {"schemes", s},
          {"latency_ratio_fixed", pt.lat(1)},
          {"bandwidth_ratio_fixed", pt.bw(1)},
          {"latency_ratio_quasi", pt.lat(2)},
          {"bandwidth_ratio_quasi", pt.bw(2)}};
}

// The paper's words for load index i of 9 (0 = heaviest), per length.
std::string paper_says(double mean_len, int i) {
  if (mean_len == 512) {
    std::string f = i < 6 ? "fixed ~0.70" : i == 8 ? "fixed ~0.85" : "fixed -";
    std::string q = i < 2 ? "quasi <0.20" : i == 8 ? "quasi ~0.70" : "quasi -";
    std::string b = i == 0 ? "bw fixed ~0.30 quasi ~0.20" : i == 8 ? "bw fixed ~0.70 quasi ~0.70" : "";
    return f + ", " + q + (b.empty() ? "" : "; " + b);
  }
  std::string s = "fixed >=1 (no gain), quasi 0.18-0.25";
  if (i == 0) s += "; bw quasi ~0.25";
  if (i == 8) s += "; bw quasi ~0.65";
  return s;
}

void print_table(const std::string& title, const std::vector<RatioPoint>& pts, double mean_len, bool paper) {
  std::printf("-- %s\n", title.c_str());
  std::printf("   %6s %5s | %8s %8s | %8s %8s | %8s %8s | %5s %5s %5s %5s |%s\n", "gap", "util", "worm 1st", "last",
              "fixd 1st", "last", "quas 1st", "last", "lat F", "bw F", "lat Q", "bw Q", paper ? " paper (ratios to wormhole)" : "");
  for (size_t i = 0; i < pts.size(); ++i) {
    const RatioPoint& p = pts[i];
    std::printf("   %6.0f %5.3f | %8.0f %8.0f | %8.0f %8.0f | %8.0f %8.0f | %5.2f %5.2f %5.2f %5.2f |%s%s\n", p.gap, p.util,
                p.s[0].first, p.s[0].last, p.s[1].first, p.s[1].last, p.s[2].first, p.s[2].last, p.lat(1), p.bw(1), p.lat(2),
                p.bw(2), paper ? (" " + paper_says(mean_len, static_cast<int>(i))).c_str() : "",
                p.s[0].ok && p.s[1].ok && p.s[2].ok ? "" : "  (NOT all delivered)");
    std::fflush(stdout);
  }
}

std::string latency_plot(const std::string& title, const std::vector<RatioPoint>& pts) {
  plot::LineChart c;
  c.title = title;
  c.x_label = "ideal link utilization (link time needed / link time until the last generation)";
  c.y_label = "mean time from generation (ticks)";
  // Dark for the first packet, light for the last byte, one hue per scheme.
  const char* colors[2][3] = {{"#d62728", "#1f77b4", "#2ca02c"}, {"#ff9896", "#9ecae1", "#98df8a"}};
  for (int k = 0; k < 3; ++k)
    for (int last = 0; last < 2; ++last) {
      plot::Series s;
      s.name = std::string(last ? "last " : "first ") + kSchemes[k].label;
      s.color = colors[last][k];
      for (const RatioPoint& p : pts) s.points.push_back({p.util, last ? p.s[k].last : p.s[k].first});
      c.series.push_back(s);
    }
  return plot::line_chart(c);
}

std::string ratio_plot(const std::string& title, const std::vector<RatioPoint>& pts) {
  plot::LineChart c;
  c.title = title;
  c.x_label = "ideal link utilization";
  c.y_label = "packet scheme / wormhole (ratio)";
  c.y_min = 0;
  const char* names[4] = {"latency, fixed", "bandwidth, fixed", "latency, quasi", "bandwidth, quasi"};
  for (int j = 0; j < 4; ++j) {
    plot::Series s;
    s.name = names[j];
    for (const RatioPoint& p : pts) s.points.push_back({p.util, j == 0 ? p.lat(1) : j == 1 ? p.bw(1) : j == 2 ? p.lat(2) : p.bw(2)});
    c.series.push_back(s);
  }
  return plot::line_chart(c);
}

}  // namespace

PlaceableModule hcube_node_placeable(const HcubeParams& p) {
  GeneratedDesign d = emit_hcube_node(p);
  std::string chparam = "chparam";
  for (const auto& [k, v] : hcube_node_params(p, 1)) {
    const auto q = v.find("'d");
    chparam += " -set " + k + " " + (q == std::string::npos ? v : v.substr(q + 2));
  }
  const std::string top = d.top;
  return {std::move(d), top, chparam + " " + top, {}};
}

namespace {

// One router (a packet-scheme node chip or a wormhole router) placed alone on the iCE40 HX8K
// (bitstreams/flow.h: yosys synth_ice40 with the node's parameters, nextpnr; its ports, far more
// than the package's pins, come from the shift-chain wrapper). A chip too large for the part is
// reported with its synthesis counts only.
struct Placed {
  ModulePlacement m;
  std::string error;  // why it was not placed ("" = placed)
};

Placed place_node(const HcubeParams& p) {
  namespace fs = std::filesystem;
  const PlaceableModule mod = hcube_node_placeable(p);
  const GeneratedDesign& d = mod.design;
  ModulePlaceOptions o =
      module_place_options(mod, (fs::temp_directory_path() / ("cmnet-hcube-place-" + std::to_string(::getpid()))).string());
  fs::remove_all(o.dir);
  // The target is the HX8K boards' 12 MHz oscillator; nextpnr reports the Fmax it reached.
  o.freq_mhz = 12;
  Placed r;
  o.place = false;
  try {
    r.m = place_module_ice40(d, d.top, o);
  } catch (const std::exception& e) {
    r.error = e.what();
    fs::remove_all(o.dir);
    return r;
  }
  // The HX8K: 7,680 logic cells (a LUT4 and a flip-flop each, the wrapper adds a flip-flop per
  // port bit); a chip whose LUT4s alone exceed them cannot be placed.
  if (r.m.luts > 7680 || r.m.ffs > 7680) {
    r.error = "does not fit the HX8K (synthesis counts only)";
  } else {
    o.place = true;
    try {
      r.m = place_module_ice40(d, d.top, o);
    } catch (const std::exception& e) {
      // nextpnr's "does not fit" when the module and its wrapper's flip-flops exceed the part.
      const std::string what = e.what();
      r.error = what.find("does not fit") != std::string::npos ? "does not fit the HX8K with the wrapper's flip-flops"
                                                               : "place and route failed: " + what;
    }
  }
  fs::remove_all(o.dir);
  return r;
}

// The hardware (not --quick): every router placed on the iCE40, and the emitted networks against
// the models at n = 5 (32 nodes; the tests stop at 4), packet and wormhole.
bool hardware_section(json& out) {
  bool all_ok = true;
  // Each router on the iCE40 HX8K (7,680 logic cells, 32 block RAMs): LUT4s and flip-flops of the
  // module alone, then nextpnr's logic cells (the wrapper's flip-flops included) and Fmax.
  std::printf("\n-- the routers on the iCE40 HX8K (yosys synth_ice40 of the module alone; nextpnr-ice40 --hx8k in the "
              "shift-chain wrapper; 7,680 logic cells)\n");
  std::printf("   %-9s %4s %7s %8s | %6s %6s %5s | %7s %9s %s\n", "router", "dims", "routing", "buffers", "LUT4", "FF", "RAM",
              "cells", "Fmax MHz", "");
  json synth = json::array();
  struct Cfg {
    const char* scheme;
    int n;
    const char* routing;
    int buffers;
  };
  for (const Cfg& c : std::vector<Cfg>{{"wormhole", 3, "fixed", 0}, {"wormhole", 6, "fixed", 0}, {"packet", 2, "fixed", 2},
                                       {"packet", 3, "fixed", 2}, {"packet", 3, "quasi", 4}, {"packet", 6, "quasi", 2}}) {
    HcubeParams p;
    p.dims = c.n;
    p.scheme = c.scheme;
    p.routing = c.routing;
    if (c.buffers > 0) p.buffers = c.buffers;
    const Placed pl = place_node(p);
    const ModulePlacement& m = pl.m;
    const bool placed = pl.error.empty() && m.placed;
    char cells[32] = "-", fmax[32] = "-";
    if (placed) {
      std::snprintf(cells, sizeof cells, "%ld", m.logic_cells);
      std::snprintf(fmax, sizeof fmax, "%.1f", m.fmax_mhz);
    }
    std::printf("   %-9s %4d %7s %8s | %6ld %6ld %5ld | %7s %9s %s\n", c.scheme, c.n, c.routing,
                c.buffers > 0 ? std::to_string(c.buffers).c_str() : "-", m.luts, m.ffs, m.ram_blocks, cells, fmax,
                pl.error.substr(0, 60).c_str());
    std::fflush(stdout);
    synth.push_back({{"scheme", c.scheme}, {"dims", c.n}, {"routing", c.routing}, {"buffers", c.buffers},
                     {"packet_bytes", p.packet_bytes}, {"lut4", m.luts}, {"ff", m.ffs}, {"ram", m.ram_blocks},
                     {"placed", placed}, {"logic_cells", placed ? m.logic_cells : -1},
                     {"wrapper_ffs", m.wrapper_ffs}, {"fmax_mhz", placed ? m.fmax_mhz : 0.0}, {"note", pl.error}});
    // A chip too large for the part is a finding, not a failure of the bench.
  all_ok = all_ok && (placed || pl.error.find("does not fit") != std::string::npos);
  }
  out["synthesis_ice40"] = synth;

  std::printf("\n-- the emitted 5-cubes (Verilator) against the reference models, message by message\n");
  std::printf("   %-22s %-9s %6s | %9s %9s %9s %s\n", "network", "load", "msgs", "same", "counters", "data_ok",
              "rtl cycles/s");
  json rtl5 = json::array();
  for (const auto& [scheme, routing, buffers] :
       std::vector<std::tuple<const char*, const char*, int>>{{"wormhole", "fixed", 0}, {"packet", "quasi", 3}}) {
    for (double gap : {600.0, 60.0}) {
      HcubeConfig cfg;
      cfg.hc.dims = 5;
      cfg.hc.scheme = scheme;
      cfg.hc.routing = routing;
      if (buffers > 0) cfg.hc.buffers = buffers;
      const HcubeTraffic t = make_hcube_workload(5, "uniform", 64, gap, 6, 17);
      const HcubeRunResult m = run_hcube_model(cfg.hc, t);
      HcubeRtlOptions o;
      o.max_cycles = 5000000;
      HcubeRunResult r;
      std::string err;
      try {
        r = run_hcube_rtl(cfg, t, o);
      } catch (const std::exception& e) {
        err = e.what();
      }
      size_t same = 0, ok = 0, ports_same = 0;
      if (err.empty()) {
        for (size_t i = 0; i < t.messages.size(); ++i) {
          const HcubeDelivery& x = m.deliveries[i];
          const HcubeDelivery& y = r.deliveries[i];
          same += y.delivered && x.first == y.first && x.last == y.last && x.first_dim == y.first_dim;
          ok += y.data_ok;
        }
        for (size_t i = 0; i < m.ports.size(); ++i)
          ports_same += m.ports[i].packets == r.ports[i].packets && m.ports[i].messages == r.ports[i].messages &&
                        m.ports[i].bytes == r.ports[i].bytes && m.ports[i].blocked_ticks == r.ports[i].blocked_ticks;
      }
      const std::string name = std::string(scheme) + (buffers > 0 ? std::string(" ") + routing + " b" + std::to_string(buffers) : "");
      const double cps = r.seconds > 0 ? static_cast<double>(r.ticks) / r.seconds : 0;
      std::printf("   %-22s gap %-5.0f %6zu | %9zu %5zu/%-3zu %9zu %.0f %s\n", name.c_str(), gap, t.messages.size(), same,
                  ports_same, m.ports.size(), ok, cps, err.substr(0, 80).c_str());
      std::fflush(stdout);
      const bool good = err.empty() && same == t.messages.size() && ok == t.messages.size() && ports_same == m.ports.size();
      all_ok = all_ok && good;
      rtl5.push_back({{"network", name}, {"mean_gap_ticks", gap}, {"messages", t.messages.size()},
                      {"same_ticks", same}, {"data_ok", ok}, {"ports_same", ports_same}, {"ports", m.ports.size()},
                      {"rtl_cycles_per_s", cps}, {"agrees", good}, {"error", err}});
    }
  }
  out["rtl_against_model_n5"] = rtl5;
  return all_ok;
}

// The paper's experiment: the 6-cube, uniform destinations, at the paper's nine loads for each mean
// length, every scheme; tables and plots beside `stem`. Returns the points by mean length; all_ok
// goes false if a scheme did not deliver every message intact.
std::vector<std::pair<double, std::vector<RatioPoint>>> paper_experiment(json& out, int per_node, const std::string& stem,
                                                                    bool& all_ok) {
  json experiments = json::array();
  std::vector<std::pair<double, std::vector<RatioPoint>>> runs;
  for (double len : {512.0, 2048.0}) {
    Setup su;
    su.mean_len = len;
    su.per_node = per_node;
    std::vector<RatioPoint> pts;
    for (double g : paper_gaps(len)) pts.push_back(run_point(su, g));
    print_table("mean length " + std::to_string(static_cast<int>(len)) + " bytes (paper: Figs. 6a-6b for 512, 7a-7b for 2048)",
                pts, len, true);
    std::printf("\n");
    json jp2 = json::array();
    for (const RatioPoint& p : pts) {
      jp2.push_back(point_json(p));
      for (const Result& r : p.s) all_ok = all_ok && r.ok;
    }
    experiments.push_back({{"mean_length_bytes", len}, {"dims", 6}, {"pattern", "uniform"}, {"points", jp2}});
    const std::string l = std::to_string(static_cast<int>(len));
    std::ofstream(stem + "-" + l + ".svg") << latency_plot(
        "hcube 6-cube, mean length " + l + " bytes: time to first packet and last byte", pts);
    std::ofstream(stem + "-" + l + "-ratios.svg") << ratio_plot(
        "hcube 6-cube, mean length " + l + " bytes: packet schemes against wormhole", pts);
    runs.push_back({len, pts});
  }
  out["paper_experiment"] = experiments;
  return runs;
}

// Summary beside the paper's sentences, from the 512- and 2048-byte points.
json beside_the_paper(const std::vector<RatioPoint>& s5, const std::vector<RatioPoint>& s2) {
  auto range = [](const std::vector<RatioPoint>& v, size_t from, size_t to, auto f) {
    double lo = 1e9, hi = -1e9;
    for (size_t i = from; i < to && i < v.size(); ++i) lo = std::min(lo, f(v[i])), hi = std::max(hi, f(v[i]));
    char b[64];
    std::snprintf(b, sizeof b, lo == hi ? "%.2f" : "%.2f-%.2f", lo, hi);
    return std::string(b);
  };
  auto latF = [](const RatioPoint& p) { return p.lat(1); };
  auto latQ = [](const RatioPoint& p) { return p.lat(2); };
  auto bwF = [](const RatioPoint& p) { return p.bw(1); };
  auto bwQ = [](const RatioPoint& p) { return p.bw(2); };
  struct Row {
    std::string what, measured, paper;
  };
  const std::vector<Row> rows = {
      {"512 B: fixed packet latency / wormhole, 6 heaviest loads", range(s5, 0, 6, latF), "~0.70"},
      {"512 B: fixed packet latency / wormhole, lightest load", range(s5, 8, 9, latF), "~0.85"},
      {"512 B: fixed packet bandwidth / wormhole, heaviest .. lightest", range(s5, 0, 1, bwF) + " .. " + range(s5, 8, 9, bwF), "~0.30 .. ~0.70"},
      {"512 B: quasi packet latency / wormhole, 2 heaviest loads", range(s5, 0, 2, latQ), "< 0.20"},
      {"512 B: quasi packet latency / wormhole, lightest load", range(s5, 8, 9, latQ), "~0.70"},
      {"512 B: quasi packet bandwidth / wormhole, heaviest .. lightest", range(s5, 0, 1, bwQ) + " .. " + range(s5, 8, 9, bwQ), "~0.20 .. ~0.70"},
      {"2048 B: fixed packet latency / wormhole, all loads", range(s2, 0, 9, latF), "no improvement (>= ~1)"},
      {"2048 B: quasi packet latency / wormhole, all loads", range(s2, 0, 9, latQ), "0.18-0.25"},
      {"2048 B: quasi packet bandwidth / wormhole, heaviest .. lightest", range(s2, 0, 1, bwQ) + " .. " + range(s2, 8, 9, bwQ), "~0.25 .. ~0.65"},
  };
  std::printf("== beside the paper\n   %-64s %-16s %s\n", "", "measured", "paper");
  json summary = json::array();
  for (const Row& r : rows) {
    std::printf("   %-64s %-16s %s\n", r.what.c_str(), r.measured.c_str(), r.paper.c_str());
    summary.push_back({{"what", r.what}, {"measured", r.measured}, {"paper", r.paper}});
  }
  std::printf("\n");
  return summary;
}

// Beyond saturation the mean times grow with the length of the run (sources fall behind):
// the paper does not give its run length, so show what it does to the ratios.
json run_length_section() {
  std::printf("-- run length: the ratios at the two heaviest 512-byte loads against messages per node\n");
  std::printf("   %9s %6s %5s | %5s %5s %5s %5s\n", "per node", "gap", "util", "lat F", "bw F", "lat Q", "bw Q");
  json runlen = json::array();
  for (int per : {10, 20, 40, 80})
    for (double g : {1024.0, 1280.0}) {
      Setup su;
      su.per_node = per;
      const RatioPoint p = run_point(su, g);
      std::printf("   %9d %6.0f %5.3f | %5.2f %5.2f %5.2f %5.2f\n", per, g, p.util, p.lat(1), p.bw(1), p.lat(2), p.bw(2));
      std::fflush(stdout);
      json j = point_json(p);
      j["messages_per_node"] = per;
      runlen.push_back(j);
    }
  std::printf("\n");
  return runlen;
}

// The workload `su` at three of the paper's loads, as a table and JSON points.
json three_loads(const Setup& su, const std::string& title) {
  std::vector<RatioPoint> pts;
  for (double g : {1024.0, 2048.0, 9216.0}) pts.push_back(run_point(su, g));
  print_table(title, pts, 512, false);
  json jp2 = json::array();
  for (const RatioPoint& p : pts) jp2.push_back(point_json(p));
  std::printf("\n");
  return jp2;
}

// Larger cubes, the same 512-byte workload at three of the paper's loads.
json larger_cubes() {
  json bigger = json::array();
  for (int n : {8, 10}) {
    Setup su;
    su.dims = n;
    su.per_node = n == 8 ? 20 : 8;
    const json pts = three_loads(su, std::to_string(n) + "-cube, uniform, mean length 512 bytes, " +
                                         std::to_string(su.per_node) + " messages per node");
    bigger.push_back({{"dims", n}, {"mean_length_bytes", 512}, {"points", pts}});
  }
  return bigger;
}

// Other traffic patterns on the 6-cube.
json other_patterns(int per_node) {
  json pats = json::array();
  for (const char* pat : {"bit-complement", "transpose", "hotspot"}) {
    Setup su;
    su.pattern = pat;
    su.per_node = per_node;
    const json pts = three_loads(su, std::string("6-cube, ") + pat + ", mean length 512 bytes");
    pats.push_back({{"pattern", pat}, {"mean_length_bytes", 512}, {"points", pts}});
  }
  return pats;
}

// Packet size x buffer count at the paper's storage per port (20 x 16 = 320 bytes); the plot
// beside `stem`.
json packet_size_tradeoff(int per_node, const std::string& stem) {
  std::printf("-- packet size x buffers per port at 320 bytes per port, quasi-adaptive packet, 6-cube, uniform, 512 B\n");
  std::printf("   %7s %7s | %-28s | %-28s | %-28s\n", "packet", "buffers", "gap 1024: first / last", "gap 2048: first / last",
              "gap 9216: first / last");
  json trade = json::array();
  plot::LineChart tc;
  tc.title = "hcube 6-cube, quasi packet, 320 bytes of buffers per port: packet size trade-off";
  tc.x_label = "packet size (bytes, headers included; buffers = 320 / size)";
  tc.y_label = "mean time to the first packet (ticks)";
  std::vector<plot::Series> ts(3);
  for (auto [pb, bufs] : std::vector<std::pair<int, int>>{{16, 20}, {20, 16}, {32, 10}, {40, 8}, {64, 5}, {80, 4}, {160, 2}}) {
    std::printf("   %7d %7d |", pb, bufs);
    json row = {{"packet_bytes", pb}, {"buffers", bufs}};
    json lp = json::array();
    int gi = 0;
    for (double g : {1024.0, 2048.0, 9216.0}) {
      Setup su;
      su.packet_bytes = pb;
      su.buffers = bufs;
      su.per_node = per_node;
      const HcubeTraffic t = make_hcube_workload(6, "uniform", 512, g, su.per_node, 1);
      const HcubeRunResult r = run_hcube_model(params_of(su, kSchemes[2]), t);
      double f = 0, l = 0;
      for (size_t i = 0; i < t.messages.size(); ++i) {
        f += static_cast<double>(r.deliveries[i].first - t.messages[i].gen);
        l += static_cast<double>(r.deliveries[i].last - t.messages[i].gen);
      }
      f /= static_cast<double>(t.messages.size());
      l /= static_cast<double>(t.messages.size());
      std::printf(" %12.0f / %-13.0f |", f, l);
      lp.push_back({{"mean_gap_ticks", g}, {"mean_first_ticks", f}, {"mean_last_ticks", l}, {"completed", r.completed}});
      ts[static_cast<size_t>(gi)].name = "gap " + std::to_string(static_cast<int>(g)) + " ticks";
      ts[static_cast<size_t>(gi++)].points.push_back({static_cast<double>(pb), f});
    }
    std::printf("\n");
    std::fflush(stdout);
    row["points"] = lp;
    trade.push_back(row);
  }
  tc.series = ts;
  std::ofstream(stem + "-packet-size.svg") << plot::line_chart(tc);
  return trade;
}

// The ratios the README quotes beside the paper, each a figure over seeds 7, 8, 9 in a run long
// enough that a longer one changes nothing (bench_stats.h; the window is messages per node,
// doubled): at the paper's heaviest and lightest loads per length. The paper's figure 6-7
// points (paper_experiment) are one seed's curve. Beyond saturation a run's mean times grow
// with its length (sources fall behind), so there a ratio may not be steady: it says so.
json ratio_figures(bool quick) {
  struct Row {
    double len, gap;
  };
  // --quick (a test's seconds, not a figure): one light load of short messages, short runs.
  const std::vector<Row> rows = quick ? std::vector<Row>{{128, 2304}}
                                      : std::vector<Row>{{512, 1024}, {512, 1280}, {512, 9216}, {2048, 4096}, {2048, 36864}};
  struct Ratio {
    const char* name;
    double (RatioPoint::*f)(int) const;
    int scheme;
  };
  const Ratio ratios[] = {{"latency fixed", &RatioPoint::lat, 1}, {"latency quasi", &RatioPoint::lat, 2}, {"bandwidth quasi", &RatioPoint::bw, 2}};
  std::printf("-- the ratios to wormhole beside the paper, 6-cube, uniform: mean [min, max] over seeds 7, 8, 9, run length\n"
              "   (messages per node) doubled until a longer run changes nothing ('!' = it still moved)\n");
  std::printf("   %6s %6s %5s | %-24s | %-24s | %-24s | %s\n", "length", "gap", "util", "latency fixed", "latency quasi",
              "bandwidth quasi", "per node");
  json out = json::array();
  for (const Row& r : rows) {
    std::map<std::pair<uint64_t, uint64_t>, RatioPoint> runs;  // (seed, per node) -> the three schemes' run
    auto point = [&](uint64_t seed, uint64_t per) -> const RatioPoint& {
      auto it = runs.find({seed, per});
      if (it == runs.end()) {
        Setup su;
        su.mean_len = r.len;
        su.per_node = static_cast<int>(per);
        su.seed = seed;
        it = runs.emplace(std::make_pair(seed, per), run_point(su, r.gap)).first;
      }
      return it->second;
    };
    json row = {{"mean_length_bytes", r.len}, {"mean_gap_ticks", r.gap}};
    std::string cells;
    double util = 0;
    uint64_t window = 0;
    for (const Ratio& q : ratios) {
      bench::SteadyOptions o;
      o.window = quick ? 2 : 20;
      o.max_doublings = quick ? 1 : 2;
      o.window_unit = "messages per node";
      o.load = "mean gap " + std::to_string(static_cast<int>(r.gap)) + " ticks";
      const bench::SteadyFigure f =
          bench::measure_steady([&](uint64_t seed, uint64_t per) { return (point(seed, per).*q.f)(q.scheme); }, o);
      util = point(7, f.window).util;
      window = std::max(window, f.window);
      char c[64];
      std::snprintf(c, sizeof c, "%-23s%s", f.figure.str("%.2f").c_str(), f.steady ? " " : "!");
      cells += std::string(" ") + c + " |";
      row[q.name] = f.to_json();
    }
    row["ideal_link_utilization_seed7"] = util;
    std::printf("   %6.0f %6.0f %5.3f |%s %llu\n", r.len, r.gap, util, cells.c_str(), static_cast<unsigned long long>(window));
    std::fflush(stdout);
    out.push_back(row);
  }
  std::printf("\n");
  return out;
}

}  // namespace

int hcube_bench(const BenchArgs& a) {
  namespace fs = std::filesystem;
  const bool quick = a.quick;
  const std::string path = a.json.empty() ? "out/bench-hcube.json" : a.json;
  const fs::path jp(path);
  if (jp.has_parent_path()) fs::create_directories(jp.parent_path());
  const std::string stem = (jp.parent_path() / jp.stem()).string();
  json out;
  out["tool"] = "cmnet bench";
  out["family"] = "hcube";
  out["model"] = {{"ticks_per_byte", 2}, {"arb_ticks", 4}, {"packet_bytes", 20}, {"buffers_per_port", 16},
                  {"cut_through", true}, {"deadlock_rule", "at most buffers - 1 contrary packets per port"}};
  const int per_node = quick ? 8 : 40;
  std::printf("== cmnet bench: hcube, the seed-004 paper's experiment on the reference models\n");
  std::printf("   6-cube (64 nodes, 384 channels), uniform destinations, exponential lengths, normal inter-generation "
              "times (variance = mean / 2), %d messages per node, the same messages for every scheme; 2 ticks per "
              "byte, 4 ticks of arbitration, 20-byte packets, 16 buffers per output port\n",
              per_node);
  std::printf("   times in ticks from generation: first = the first packet (wormhole: the first 16 data bytes), last = "
              "the last byte; lat = first / wormhole first; bw = (last - first) of wormhole / of the scheme\n\n");
  bool all_ok = true;
  if (a.only == "ratios") {
    out["ratio_figures"] = ratio_figures(quick);
    std::ofstream(path) << out.dump(2) << '\n';
    std::printf("wrote %s\n", path.c_str());
    return 0;
  }
  if (!quick) all_ok = hardware_section(out) && all_ok;
  const auto runs = paper_experiment(out, per_node, stem, all_ok);
  out["beside_the_paper"] = beside_the_paper(runs[0].second, runs[1].second);
  out["ratio_figures"] = ratio_figures(quick);
  if (!quick) {
    out["run_length"] = run_length_section();
    out["larger_cubes"] = larger_cubes();
    out["patterns"] = other_patterns(per_node);
    out["packet_size_tradeoff"] = packet_size_tradeoff(per_node, stem);
  }
  std::ofstream(path) << out.dump(2) << '\n';
  std::printf("\nwrote %s and %s-*.svg\n", path.c_str(), stem.c_str());
  return all_ok ? 0 : 1;
}

}  // namespace cmnet

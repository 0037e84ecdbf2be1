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
//     paper's storage per port (320 bytes).
#include <algorithm>
#include <cstdio>
#include <tuple>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "gen/cli/hcube/hcube_family.h"
#include "gen/core/process.h"
#include "gen/hcube/hcube_emitter.h"
#include "host/svg_plot.h"
#include "sim/hcube/hcube_model.h"

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

struct Point {
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

Point run_point(const Setup& su, double gap, int schemes = 3) {
  const HcubeTraffic t = make_hcube_workload(su.dims, su.pattern, su.mean_len, gap, su.per_node, su.seed);
  Point pt;
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

json point_json(const Point& pt) {
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

void print_table(const std::string& title, const std::vector<Point>& pts, double mean_len, bool paper) {
  std::printf("-- %s\n", title.c_str());
  std::printf("   %6s %5s | %8s %8s | %8s %8s | %8s %8s | %5s %5s %5s %5s |%s\n", "gap", "util", "worm 1st", "last",
              "fixd 1st", "last", "quas 1st", "last", "lat F", "bw F", "lat Q", "bw Q", paper ? " paper (ratios to wormhole)" : "");
  for (size_t i = 0; i < pts.size(); ++i) {
    const Point& p = pts[i];
    std::printf("   %6.0f %5.3f | %8.0f %8.0f | %8.0f %8.0f | %8.0f %8.0f | %5.2f %5.2f %5.2f %5.2f |%s%s\n", p.gap, p.util,
                p.s[0].first, p.s[0].last, p.s[1].first, p.s[1].last, p.s[2].first, p.s[2].last, p.lat(1), p.bw(1), p.lat(2),
                p.bw(2), paper ? (" " + paper_says(mean_len, static_cast<int>(i))).c_str() : "",
                p.s[0].ok && p.s[1].ok && p.s[2].ok ? "" : "  (NOT all delivered)");
    std::fflush(stdout);
  }
}

std::string latency_plot(const std::string& title, const std::vector<Point>& pts) {
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
      for (const Point& p : pts) s.points.push_back({p.util, last ? p.s[k].last : p.s[k].first});
      c.series.push_back(s);
    }
  return plot::line_chart(c);
}

std::string ratio_plot(const std::string& title, const std::vector<Point>& pts) {
  plot::LineChart c;
  c.title = title;
  c.x_label = "ideal link utilization";
  c.y_label = "packet scheme / wormhole (ratio)";
  c.y_min = 0;
  const char* names[4] = {"latency, fixed", "bandwidth, fixed", "latency, quasi", "bandwidth, quasi"};
  for (int j = 0; j < 4; ++j) {
    plot::Series s;
    s.name = names[j];
    for (const Point& p : pts) s.points.push_back({p.util, j == 0 ? p.lat(1) : j == 1 ? p.bw(1) : j == 2 ? p.lat(2) : p.bw(2)});
    c.series.push_back(s);
  }
  return plot::line_chart(c);
}

// yosys synth_ice40 of one node chip: LUT4s, flip-flops and block RAMs from `stat` (-1 when yosys
// failed). Fmax needs place and route, and the chip's ports (a packet per feeder) are far more
// than a package has pins: that waits for a board top.
struct Synth {
  long luts = -1, ffs = 0, brams = 0;
};

Synth synth_node(const HcubeParams& p) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cmnet-hcube-synth-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const GeneratedDesign d = emit_hcube_node(p);
  write_design(d, dir.string());
  std::string script = "read_verilog";
  for (const auto& f : d.verilog_files()) script += " " + (dir / f).string();
  script += "; chparam";
  for (const auto& [k, v] : hcube_node_params(p, 1)) {
    const auto q = v.find("'d");
    script += " -set " + k + " " + (q == std::string::npos ? v : v.substr(q + 2));
  }
  script += " hcube_pkt_node; synth_ice40 -top hcube_pkt_node; stat";
  Synth s;
  const int rc = run_child({CMNET_YOSYS, "-q", "-p", script, "-l", (dir / "yosys.log").string()}, 3600,
                           (dir / "yosys.out").string());
  if (rc == 0) {
    std::ifstream in(dir / "yosys.log");
    std::string line;
    const std::regex cell(R"(^\s+(SB_\w+)\s+(\d+)\s*$)");
    std::smatch m;
    s.luts = 0;
    while (std::getline(in, line))
      if (std::regex_match(line, m, cell)) {
        const std::string name = m[1];
        const long v = std::stol(m[2]);
        if (name == "SB_LUT4") s.luts = v;
        else if (name.rfind("SB_DFF", 0) == 0) s.ffs += v;
        else if (name.rfind("SB_RAM", 0) == 0) s.brams += v;
      }
  }
  fs::remove_all(dir);
  return s;
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
  json experiments = json::array();
  bool all_ok = true;
  std::vector<std::pair<double, std::vector<Point>>> runs;
  for (double len : {512.0, 2048.0}) {
    Setup su;
    su.mean_len = len;
    su.per_node = per_node;
    std::vector<Point> pts;
    for (double g : paper_gaps(len)) pts.push_back(run_point(su, g));
    print_table("mean length " + std::to_string(static_cast<int>(len)) + " bytes (paper: Figs. 6a-6b for 512, 7a-7b for 2048)",
                pts, len, true);
    std::printf("\n");
    json jp2 = json::array();
    for (const Point& p : pts) {
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

  // Summary beside the paper's sentences.
  auto range = [](const std::vector<Point>& v, size_t from, size_t to, auto f) {
    double lo = 1e9, hi = -1e9;
    for (size_t i = from; i < to && i < v.size(); ++i) lo = std::min(lo, f(v[i])), hi = std::max(hi, f(v[i]));
    char b[64];
    std::snprintf(b, sizeof b, lo == hi ? "%.2f" : "%.2f-%.2f", lo, hi);
    return std::string(b);
  };
  const auto& s5 = runs[0].second;
  const auto& s2 = runs[1].second;
  auto latF = [](const Point& p) { return p.lat(1); };
  auto latQ = [](const Point& p) { return p.lat(2); };
  auto bwF = [](const Point& p) { return p.bw(1); };
  auto bwQ = [](const Point& p) { return p.bw(2); };
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
  out["beside_the_paper"] = summary;
  std::printf("\n");

  if (!quick) {
    // Beyond saturation the mean times grow with the length of the run (sources fall behind):
    // the paper does not give its run length, so show what it does to the ratios.
    std::printf("-- run length: the ratios at the two heaviest 512-byte loads against messages per node\n");
    std::printf("   %9s %6s %5s | %5s %5s %5s %5s\n", "per node", "gap", "util", "lat F", "bw F", "lat Q", "bw Q");
    json runlen = json::array();
    for (int per : {10, 20, 40, 80})
      for (double g : {1024.0, 1280.0}) {
        Setup su;
        su.per_node = per;
        const Point p = run_point(su, g);
        std::printf("   %9d %6.0f %5.3f | %5.2f %5.2f %5.2f %5.2f\n", per, g, p.util, p.lat(1), p.bw(1), p.lat(2), p.bw(2));
        std::fflush(stdout);
        json j = point_json(p);
        j["messages_per_node"] = per;
        runlen.push_back(j);
      }
    out["run_length"] = runlen;
    std::printf("\n");
    // Larger cubes, the same 512-byte workload at three of the paper's loads.
    json bigger = json::array();
    for (int n : {8, 10}) {
      Setup su;
      su.dims = n;
      su.per_node = n == 8 ? 20 : 8;
      std::vector<Point> pts;
      for (double g : {1024.0, 2048.0, 9216.0}) pts.push_back(run_point(su, g));
      print_table(std::to_string(n) + "-cube, uniform, mean length 512 bytes, " + std::to_string(su.per_node) +
                      " messages per node",
                  pts, 512, false);
      json jp2 = json::array();
      for (const Point& p : pts) jp2.push_back(point_json(p));
      bigger.push_back({{"dims", n}, {"mean_length_bytes", 512}, {"points", jp2}});
      std::printf("\n");
    }
    out["larger_cubes"] = bigger;
    // Other traffic patterns on the 6-cube.
    json pats = json::array();
    for (const char* pat : {"bit-complement", "transpose", "hotspot"}) {
      Setup su;
      su.pattern = pat;
      su.per_node = per_node;
      std::vector<Point> pts;
      for (double g : {1024.0, 2048.0, 9216.0}) pts.push_back(run_point(su, g));
      print_table(std::string("6-cube, ") + pat + ", mean length 512 bytes", pts, 512, false);
      json jp2 = json::array();
      for (const Point& p : pts) jp2.push_back(point_json(p));
      pats.push_back({{"pattern", pat}, {"mean_length_bytes", 512}, {"points", jp2}});
      std::printf("\n");
    }
    out["patterns"] = pats;
    // Packet size x buffer count at the paper's storage per port (20 x 16 = 320 bytes).
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
    out["packet_size_tradeoff"] = trade;

    // The packet chip's size on the iCE40 (yosys synth_ice40; the HX8K has 7,680 LUT4s and
    // flip-flops and 32 block RAMs).
    std::printf("\n-- the packet-scheme node chip, yosys synth_ice40 (iCE40 HX8K: 7,680 LUT4 / 7,680 FF / 32 RAM)\n");
    std::printf("   %5s %7s %6s %8s | %7s %7s %5s %s\n", "dims", "routing", "packet", "buffers", "LUT4", "FF", "RAM", "fits");
    json synth = json::array();
    for (auto [n, rt, b] : std::vector<std::tuple<int, const char*, int>>{{3, "fixed", 2}, {3, "quasi", 4}, {6, "quasi", 2}}) {
      HcubeParams p;
      p.dims = n;
      p.routing = rt;
      p.buffers = b;
      const Synth sy = synth_node(p);
      const bool fits = sy.luts >= 0 && sy.luts <= 7680 && sy.ffs <= 7680 && sy.brams <= 32;
      std::printf("   %5d %7s %6d %8d | %7ld %7ld %5ld %s\n", n, rt, p.packet_bytes, b, sy.luts, sy.ffs, sy.brams,
                  sy.luts < 0 ? "(yosys failed)" : fits ? "yes" : "no");
      std::fflush(stdout);
      synth.push_back({{"dims", n}, {"routing", rt}, {"packet_bytes", p.packet_bytes}, {"buffers", b},
                       {"lut4", sy.luts}, {"ff", sy.ffs}, {"ram", sy.brams}, {"fits_hx8k", fits}});
    }
    out["synthesis_ice40"] = synth;
  }
  std::ofstream(path) << out.dump(2) << '\n';
  std::printf("\nwrote %s and %s-*.svg\n", path.c_str(), stem.c_str());
  return all_ok ? 0 : 1;
}

}  // namespace cmnet

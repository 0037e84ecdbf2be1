// `cmnet bench --family cm5ctl`: the CM-5 control network's figures, measured. Prints tables and
// writes JSON (default out/bench-cm5ctl.json):
//   - latency of a broadcast, a reduction, a scan and a barrier against the number of leaves,
//     on the RTL (Verilator, 2..256 leaves; --quick: 2, 8) and on the reference model (2..16,384;
//     --quick: to 1,024), beside the bound 2 x height x hop time + packet time (a hop is a
//     packet time: the nodes store and forward);
//   - pipelined throughput: forward scans pushed back to back by every leaf, operations
//     completed per packet time in steady state (goal 1.0);
//   - one node's and one three-node chip's (cm5ctl_chip) iCE40 cells, flip-flops, logic cells
//     and Fmax on the HX8K (yosys synth_ice40, nextpnr-ice40; --quick: the node's synthesis only), the
//     CM-5's links.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bitstreams/flow.h"
#include "host/cli/cm5ctl/cm5ctl_family.h"
#include "gen/cm5ctl/cm5ctl_emitter.h"
#include "sim/cm5ctl/cm5ctl_figures.h"
#include "sim/cm5ctl/cm5ctl_rtl.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

Cm5ctlConfig cm5_config(int leaves) {
  Cm5ctlConfig c;
  c.p.leaves = leaves;
  return c;
}

Cm5Engine rtl_engine(const Cm5ctlConfig& c) {
  return [c](const Cm5Workload& w) {
    const Cm5RtlRun r = run_cm5ctl_rtl(c, w);
    if (!r.completed || r.fault) throw std::runtime_error("RTL run of '" + w.name + "' did not complete");
    return r.results;
  };
}

json latency_json(const Cm5Latency& l) {
  return {{"leaves", l.leaves}, {"height", l.height},     {"bound", l.bound},   {"broadcast", l.broadcast},
          {"reduce", l.reduce}, {"scan", l.scan},         {"barrier", l.barrier}};
}

}  // namespace

// A node of `p`'s tree (or a three-node chip) as a module to place alone: its parameters those of
// a node at level 1 (the chip: its top node at level 2, the two lower ones at level 1), set by
// chparam on the emitted modules.
PlaceableModule cm5ctl_placeable(const Cm5ctlParams& p, const std::string& top) {
  Cm5ctlConfig c;
  c.p = p;
  const int qd = p.effective_queue_depth(), ad = p.aside_depth_at(1), ad2 = p.aside_depth_at(2);
  auto S = [](int64_t x) { return std::to_string(x); };
  auto cw = [](int x) { return static_cast<int64_t>(clog2(static_cast<uint64_t>(x) + 1)); };
  std::string chparam = "chparam -set W " + S(p.word_bits) + " -set PB " + S(p.payload_bits()) + " -set C " +
                        S(p.crc_bits) + " -set WU " + S(p.up_width) + " -set WD " + S(p.down_width) + " -set TU " +
                        S(p.up_frame()) + " -set TD " + S(p.down_frame()) + " -set QD " + S(qd) + " -set QCW " +
                        S(cw(qd)) + " -set STOP_AT " + S(qd - p.stop_margin());
  if (top == "cm5ctl_chip")
    chparam += " -set AD_T " + S(ad2) + " -set ACW_T " + S(cw(ad2)) + " -set AD_C " + S(ad) + " -set ACW_C " + S(cw(ad));
  else
    chparam += " -set AD " + S(ad) + " -set ACW " + S(cw(ad));
  return {emit_cm5ctl(c), top, chparam + " " + top, {"cm5ctl_tree.v"}};
}

namespace {

// One node's (or one three-node chip's) iCE40 figures through the shared place_module_ice40
// (bitstreams/flow.h): yosys synth_ice40 of the module alone (a node of a 1,024-leaf tree), then
// nextpnr-ice40 on the HX8K (ct256); a module with more port bits than pins sits in the shared
// shift-chain wrapper.
json ice40_figures(const Cm5ctlParams& p, const std::string& top, bool place) {
  const fs::path dir = fs::temp_directory_path() / ("cmnet-bench-cm5-" + top + "-" + std::to_string(::getpid()));
  const PlaceableModule mod = cm5ctl_placeable(p, top);
  ModulePlaceOptions o = module_place_options(mod, dir.string());
  o.place = place;
  // A target both modules meet (the chip's Fmax is near 40 MHz): the figure is nextpnr's Fmax,
  // not the target, and timing_met says the target was met.
  o.freq_mhz = 25;
  const ModulePlacement m = place_module_ice40(mod.design, top, o);
  const int ad = p.aside_depth_at(1), ad2 = p.aside_depth_at(2), qd = p.effective_queue_depth();
  json out = {{"module", top},
              {"aside_depth", top == "cm5ctl_chip" ? json::array({ad2, ad}) : json(ad)},
              {"queue_depth", qd},
              {"SB_LUT4", m.luts},
              {"SB_CARRY", m.carries},
              {"flip_flops", m.ffs},
              {"SB_RAM40_4K", m.ram_blocks}};
  if (m.placed) {
    out["nextpnr_ok"] = true;
    out["wrapped"] = m.wrapped;
    out["wrapper_ffs"] = m.wrapper_ffs;
    out["logic_cells"] = m.logic_cells;
    out["fmax_mhz"] = m.fmax_mhz;
    out["timing_met_25mhz"] = m.timing_met;
  }
  fs::remove_all(dir);
  return out;
}

int run_cm5ctl_bench(const std::string& json_path, bool quick) {
  json out;
  out["tool"] = "cmnet bench";
  out["family"] = "cm5ctl";
  const Cm5ctlParams dflt = cm5_config(2).p;
  std::printf("== CM-5 control network: links %d up / %d down, packet %d bits: Tu = %d, Td = %d cycles "
              "(packet time %d); bound = 2 x height x %d + %d\n",
              dflt.up_width, dflt.down_width, dflt.packet_bits(), dflt.up_frame(), dflt.down_frame(),
              dflt.packet_time(), dflt.packet_time(), dflt.packet_time());
  std::printf("   latency: cycles from the push (cycle 0) until the last leaf presents the result\n\n");
  std::printf("  %-7s %-6s %6s | %-22s | %-22s | %-22s | %-22s\n", "leaves", "height", "bound", "broadcast rtl/model",
              "reduce rtl/model", "scan rtl/model", "barrier rtl/model");
  // RTL to 256 leaves (511 nodes and leaves in one Verilator model: minutes to build, cached);
  // beyond it the model alone.
  const int rtl_max = quick ? 8 : 256;
  const int model_max = quick ? 1024 : 16384;
  json lat = json::array();
  for (int n = 2; n <= model_max; n *= 2) {
    const Cm5ctlConfig c = cm5_config(n);
    const Cm5Latency m = measure_latency(c.p, cm5_model_engine(c.p));
    json row = {{"model", latency_json(m)}};
    bool have_rtl = n <= rtl_max && (!quick || n == 2 || n == 8);
    Cm5Latency r;
    if (have_rtl) {
      std::fflush(stdout);
      r = measure_latency(c.p, rtl_engine(c));
      row["rtl"] = latency_json(r);
      row["rtl_equals_model"] = r.broadcast == m.broadcast && r.reduce == m.reduce && r.scan == m.scan &&
                                r.barrier == m.barrier;
    }
    auto cell = [&](int64_t rv, int64_t mv) {
      char b[40];
      if (have_rtl) std::snprintf(b, sizeof b, "%6lld / %-6lld", static_cast<long long>(rv), static_cast<long long>(mv));
      else std::snprintf(b, sizeof b, "     - / %-6lld", static_cast<long long>(mv));
      return std::string(b);
    };
    std::printf("  %-7d %-6d %6lld | %-22s | %-22s | %-22s | %-22s\n", n, m.height, static_cast<long long>(m.bound),
                cell(r.broadcast, m.broadcast).c_str(), cell(r.reduce, m.reduce).c_str(), cell(r.scan, m.scan).c_str(),
                cell(r.barrier, m.barrier).c_str());
    lat.push_back(row);
  }
  out["latency"] = lat;
  std::printf("\n   (a reduction: height up hops of Tu, a wait for the next down frame, height down hops\n"
              "   of Td, the leaf's frame before and one cycle to present: within the bound plus Tu + 2)\n");

  std::printf("\n== pipelined throughput: forward scans pushed back to back by every leaf\n");
  std::printf("  %-8s %-7s %6s %14s %24s\n", "engine", "leaves", "ops", "cycles / op", "ops per packet time");
  json thr = json::array();
  auto report = [&](const char* engine, const Cm5Throughput& t) {
    std::printf("  %-8s %-7d %6d %14.2f %24.3f\n", engine, t.leaves, t.ops, t.cycles_per_op, t.ops_per_packet_time);
    thr.push_back({{"engine", engine},
                   {"leaves", t.leaves},
                   {"ops", t.ops},
                   {"cycles_per_op", t.cycles_per_op},
                   {"ops_per_packet_time", t.ops_per_packet_time}});
  };
  for (int n : quick ? std::vector<int>{8, 1024} : std::vector<int>{8, 64, 1024, 16384}) {
    const Cm5ctlParams p = cm5_config(n).p;
    report("model", measure_throughput(p, cm5_model_engine(p), n >= 4096 ? 100 : 200));
  }
  for (int n : quick ? std::vector<int>{8} : std::vector<int>{8, 64}) {
    const Cm5ctlConfig c = cm5_config(n);
    report("rtl", measure_throughput(c.p, rtl_engine(c), 200));
  }
  out["throughput"] = thr;

  // The CM-5's 65-bit packet (packet "cm5": 13-cycle frames both ways, the CRC in every packet).
  {
    auto cm5p = [](int n) {
      Cm5ctlConfig c = cm5_config(n);
      c.p.crc_bits = 8;
      c.p.packet = "cm5";
      return c;
    };
    const Cm5ctlParams q = cm5p(2).p;
    std::printf("\n== the CM-5's 65-bit packet (packet cm5): a major stream on 4 wires, a minor stream on 1, %d cycles\n"
                "   per packet both ways; bound = 2 x height x %d + %d\n",
                q.packet_time(), q.packet_time(), q.packet_time());
    std::printf("  %-7s %-6s %6s | %-22s | %-22s | %-22s\n", "leaves", "height", "bound", "broadcast rtl/model",
                "reduce rtl/model", "scan rtl/model");
    json lat65 = json::array(), thr65 = json::array();
    for (int n : quick ? std::vector<int>{2, 1024} : std::vector<int>{2, 8, 64, 1024, 16384}) {
      const Cm5ctlConfig c = cm5p(n);
      const Cm5Latency m = measure_latency(c.p, cm5_model_engine(c.p));
      json row = {{"model", latency_json(m)}};
      const bool have_rtl = n <= (quick ? 2 : 8);
      Cm5Latency r;
      if (have_rtl) {
        r = measure_latency(c.p, rtl_engine(c));
        row["rtl"] = latency_json(r);
        row["rtl_equals_model"] = r.broadcast == m.broadcast && r.reduce == m.reduce && r.scan == m.scan;
      }
      auto cell = [&](int64_t rv, int64_t mv) {
        char b[40];
        if (have_rtl) std::snprintf(b, sizeof b, "%6lld / %-6lld", static_cast<long long>(rv), static_cast<long long>(mv));
        else std::snprintf(b, sizeof b, "     - / %-6lld", static_cast<long long>(mv));
        return std::string(b);
      };
      std::printf("  %-7d %-6d %6lld | %-22s | %-22s | %-22s\n", n, m.height, static_cast<long long>(m.bound),
                  cell(r.broadcast, m.broadcast).c_str(), cell(r.reduce, m.reduce).c_str(), cell(r.scan, m.scan).c_str());
      lat65.push_back(row);
    }
    std::printf("  %-8s %-7s %6s %14s %24s\n", "engine", "leaves", "ops", "cycles / op", "ops per packet time");
    auto report65 = [&](const char* engine, const Cm5Throughput& t) {
      std::printf("  %-8s %-7d %6d %14.2f %24.3f\n", engine, t.leaves, t.ops, t.cycles_per_op, t.ops_per_packet_time);
      thr65.push_back({{"engine", engine}, {"leaves", t.leaves}, {"ops", t.ops}, {"cycles_per_op", t.cycles_per_op},
                       {"ops_per_packet_time", t.ops_per_packet_time}});
    };
    for (int n : quick ? std::vector<int>{8} : std::vector<int>{8, 1024}) {
      const Cm5ctlParams p = cm5p(n).p;
      report65("model", measure_throughput(p, cm5_model_engine(p), 200));
    }
    report65("rtl", measure_throughput(cm5p(8).p, rtl_engine(cm5p(8)), quick ? 50 : 200));
    out["cm5_packet"] = {{"packet_bits", q.packet_bits()}, {"packet_time", q.packet_time()}, {"latency", lat65},
                         {"throughput", thr65}};
  }

  std::printf("\n== one node and one three-node chip on the iCE40 HX8K (place_module_ice40: yosys synth_ice40,\n"
              "   nextpnr-ice40 --hx8k, in the shift-chain wrapper when its ports outnumber the pins; a node of a 1,024-leaf tree's level 1, a chip of its levels 2 and 1;\n"
              "   --quick: the node's synthesis only, no place and route)\n");
  std::printf("  %-12s %8s %8s %8s %6s %8s %10s\n", "module", "SB_LUT4", "SB_CARRY", "FFs", "RAM", "LCs", "Fmax MHz");
  for (const std::string& top : quick ? std::vector<std::string>{"cm5ctl_node"}
                                      : std::vector<std::string>{"cm5ctl_node", "cm5ctl_chip"}) {
    try {
      const json r = ice40_figures(cm5_config(1024).p, top, !quick);
      std::printf("  %-12s %8d %8d %8d %6d %8s %10s\n", top.c_str(), r["SB_LUT4"].get<int>(), r["SB_CARRY"].get<int>(),
                  r["flip_flops"].get<int>(), r["SB_RAM40_4K"].get<int>(),
                  r.contains("logic_cells") ? std::to_string(r["logic_cells"].get<long>()).c_str() : "-",
                  r.contains("fmax_mhz") ? std::to_string(r["fmax_mhz"].get<double>()).substr(0, 6).c_str() : "-");
      out[top == "cm5ctl_node" ? "node_ice40" : "chip_ice40"] = r;
    } catch (const std::exception& e) {
      std::printf("  %-12s (not measured: %s)\n", top.c_str(), e.what());
    }
  }

  std::ofstream js(json_path);
  js << out.dump(2) << "\n";
  std::printf("\nJSON: %s\n", json_path.c_str());
  return 0;
}

}  // namespace

int cm5ctl_bench(const BenchArgs& a) {
  const std::string json_path = a.json.empty() ? "out/bench-cm5ctl.json" : a.json;
  fs::path p(json_path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  return run_cm5ctl_bench(json_path, a.quick);
}

}  // namespace cmnet

#include "host/cli/hcube/hcube_family.h"
#include "host/cli/sim_lines.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gen/core/errors.h"
#include "gen/hcube/hcube_emitter.h"
#include "gen/hcube/hcube_selftest.h"
#include "gen/hcube/hcube_stream.h"
#include "host/hcube/hcube_runner.h"
#include "sim/hcube/hcube_model.h"
#include "sim/hcube/hcube_rtl.h"
#include "sim/hcube/hcube_selftest_model.h"

namespace cmnet {

std::string HcubeFamily::title() const {
  return "binary n-cube of message-transport chips: quasi-adaptive packet transport against wormhole routing "
         "(seed-004 paper)";
}

std::vector<std::string> HcubeFamily::patterns() const { return hcube_pattern_names(); }

// host: the stream board (gen/hcube/hcube_stream.h on the shared shell), the host drives it;
// network: the self-test top (gen/hcube/hcube_selftest.h), the wormhole network alone with its
// nodes' hosts played from a ROM and checked against the model.
std::vector<std::string> HcubeFamily::build_modes() const { return {"host", "network"}; }

std::vector<std::string> HcubeFamily::figures() const {
  return {"the paper's experiment on the model (n = 6, uniform, exponential lengths 512 and 2,048 bytes, nine "
          "loads each): mean time to the first packet and to the last byte against ideal link utilization for "
          "wormhole, fixed packet and quasi-adaptive packet, the latency and bandwidth ratios beside the paper's",
          "further: n = 8 and 10, bit-complement / transpose / hot spot, packet size x buffer count at equal storage, "
          "each router (packet chip, wormhole router) on the iCE40 HX8K: LUT4s, flip-flops, logic cells and Fmax "
          "(yosys + nextpnr), the emitted 5-cubes of both schemes against the models"};
}

void HcubeFamily::check(const NetworkConfig& cfg) const { (void)hcube_config(cfg); }

std::string HcubeFamily::canonical_json(const NetworkConfig& cfg) const { return config_to_json(hcube_config(cfg)); }

GeneratedDesign HcubeFamily::emit(const NetworkConfig& cfg) const { return emit_hcube(hcube_config(cfg)); }

std::string HcubeFamily::summary(const NetworkConfig& cfg) const {
  const HcubeParams& p = hcube_config(cfg).hc;
  char buf[512];
  if (p.packet())
    std::snprintf(buf, sizeof buf,
                  "hcube: %d-cube, %d nodes, %d directed channels, packet scheme (%s routing), packets of %d bytes "
                  "(%d data bytes, %d in the first), %d buffers per output port (%d bytes), %d ticks per byte, %d "
                  "ticks of arbitration",
                  p.dims, p.nodes(), p.links(), p.routing.c_str(), p.packet_bytes, p.data_bytes(), p.first_data_bytes(),
                  p.buffers, p.buffers * p.packet_bytes, p.ticks_per_byte, p.arb_ticks);
  else
    std::snprintf(buf, sizeof buf,
                  "hcube: %d-cube, %d nodes, %d directed channels, wormhole (e-cube, one message per channel, "
                  "%d-byte message header), %d ticks per byte, %d ticks of arbitration per hop",
                  p.dims, p.nodes(), p.links(), HcubeParams::kMessageHeaderBytes, p.ticks_per_byte, p.arb_ticks);
  return buf;
}

namespace {

// The shared CLI default pattern ("permutation") is not an hcube pattern: it runs as uniform.
std::string board_pattern(const std::string& p) { return p == "permutation" ? "uniform" : p; }

// The stream board top of `cfg` on board `b`: `cmnet build`'s and the FPGA bench's.
GeneratedDesign hcube_board_top_on(const HcubeConfig& cfg, const Board& b) {
  HostBoardOptions h;
  h.clock_hz = static_cast<uint32_t>(b.clock_mhz * 1e6 + 0.5);
  h.reset_button = b.reset.has_value() && b.reset->active_low;
  return emit_stream_board(hcube_stream_spec(cfg), h);
}

// The self-test top of `cfg` on board `b`: a pattern's messages (`cmnet sim`'s workload) or a
// traffic file's, run by the model for the expectations.
GeneratedDesign hcube_selftest_top_on(const HcubeConfig& cfg, const Board& b, const BuildArgs& a) {
  const HcubeParams& p = cfg.hc;
  check_hcube_selftest_shape(p);
  if (a.traffic.empty() && a.per_proc < 1)
    throw InputError("--per-proc " + std::to_string(a.per_proc) + ": a self-test node sends at least 1 message");
  const std::string pattern = board_pattern(a.pattern);
  const HcubeSelfTest t =
      a.traffic.empty()
          ? hcube_selftest_of(p, hcube_sim_pattern(p, pattern, a.pattern_seed, a.per_proc), pattern, a.pattern_seed,
                              a.per_proc)
          : hcube_selftest_of(p, read_hcube_traffic_file(a.traffic, p), a.traffic, 0, 0);
  return emit_hcube_selftest(cfg, t, selftest_pins(b));
}

}  // namespace

GeneratedDesign HcubeFamily::board_top(const NetworkConfig& env, const Board& b, const BuildArgs& a) const {
  const std::string mode = a.mode.empty() ? "host" : a.mode;
  if (mode == "network") return hcube_selftest_top_on(hcube_config(env), b, a);
  if (mode != "host") throw InputError("--mode " + mode + ": unknown mode (allowed: host, network)");
  reject_option(*this, !a.traffic.empty(), "--traffic (the host board's traffic comes from cmnet run)");
  return hcube_board_top_on(hcube_config(env), b);
}

int HcubeFamily::run(const NetworkConfig& env, const RunArgs& a) const {
  const HcubeConfig cfg = hcube_config(env);
  reject_option(*this, !a.generator.empty(), "--generator");
  reject_option(*this, !a.mode.empty(), "--mode");
  const std::string pattern = board_pattern(a.pattern);
  const HcubeTraffic t =
      a.traffic.empty() ? hcube_sim_pattern(cfg.hc, pattern, a.seed, a.per_proc) : read_hcube_traffic_file(a.traffic, cfg.hc);
  const StreamRunArgs s = stream_run_args(a);
  const StreamRunOutcome o = run_hcube_board(cfg, t, a.traffic.empty() ? pattern : a.traffic, s);
  return o.verdict.ok() ? 0 : 3;
}

std::unique_ptr<SimBoard> HcubeFamily::start_board(const NetworkConfig& env, const BoardArgs& args) const {
  return start_stream_board(hcube_stream_spec(hcube_config(env)), args);
}

int HcubeFamily::sweep(const NetworkConfig& env, const SweepArgs& a) const {
  const HcubeConfig cfg = hcube_config(env);
  if (!a.mode.empty()) throw InputError("sweep: --mode is CM-1's; the hcube board takes --pattern and --max-per-proc");
  if (a.max_per_proc < 1) throw InputError("sweep: --max-per-proc " + std::to_string(a.max_per_proc) + " must be at least 1");
  // Messages per node: the board's stores hold 16 per node; 4 keep every point inside them.
  const int per_node = std::min(a.max_per_proc, 4);
  return run_hcube_sweep(cfg, board_pattern(a.pattern), a.seed, per_node,
                         stream_run_args(a.board, a.out_dir, a.timeout_s, a.sim_link))
             ? 0
             : 3;
}

HcubeTraffic hcube_sim_pattern(const HcubeParams& p, const std::string& pattern, uint64_t seed, int per_node) {
  return make_hcube_workload(p.dims, pattern, 64, 512, per_node, seed);
}

std::string hcube_ports_path(const std::string& jsonl) {
  return std::filesystem::path(jsonl).replace_extension(".ports.csv").string();
}

namespace {

// The four counters of a port, named once for the CSV, the totals and the per-port spread.
constexpr const char* kPortCounters[] = {"packets", "messages", "bytes", "blocked_ticks"};
uint64_t port_counter(const HcubePortCounters& c, size_t k) {
  return k == 0 ? c.packets : k == 1 ? c.messages : k == 2 ? c.bytes : c.blocked_ticks;
}

nlohmann::ordered_json write_port_table(const HcubeParams& p, const std::vector<HcubePortCounters>& ports,
                                        const std::string& jsonl) {
  // Every port of every node goes to a CSV beside the JSON lines (an n-cube has n * 2^n ports:
  // 49,152 at n = 12); the summary keeps what a reader looks at: totals, per dimension, the spread.
  const std::string path = hcube_ports_path(jsonl);
  std::ofstream csv(path);
  if (!csv) throw InputError(path + ": cannot write the port table");
  csv << "node,dim";
  for (const char* k : kPortCounters) csv << ',' << k;
  csv << '\n';
  const size_t n = static_cast<size_t>(p.dims), nk = std::size(kPortCounters);
  std::vector<std::vector<uint64_t>> per_dim(n, std::vector<uint64_t>(nk, 0));
  std::vector<uint64_t> total(nk, 0), lo(nk, UINT64_MAX), hi(nk, 0);
  std::vector<size_t> at_hi(nk, 0);
  for (size_t i = 0; i < ports.size(); ++i) {
    csv << i / n << ',' << i % n;
    for (size_t k = 0; k < nk; ++k) {
      const uint64_t v = port_counter(ports[i], k);
      csv << ',' << v;
      per_dim[i % n][k] += v;
      total[k] += v;
      lo[k] = std::min(lo[k], v);
      if (v > hi[k]) hi[k] = v, at_hi[k] = i;
    }
    csv << '\n';
  }
  if (!csv.flush()) throw InputError(path + ": cannot write the port table");
  nlohmann::ordered_json j, tot, dims = nlohmann::ordered_json::array(), spread;
  j["file"] = std::filesystem::path(path).filename().string();
  j["count"] = ports.size();
  for (size_t k = 0; k < nk; ++k) {
    tot[kPortCounters[k]] = total[k];
    const double mean = ports.empty() ? 0.0 : static_cast<double>(total[k]) / static_cast<double>(ports.size());
    spread[kPortCounters[k]] = {{"min", ports.empty() ? uint64_t{0} : lo[k]}, {"mean", mean}, {"max", hi[k]},
                                {"max_at", {{"node", at_hi[k] / n}, {"dim", at_hi[k] % n}}}};
  }
  for (size_t d = 0; d < n; ++d) {
    nlohmann::ordered_json e;
    e["dim"] = d;
    for (size_t k = 0; k < nk; ++k) e[kPortCounters[k]] = per_dim[d][k];
    dims.push_back(e);
  }
  j["total"] = tot;
  j["per_port"] = spread;
  j["per_dim"] = dims;
  return j;
}

// A payload as the lines write it: hex strings of up to 4 bytes each, in the order sent.
std::vector<std::string> hcube_byte_words(const std::vector<uint8_t>& bytes) {
  std::vector<std::string> w;
  char b[4];
  for (size_t k = 0; k < bytes.size(); ++k) {
    if (k % 4 == 0) w.emplace_back();
    std::snprintf(b, sizeof b, "%02x", bytes[k]);
    w.back() += b;
  }
  return w;
}

// Message i's line: handed to its source's chip at `gen`, its last byte at the destination at
// `last`. What arrived is what the receiver reassembled: the harness (and the model) compare it
// byte for byte with the payload, so it is the payload when data_ok and unknown (no words, the
// flag false) otherwise.
SimRecord hcube_record(const HcubeParams& p, size_t i, const HcubeMessage& m, const HcubeDelivery& d, bool model) {
  SimRecord r;
  r.id = i;
  SimEnd from{m.src, m.gen, {}, hcube_byte_words(hcube_payload(p.seed, m)), {}};
  r.sent.push_back(from);
  r.dst = m.dst;
  r.extra["len"] = m.len;
  r.extra["hops"] = hcube_hops(m.src, m.dst);
  r.extra["first_dim"] = d.first_dim;
  if (d.delivered) {
    SimEnd to{m.dst, d.last, {}, d.data_ok ? from.text_words : std::vector<std::string>{}, {}};
    to.flags = {{"data_ok", d.data_ok}};
    r.arrived.push_back(to);
    r.delivered = d.data_ok;
    r.extra["first"] = d.first;
    if (model) r.extra["started"] = d.started;  // the model alone sees a header take its first channel
  }
  return r;
}

}  // namespace

int HcubeFamily::sim(const NetworkConfig& env, const SimArgs& a) const {
  const HcubeConfig cfg = hcube_config(env);
  const HcubeParams& p = cfg.hc;
  reject_option(*this, !a.mode.empty(), "--mode");
  if (a.pattern.empty() && a.traffic.empty()) throw InputError("sim: give --pattern NAME or --traffic FILE");
  check_trace(a.trace, a.engine);
  const HcubeTraffic t =
      a.traffic.empty() ? hcube_sim_pattern(p, a.pattern, a.seed, a.per_proc) : read_hcube_traffic_file(a.traffic, p);
  HcubeRunResult r;
  if (a.engine == "model") {
    r = run_hcube_model(p, t);
  } else if (a.engine == "rtl") {
    HcubeRtlOptions o;
    o.max_cycles = 50000000;
    o.trace = a.trace;
    r = run_hcube_rtl(cfg, t, o);
  } else {
    throw InputError("--engine " + a.engine + ": unknown engine (allowed: rtl, model)");
  }
  SimLinesWriter out(a.out);
  double first = 0, last = 0;
  uint64_t bad = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const HcubeDelivery& d = r.deliveries[i];
    if (d.delivered) {
      first += static_cast<double>(d.first - t.messages[i].gen);
      last += static_cast<double>(d.last - t.messages[i].gen);
      bad += d.data_ok ? 0 : 1;
    }
    out.write(hcube_record(p, i, t.messages[i], d, a.engine == "model"));
  }
  const double dn = r.delivered ? static_cast<double>(r.delivered) : 1.0;
  SimSummary s;
  s.family = "hcube";
  s.engine = a.engine;
  s.time_unit = "ticks";
  s.completed = r.completed;
  s.extra = {{"scheme", p.scheme},
             {"routing", p.routing},
             {"nodes", p.nodes()},
             {"messages", t.messages.size()},
             {"deadlock", r.deadlock},
             {"ticks", r.ticks},
             {"ideal_utilization", hcube_ideal_utilization(t, p)},
             {"mean_first", first / dn},
             {"mean_last", last / dn},
             {"bad_reassembly", r.bad_reassembly},
             {"max_buffer_used", r.max_buffer_used},
             {"ports", write_port_table(p, r.ports, a.out)}};
  out.finish(s);
  std::printf("%s: %zu messages, %llu delivered, mean first packet %.1f ticks, last byte %.1f ticks%s -> %s, %s\n",
              a.engine.c_str(), t.messages.size(), static_cast<unsigned long long>(r.delivered), first / dn, last / dn,
              r.completed ? "" : (r.deadlock ? " (DEADLOCK)" : " (NOT completed)"), a.out.c_str(),
              hcube_ports_path(a.out).c_str());
  return r.completed && bad == 0 ? 0 : 3;
}

int HcubeFamily::bench(const BenchArgs& args) const { return hcube_bench(args); }

std::vector<FpgaBlock> HcubeFamily::fpga_blocks() const {
  // A node's ports: its n cube links and its host's, each a byte wide.
  auto block = [](const std::string& name, const std::string& scheme, int n, int buffers) {
    FpgaBlock b;
    b.name = name;
    b.how = "hcube node alone (place_module_ice40) in the shift-chain wrapper, node 1's parameters";
    b.ports = n + 1;
    b.port_bits = 8;
    b.measure = [scheme, n, buffers](const FpgaRunOptions& o) {
      HcubeParams p;
      p.dims = n;
      p.scheme = scheme;
      p.routing = "fixed";
      if (buffers > 0) p.buffers = buffers;
      return measure_module(hcube_node_placeable(p), o);
    };
    return b;
  };
  // The smallest useful stream board (gen/examples/hcube_2_board.json): `cmnet build`'s flow; its
  // wormhole network's acceptance loops through the nodes' vectors, so nextpnr ignores the loops.
  FpgaBlock board;
  board.name = "stream board n = 2, wormhole (hcube_host_board)";
  board.how = "hcube_host_board of gen/examples/hcube_2_board.json through the whole flow on the HX8K breakout "
              "(nextpnr --ignore-loops)";
  board.measure = [](const FpgaRunOptions& o) {
    const HcubeConfig cfg = hcube_config(load_config_file(std::string(CMNET_SOURCE_DIR) + "/gen/examples/hcube_2_board.json"));
    const Board b = load_board("ice40hx8k_breakout");
    return measure_board_top(hcube_board_top_on(cfg, b), b, "host", config_to_json(cfg), o, true);
  };
  // The self-test board of the same config (the network with its traffic in a ROM, no host link).
  FpgaBlock selftest;
  selftest.name = "self-test board n = 2, wormhole (hcube_selftest_top)";
  selftest.how = "hcube_selftest_top of gen/examples/hcube_2_board.json (uniform, seed 1, 4 messages per node) through "
                 "the whole flow on the HX8K breakout (nextpnr --ignore-loops)";
  selftest.measure = [](const FpgaRunOptions& o) {
    const HcubeConfig cfg = hcube_config(load_config_file(std::string(CMNET_SOURCE_DIR) + "/gen/examples/hcube_2_board.json"));
    const Board b = load_board("ice40hx8k_breakout");
    BuildArgs a;
    a.pattern = "uniform";
    a.per_proc = 4;
    return measure_board_top(hcube_selftest_top_on(cfg, b, a), b, "network", config_to_json(cfg), o, true);
  };
  return {block("wormhole router n = 3", "wormhole", 3, 0), block("wormhole router n = 6", "wormhole", 6, 0),
          block("packet node n = 2, fixed, 2 buffers of 20 bytes", "packet", 2, 2), board, selftest};
}

}  // namespace cmnet

#include "host/cli/cm5data/cm5data_family.h"
#include "host/cli/sim_lines.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gen/cm5data/cm5data_emitter.h"
#include "gen/cm5data/cm5data_cabled.h"
#include "gen/cm5data/cm5data_selftest.h"
#include "gen/cm5data/cm5data_stream.h"
#include "sim/cm5data/cm5data_selftest_model.h"
#include "host/cm5data/cm5data_runner.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/cm5data_rtl.h"

namespace cmnet {

std::string Cm5DataFamily::title() const {
  return "CM-5 data network: 4-ary fat tree of router chips with 4 children and 2 or 4 parents "
         "(Leiserson et al. 1992)";
}

std::vector<std::string> Cm5DataFamily::patterns() const { return cm5_pattern_names(); }

// host: the stream board (gen/cm5data/cm5data_stream.h on the shared shell), the host drives
// it; network: the self-test top (gen/cm5data/cm5data_selftest.h), the network alone with its
// leaves played from a ROM and checked against the model; cabled-network, cabled-leaf: the
// network split over boards (gen/cm5data/cm5data_cabled.h): a network board (--chip-id: the side),
// a leaf board with its interfaces or from a ROM (--chip-id: the leaf).
std::vector<std::string> Cm5DataFamily::build_modes() const {
  return {"host", "network", "cabled-network", "cabled-leaf", "cabled-rom-leaf"};
}

void Cm5DataFamily::add_commands(CLI::App& app) const { add_cabled_command(app); }

std::vector<std::string> Cm5DataFamily::figures() const {
  return {"accepted throughput vs offered load (uniform random, random permutation, nearest neighbour) on the "
          "model up to 16,384 leaves and the RTL at 64, beside the paper's performance model (worst arm load / arm "
          "bandwidth)",
          "the paper's figures at its link rate (20 MB/s): > 4 MB/s per node on random permutations, 15 MB/s "
          "nearest neighbour, latency 3-7 us",
          "model speed (flit-hops per second) and RTL speed (cycles per second)"};
}

void Cm5DataFamily::check(const NetworkConfig& cfg) const { (void)cm5data_config(cfg); }

std::string Cm5DataFamily::canonical_json(const NetworkConfig& cfg) const {
  return config_to_json(cm5data_config(cfg));
}

namespace {
// The board's leaf interfaces (the stream module, cm5data_ni) count credits per flit: a network
// whose chips count slots (Cm5DataParams::slots) is for the network's own figures, not the board.
void refuse_slots_on_board(const NetworkConfig& env, const Cm5DataConfig& cfg, const std::string& cmd) {
  if (cfg.cm5.slots != 0)
    throw ConfigError(env.where + ": cm5data: slots = " + std::to_string(cfg.cm5.slots) + " is not supported by " + cmd +
                      " (the board's network interfaces count credits per flit; use slots = 0 there, or build the self-test "
                      "top: --mode network)");
}
}  // namespace

GeneratedDesign Cm5DataFamily::emit(const NetworkConfig& cfg) const { return emit_cm5data(cm5data_config(cfg)); }

std::string Cm5DataFamily::summary(const NetworkConfig& cfg) const {
  const Cm5DataParams& p = cm5data_config(cfg).cm5;
  std::string per_level;
  for (int l = 1; l <= p.height; ++l)
    per_level += (l > 1 ? ", " : "") + std::to_string(p.chips_at(l)) + "x" + std::to_string(p.parents_at(l)) + "p";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "CM-5 data network: %u leaves, %u router chips (by level: %s), bisection %llu links (%.3f per leaf), "
                "link %d bits per direction, messages %d..%d bits (%d..%d flits), input buffers %d flits%s",
                p.leaves(), p.total_chips(), per_level.c_str(), static_cast<unsigned long long>(p.bisection_links()),
                static_cast<double>(p.bisection_links()) / (p.leaves() / 2.0), p.link_bits, p.message_bits(1),
                p.message_bits(p.max_words), p.message_flits(1), p.message_flits(p.max_words),
                p.slots ? p.slots * p.slot_flits() : p.buffer_flits(),
                p.slots ? (" (" + std::to_string(p.slots) + " message slots)").c_str() : "");
  std::string out = buf;
  for (size_t k = 0; k < p.partitions.size(); ++k)
    out += (k ? ", " : "; partitions: leaves ") + std::to_string(p.partition_base(k)) + ".." +
           std::to_string(p.partition_base(k) + p.partition_size(k) - 1);
  return out;
}

GeneratedDesign Cm5DataFamily::board_top(const NetworkConfig& env, const Board& b, const BuildArgs& a) const {
  const std::string mode = a.mode.empty() ? "host" : a.mode;
  if (mode == "network") {
    const Cm5DataConfig cfg = cm5data_config(env);
    const Cm5SelfTest t = a.traffic.empty()
                              ? cm5_selftest_traffic(cfg.cm5, a.pattern, a.pattern_seed, a.per_proc)
                              : cm5_selftest_of(cfg.cm5, read_cm5_traffic_file(a.traffic, cfg.cm5), a.traffic);
    return emit_cm5data_selftest(cfg, t, selftest_pins(b));
  }
  if (mode == "cabled-network" || mode == "cabled-leaf" || mode == "cabled-rom-leaf") {
    const Cm5DataConfig cfg = cm5data_config(env);
    Cm5CabledOptions o;
    o.bit_clocks = a.bit_clocks;
    o.interfaces = mode != "cabled-rom-leaf";
    o.board = a.chip_id;  // the side of a network board, the leaf of a leaf board
    const Cm5CabledTraffic t =
        a.traffic.empty() ? cm5_cabled_traffic(cfg.cm5, a.pattern, a.pattern_seed, a.per_proc)
                          : cm5_cabled_traffic_of(cfg.cm5, read_cm5_traffic_file(a.traffic, cfg.cm5), a.traffic);
    return emit_cm5data_cabled(cfg, t, selftest_pins(b),
                               mode == "cabled-network" ? Cm5CabledTop::kNetwork : Cm5CabledTop::kLeaf, o);
  }
  reject_option(*this, !a.traffic.empty(), "--traffic (the host board's traffic comes from cmnet run)");
  if (mode != "host")
    throw InputError("--mode " + mode +
                     ": unknown mode (allowed: host, network, cabled-network, cabled-leaf, cabled-rom-leaf)");
  HostBoardOptions h;
  h.clock_hz = static_cast<uint32_t>(b.clock_mhz * 1e6 + 0.5);
  h.reset_button = b.reset.has_value() && b.reset->active_low;
  refuse_slots_on_board(env, cm5data_config(env), "build");
  return emit_stream_board(cm5data_stream_spec(cm5data_config(env)), h);
}

int Cm5DataFamily::run(const NetworkConfig& env, const RunArgs& a) const {
  const Cm5DataConfig cfg = cm5data_config(env);
  const Cm5DataParams& p = cfg.cm5;
  refuse_slots_on_board(env, cfg, "run");
  reject_option(*this, !a.generator.empty(), "--generator");
  reject_option(*this, !a.mode.empty(), "--mode");
  const Cm5DataTraffic t = a.traffic.empty() ? make_cm5_pattern(a.pattern, p, a.seed, a.per_proc)
                                             : read_cm5_traffic_file(a.traffic, p);
  const StreamRunArgs s = stream_run_args(a);
  // A pattern: its messages as requests on the left network, a reply to each on the right, tag
  // masks at the odd leaves (the NIs' interrupts); a traffic file: its messages as written.
  const bool pattern = a.traffic.empty();
  const StreamRunOutcome o =
      run_cm5data_board(cfg, pattern ? cm5data_with_replies(t) : t,
                        pattern ? a.pattern + " requests (left), replies (right)" : a.traffic, s, stdout,
                        pattern ? cm5data_run_masks(p) : std::vector<uint16_t>{});
  return o.verdict.ok() ? 0 : 3;
}

std::unique_ptr<SimBoard> Cm5DataFamily::start_board(const NetworkConfig& env, const BoardArgs& args) const {
  const Cm5DataConfig cfg = cm5data_config(env);
  refuse_slots_on_board(env, cfg, "board");
  return start_stream_board(cm5data_stream_spec(cfg), args);
}

int Cm5DataFamily::sweep(const NetworkConfig& env, const SweepArgs& a) const {
  const Cm5DataConfig cfg = cm5data_config(env);
  refuse_slots_on_board(env, cfg, "sweep");
  if (!a.mode.empty()) throw InputError("sweep: --mode is CM-1's; the cm5data board takes --pattern and --max-per-proc");
  StreamRunArgs s = stream_run_args(a.board, a.out_dir, a.timeout_s, a.sim_link);
  return run_cm5data_sweep(cfg, a.pattern, a.seed, a.max_per_proc, s) ? 0 : 3;
}

namespace {

// The data words of a received message (between its head and CRC words).
std::vector<uint64_t> cm5_data_words(const std::vector<uint32_t>& w) {
  std::vector<uint64_t> a;
  for (size_t k = 1; k + 1 < w.size(); ++k) a.push_back(w[k]);
  return a;
}

}  // namespace

SimRecord cm5data_sim_record(size_t i, const Cm5DataMessage& m, const Cm5DataDelivery& d) {
  SimRecord r;
  r.id = i;
  SimEnd from{m.src, d.refused ? std::nullopt : std::optional<uint64_t>(d.sent), {}, {}, {}};
  from.words.assign(m.data.begin(), m.data.end());
  r.sent.push_back(from);
  r.dst = m.dst;
  r.extra["tag"] = m.tag;
  r.extra["lca_level"] = cm5_lca_level(m.src, m.dst);
  if (d.delivered) {
    r.arrived.push_back(SimEnd{d.at_leaf, d.arrived, cm5_data_words(d.words), {}, {}});
    r.delivered = d.at_leaf == m.dst;
    r.extra["crc_ok"] = d.crc_ok;
    if (!d.crc_ok) r.extra["crc"] = d.crc == Cm5Crc::secondary ? "secondary" : "primary";
    r.extra["copies"] = d.copies;
    if (d.ambiguous)
      r.ambiguous = "equal messages in flight together: which of them arrived here is a guess (the RTL's tagged "
                    "second run did not arrive at the same leaves and cycles)";
  } else if (d.refused) {
    r.extra["refused"] = "address error";  // from or to a leaf out of the address space or the sender's partition
  }
  return r;
}

int Cm5DataFamily::sim(const NetworkConfig& env, const SimArgs& a) const {
  const Cm5DataConfig cfg = cm5data_config(env);
  const Cm5DataParams& p = cfg.cm5;
  reject_option(*this, !a.mode.empty(), "--mode");
  if (a.pattern.empty() && a.traffic.empty()) throw InputError("sim: give --pattern NAME or --traffic FILE");
  check_trace(a.trace, a.engine);
  const Cm5DataTraffic t = a.traffic.empty() ? make_cm5_pattern(a.pattern, p, a.seed, a.per_proc)
                                         : read_cm5_traffic_file(a.traffic, p);
  Cm5DataRunResult r;
  const uint64_t max_cycles = 50000000;
  if (a.engine == "model") {
    Cm5DataModelOptions o;
    o.max_cycles = max_cycles;
    r = run_cm5data_model(p, t, o);
  } else if (a.engine == "rtl") {
    Cm5DataRtlOptions o;
    o.max_cycles = max_cycles;
    o.trace = a.trace;
    r = run_cm5data_rtl(cfg, t, o);
  } else {
    throw InputError("--engine " + a.engine + ": unknown engine (allowed: rtl, model)");
  }
  SimLinesWriter out(a.out);
  uint64_t crc_bad = 0, lat_sum = 0, arrived = 0;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataDelivery& d = r.deliveries[i];
    if (d.delivered) {
      ++arrived;
      crc_bad += d.crc_ok ? 0 : 1;
      lat_sum += d.arrived - d.sent;
    }
    out.write(cm5data_sim_record(i, t.messages[i], d));
  }
  uint64_t in = 0, outc = 0, primary = 0, secondary = 0;
  for (const auto& c : r.chips) {
    for (auto v : c.in) in += v;
    for (auto v : c.out) outc += v;
    primary += c.crc_primary;
    secondary += c.crc_secondary;
  }
  const uint64_t delivered = out.delivered();
  SimSummary s;
  s.family = "cm5data";
  s.engine = a.engine;
  s.time_unit = "cycles";
  s.completed = r.completed;
  s.extra = {{"leaves", p.leaves()},
             {"chips", p.total_chips()},
             {"messages", t.messages.size()},
             {"refused_address", r.refused},
             {"cycles", r.cycles},
             {"chip_crc_primary", primary},
             {"chip_crc_secondary", secondary},
             {"mean_latency", arrived ? static_cast<double>(lat_sum) / static_cast<double>(arrived) : 0.0},
             {"crc_errors", crc_bad},
             {"counter_messages_in", in},
             {"counter_messages_out", outc},
             {"seconds", r.seconds}};
  out.finish(s);
  std::printf("%s: %zu messages, %llu delivered, %llu refused (address errors), %llu cycles%s -> %s\n", a.engine.c_str(),
              t.messages.size(), static_cast<unsigned long long>(delivered), static_cast<unsigned long long>(r.refused),
              static_cast<unsigned long long>(r.cycles),
              r.completed ? "" : " (NOT completed)", a.out.c_str());
  return r.completed && crc_bad == 0 ? 0 : 3;
}

int Cm5DataFamily::bench(const BenchArgs& args) const { return cm5data_bench(args); }

std::vector<FpgaBlock> Cm5DataFamily::fpga_blocks() const {
  // The chip's links: 4 children and the parents, 4 bits each (W = 4, the CM-5's); its clock in
  // the paper is the data network's 40 MHz. The interface is an endpoint: no per-port figure.
  auto chip = [](const std::string& name, int parents, int slots, int stage) {
    FpgaBlock b;
    b.name = name;
    b.how = "cm5data_router alone (place_module_ice40), W = 4, 5-word messages";
    b.ports = 4 + parents;
    b.port_bits = 4;
    b.paper_mhz = 40;
    b.paper_clock = "Leiserson et al. 1992: the data network's 40 MHz clock, 4-bit links (20 MB/s)";
    b.measure = [parents, slots, stage](const FpgaRunOptions& o) {
      return measure_module(cm5data_router_placeable(parents, slots, stage), o);
    };
    return b;
  };
  FpgaBlock ni;
  ni.name = "network interface (cm5data_ni, 64 leaves)";
  ni.how = "cm5data_ni alone (place_module_ice40), W = 4, 5-word messages";
  ni.measure = [](const FpgaRunOptions& o) { return measure_module(cm5data_ni_placeable(), o); };
  // The 4-leaf network split over boards (gen/cm5data/cm5data_cabled.h), as `cmnet build` makes
  // them from gen/examples/cm5data_4_board.json: a network board and a leaf board with its NIs.
  auto split = [](const std::string& name, const std::string& mode) {
    FpgaBlock b;
    b.name = name;
    b.how = "cm5data_4_board.json --mode " + mode + " through the whole flow on the HX8K breakout (random, 2 per leaf)";
    b.measure = [mode](const FpgaRunOptions& o) {
      const NetworkConfig env = load_config_file(std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5data_4_board.json");
      const Board board = load_board("ice40hx8k_breakout");
      BuildArgs a;
      a.mode = mode;
      a.pattern = "random";
      a.per_proc = 2;
      return measure_board_top(Cm5DataFamily().board_top(env, board, a), board, mode,
                               config_to_json(cm5data_config(env)), o);
    };
    return b;
  };
  return {chip("chip, 2 parents, FIFO inputs", 2, 0, 0),
          chip("chip, 2 parents, FIFO inputs, requests registered (request_stage 1)", 2, 0, 1),
          chip("chip, 2 parents, 8 slots", 2, 8, 0),
          chip("chip, 2 parents, 8 slots, requests registered (request_stage 1)", 2, 8, 1), ni,
          split("split over boards: a network board (4 leaves, one chip)", "cabled-network"),
          split("split over boards: a leaf board with its two NIs", "cabled-leaf")};
}

}  // namespace cmnet

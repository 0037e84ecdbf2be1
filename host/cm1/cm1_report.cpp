#include "host/cm1/cm1_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gen/cm1/cm1_counter_list.h"
#include "host/svg_plot.h"
#include "sim/cm1/cm1_counters.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace cmnet {

// Per-link utilization over the hypercube as a heat map (rows: chips, columns: dimensions).
std::string cm1_utilization_svg(const Cm1Config& cfg, const std::vector<Cm1ChipCounters>& chips,
                            uint64_t bit_times) {
  const Cm1Params& p = cfg.cm1;
  plot::HeatMap h;
  h.title = cfg.name + ": utilization of every cube wire (c = " + std::to_string(p.cube_dims) + ", " +
            std::to_string(p.chips()) + " chips)";
  h.x_label = "cube dimension of the outgoing wire";
  h.y_label = "chip";
  h.value_label = "busy / run bit-times";
  for (int d = 0; d < p.cube_dims; ++d) h.col_labels.push_back(std::string("d").append(std::to_string(d)));
  for (int n = 0; n < p.chips(); ++n) {
    h.row_labels.push_back(std::to_string(n));
    std::vector<double> row;
    for (int d = 0; d < p.cube_dims; ++d)
      row.push_back(bit_times ? static_cast<double>(chips[static_cast<size_t>(n)].dim_busy[static_cast<size_t>(d)]) /
                                    static_cast<double>(bit_times)
                              : 0.0);
    h.values.push_back(row);
  }
  return plot::heat_map(h);
}

// Wire utilization per dimension, over every chip.
std::string cm1_dimensions_svg(const Cm1Config& cfg, const std::vector<Cm1ChipCounters>& chips, uint64_t bit_times) {
  const Cm1Params& p = cfg.cm1;
  plot::BarChart c;
  c.title = cfg.name + ": wire utilization per cube dimension";
  c.x_label = "cube dimension";
  c.y_label = "utilization (%)";
  c.value_format = "%.1f%%";
  for (int d = 0; d < p.cube_dims; ++d) {
    uint64_t busy = 0;
    for (const auto& ch : chips) busy += ch.dim_busy[static_cast<size_t>(d)];
    c.categories.push_back(std::string("d").append(std::to_string(d)));
    c.values.push_back(bit_times ? 100.0 * static_cast<double>(busy) / (static_cast<double>(bit_times) * p.chips()) : 0.0);
  }
  return plot::bar_chart(c);
}

std::string cm1_histogram_svg(const Cm1Config& cfg, const std::array<uint32_t, 16>& h) {
  plot::BarChart c;
  c.title = cfg.name + ": receptions per delivery petit cycle";
  c.x_label = "delivery petit cycle (15: 15 or later)";
  c.y_label = "receptions";
  c.value_format = "%.0f";
  for (size_t k = 0; k < h.size(); ++k) {
    c.categories.push_back(k + 1 == h.size() ? ">=15" : std::to_string(k));
    c.values.push_back(h[k]);
  }
  c.color = "darkorange";
  return plot::bar_chart(c);
}

RunReport cm1_run_report(const Cm1Config& cfg, const Cm1RunDescription& d, const BoardRun& r) {
  const Cm1Params& p = cfg.cm1;
  const auto& st = r.st;
  const auto& chips = r.chips;
  const auto& hist = r.hist;
  const auto& model = r.model;
  const auto& tot = r.tot;
  const uint64_t bit_times = r.bit_times;
  auto u64 = [](uint64_t v) { return std::to_string(v); };

  RunReport rep;
  rep.title = d.what + " on " + d.uri;
  rep.about.push_back("network: " + std::to_string(p.chips()) + " chips x " + std::to_string(p.procs_per_chip) +
                      " processors, l = " + std::to_string(p.msg_len()) + ", ejector mode '" + to_string(d.mode) + "'");
  uint64_t model_receptions = 0;
  for (const auto& x : r.want_rx) model_receptions += x.count;
  rep.rows = {{"petit cycles", u64(st.petit), u64(model.petit_cycles), true},
              {"messages injected", u64(tot.injected), u64(d.messages), true},
              {"messages delivered", u64(tot.delivered), u64(model.deliveries.size()), true},
              {"receptions", u64(r.received), u64(model_receptions), true},
              {"desperation-routed", u64(tot.desperation), u64(model.desperation), true},
              {"parity errors", u64(tot.parity_errors), "0", true},
              {"bit-times", u64(bit_times), "", false},
              {"wire utilization", fmt::format("{:.1f}%", r.util * 100), "", false}};
  // The second view, sharing no code with the model: what the paper promises of the tallies.
  rep.rows.push_back(second_view_row("receptions by the paper's view (sim/cm1/oracle)", r.oracle, "agree"));
  rep.notes.push_back(fmt::format(
      "offered load: {} messages at once (SIMD delivery cycle); accepted: {} in {} petit cycles = {:.2f} messages/chip/petit",
      d.messages, tot.delivered, st.petit,
      st.petit ? static_cast<double>(tot.delivered) / st.petit / p.chips() : 0.0));
  // Percentiles from the board's histogram (bin 15 holds 15 and later).
  auto percentile = [&](double q) -> std::string {
    uint64_t total = 0, seen = 0;
    for (uint32_t h : hist) total += h;
    if (total == 0) return "-";
    for (size_t k = 0; k < hist.size(); ++k) {
      seen += hist[k];
      if (static_cast<double>(seen) >= q * static_cast<double>(total))
        return (k == hist.size() - 1 ? ">=" : "") + std::to_string(k);
    }
    return "-";
  };
  rep.notes.push_back(fmt::format("delivery petit cycle: mean {:.2f}, p50 {}, p90 {}, p99 {}; histogram: {}", r.mean_petit,
                                  percentile(0.5), percentile(0.9), percentile(0.99), fmt::join(hist, " ")));
  rep.notes.push_back(fmt::format("per dimension busy bit-times: {}", fmt::join(tot.dim_busy, " ")));
  // CM-1 counts per chip but messages cross chips: the regions are the endpoint queues (loaded ->
  // injected into the routers) and the network (injected -> delivered). The run has ended, so
  // nothing is in flight; the board's status flags say whether anything was left behind.
  rep.regions = {{"endpoint queues", d.messages, tot.injected, 0},
                 {"network", tot.injected, tot.delivered, 0}};
  rep.agreement_scope = "counters of every chip, receptions and latency histogram of every processor; the receptions by the paper's view too";
  rep.mismatches = r.counter_mismatch + r.rx_mismatch + r.ep_hist_mismatch + (st.hist_overrun ? 1 : 0) +
                   (st.pending || st.buffered ? 1 : 0);
  rep.mismatch_detail = fmt::format("{} chips, {} processors' checks, {} processors' histograms differ{}{}",
                                    r.counter_mismatch, r.rx_mismatch, r.ep_hist_mismatch,
                                    st.hist_overrun ? "; a histogram overran" : "",
                                    st.pending || st.buffered ? "; messages left in the board" : "");
  rep.after.push_back(fmt::format("host time: load {:.3f} s, run and poll {:.3f} s", r.load_s, r.run_s) + d.link_stats);

  rep.json["family"] = "cm1";
  rep.json["board"] = d.uri;
  rep.json["config"] = config_to_json(cfg);
  rep.json["pattern"] = d.what;
  rep.json["seed"] = d.seed;
  rep.json["eject_mode"] = to_string(d.mode);
  rep.json["messages"] = d.messages;
  rep.json["petit_cycles"] = st.petit;
  rep.json["model_petit_cycles"] = model.petit_cycles;
  rep.json["bit_times"] = bit_times;
  rep.json["injected"] = tot.injected;
  rep.json["delivered"] = tot.delivered;
  rep.json["receptions"] = r.received;
  rep.json["desperation"] = tot.desperation;
  rep.json["parity_errors"] = tot.parity_errors;
  rep.json["wire_utilization"] = r.util;
  rep.json["dim_busy"] = tot.dim_busy;
  rep.json["delivery_histogram"] = hist;
  rep.json["load_seconds"] = r.load_s;
  rep.json["run_seconds"] = r.run_s;

  ReportTable links{"links.csv", {"chip", "dim", "to_chip", "busy_bit_times", "utilization"}, {}};
  for (int n = 0; n < p.chips(); ++n)
    for (int d = 0; d < p.cube_dims; ++d) {
      const uint64_t b = chips[static_cast<size_t>(n)].dim_busy[static_cast<size_t>(d)];
      links.rows.push_back({std::to_string(n), std::to_string(d), std::to_string(n ^ (1 << d)), u64(b),
                            fmt::format("{}", bit_times ? static_cast<double>(b) / static_cast<double>(bit_times) : 0.0)});
    }
  // Every chip's counters but the per-wire ones (links.csv has those), found by name.
  ReportTable chip_table{"chips.csv", {"chip"}, {}};
  for (std::string_view name : kCm1FixedCounters) chip_table.columns.emplace_back(name);
  for (int n = 0; n < p.chips(); ++n) {
    std::vector<std::string> row = {std::to_string(n)};
    for (std::string_view name : kCm1FixedCounters)
      row.push_back(u64(cm1_counter(chips[static_cast<size_t>(n)], std::string(name))));
    chip_table.rows.push_back(row);
  }
  // Per endpoint: what the board counted beside what the model implies.
  ReportTable eps{"endpoints.csv",
                  {"processor", "injected", "receptions", "rx_xor", "petit_sum", "mean_delivery_petit", "model_injected",
                   "model_receptions", "model_rx_xor", "model_petit_sum", "agrees"},
                  {}};
  for (size_t g = 0; g < r.rx.size(); ++g) {
    const auto& x = r.rx[g];
    const auto& m = r.want_rx[g];
    eps.rows.push_back({std::to_string(g), u64(x.injected), u64(x.count), fmt::format("0x{:08x}", x.xor_word),
                        u64(x.petit_sum), fmt::format("{}", x.count ? static_cast<double>(x.petit_sum) / x.count : 0.0),
                        u64(m.injected), u64(m.count), fmt::format("0x{:08x}", m.xor_word), u64(m.petit_sum),
                        x == m ? "1" : "0"});
  }
  ReportTable lat{"endpoint_latency.csv", {"processor"}, {}};
  for (int k = 0; k < 16; ++k) lat.columns.push_back("petit_" + std::to_string(k) + (k == 15 ? "_or_later" : ""));
  lat.columns.push_back("agrees");
  for (size_t g = 0; g < r.ep_hist.size(); ++g) {
    std::vector<std::string> row = {std::to_string(g)};
    for (uint32_t h : r.ep_hist[g]) row.push_back(std::to_string(h));
    row.push_back(r.ep_hist[g] == r.want_ep_hist[g] ? "1" : "0");
    lat.rows.push_back(row);
  }
  rep.tables = {links, chip_table, eps, lat};
  rep.plots = {{"utilization.svg", cm1_utilization_svg(cfg, chips, bit_times)},
               {"dimensions.svg", cm1_dimensions_svg(cfg, chips, bit_times)},
               {"histogram.svg", cm1_histogram_svg(cfg, hist)}};
  return rep;
}

bool run_cm1_sweep(const Cm1Config& cfg, Connection& conn, const Cm1SweepOptions& a) {
  using json = nlohmann::ordered_json;
  const int max_per_proc = a.max_per_proc;
  const Cm1Params& p = cfg.cm1;
  const EjectMode mode = a.mode;
  const int top = std::min(max_per_proc, conn.board->info().queue_depth);
  json rows = json::array();
  std::printf("\n== cmnet sweep: %s, %d chips x %d processors, ejector mode '%s'\n", a.pattern.c_str(),
              p.chips(), p.procs_per_chip, to_string(mode));
  std::printf("   %8s %9s %7s %14s %12s %9s %7s\n", "offered", "messages", "petit", "msgs/chip/petit",
              "mean petit", "wire use", "model");
  bool all_agree = true;
  std::vector<std::pair<double, double>> thr, lat, model_thr, model_lat;
  // Delivered messages per chip per petit cycle.
  auto throughput = [&](uint64_t delivered, uint64_t petit) {
    return petit ? static_cast<double>(delivered) / static_cast<double>(petit) / p.chips() : 0.0;
  };
  for (int v = 1; v <= top; ++v) {
    const Traffic t = make_pattern(a.pattern, p, a.seed + static_cast<uint64_t>(v), v);
    const BoardRun r = execute(*conn.board, p, t, mode, a.timeout_s, conn.uri);
    const double tput = throughput(r.tot.delivered, r.st.petit);
    std::printf("   %8d %9zu %7u %14.3f %12.2f %8.1f%% %7s\n", v, t.messages.size(), r.st.petit, tput,
                r.mean_petit, r.util * 100, r.agree ? "agrees" : "DIFFERS");
    all_agree = all_agree && r.agree && r.conserved;
    thr.emplace_back(v, tput);
    lat.emplace_back(v, r.mean_petit);
    model_thr.emplace_back(v, throughput(cm1_totals(p, r.model.chips).delivered, r.model.petit_cycles));
    model_lat.emplace_back(v, r.model_mean_petit);
    rows.push_back({{"messages_per_processor", v}, {"messages", t.messages.size()},
                    {"petit_cycles", r.st.petit}, {"throughput_msgs_per_chip_per_petit", tput},
                    {"mean_delivery_petit", r.mean_petit}, {"wire_utilization", r.util},
                    {"model_throughput_msgs_per_chip_per_petit", model_thr.back().second},
                    {"model_mean_delivery_petit", r.model_mean_petit},
                    {"agrees_with_model", r.agree}});
  }
  namespace fs = std::filesystem;
  fs::create_directories(a.out_dir);
  json j;
  j["board"] = conn.uri;
  j["pattern"] = a.pattern;
  j["eject_mode"] = to_string(mode);
  j["points"] = rows;
  std::ofstream(a.out_dir + "/sweep.json") << j.dump(2) << "\n";
  // Throughput and delivery time against offered load: two charts (different units), each the
  // board's curve and the model's, dashed over it (they coincide when the board agrees).
  const std::string board_name =
      "board (agrees with the model at every point: " + std::string(all_agree ? "yes" : "NO") + ")";
  plot::LineChart tc;
  tc.title = cfg.name + ": accepted throughput, " + a.pattern + ", ejector '" + to_string(mode) + "'";
  tc.x_label = "offered load (messages per processor)";
  tc.y_label = "throughput (messages / chip / petit cycle)";
  tc.series = {{board_name, thr, ""}, {"reference model", model_thr, plot::kModelColor, plot::kModelDash}};
  plot::LineChart lc;
  lc.title = cfg.name + ": mean delivery time, " + a.pattern;
  lc.x_label = tc.x_label;
  lc.y_label = "mean delivery petit cycle";
  lc.series = {{board_name, lat, ""}, {"reference model", model_lat, plot::kModelColor, plot::kModelDash}};
  std::ofstream(a.out_dir + "/sweep_latency.svg") << plot::line_chart(lc);
  std::ofstream(a.out_dir + "/sweep.svg") << plot::line_chart(tc);
  std::printf("   wrote %s/{sweep.json,sweep.svg,sweep_latency.svg}\n", a.out_dir.c_str());
  return all_agree;
}

}  // namespace cmnet

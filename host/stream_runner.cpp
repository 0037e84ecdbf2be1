#include "host/stream_runner.h"

#include <filesystem>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "gen/core/errors.h"
#include "gen/core/progress.h"
#include "host/board_client.h"
#include "host/errors.h"
#include "host/svg_plot.h"
#include "sim/core/sim_board.h"

namespace cmnet {

std::unique_ptr<SimBoard> start_stream_sim_board(const StreamBoardSpec& spec, const StreamRunArgs& a) {
  return std::make_unique<SimBoard>(emit_stream_board(spec, a.sim), a.sim, a.trace, spec.info.family + "board",
                                    a.sim_port);
}

StreamConnection::StreamConnection(const StreamBoardSpec& spec, const StreamRunArgs& a) {
  BoardSource src;
  src.uri = a.board;
  src.rtl_dir = a.rtl;
  src.top = spec.info.family + "_host_board";
  src.trace = a.trace;
  src.start = [&] { return start_stream_sim_board(spec, a); };
  src.reply_timeout_s = a.reply_timeout_s;
  static_cast<BoardConnection&>(*this) = connect_board_source(src);
  board = std::make_unique<StreamBoard>(*port);
  const StreamInfo& info = board->info();
  if (info.family != spec.info.family)
    throw InputError(uri + ": the board runs the " + info.family + " family, not " + spec.info.family);
  const uint32_t want_id = config_hash(spec.canonical_json);
  if (board->header().config_id != want_id)
    throw InputError(uri + ": the board's CONFIG_ID " + verilog_hex32(board->header().config_id).substr(4) +
                     " is not this config's " + verilog_hex32(want_id).substr(4) + " (" + info.name +
                     " on the board; rebuild it from this config)");
}

StreamConnection::~StreamConnection() = default;

StreamRunOutcome run_stream_workload(const StreamBoardSpec& spec, const StreamWorkload& w, const StreamRunArgs& a,
                                     std::FILE* out) {
  StreamConnection conn(spec, a);
  StreamRunOutcome o = run_stream_workload(conn, w, a.out_dir, a.timeout_s, out);
  if (conn.sim) conn.sim->stop();  // the harness closes its waveform on the way out
  return o;
}

StreamRunOutcome run_stream_workload(StreamConnection& conn, const StreamWorkload& w, const std::string& out_dir,
                                     double timeout_s, std::FILE* out) {
  StreamRunOutcome o;
  o.uri = conn.uri;
  StreamBoard& board = *conn.board;
  const StreamInfo& info = board.info();
  StreamRunOptions ro;
  ro.timeout_s = timeout_s;
  ro.load_before_run = w.load_before_run;
  ro.pull = w.pull;
  Progress progress("run " + w.name + " on " + o.uri);
  const size_t total = w.units.size();
  ro.progress = [&](size_t sent, size_t got) {
    progress.update(std::to_string(sent) + (w.pull ? std::string() : " of " + std::to_string(total)) + " units sent, " +
                    std::to_string(got) +
                    " delivered");
  };
  o.result = run_units(board, w.units, w.expect_units, ro);
  progress.done(std::to_string(o.result.delivered.size()) + " units delivered in " +
                std::to_string(o.result.cycles) + " cycles");

  RunReport r;
  r.title = w.name + " on " + o.uri;
  std::string params;
  for (const auto& [k, v] : info.params) params += " " + k + "=" + v;
  r.about.push_back(info.family + " " + info.name + ": " + std::to_string(info.leaves) + " leaves," + params);
  r.rows.push_back({"units sent", std::to_string(o.result.sent), "", false});
  r.rows.push_back({"units delivered", std::to_string(o.result.delivered.size()),
                    w.expect_units ? std::to_string(w.expect_units) : "", w.expect_units != 0});
  r.rows.push_back({"active cycles", std::to_string(o.result.cycles), "", false});
  r.regions = board.regions(o.result.counters);
  r.agreement_scope = "the family's comparison with its model";
  ReportTable t;
  t.file = "counters.csv";
  t.columns = {"counter", "kind", "region", "value"};
  for (const CounterReading& c : o.result.counters)
    t.rows.push_back({c.counter.name, counter_kind_name(c.counter.kind), info.regions.at(c.counter.region),
                      std::to_string(c.value)});
  r.tables.push_back(t);
  r.json["family"] = info.family;
  r.json["config"] = info.name;
  r.json["board"] = o.uri;
  r.json["units_sent"] = o.result.sent;
  r.json["units_delivered"] = o.result.delivered.size();
  r.json["cycles"] = o.result.cycles;
  nlohmann::ordered_json cj = nlohmann::ordered_json::object();
  for (const CounterReading& c : o.result.counters) cj[c.counter.name] = c.value;
  r.json["counters"] = cj;
  if (w.compare) w.compare(o.result, r);
  std::string after = fmt::format("host time {:.3f} s", o.result.host_seconds);
  if (const auto* client = dynamic_cast<const BoardClient*>(conn.port.get()))
    after += fmt::format("; link: {} requests, {} retries", client->stats().requests, client->stats().retries);
  r.after.push_back(after);
  o.verdict = write_run_report(r, out_dir, out);
  return o;
}

bool run_stream_sweep(StreamConnection& conn, const StreamSweep& sw, const std::string& out_dir, double timeout_s,
                      std::FILE* out) {
  namespace fs = std::filesystem;
  fs::create_directories(out_dir);
  std::fprintf(out, "\n== cmnet sweep: %s on %s\n", sw.title.c_str(), conn.uri.c_str());
  std::fprintf(out, "   %12s %12s %12s %9s %12s %s\n", "offered", "accepted", "model", "units", "cycles", "agrees");
  bool all = true;
  std::vector<std::pair<double, double>> board_pts, model_pts;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  std::string csv = "offered,accepted,model_accepted,units,cycles,agrees,conserved\n";
  for (double x : sw.offered) {
    const StreamWorkload w = sw.workload(x);
    StreamRunOptions ro;
    ro.timeout_s = timeout_s;
    ro.load_before_run = w.load_before_run;
    ro.pull = w.pull;
    const StreamRunResult r = run_units(*conn.board, w.units, w.expect_units, ro);
    const StreamSweepMeasure m = sw.measure(x, r);
    const bool conserved = check_conservation(conn.board->regions(r.counters)).ok;
    const bool ok = m.agrees && conserved;
    all = all && ok;
    std::fprintf(out, "   %12.4g %12.4g %12.4g %9zu %12llu %s\n", x, m.accepted, m.model_accepted, r.delivered.size(),
                 static_cast<unsigned long long>(r.cycles), ok ? "yes" : (conserved ? "NO" : "NO (not conserved)"));
    std::fflush(out);
    board_pts.emplace_back(x, m.accepted);
    model_pts.emplace_back(x, m.model_accepted);
    points.push_back({{"offered", x}, {"accepted", m.accepted}, {"model_accepted", m.model_accepted},
                      {"units", r.delivered.size()}, {"cycles", r.cycles}, {"agrees", m.agrees}, {"conserved", conserved}});
    csv += fmt::format("{},{},{},{},{},{},{}\n", x, m.accepted, m.model_accepted, r.delivered.size(), r.cycles,
                       m.agrees ? 1 : 0, conserved ? 1 : 0);
  }
  nlohmann::ordered_json j;
  j["title"] = sw.title;
  j["board"] = conn.uri;
  j["x"] = sw.x_label;
  j["y"] = sw.y_label;
  j["points"] = points;
  j["all_agree"] = all;
  std::ofstream(out_dir + "/sweep.json") << j.dump(2) << "\n";
  std::ofstream(out_dir + "/sweep.csv") << csv;
  plot::LineChart c;
  c.title = sw.title + ": accepted against offered load";
  c.x_label = sw.x_label;
  c.y_label = sw.y_label;
  c.series = {{"board (every point agrees with the model: " + std::string(all ? "yes" : "NO") + ")", board_pts, ""},
              {"reference model", model_pts, plot::kModelColor, plot::kModelDash}};
  std::ofstream(out_dir + "/sweep.svg") << plot::line_chart(c);
  std::fprintf(out, "   wrote %s/{sweep.json,sweep.csv,sweep.svg}\n", out_dir.c_str());
  return all;
}

StreamRunArgs stream_run_args(const std::string& board, const std::string& out_dir, double timeout_s,
                              const std::string& sim_link) {
  StreamRunArgs s;
  s.board = board;
  s.out_dir = out_dir;
  s.timeout_s = timeout_s;
  s.sim.phy = parse_sim_link(sim_link);
  return s;
}

}  // namespace cmnet

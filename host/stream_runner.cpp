#include "host/stream_runner.h"

#include <memory>

#include "gen/core/errors.h"
#include "gen/core/progress.h"
#include "host/board_client.h"
#include "host/errors.h"
#include "sim/core/sim_board.h"

namespace cmnet {

StreamRunOutcome run_stream_workload(const StreamBoardSpec& spec, const StreamWorkload& w, const StreamRunArgs& a,
                                     std::FILE* out) {
  StreamRunOutcome o;
  std::unique_ptr<SimBoard> sim;
  if (a.board.empty()) {
    sim = std::make_unique<SimBoard>(emit_stream_board(spec, a.sim), a.sim, a.trace, spec.info.family + "board");
    o.uri = sim->uri();
  } else {
    o.uri = a.board;
  }
  std::unique_ptr<RegisterPort> port = open_register_port(o.uri);
  StreamBoard board(*port);
  const StreamInfo& info = board.info();
  if (info.family != spec.info.family)
    throw InputError(o.uri + ": the board runs the " + info.family + " family, not " + spec.info.family);
  const uint32_t want_id = config_hash(spec.canonical_json);
  if (board.header().config_id != want_id)
    throw InputError(o.uri + ": the board's CONFIG_ID " + verilog_hex32(board.header().config_id).substr(4) +
                     " is not this config's " + verilog_hex32(want_id).substr(4) + " (" + info.name +
                     " on the board; rebuild it from this config)");

  StreamRunOptions ro;
  ro.timeout_s = a.timeout_s;
  ro.load_before_run = w.load_before_run;
  Progress progress("run " + w.name + " on " + o.uri);
  const size_t total = w.units.size();
  ro.progress = [&](size_t sent, size_t got) {
    progress.update(std::to_string(sent) + " of " + std::to_string(total) + " units sent, " + std::to_string(got) +
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
  r.rows.push_back({"units sent", std::to_string(total), "", false});
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
  r.json["units_sent"] = total;
  r.json["units_delivered"] = o.result.delivered.size();
  r.json["cycles"] = o.result.cycles;
  nlohmann::ordered_json cj = nlohmann::ordered_json::object();
  for (const CounterReading& c : o.result.counters) cj[c.counter.name] = c.value;
  r.json["counters"] = cj;
  if (w.compare) w.compare(o.result, r);
  r.after.push_back("host time " + std::to_string(o.result.host_seconds) + " s");
  o.verdict = write_run_report(r, a.out_dir, out);
  return o;
}

}  // namespace cmnet

// `cmnet run` for every family on the stream board: connect (a board URI, or a freshly started
// simulated board of the family's board top), check the board runs this config, load the
// workload's units, drain the deliveries, read every counter back, check conservation per
// region, let the family compare with its model, and write the shared run report (text table,
// run.json, counters.csv). A family's runner supplies only its units and its comparison.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gen/core/stream_board.h"
#include "host/run_report.h"
#include "host/board_connection.h"
#include "host/stream_board.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

struct StreamWorkload {
  std::string name;                  // the pattern or traffic file, for the title
  std::vector<StreamUnit> units;
  size_t expect_units = 0;           // units the leaves should deliver (0: wait for idle only)
  bool load_before_run = false;
  // The family's comparison with its model: adds rows (compared ones count in the verdict),
  // notes, tables, plots and JSON fields, and counts mismatches in `report.mismatches`.
  std::function<void(const StreamRunResult& board, RunReport& report)> compare;
  // Units given one at a time by what the board answers (StreamRunOptions::pull), instead of `units`.
  std::function<int(const std::vector<StreamUnit>& delivered, StreamUnit& next)> pull;
};

struct StreamRunArgs {
  std::string board;                 // URI; "" = start the simulated board
  std::string rtl;                   // a `cmnet build --mode host` directory to simulate instead
  std::string out_dir = "out/run";
  double timeout_s = 300;
  HostBoardOptions sim;              // the simulated board's options (PHY, clock)
  // How long one reply may take. A simulated board answers only between batches of cycles, and
  // a large network's batch takes wall time: its default is longer than a real board's.
  double reply_timeout_s = 0;        // 0: 3 s for a board, 30 s for the simulated board
  TraceWindow trace;                 // its FST waveform
  uint16_t sim_port = 0;             // its TCP port on 127.0.0.1 (0: any free one)
};

// The options every `run` and `sweep` shares, as the stream runner takes them.
StreamRunArgs stream_run_args(const std::string& board, const std::string& out_dir, double timeout_s,
                              const std::string& sim_link);

struct StreamRunOutcome {
  StreamRunResult result;
  ReportVerdict verdict;
  std::string uri;
};

class SimBoard;
// The simulated board of `spec` that a run without a board URI starts (args.sim, trace,
// sim_port); `cmnet board` serves it alone.
std::unique_ptr<SimBoard> start_stream_sim_board(const StreamBoardSpec& spec, const StreamRunArgs& args);

// A connected stream board of `spec`: the board at args.board, or a simulated board started
// for it (stopped on destruction). Throws HostError / InputError for a board that is not this
// config's (another family, another CONFIG_ID) or a link that fails.
struct StreamConnection : BoardConnection {
  StreamConnection(const StreamBoardSpec& spec, const StreamRunArgs& args);
  ~StreamConnection();
  StreamConnection(const StreamConnection&) = delete;
  StreamConnection& operator=(const StreamConnection&) = delete;
  std::unique_ptr<StreamBoard> board;
};

// Runs `w` on the connected board: the report goes to `out` and `out_dir`.
StreamRunOutcome run_stream_workload(StreamConnection& conn, const StreamWorkload& w, const std::string& out_dir,
                                     double timeout_s, std::FILE* out = stdout);
// The same on a fresh connection (cmnet run).
StreamRunOutcome run_stream_workload(const StreamBoardSpec& spec, const StreamWorkload& w, const StreamRunArgs& a,
                                     std::FILE* out = stdout);

// `cmnet sweep` for every family: one workload per offered load on one board, each measured by
// the family on the board's result and on its model, as a table, sweep.json, sweep.csv and
// sweep.svg (accepted against offered load, board and model). True when every point agrees with
// the model and conserves.
struct StreamSweepMeasure {
  double accepted = 0;        // the board's accepted load (the family's unit)
  double model_accepted = 0;  // the model's for the same workload
  bool agrees = false;        // the family's board-versus-model check of this point
};
struct StreamSweep {
  std::string title;          // "cm5data-16: random traffic"
  std::string x_label = "offered load", y_label = "accepted load";
  std::vector<double> offered;
  std::function<StreamWorkload(double offered)> workload;
  std::function<StreamSweepMeasure(double offered, const StreamRunResult& board)> measure;
};
bool run_stream_sweep(StreamConnection& conn, const StreamSweep& sweep, const std::string& out_dir, double timeout_s,
                      std::FILE* out = stdout);

}  // namespace cmnet

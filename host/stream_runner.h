// `cmnet run` for every family on the stream board: connect (a board URI, or a freshly started
// simulated board of the family's board top), check the board runs this config, load the
// workload's units, drain the deliveries, read every counter back, check conservation per
// region, let the family compare with its model, and write the shared run report (text table,
// run.json, counters.csv). A family's runner supplies only its units and its comparison.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gen/core/stream_board.h"
#include "host/run_report.h"
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
};

struct StreamRunArgs {
  std::string board;                 // URI; "" = start the simulated board
  std::string out_dir = "out/run";
  double timeout_s = 300;
  HostBoardOptions sim;              // the simulated board's options (PHY, clock)
  TraceWindow trace;                 // its FST waveform
};

struct StreamRunOutcome {
  StreamRunResult result;
  ReportVerdict verdict;
  std::string uri;
};

// Runs `w` on the board of `spec`. Throws HostError / InputError for a board that is not this
// config's (another family, another CONFIG_ID) or a link that fails.
StreamRunOutcome run_stream_workload(const StreamBoardSpec& spec, const StreamWorkload& w, const StreamRunArgs& a,
                                     std::FILE* out = stdout);

}  // namespace cmnet
